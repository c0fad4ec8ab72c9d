/**
 * A long Claude Code session that compacted twice, handed over from a real git repository: the
 * written handoff carries the facts of the whole log — the requests, test runs and edits before
 * both compactions — and the agent's latest summary in its own section, marked as the agent's;
 * at a budget too small for it the summary is shortened first and kept whole in the history file.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseTestsRun, parseUserRequests } from '../../src/core/handoff/draftSections';
import { parseHandoff } from '../../src/core/handoff/parse';
import { handover } from '../../src/engine/handover/handover';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';

const at = (s: number) => new Date(Date.UTC(2026, 4, 2, 10, 0, s)).toISOString();
const PENDING = 'Pending Tasks: document the --verbose flag in the README and add a changelog entry.';

/** A Claude Code transcript of `ws`: work, a compaction, more work, a second compaction, a last request. */
function transcript(ws: string): string {
  let n = 0;
  const base = () => ({ timestamp: at(n++), cwd: ws, sessionId: 's1', uuid: `u${n}` });
  const user = (content: unknown, extra: Record<string, unknown> = {}) => ({ type: 'user', message: { role: 'user', content }, ...base(), ...extra });
  const assistant = (content: unknown[]) => ({ type: 'assistant', message: { role: 'assistant', content }, ...base() });
  const tool = (id: string, name: string, input: Record<string, unknown>, result: { is_error: boolean; content: string }) => [
    assistant([{ type: 'tool_use', id, name, input }]),
    user([{ type: 'tool_result', tool_use_id: id, ...result }]),
  ];
  const compaction = (trigger: string, summary: string) => [
    { type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger, preTokens: 150_000 }, ...base() },
    user(`This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n${summary}`, {
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
    }),
  ];
  const records = [
    user('Add a --verbose flag to the CLI.'),
    ...tool('e1', 'Edit', { file_path: `${ws}/src/cli.ts`, old_string: 'a', new_string: 'b' }, { is_error: false, content: 'The file has been updated.' }),
    ...tool('t1', 'Bash', { command: 'npm test' }, { is_error: true, content: 'Exit code 1\n1 failing' }),
    ...compaction('auto', `Summary:\n1. Primary Request: a --verbose flag.\n2. ${'The tests of the flag fail in the parser. '.repeat(30)}`),
    user('Fix the failing test.'),
    ...tool('t2', 'Bash', { command: 'npm test' }, { is_error: false, content: '12 passing' }),
    ...tool('e2', 'Edit', { file_path: `${ws}/src/parse.ts`, old_string: 'x', new_string: 'y' }, { is_error: false, content: 'The file has been updated.' }),
    ...compaction(
      'manual',
      `Summary:\n1. Primary Request: a --verbose flag, tests fixed.\n${'Current Work: the flag works and the tests pass. '.repeat(40)}\n${PENDING}`,
    ),
    user('Now document the flag.'),
    assistant([{ type: 'text', text: 'I will document it next.' }]),
  ];
  const file = path.join(tempDir(), 'session.jsonl');
  writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return file;
}

describe('a compacted session handed over: the facts of the whole log and the agent’s summary, marked', function () {
  this.timeout(60_000);
  after(cleanupTempDirs);

  for (const budget of [8_000, 1_000]) {
    it(`at ${budget.toLocaleString('en')} tokens`, async () => {
      const ws = initRepo(tempDir('handoff-compaction-'));
      write(ws, 'src/cli.ts', 'a\n');
      write(ws, 'src/parse.ts', 'x\n');
      commitAll(ws, 'initial');
      write(ws, 'src/cli.ts', 'b\n');
      write(ws, 'src/parse.ts', 'y\n');
      const r = await handover(
        { specialist: 'implementation_engineer', topic: 'verbose flag', draft: true, max_context_tokens: budget },
        { workspaceRoot: ws, sessionLog: { mode: transcript(ws) } },
      );
      assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
      if (r.status !== 'ok') return;
      const text = readFileSync(r.handoff_file, 'utf8');
      const parsed = parseHandoff(text);
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
      const sections = parsed.handoff.sections;
      assert.ok(r.package.estimated_tokens <= budget, `${r.package.estimated_tokens} tokens`);
      assert.equal(parseUserRequests(sections.get('User requests') ?? '').at(-1)?.text, 'Now document the flag.');
      assert.ok(!(sections.get('User requests') ?? '').includes('being continued'), 'the summary is no request');
      assert.deepEqual(
        parseTestsRun(sections.get('Tests run') ?? '')
          .map((t) => t.result)
          .sort(),
        ['failed', 'passed'],
        'the runs before each compaction',
      );
      const touched = sections.get('Touched files') ?? '';
      for (const f of ['src/cli.ts', 'src/parse.ts']) assert.ok(touched.includes(f), f);
      const compaction = sections.get('Compaction summary') ?? '';
      assert.match(
        compaction,
        /^_The agent's own summary when claude-code compacted the conversation \(manual, [^)]+\); the latest of 2: its words, not the user's\./,
      );
      assert.match(compaction, /> This session is being continued/);
      if (budget === 8_000) {
        assert.ok(compaction.includes(PENDING), 'whole at a roomy budget');
      } else {
        assert.ok(!compaction.includes(PENDING), 'shortened at 1,000 tokens');
        assert.match(compaction, /of the agent's summary were cut to fit the token budget/);
        assert.ok(r.history_file && readFileSync(r.history_file, 'utf8').includes(PENDING), 'the history file keeps it whole');
      }
    });
  }
});
