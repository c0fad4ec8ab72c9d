// Bundles the extension host code, the CLI, the webview and the tokenizer encodings.
// - dist/extension.js: cjs for Node, `vscode` external (VS Code provides it).
// - dist/cli-main.js: the CLI, cjs for Node; the MCP SDK of `specialist-handoff mcp` is in
//   dist/vendor/mcp-sdk.js (VENDOR), required only by that command, so the others neither
//   evaluate nor compile it.
// - dist/cli.js: the `specialist-handoff` bin (src/cli/launch.ts): switches on Node's module
//   compile cache where Node has it, starts the tokenizer's worker thread for a command that
//   counts tokens, then loads dist/cli-main.js.
// - dist/webview/main.js: the panel script, for the browser (zod/mini only: see webviewZodMini);
//   dist/webview/insights.js the same for the "Handoff Insights" view.
// - dist/tokenizers/<encoding>.js: each gpt-tokenizer encoding in its own file, loaded
//   on first use only (the rank tables are megabytes; activation must not parse them), its
//   rank table beside it as <encoding>.ranks.json (rankTables).
// - dist/vendor/mvdan-sh.js: the shell parser (mvdan-sh, 1.3 MB of GopherJS output), in its
//   own file for the same reason: src/core/session/shellWords.ts requires it on first use, and
//   the extension and the CLI no longer carry (and parse) it as they load (issue 19).
//   dist/webview/codicon.{css,ttf}: the codicon font of @vscode/codicons, copied as is
//   (the panel's icons; the webview may load fonts only from its own resource roots).
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const production = !process.argv.includes('--dev');

/**
 * Libraries the extension and the CLI load on first use only (a dynamic `import()` or a lazy
 * `require` in src/), each built into its own file dist/vendor/<file>.js (vendorBuild), so
 * the bundles neither carry nor parse them as they load (issue 19; sizes as esbuild's
 * metafile counts them in dist/extension.js before this: secretlint core + preset 74 KB,
 * simple-git 59 KB, stream-json + stream-chain 38 KB, proper-lockfile with graceful-fs,
 * retry and signal-exit 22 KB, mvdan-sh 1.3 MB).
 * - mvdan-sh: src/core/session/shellWords.ts (require on first parse);
 * - secretlint: src/core/safety/secretlintRules.ts (import() on first redaction). Its
 *   profiler is a singleton core marks with and we switch off: the core file requires the
 *   profiler file, so there is one copy (vendorBuild marks the other vendor libraries
 *   external there too);
 * - stream-json, stream-chain: src/evidence/session/jsonStream.ts (import() on first read),
 *   its bare tokenizer: src/evidence/session/jsonLinesFormat.ts (import() on the first record
 *   longer than detection keeps);
 * - proper-lockfile: src/store/fileLock.ts (import() on first lock);
 * - simple-git: src/evidence/git/collectGit.ts gitClient (require on first git command);
 * - node-sqlite3-wasm: src/evidence/session/readers/sqliteFile.ts (require on the first SQLite
 *   store read where Node has no node:sqlite); its WebAssembly file is copied beside it
 *   (sqliteWasm), where its script looks for it;
 * - fzstd: src/evidence/session/readers/zedDb.ts (require on the first zstd thread where Node's
 *   zlib has no zstd);
 * - yaml: src/core/handoff/yamlLibrary.ts (require on the first frontmatter read or written;
 *   112 KB of dist/extension.js);
 * - the MCP SDK (server, stdio line helpers, types; with the libraries only it uses: ajv,
 *   ajv-formats, fast-uri, zod-to-json-schema, ~175 KB of the CLI bundle's 915 KB): the
 *   `mcp` command only (src/cli/mcp.ts requires src/mcp/server.ts when it runs). Its three
 *   modules share one file, dist/vendor/mcp-sdk.js (see vendorEntries). That file carries
 *   its own copy of zod (the SDK validates with it; src/mcp/server.ts hands it two schemas
 *   of ours, which zod checks by its traits, not by class). Every other command compiled the
 *   SDK as it loaded: V8 compiled the 755 KB bundle without it in 30-43 ms, with it 39-50 ms.
 */
