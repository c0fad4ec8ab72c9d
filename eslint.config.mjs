// Flat ESLint config: typescript-eslint recommended rules, `import type`, no `any`, and the
// layer map of docs/ARCHITECTURE.md ("What may import what"), enforced with ESLint's own
// rules, and no import cycles (eslint-plugin-import-x's no-cycle):
// - `no-restricted-imports` `paths` keep the `vscode` package in src/vscode and
//   src/extension.ts, and Node I/O modules out of src/core;
// - `no-restricted-imports` `patterns` (one regex per forbidden target) stop static
//   imports and re-exports, `import type` included, that reach another layer by a
//   relative path;
// - `no-restricted-syntax` applies the same regexes to `require()`, `import()` and
//   `import('…')` types, which `no-restricted-imports` does not see, and keeps zod imported
//   as a namespace (test/unit/lint/zodImport.test.ts).
// A regex reads the import as written: any run of `./` and `../` followed by the target
// folder (optionally through `src/`). That is exact because no folder inside a layer is
// named after a layer, and because a path with a detour (`panel/../../store`) is refused.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const MAP = 'docs/ARCHITECTURE.md#what-may-import-what';

const noVscode = {
  name: 'vscode',
  message: `Layer rule "vscode only in the VS Code adapter": only src/vscode and src/extension.ts may import vscode — see ${MAP}.`,
};
// esbuild drops the unused members of a namespace import, not of zod's re-exported `z` object or its default export:
// either carries all of zod into the bundle.
const zodNamespace = {
  selector: "ImportDeclaration[source.value='zod'] > :matches(ImportSpecifier[imported.name='z'], ImportDefaultSpecifier)",
  message: "Import zod as a namespace, import * as z from 'zod': the bundles then keep only the parts of zod in use.",
};
const io = [
  'fs',
  'node:fs',
  'fs/promises',
  'node:fs/promises',
  'child_process',
  'node:child_process',
  'net',
  'node:net',
  'http',
  'node:http',
  'https',
  'node:https',
  'os',
  'node:os',
  'simple-git',
].map((name) => ({ name, message: `Layer rule "core is pure": src/core does no I/O — put it in src/evidence or src/store — see ${MAP}.` }));

/** A relative import path: one or more `./` or `../`. */
const RELATIVE = String.raw`^(\.{1,2}\/)+`;
/** The end of a target: a folder's file, the folder itself, or a module with its extension. */
const END = String.raw`(\/|\.[cm]?[jt]s$|$)`;
/** Regex of a relative import into one of `targets` (folders or modules directly under src/). */
const intoSrc = (targets) => `${RELATIVE}(src\\/)?(${targets.join('|')})${END}`;
/** Regex of a relative import into webview/ (browser code: nothing in src/ imports it). */
const INTO_WEBVIEW = `${RELATIVE}webview${END}`;
/** Regex of a path with a detour: a named segment followed by `..`. */
const DETOUR = String.raw`(^|\/)[^.\/][^\/]*\/\.\.(\/|$)`;
/** Regex of webview/ reaching src/ anywhere but the panel protocol, the draft model and two pure helpers. */
const WEBVIEW_OUTSIDE_PANEL = String.raw`${RELATIVE}src\/(?!core\/panel\/[^\/]|core\/handoff\/(limits|ids)(\.[cm]?[jt]s)?$)`;

const ENTRY_POINTS = ['vscode', 'cli', 'mcp', 'extension'];

/** One restriction: the regex and the message naming the layer rule it enforces. */
const rule = (name, text, regex) => ({ regex, message: `Layer rule "${name}": ${text} — see ${MAP}.` });

const detour = rule('paths without detours', 'write the import path without `name/..`, so the layer rules can read it', DETOUR);
const webviewIsBrowserCode = rule('webview is browser code', 'nothing in src/ imports webview/; share code through src/core/panel', INTO_WEBVIEW);

/** The restrictions of each layer; every file gets exactly one of these sets. */
const layers = {
  core: [
    rule(
      'core is pure',
      'src/core imports nothing of src/evidence, src/store, src/engine, src/vscode, src/cli, src/mcp or src/extension.ts',
      intoSrc(['evidence', 'store', 'engine', ...ENTRY_POINTS]),
    ),
    webviewIsBrowserCode,
    detour,
  ],
  evidence: [
    rule(
      'evidence and store import core only',
      'src/evidence imports src/core only — not src/store, src/engine or an entry point',
      intoSrc(['store', 'engine', ...ENTRY_POINTS]),
    ),
    webviewIsBrowserCode,
    detour,
  ],
  store: [
    rule(
      'evidence and store import core only',
      'src/store imports src/core only — not src/evidence, src/engine or an entry point',
      intoSrc(['evidence', 'engine', ...ENTRY_POINTS]),
    ),
    webviewIsBrowserCode,
    detour,
  ],
  engine: [
    rule(
      'the engine is the front door',
      'src/engine imports no entry point (src/vscode, src/cli, src/mcp, src/extension.ts); entry points call the engine',
      intoSrc(ENTRY_POINTS),
    ),
    webviewIsBrowserCode,
    detour,
  ],
  entryPoint: [
    rule(
      'entry points go through the engine',
      'src/vscode, src/extension.ts, src/cli and src/mcp import src/engine and src/core, never src/store or src/evidence',
      intoSrc(['store', 'evidence']),
    ),
    webviewIsBrowserCode,
    detour,
  ],
  webview: [
    rule(
      'webview imports only the panel protocol',
      'webview/ imports of src/ only src/core/panel/** (protocol and draft model), src/core/handoff/limits.ts and src/core/handoff/ids.ts',
      WEBVIEW_OUTSIDE_PANEL,
    ),
    detour,
  ],
};

/**
 * A config block for `files`: `no-restricted-imports` with the package `paths` and the layer
 * `patterns`, and `no-restricted-syntax` with the same patterns for `require()`, `import()`
 * and `import('…')` types.
 */
function layer(files, patterns, paths = [noVscode]) {
  const selectors = ['CallExpression[callee.name="require"] > Literal', 'ImportExpression > Literal', 'TSImportType Literal'];
  return {
    files,
    rules: {
      'no-restricted-imports': ['error', { paths, patterns }],
      'no-restricted-syntax': [
        'error',
        ...patterns.flatMap(({ regex, message }) => selectors.map((selector) => ({ selector: `${selector}[value=/${regex}/i]`, message }))),
        zodNamespace,
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', '.vscode-test/**', 'media/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  layer(['src/core/**/*.ts'], layers.core, [noVscode, ...io]),
  layer(['src/evidence/**/*.ts'], layers.evidence),
  layer(['src/store/**/*.ts'], layers.store),
  layer(['src/engine/**/*.ts'], layers.engine),
  layer(['src/cli/**/*.ts', 'src/mcp/**/*.ts'], layers.entryPoint),
  layer(['src/vscode/**/*.ts', 'src/extension.ts'], layers.entryPoint, []),
  layer(['webview/**/*.ts'], layers.webview),
  {
    // No import cycles in the product's code: a cycle makes module order matter and rooms leak into each other.
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json', '.node'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['test/unit/**/*.ts', 'test/component/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'readonly', __dirname: 'readonly' } },
  },
);
