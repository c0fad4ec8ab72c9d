// Bundles the extension host code, the CLI, the webview and the tokenizer encodings.
// - dist/extension.js: cjs for Node, `vscode` external (VS Code provides it).
// - dist/cli.js: cjs for Node with a shebang (the `specialist-handoff` bin), self-contained:
//   the MCP SDK of `specialist-handoff mcp` is bundled in too (its module is required only by
//   that command, so the others do not pay for loading it).
// - dist/webview/main.js: the panel script, for the browser (zod/mini only: see webviewZodMini).
// - dist/tokenizers/<encoding>.js: each gpt-tokenizer encoding in its own file, loaded
//   on first use only (the rank tables are megabytes; activation must not parse them).
// - dist/vendor/mvdan-sh.js: the shell parser (mvdan-sh, 1.3 MB of GopherJS output), in its
//   own file for the same reason: src/core/session/shellWords.ts requires it on first use, and
//   the extension and the CLI no longer carry (and parse) it as they load (issue 19).
//   dist/webview/codicon.{css,ttf}: the codicon font of @vscode/codicons, copied as is
//   (the panel's icons; the webview may load fonts only from its own resource roots).
import { copyFileSync, mkdirSync } from 'node:fs';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const production = !process.argv.includes('--dev');

/** Rewrites `gpt-tokenizer/encoding/<name>` to the separately built `./tokenizers/<name>.js`. */
/** Rewrites `mvdan-sh` to the separately built `./vendor/mvdan-sh.js` (required lazily: src/core/session/shellWords.ts). */
const vendorExternal = {
  name: 'vendor-external',
  setup(build) {
    build.onResolve({ filter: /^mvdan-sh$/ }, () => ({ path: './vendor/mvdan-sh.js', external: true }));
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
export const extensionBuild = { ...node, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [tokenizersExternal, vendorExternal, zodEnglishOnly] };

/** dist/cli.js's options (test/unit/build/vendor.test.ts builds them to a temporary folder). */
export const cliBuild = { ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, plugins: [tokenizersExternal, vendorExternal, zodEnglishOnly] };
/** dist/vendor/*.js: the lazily required libraries. */
export const vendorBuild = { ...node, entryPoints: { 'mvdan-sh': 'node_modules/mvdan-sh/index.js' }, outdir: 'dist/vendor' };
/** dist/tokenizers/*.js: one file per encoding. */
export const tokenizersBuild = {
  ...node,
  entryPoints: {
    o200k_base: 'node_modules/gpt-tokenizer/cjs/encoding/o200k_base.js',
    cl100k_base: 'node_modules/gpt-tokenizer/cjs/encoding/cl100k_base.js',
  },
  outdir: 'dist/tokenizers',
};

const builds = [
  extensionBuild,
  cliBuild,
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