export const VENDOR = {
  'mvdan-sh': 'mvdan-sh',
  '@secretlint/core': 'secretlint-core',
  '@secretlint/secretlint-rule-preset-recommend': 'secretlint-preset-recommend',
  '@secretlint/profiler': 'secretlint-profiler',
  'stream-json': 'stream-json',
  'stream-json/streamers/stream-array.js': 'stream-json-stream-array',
  'stream-json/filters/pick.js': 'stream-json-pick',
  'stream-json/streamers/stream-values.js': 'stream-json-stream-values',
  'stream-json/core/parser.js': 'stream-json-tokenizer',
  'stream-chain': 'stream-chain',
  'proper-lockfile': 'proper-lockfile',
  'simple-git': 'simple-git',
  yaml: 'yaml',
  'node-sqlite3-wasm': 'node-sqlite3-wasm',
  fzstd: 'fzstd',
  '@modelcontextprotocol/sdk/server/index.js': 'mcp-sdk',
  '@modelcontextprotocol/sdk/shared/stdio.js': 'mcp-sdk',
  '@modelcontextprotocol/sdk/types.js': 'mcp-sdk',
};
const vendorFilter = new RegExp(
  `^(${Object.keys(VENDOR)
    .map((k) => k.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('|')})$`,
);

/**
 * The {@link VENDOR} libraries dist/cli-main.js carries itself instead of requiring their
 * dist/vendor/ file: the ones every handover and hook loads (git, the secret scan, the file
 * lock, the frontmatter's YAML), so the CLI reads one file for them; still evaluated only when
 * first used. The extension keeps them in dist/vendor/ (activation never loads them).
 */
export const CLI_BUNDLED = new Set([
  'simple-git',
  '@secretlint/core',
  '@secretlint/secretlint-rule-preset-recommend',
  '@secretlint/profiler',
  'proper-lockfile',
  'yaml',
]);

/**
 * In the bundles, each {@link VENDOR} library is a small module requiring
 * `./vendor/<file>.js` when it is first loaded: esbuild keeps its lazy loading (import() of
 * it stays a promise of the module, as when the library was bundled in) and its interop
 * (the same named exports and default).
 */
const vendorExternal = vendorExternalExcept(new Set());

/** {@link vendorExternal} for every {@link VENDOR} library but those in `bundled`, which the bundle carries itself. */
function vendorExternalExcept(bundled) {
  return {
    name: 'vendor-external',
    setup(build) {
      build.onResolve({ filter: vendorFilter }, (args) => (bundled.has(args.path) ? undefined : { path: args.path, namespace: 'vendor' }));
      build.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`./vendor/${VENDOR[args.path]}.js`)});`,
        loader: 'js',
      }));
      build.onResolve({ filter: /^\.\/vendor\// }, (args) => (args.namespace === 'vendor' ? { path: args.path, external: true } : undefined));
    },
  };
}

/** Inside dist/vendor/, the other vendor libraries a vendor file imports are required from their own file (one copy each). */
const vendorSiblings = {
  name: 'vendor-siblings',
  setup(build) {
    build.onResolve({ filter: vendorFilter }, (args) =>
      args.kind === 'entry-point' || args.importer === `${VENDOR_ENTRY}${VENDOR[args.path]}`
        ? undefined
        : { path: `./${VENDOR[args.path]}.js`, external: true },
    );
  },
};

const VENDOR_ENTRY = 'vendor-entry:';

/**
 * The entry of each dist/vendor/<file>.js: the library's module itself, or, for a file that
 * several {@link VENDOR} modules share (the MCP SDK's three), a module re-exporting them all
 * (`vendor-entry:<file>`, answered by {@link vendorEntries}), so they are bundled once, together.
 */
function vendorEntryPoints() {
  const specs = {};
  for (const [spec, file] of Object.entries(VENDOR)) (specs[file] ??= []).push(spec);
  return Object.fromEntries(
    Object.entries(specs).map(([file, list]) => [file, list.length === 1 ? fileURLToPath(import.meta.resolve(list[0])) : `${VENDOR_ENTRY}${file}`]),
  );
}

/** Answers `vendor-entry:<file>` with `export * from` each module of VENDOR bundled into that file. */
const vendorEntries = {
  name: 'vendor-entries',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${VENDOR_ENTRY}`) }, (args) => ({ path: args.path, namespace: 'vendor-entry' }));
    build.onLoad({ filter: /.*/, namespace: 'vendor-entry' }, (args) => ({
      contents: Object.entries(VENDOR)
        .filter(([, file]) => `${VENDOR_ENTRY}${file}` === args.path)
        .map(([spec]) => `export * from ${JSON.stringify(spec)};\n`)
        .join(''),
      resolveDir: dirname(fileURLToPath(import.meta.url)),
      loader: 'js',
    }));
  },
};

