/**
 * The longest session the handoff is built for, at the default budget (issue 34, "Done when"):
 * a real git repository with 2,000 changed files (modified, added and untracked, in 48 folders)
 * and a Claude Code transcript of 200 user requests in its published record shapes — edits,
 * 300 test runs of 20 commands that fail and pass, 12 state-changing commands run again and
 * again (a commit with a heredoc message among them), hundreds of read-only commands with `|`
 * inside quotes, a todo list with open items, a compaction halfway and a last request that is a
 * 3,000-character paste. Handed over with `draft` at 3,000 tokens, the written file must carry a
 * summary, every git-changed path (rolled up into folders with the right counts), the latest
 * request's head, every test outcome, every open plan item and every state-changing command's
 * first line, within the budget; the history file keeps the requests the handoff cut.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { handover } from '../../src/engine/handover/handover';
import { missingKinds } from '../helpers/factKinds';
import { cleanupTempDirs, commitAll, git, initRepo, tempDir, write } from '../helpers/repo';

const REQUESTS = 200;
const FOLDERS = 48;
const BUDGET = 3_000;

/** 2,000 changed paths: 800 committed then modified, 600 new and staged, 600 untracked. */
function changedRepository(): { ws: string; changed: string[] } {
  const ws = initRepo(tempDir('handoff-long-session-'));
  const file = (i: number) => `packages/pkg-${i % FOLDERS}/src/module-${i}.ts`;
  for (let i = 0; i < 800; i++) write(ws, file(i), `export const v${i} = ${i};\n`);
  write(ws, 'README.md', '# app\n');
  commitAll(ws, 'initial');
  for (let i = 0; i < 800; i++) write(ws, file(i), `export const v${i} = ${i + 1};\n`);
  for (let i = 800; i < 1400; i++) write(ws, file(i), `export const v${i} = 0;\n`);
  git(ws, 'add', ...Array.from({ length: 600 }, (_, k) => file(800 + k)));
  for (let i = 1400; i < 2000; i++) write(ws, file(i), `export const v${i} = 0;\n`);
  const changed = git(ws, 'ls-files', '--others', '--modified', '--exclude-standard').split('\n').filter(Boolean);
  const staged = git(ws, 'diff', '--cached', '--name-only').split('\n').filter(Boolean);
  return { ws, changed: [...new Set([...changed, ...staged])] };
}

/** State-changing commands, each run many times; the first is a commit whose message is a heredoc. */
const STATE_CHANGING = [
  `git add -A && git commit -m "$(cat <<'EOF'\nParser: keep tabs | spaces; handle CRLF\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)"`,
  'npm install zod@4',
  'npm run build',
  'npx prisma migrate dev --name add-index',
  'cargo add serde --features derive',
  'git push origin feature/parser',
  'make -C native',
  'docker build -t app:dev .',
  'rm -rf dist/',
  'mkdir -p packages/pkg-0/src/generated',
  'npx tsc -p packages/pkg-1',
  'git stash',
];

const TEST_COMMANDS = Array.from({ length: 20 }, (_, k) => `npx vitest run packages/pkg-${k}/src`);
const PLAN = Array.from({ length: 10 }, (_, k) => ({
  content: `Step ${k + 1}: port module group ${k + 1} to the new parser`,
  status: k < 4 ? 'completed' : k === 4 ? 'in_progress' : 'pending',
  activeForm: `Porting group ${k + 1}`,
}));
const PASTE = `Here is the failing output, please fix it:\n${Array.from({ length: 60 }, (_, k) => `  at parse (packages/pkg-${k % FOLDERS}/src/module-${k}.ts:${k + 1}:7) TypeError: cannot read 'tab'`).join('\n')}`;

