/**
 * `npm run demo`: builds (done by the npm script), creates the demo repository in a
 * temporary folder, runs the end-of-session handoff there with the built CLI, and
 * prints the files written and their content.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDemoRepository, DEMO_GIT_ENV } from './demoRepo';

const cli = path.resolve(__dirname, '..', 'dist', 'cli.js');
const dir = path.join(mkdtempSync(path.join(tmpdir(), 'handoff-demo-')), 'todo-api');
const repo = createDemoRepository(dir);

const rule = (title: string) => console.log(`\n${'─'.repeat(8)} ${title} ${'─'.repeat(Math.max(4, 70 - title.length))}`);

rule(`demo repository: ${repo.dir}`);
console.log(execFileSync('git', ['log', '--oneline'], { cwd: dir, env: DEMO_GIT_ENV, encoding: 'utf8' }).trimEnd());
console.log(execFileSync('git', ['status', '--short'], { cwd: dir, env: DEMO_GIT_ENV, encoding: 'utf8' }).trimEnd());

const args = [
  cli,
  'handover',
  '--cwd',
  dir,
  '--specialist',
  'quality_reviewer',
  '--topic',
  'Token auth for the todo API',
  '--summary',
  'Replaced cookie sessions with bearer tokens: src/auth.ts checks the Authorization header and the server returns 401 without it. Moved formatTodo to src/lib.',
  '--decision',
  'Bearer tokens instead of cookie sessions; the legacy session module is deleted.',
  '--decision',
  'formatTodo lives in src/lib/format.ts (shared by server and tests).',
  '--failed',
  'Express middleware: too heavy for a single route.',
  '--next',
  'Review src/auth.ts for timing-safe comparison and header parsing.',
  '--next',
  'Check that test/format.test.ts still imports the moved module.',
  '--blocker',
  'No token issuer yet: tokens are only checked for the Bearer prefix.',
  '--reason',
  'Implementation is done; it needs an independent review before merge.',
  '--reason-kind',
  'specialization',
];
rule(`specialist-handoff ${args.slice(1, 3).join(' ')} …`);
const out = execFileSync(process.execPath, args, { encoding: 'utf8', env: DEMO_GIT_ENV, stdio: ['ignore', 'pipe', 'inherit'] });
console.log(out.trimEnd());

const written = execFileSync('git', ['ls-files', '--others', '--', '.handoff'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').filter(Boolean);
rule('files written');
for (const rel of written) {
  console.log(`${rel}  (${readFileSync(path.join(dir, rel)).length} bytes)`);
}
for (const rel of written) {
  rule(rel);
  console.log(readFileSync(path.join(dir, rel), 'utf8').trimEnd());
}
rule('done');
console.log(`The demo repository stays at ${dir} — try: node ${path.relative(process.cwd(), cli)} handover --cwd "${dir}" --specialist hacker --topic spike`);