/**
 * zod re-exports every locale (`z.locales`, ~250 KB of messages in 40 languages) and nothing
 * here uses them: zod registers English itself (zod/v4/classic/schemas.js imports
 * locales/en.js directly), and our messages are English (docs/DESIGN.md). The locale index is
 * answered with English alone (test/unit/build/vendor.test.ts checks a zod message still reads).
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-locales', pluginData: { dir: args.resolveDir } } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: 'export { default as en } from "../locales/en.js";',
      resolveDir: args.pluginData.dir,
      loader: 'js',
    }));
  },
};

/**
 * Writes each encoding's rank table beside its tokenizer file as `<name>.ranks.json`, the
 * package's own table (`gpt-tokenizer/bpeRanks/<name>`) serialized, which
 * src/engine/tokenizers/bundledEncoding.ts reads. JSON has no holes: the build fails if the
 * table has one, rather than ship a table that reads back otherwise.
 */
const rankTables = {
  name: 'rank-tables',
  setup(build) {
    const { outdir: out, absWorkingDir, entryPoints } = build.initialOptions;
    build.onEnd(() => {
      if (!out) throw new Error('rankTables writes the rank tables beside the tokenizer files: the build needs an outdir');
      const outdir = resolve(absWorkingDir ?? process.cwd(), out);
      for (const name of Object.keys(entryPoints)) {
        const ranks = createRequire(import.meta.url)(`gpt-tokenizer/bpeRanks/${name}`).default;
        if (!Array.isArray(ranks) || ranks.length === 0 || Object.keys(ranks).length !== ranks.length) {
          throw new Error(`gpt-tokenizer/bpeRanks/${name}: the rank table is no longer an array without holes; review esbuild.mjs rankTables`);
        }
        writeFileSync(join(outdir, `${name}.ranks.json`), JSON.stringify(ranks));
      }
    });
  },
};

/** Copies node-sqlite3-wasm's WebAssembly file beside dist/vendor/node-sqlite3-wasm.js, where that script loads it from. */
const sqliteWasm = {
  name: 'sqlite-wasm',
  setup(build) {
    const { outdir: out, absWorkingDir } = build.initialOptions;
    build.onEnd(() => {
      if (!out) throw new Error('sqliteWasm copies the WebAssembly file into the vendor folder: the build needs an outdir');
      const outdir = resolve(absWorkingDir ?? process.cwd(), out);
      mkdirSync(outdir, { recursive: true });
      const wasm = join(dirname(createRequire(import.meta.url).resolve('node-sqlite3-wasm')), 'node-sqlite3-wasm.wasm');
      copyFileSync(wasm, join(outdir, 'node-sqlite3-wasm.wasm'));
    });
  },
};

const tokenizersExternal = {
  name: 'tokenizers-external',
  setup(build) {
    build.onResolve({ filter: /^gpt-tokenizer\/encoding\/(o200k_base|cl100k_base)$/ }, (args) => ({
      path: `./tokenizers/${args.path.split('/').pop()}.js`,
      external: true,
    }));
  },
};

/**
 * Keeps the full zod out of the panel script: the webview validates with zod/mini (the
 * schemas of src/core/panel), and the full build would bring all its locales (~450 KB).
 * A module the webview reaches that imports `zod` itself fails the build, named.
 */
const webviewZodMini = {
  name: 'webview-zod-mini',
  setup(build) {
    build.onResolve({ filter: /^zod(\/v3|\/v4|\/v4\/classic)?$/ }, (args) => ({
      errors: [{ text: `${relative(process.cwd(), args.importer)} imports "${args.path}": the webview bundles zod/mini only (see docs/ARCHITECTURE.md)` }],
    }));
  },
};