/** The transcript, in Claude Code's record shapes, and what a person reads in it. */
function transcript(ws: string): { file: string; tests: Array<{ cmd: RegExp; result: 'passed' | 'failed' }> } {
  let n = 0;
  let tool = 0;
  const at = () => new Date(Date.UTC(2026, 4, 1, 8, 0, 0) + n * 1000).toISOString();
  const base = () => ({ timestamp: at(), cwd: ws, sessionId: 'long-1', uuid: `u${n++}` });
  const user = (content: unknown, extra: Record<string, unknown> = {}) => ({ type: 'user', message: { role: 'user', content }, ...base(), ...extra });
  const assistant = (content: unknown[]) => ({ type: 'assistant', message: { role: 'assistant', content }, ...base() });
  const call = (name: string, input: Record<string, unknown>, result: { is_error: boolean; content: string }) => {
    const id = `toolu_${tool++}`;
    return [assistant([{ type: 'tool_use', id, name, input }]), user([{ type: 'tool_result', tool_use_id: id, ...result }])];
  };
  const tests: Array<{ cmd: RegExp; result: 'passed' | 'failed' }> = [];
  const records: unknown[] = [];
  for (let r = 0; r < REQUESTS; r++) {
    const last = r === REQUESTS - 1;
    records.push(user(last ? PASTE : `Request ${r + 1}: port module ${r} of packages/pkg-${r % FOLDERS} and keep its API stable.`));
    if (last) break;
    records.push(
      ...call(
        'Edit',
        { file_path: `${ws}/packages/pkg-${r % FOLDERS}/src/module-${r}.ts`, old_string: `${r}`, new_string: `${r + 1}` },
        { is_error: false, content: 'The file has been updated.' },
      ),
    );
    // Read-only: a search with "|" inside its quotes, and a pipeline.
    records.push(...call('Bash', { command: `rg "parse|tab|CRLF" packages/pkg-${r % FOLDERS} | head -20` }, { is_error: false, content: 'module.ts: parse' }));
    records.push(...call('Bash', { command: `git status --short | wc -l` }, { is_error: false, content: '12' }));
    // Tests: one or two runs a request, failing when the request number is a multiple of 3.
    for (const k of r % 2 ? [r % 20] : [r % 20, (r + 7) % 20]) {
      const failed = (r + k) % 3 === 0;
      records.push(
        ...call(
          'Bash',
          { command: TEST_COMMANDS[k] },
          failed ? { is_error: true, content: 'Exit code 1\n Tests  1 failed | 11 passed (12)' } : { is_error: false, content: ' Tests  12 passed (12)' },
        ),
      );
      tests.push({ cmd: new RegExp(`^${TEST_COMMANDS[k].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`), result: failed ? 'failed' : 'passed' });
    }
    records.push(...call('Bash', { command: STATE_CHANGING[r % STATE_CHANGING.length] }, { is_error: false, content: 'done' }));
    if (r === 120) records.push(...call('TodoWrite', { todos: PLAN }, { is_error: false, content: 'Todos have been modified successfully.' }));
    if (r === 100) {
      records.push({
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 160_000 },
        ...base(),
      });
      records.push(
        user(
          'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nSummary: modules 0–100 ported; vitest red in pkg-3.',
          { isCompactSummary: true, isVisibleInTranscriptOnly: true },
        ),
      );
    }
    records.push(assistant([{ type: 'text', text: `Ported module ${r}; ${r % 3 ? 'tests pass' : 'one test still fails'}.` }]));
  }
  const file = path.join(tempDir(), 'long-session.jsonl');
  writeFileSync(file, `${records.map((x) => JSON.stringify(x)).join('\n')}\n`);
  return { file, tests };
}

describe('a 200-request session over 2,000 changed files, at 3,000 tokens', function () {
  this.timeout(180_000);
  after(cleanupTempDirs);

  it('writes every kind of fact, each shorter, within the budget', async () => {
    const { ws, changed } = changedRepository();
    assert.equal(changed.length, 2_000, 'git reports 2,000 changed files');
    const log = transcript(ws);
    const r = await handover(
      { specialist: 'implementation_engineer', topic: 'parser port', draft: true, max_context_tokens: BUDGET },
      { workspaceRoot: ws, sessionLog: { mode: log.file } },
    );
    assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
    if (r.status !== 'ok') return;
    assert.ok(r.package.estimated_tokens <= BUDGET, `${r.package.estimated_tokens} tokens`);
    assert.equal(r.package.touched_files.length, 2_000, 'no changed file left out by collection');
    const text = readFileSync(r.handoff_file, 'utf8');
    assert.deepEqual(
      missingKinds(text, {
        request: PASTE.slice(0, 300),
        gitPaths: changed,
        tests: log.tests,
        open: PLAN.filter((p) => p.status !== 'completed').map((p) => p.content),
        commands: STATE_CHANGING,
      }),
      [],
    );
    // Read-only commands are no commands run; the user's 200 requests are counted, the summary the agent's.
    assert.ok(!/`rg "parse\|tab/.test(text) && !/`git status --short/.test(text), 'read-only commands are left out');
    assert.equal(r.package.user_requests_omitted + r.package.user_requests.length, REQUESTS);
    assert.match(
      text,
      /## Compaction summary\n\n_(?:The agent's own summary when claude-code compacted the conversation \(auto, |claude-code compacted the conversation \(auto, [^)]+\); the agent's summary \([\d,]+ characters\) was cut to fit)/,
    );
    for (const section of ['tests_run', 'commands_run', 'touched_files'] as const) {
      assert.equal(r.package.dropped.find((d) => d.section === section)?.count ?? 0, 0, `${section} cut`);
    }
    // What fit-to-budget cut is kept in the history file: the older requests the handoff counts.
    assert.ok(r.history_file, 'a history file');
    const history = readFileSync(r.history_file as string, 'utf8');
    const cut = r.package.dropped.find((d) => d.section === 'user_requests')?.count ?? 0;
    assert.ok(cut > 0, 'older requests were cut to fit');
    const older = `Request ${REQUESTS - 2}: port module ${REQUESTS - 3}`;
    assert.ok(history.includes(older), 'the older requests are in the history file');
    assert.ok(text.includes(older) || /older requests are not carried/.test(text), 'the handoff carries or counts them');
  });
});
