/**
 * Builds the demo repository used by `npm run demo` and by the test that checks the
 * demo's handoff against git: a small TypeScript service with real commits, then
 * uncommitted work of every kind — a staged rename across folders, a deletion, an
 * untracked file (with a space and non-ASCII in its path), a changed binary file and
 * unstaged edits.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Fixed identity and no user or system config, so the demo is the same everywhere. */
export const DEMO_GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Demo Developer',
  GIT_AUTHOR_EMAIL: 'demo@example.com',
  GIT_COMMITTER_NAME: 'Demo Developer',
  GIT_COMMITTER_EMAIL: 'demo@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: path.join(path.sep, 'dev', 'null'),
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: DEMO_GIT_ENV, encoding: 'utf8' });
}

function put(root: string, rel: string, content: string | Buffer): void {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** A tiny PNG-like binary (PNG signature and NUL bytes, so git treats it as binary). */
function binary(seed: number): Buffer {
  return Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, seed, seed + 1, 0, seed + 2]);
}

/** What the demo repository holds, for printing and for tests. */
export interface DemoRepository {
  readonly dir: string;
  readonly commits: number;
}

/**
 * Creates the demo repository in `dir` (which must be empty or absent).
 * @returns the folder and the number of commits made
 */
export function createDemoRepository(dir: string): DemoRepository {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'core.autocrlf', 'false');

  put(dir, 'README.md', '# todo-api\n\nA small HTTP service for todo lists.\n');
  put(dir, 'package.json', '{\n  "name": "todo-api",\n  "version": "1.0.0",\n  "scripts": { "test": "node --test" }\n}\n');
  put(
    dir,
    'src/server.ts',
    "import { createServer } from 'node:http';\nimport { formatTodo } from './util/format';\n\nexport const server = createServer((req, res) => {\n  res.end(formatTodo({ title: 'hello', done: false }));\n});\n",
  );
  put(
    dir,
    'src/util/format.ts',
    "export interface Todo { title: string; done: boolean }\n\nexport function formatTodo(t: Todo): string {\n  return `${t.done ? '[x]' : '[ ]'} ${t.title}`;\n}\n",
  );
  put(dir, 'src/legacy/session.js', '// Old cookie sessions, replaced by tokens.\nmodule.exports = function session() {\n  return null;\n};\n');
  put(dir, 'assets/logo.png', binary(1));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'Initial todo service');

  put(dir, 'test/format.test.ts', "import { formatTodo } from '../src/util/format';\n\ntest('formats', () => formatTodo({ title: 'a', done: true }));\n");
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'Add a test for formatTodo');

  put(
    dir,
    'src/server.ts',
    "import { createServer } from 'node:http';\nimport { formatTodo } from './util/format';\n\nconst PORT = Number(process.env.PORT ?? 3000);\n\nexport const server = createServer((req, res) => {\n  res.end(formatTodo({ title: 'hello', done: false }));\n});\n\nserver.listen(PORT);\n",
  );
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'Listen on $PORT');

  // Uncommitted work of every kind.
  mkdirSync(path.join(dir, 'src/lib'), { recursive: true });
  git(dir, 'mv', 'src/util/format.ts', 'src/lib/format.ts'); // staged rename across folders
  rmSync(path.join(dir, 'src/legacy/session.js')); // unstaged deletion
  put(dir, 'assets/logo.png', binary(7)); // changed binary file
  put(
    dir,
    'src/server.ts',
    "import { createServer } from 'node:http';\nimport { formatTodo } from './lib/format';\nimport { requireToken } from './auth';\n\nconst PORT = Number(process.env.PORT ?? 3000);\n\nexport const server = createServer((req, res) => {\n  if (!requireToken(req)) {\n    res.statusCode = 401;\n    return res.end('unauthorised');\n  }\n  res.end(formatTodo({ title: 'hello', done: false }));\n});\n\nserver.listen(PORT);\n",
  ); // unstaged edits
  put(
    dir,
    'src/auth.ts',
    "import type { IncomingMessage } from 'node:http';\n\nexport function requireToken(req: IncomingMessage): boolean {\n  return (req.headers.authorization ?? '').startsWith('Bearer ');\n}\n",
  );
  git(dir, 'add', 'src/auth.ts'); // staged new file
  put(dir, 'docs/design notes – über.md', '# Design notes\n\n- Tokens instead of cookie sessions.\n'); // untracked, space + non-ASCII
  return { dir, commits: 3 };
}