/**
 * `navigator` is a global since Node 21, and VS Code 1.139's extension host reports each
 * read of it ("PendingMigrationError: navigator is now a global in nodejs"). zod's
 * capability check (`typeof navigator !== "undefined" && navigator.userAgent…`, run as
 * the schemas are created, i.e. as the bundle loads) is the bundle's only reader: these
 * Node bundles see no `navigator`, as on Node 20 (test/unit/build/navigator.test.ts).
 */
const noNavigator = { navigator: 'undefined', 'globalThis.navigator': 'undefined' };

const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: production ? false : 'inline',
  minify: production,
  legalComments: 'none',
  logLevel: process.argv.includes('--quiet') ? 'warning' : 'info',
  define: noNavigator,
};

/** dist/extension.js's options (test/unit/build/navigator.test.ts builds them to a temporary folder). */
export const extensionBuild = {
  ...node,
  entryPoints: ['src/extension.ts'],
  outfile: 'dist/extension.js',
  external: ['vscode'],
  plugins: [tokenizersExternal, vendorExternal, zodEnglishOnly],
};

/** dist/cli-main.js's options, the whole CLI (test/unit/build/vendor.test.ts builds them to a temporary folder). */
export const cliBuild = {
  ...node,
  entryPoints: ['src/cli/bin.ts'],
  outfile: 'dist/cli-main.js',
  plugins: [tokenizersExternal, vendorExternalExcept(CLI_BUNDLED), zodEnglishOnly],
};
/** dist/cli.js, the executable: Node's compile cache on, the tokenizer's worker started, then dist/cli-main.js (src/cli/launch.ts). */
export const launcherBuild = {
  ...node,
  entryPoints: ['src/cli/launch.ts'],
  outfile: 'dist/cli.js',
  banner: { js: '#!/usr/bin/env node' },
  external: ['./cli-main.js'],
  plugins: [tokenizersExternal],
};
/** dist/vendor/*.js: the libraries loaded on first use ({@link VENDOR}), one file each. */
export const vendorBuild = {
  ...node,
  entryPoints: vendorEntryPoints(),
  outdir: 'dist/vendor',
  plugins: [vendorEntries, vendorSiblings, zodEnglishOnly, sqliteWasm],
};
/** dist/tokenizers/*.js: one file per encoding. */
export const tokenizersBuild = {
  ...node,
  entryPoints: {
    o200k_base: 'src/engine/tokenizers/o200k_base.ts',
    cl100k_base: 'src/engine/tokenizers/cl100k_base.ts',
  },
  outdir: 'dist/tokenizers',
  plugins: [rankTables],
};

/** dist/webview/insights.js: the "Handoff Insights" view's script (issue 21), on the panel's rules (test/component/insightsView.test.ts builds it to a temporary folder). */
export const insightsWebviewBuild = {
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  entryPoints: ['webview/insights.ts'],
  outfile: 'dist/webview/insights.js',
  sourcemap: production ? false : 'inline',
  minify: production,
  logLevel: node.logLevel,
  plugins: [webviewZodMini],
};

const builds = [
  extensionBuild,
  cliBuild,
  launcherBuild,
  vendorBuild,
  tokenizersBuild,
  {
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview/main.js',
    sourcemap: production ? false : 'inline',
    minify: production,
    logLevel: node.logLevel,
    plugins: [webviewZodMini],
  },
  insightsWebviewBuild,
];

/** Copies the codicon stylesheet and font next to the panel script. */
function copyCodicons() {
  mkdirSync('dist/webview', { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) {
    copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/webview/${file}`);
  }
}

/** Builds everything once, or keeps rebuilding with --watch. */
async function main() {
  copyCodicons();
  if (watch) {
    for (const b of builds) {
      const ctx = await esbuild.context(b);
      await ctx.watch();
    }
  } else {
    await Promise.all(builds.map((b) => esbuild.build(b)));
  }
}

// Run as a script (`node esbuild.mjs`), not when a test imports extensionBuild.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
