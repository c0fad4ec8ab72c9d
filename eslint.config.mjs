// Flat ESLint config: typescript-eslint recommended rules, `import type`, no `any`,
// and the layer rule of DESIGN §2: `vscode` only in src/vscode and src/extension.ts;
// src/core does no I/O.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noVscode = {
  name: 'vscode',
  message: 'Only src/vscode (and src/extension.ts) may import vscode — DESIGN §2 layers.',
};
const io = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'child_process', 'node:child_process', 'net', 'node:net', 'http', 'node:http', 'https', 'node:https', 'os', 'node:os', 'simple-git'].map(
  (name) => ({ name, message: 'src/core does no I/O — put it in src/evidence or src/store (DESIGN §2).' }),
);

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
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode, ...io] }] },
  },
  {
    files: ['src/evidence/**/*.ts', 'src/store/**/*.ts', 'src/engine/**/*.ts', 'src/cli/main.ts', 'src/mcp/**/*.ts', 'webview/**/*.ts', 'test/unit/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'readonly', __dirname: 'readonly' } },
  },
);
