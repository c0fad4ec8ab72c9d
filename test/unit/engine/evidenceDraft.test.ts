/**
 * The draft from evidence alone (src/engine/draft/evidenceDraft.ts, issue 15): next steps from the open
 * plan items in order (the in-progress one first and marked), done items, the user requests
 * within the token bound with the latest always kept, the commands cap, the loss report,
 * the summary and blockers from evidence, and determinism. Session-log evidence is built as
 * the readers give it (SessionLogEvidence); git evidence comes from a real repository.
 */
import assert from 'node:assert/strict';
import type { CommandRun } from '../../../src/core/handoff/draftFields';
import { emptyGitEvidence, type GitEvidence } from '../../../src/core/handoff/gitEvidence';
import type { TestRun, Turn } from '../../../src/core/handoff/schema';
import { tokenUpperBound } from '../../../src/core/handoff/tokens';
import type { PlanItem } from '../../../src/core/session/events';
import type { SessionLogEvidence } from '../../../src/evidence/session/collectSessionLog';
import type { DraftEvidence } from '../../../src/engine/draft/draftSession';
import { DEFAULT_COMMANDS_CAP, MAX_DRAFTED_PLAN_ITEMS, draftFromEvidence, draftSummaryFromEvidence } from '../../../src/engine/draft/evidenceDraft';
import { collectEvidenceFor } from '../../../src/engine/handover/handover';
import { collectGitEvidence } from '../../../src/evidence/git/collectGit';
import { counterFor } from '../../../src/engine/tokenizers/tokenizer';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../helpers/repo';

const counter = counterFor('o200k_base');
const countTokens = (t: string) => counter.count(t).tokens;
const TRANSCRIPT = '/home/dev/.claude/projects/-work-app/5f1c.jsonl';

function session(over: Partial<SessionLogEvidence> = {}): SessionLogEvidence {
  return { tests_run: [], recent_turns: [], file_edits: [], transcripts: [], notes: [], next_state: { version: 1, files: {} }, ...over };
}

function plan(items: PlanItem[]): SessionLogEvidence['plan'] {
  return { items, tool: 'TodoWrite', provenance: { reader: 'claude-code', file: TRANSCRIPT, time: '2026-12-01T10:00:00.000Z' } };
}

function evidence(s: SessionLogEvidence | undefined, git: GitEvidence = { ...emptyGitEvidence('none'), notes: [], problem: null }): DraftEvidence {
  return { git, session: s, latest: undefined };
}

const request = (text: string, minute: number) => ({
  text,
  time: `2026-12-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
  source: 'claude-code',
  file: TRANSCRIPT,
});
const test = (command: string, result: TestRun['result'], exit: number | null, at: string): TestRun => ({
  command,
  cwd: null,
  exit_code: exit,
  result,
  source: 'claude-code',
  started_at: at,
  duration_ms: null,
});
const command = (cmd: string, result: CommandRun['result'], count = 1): CommandRun => ({
  command: cmd,
  cwd: null,
  kind: 'build',
  exit_code: result === 'failed' ? 2 : result === 'succeeded' ? 0 : null,
  result,
  count,
  failed_count: result === 'failed' ? count : 0,
  source: 'claude-code',
  last_at: null,
});

describe('draftFromEvidence (src/engine/draft/evidenceDraft.ts)', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('drafts the in-progress plan item (marked), then the pending ones, in plan order, and the completed ones as done', () => {
    const d = draftFromEvidence(
      evidence(
        session({
          plan: plan([
            { text: 'Write the parser', status: 'completed' },
            { text: 'Wire the CLI flag', status: 'pending' },
            { text: 'Add the schema field', status: 'in_progress' },
            { text: 'Drop the old cache', status: 'cancelled' },
            { text: 'Document the flag', status: 'pending' },
            { text: 'Read the spec', status: 'completed' },
          ]),
        }),
      ),
      { userRequestTokens: 1500, countTokens },
    );
    assert.deepEqual(
      d.next_steps.map((s) => [s.text, s.in_progress === true]),
      [
        ['Add the schema field', true],
        ['Wire the CLI flag', false],
        ['Document the flag', false],
      ],
    );
    assert.deepEqual(
      d.completed.map((s) => s.text),
      ['Write the parser', 'Read the spec'],
    );
    assert.deepEqual(d.next_steps[0].source, { reader: 'claude-code', file: TRANSCRIPT, time: '2026-12-01T10:00:00.000Z' });
    assert.equal(d.left_out.collapsed_todos, 1, 'the cancelled item is counted as collapsed');
  });

  it(`keeps at most ${MAX_DRAFTED_PLAN_ITEMS} items per list and counts the rest, and the items the reader left out, as collapsed`, () => {
    const items: PlanItem[] = [
      ...Array.from({ length: 35 }, (_, i) => ({ text: `open ${i}`, status: i === 0 ? ('in_progress' as const) : ('pending' as const) })),
      ...Array.from({ length: 32 }, (_, i) => ({ text: `done ${i}`, status: 'completed' as const })),
    ];
    const d = draftFromEvidence(evidence(session({ plan: { ...plan(items)!, items_omitted: 4 } })), { userRequestTokens: 1500, countTokens });
    assert.equal(d.next_steps.length, MAX_DRAFTED_PLAN_ITEMS);
    assert.equal(d.next_steps[0].text, 'open 0');
    assert.equal(d.completed.length, MAX_DRAFTED_PLAN_ITEMS);
    assert.equal(d.left_out.collapsed_todos, 5 + 2 + 4);
  });

  it('keeps the newest user requests within the token bound, oldest first, and counts the older ones', () => {
    const texts = [
      'First: set up the project with npm.',
      'Second: add a parser for the config file.',
      'Third: no, use YAML instead of JSON.',
      'Fourth: and keep the old keys working.',
      'Fifth: now write the tests for it.',
    ];
    const requests = texts.map((t, i) => request(t, i));
    const bound = countTokens(texts[3]) + countTokens(texts[4]);
    const d = draftFromEvidence(evidence(session({ user_requests: requests, user_requests_seen: 7 })), { userRequestTokens: bound, countTokens });
    assert.deepEqual(
      d.user_requests.map((r) => r.text),
      [texts[3], texts[4]],
    );
    assert.deepEqual(d.user_requests[1], { text: texts[4], time: '2026-12-01T10:04:00.000Z', source: 'claude-code', file: TRANSCRIPT });
    assert.equal(d.left_out.older_requests, 5, 'seven seen, two kept');
    // One token fewer: only the latest fits.
    const tighter = draftFromEvidence(evidence(session({ user_requests: requests })), { userRequestTokens: bound - 1, countTokens });
    assert.deepEqual(
      tighter.user_requests.map((r) => r.text),
      [texts[4]],
    );
    assert.equal(tighter.left_out.older_requests, 4);
  });

  it('keeps what exact counts keep, for bounds around the upper bound of tokens (a token is at least one byte), counting only below it', () => {
    const cl100k = counterFor('cl100k_base');
    // Texts of the kinds users type: prose, code, paths, emoji, CJK, accents, runs of spaces and
    // of one character, a long run without whitespace, a special-token string, a lone surrogate.
    const texts = [
      'Fix the login bug in src/auth/session.ts and run `npm test`.',
      'const total = items.reduce((n, i) => n + i.price * i.qty, 0); // cents',
      'Bitte prüfe die Übersetzung — “Größe” und naïve façade, ça va?',
      '请把结账页面的总价显示为分，并保留旧的 API 格式。',
      'Ship it 🚀🔥👍🏽 and 👨‍👩‍👧‍👦 emoji test',
      `spaces:${' '.repeat(300)}end\n\n\n\t\t\t`,
      'x'.repeat(5000),
      Array.from({ length: 3000 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 94))).join(''),
      'literally <|endoftext|> and <|fim_prefix|> in a message',
      'half a pair: \ud83d then text',
    ];
    for (const t of texts) {
      const bytes = Buffer.byteLength(t, 'utf8');
      assert.ok(countTokens(t) <= bytes, `o200k: ${countTokens(t)} tokens > ${bytes} bytes for ${JSON.stringify(t.slice(0, 40))}`);
      assert.ok(cl100k.count(t).tokens <= bytes, `cl100k: more tokens than bytes for ${JSON.stringify(t.slice(0, 40))}`);
    }
    // The same requests kept as by counting each one, for bounds around the upper bound.
    const requests = texts.map((t, i) => request(t, i));
    const upper = texts.reduce((n, t) => n + tokenUpperBound(t), 0);
    const exact = (bound: number) => {
      const kept: string[] = [];
      let spent = 0;
      for (let i = texts.length - 1; i >= 0; i--) {
        const n = countTokens(texts[i]);
        if (kept.length > 0 && spent + n > bound) break;
        kept.unshift(texts[i]);
        spent += n;
      }
      return kept;
    };
    for (const bound of [0, 50, 1000, 2000, 3000, upper - 1, upper, upper + 1, 20_000]) {
      let counted = 0;
      const d = draftFromEvidence(evidence(session({ user_requests: requests })), {
        userRequestTokens: bound,
        countTokens: (t) => (counted++, countTokens(t)),
      });
      assert.deepEqual(
        d.user_requests.map((r) => r.text),
        exact(bound),
        `bound ${bound}`,
      );
      assert.equal(counted === 0, bound >= upper, `bound ${bound}: counted ${counted} times`);
    }
  });

  it('keeps every request without counting when even their upper bound of tokens fits (the hook does not wait for its tokenizer here)', () => {
    const texts = ['Add a cart total to the checkout page.', 'No — show the total in cents (購物車).', 'And keep the old API format 🙂'];
    const requests = texts.map((t, i) => request(t, i));
    const upper = texts.reduce((n, t) => n + tokenUpperBound(t), 0);
    const d = draftFromEvidence(evidence(session({ user_requests: requests })), {
      userRequestTokens: upper,
      countTokens: () => assert.fail('nothing to count'),
    });
    assert.deepEqual(
      d.user_requests.map((r) => r.text),
      texts,
    );
    assert.equal(d.left_out.older_requests, 0);
    // Under the upper bound they are counted, and still all fit by their real count.
    let counted = 0;
    const e = draftFromEvidence(evidence(session({ user_requests: requests })), {
      userRequestTokens: upper - 1,
      countTokens: (t) => (counted++, countTokens(t)),
    });
    assert.deepEqual(
      e.user_requests.map((r) => r.text),
      texts,
    );
    assert.equal(counted, texts.length);
  });

  it('always keeps the latest request, even alone over the bound and with a bound of 0', () => {
    const long = `Please refactor the whole module: ${'rename every handler and keep the behaviour, '.repeat(60)}`;
    const requests = [request('an older short one', 1), request(long, 2)];
    for (const bound of [10, 0]) {
      const d = draftFromEvidence(evidence(session({ user_requests: requests })), { userRequestTokens: bound, countTokens });
      assert.deepEqual(
        d.user_requests.map((r) => r.text),
        [long],
        `bound ${bound}`,
      );
      assert.ok(countTokens(long) > 10);
      assert.equal(d.left_out.older_requests, 1);
    }
  });

  it(`lists the first ${DEFAULT_COMMANDS_CAP} command entries by default (failures first, as the evidence orders them), counts the rest and the runs not listed`, () => {
    const commands = [command('npm run build', 'failed', 3), ...Array.from({ length: 19 }, (_, i) => command(`npm run step-${i}`, 'succeeded', 2))];
    const d = draftFromEvidence(evidence(session({ commands_run: commands, commands_seen: 50 })), { userRequestTokens: 1500, countTokens });
    assert.equal(d.commands_run.length, DEFAULT_COMMANDS_CAP);
    assert.equal(d.commands_run[0].command, 'npm run build');
    assert.equal(d.commands_run_omitted, 20 - DEFAULT_COMMANDS_CAP);
    // 50 runs seen; listed: 3 + 14 × 2 = 31.
    assert.equal(d.left_out.commands_beyond_cap, 50 - 31);
    const capped = draftFromEvidence(evidence(session({ commands_run: commands })), { userRequestTokens: 1500, countTokens, commandsCap: 2 });
    assert.deepEqual(
      capped.commands_run.map((c) => c.command),
      ['npm run build', 'npm run step-0'],
    );
    assert.equal(capped.commands_run_omitted, 18);
    assert.equal(capped.left_out.commands_beyond_cap, 18 * 2);
  });

  it('counts the session turns not kept as recent turns', () => {
    const turns: Turn[] = Array.from({ length: 10 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', text: `turn ${i}` }));
    assert.equal(
      draftFromEvidence(evidence(session({ recent_turns: turns, turns_seen: 40 })), { userRequestTokens: 1500, countTokens, includeRecentTurns: 5 }).left_out
        .turns,
      35,
    );
    assert.equal(draftFromEvidence(evidence(session({ recent_turns: turns })), { userRequestTokens: 1500, countTokens }).left_out.turns, 0);
  });

  it('writes a short summary from evidence alone: what was asked, what was done (plan and commits from git), where it stands', async () => {
    const ws = initRepo(tempDir('handoff-drafting-'));
    write(ws, 'src/config.ts', 'export const a = 1;\n');
    commitAll(ws, 'Add the config parser');
    write(ws, 'src/config.ts', 'export const a = 2;\n');
    commitAll(ws, 'Read YAML instead of JSON');
    const git = await collectEvidenceFor({ workspaceRoot: ws });
    assert.equal(git.commits.length, 2);
    const draftedSession = () =>
      session({
        user_requests: [request('Set up the config parser.', 1), request('Now make it read YAML\nand keep the old keys working.', 2)],
        plan: plan([
          { text: 'Parse YAML', status: 'completed' },
          { text: 'Keep the old keys', status: 'in_progress' },
          { text: 'Write the tests', status: 'pending' },
        ]),
        tests_run: [test('npm test', 'failed', 1, '2026-12-01T10:05:00.000Z'), test('npm test', 'passed', 0, '2026-12-01T10:07:00.000Z')],
        recent_turns: [
          { role: 'user', text: 'go on' },
          { role: 'assistant', text: 'The old keys are mapped; the tests are next.', time: '2026-12-01T10:08:00.000Z' },
        ],
        transcripts: [
          {
            source: 'claude-code',
            file: TRANSCRIPT,
            commands: 2,
            commands_kept: 2,
            test_runs: 2,
            turns: 2,
            edits: 0,
            malformed: 0,
            skipped: 0,
            invalid_utf8: 0,
          },
        ],
      });
    const d = draftFromEvidence(evidence(draftedSession(), git), { userRequestTokens: 1500, countTokens });
    const lines = d.summary.text.split('\n');
    assert.deepEqual(
      lines.map((l) => l.split(':')[0]),
      ['Asked', 'Done', 'Now'],
    );
    assert.equal(lines[0], 'Asked: "Now make it read YAML and keep the old keys working."');
    // No base commit (no previous handoff, no upstream): git lists the repository's latest
    // commits, which may predate the session — named as such, never counted as done.
    assert.equal(git.baseCommit, null);
    assert.match(
      lines[1],
      /^Done: 1 plan item completed \(Parse YAML\); the latest commits, no base commit yet \((Read YAML instead of JSON; Add the config parser|Add the config parser; Read YAML instead of JSON)\)\.$/,
    );
    assert.match(lines[2], /last test run `npm test` passed \(exit 0\)/);
    assert.match(lines[2], /open plan items \(in progress: Keep the old keys, 1 pending\)/);
    assert.match(lines[2], /the agent's last message: "The old keys are mapped; the tests are next\."/);
    assert.deepEqual(
      d.summary.sources.map((s) => s.reader),
      ['claude-code', 'claude-code', 'git', 'claude-code', 'claude-code'],
    );
    assert.deepEqual(d.blockers, [], 'the last test run passed: no blocker, although an earlier one failed');
    assert.deepEqual(d.decisions, []);
    assert.deepEqual(d.failed_approaches, []);
    // The summary alone (the hook's, issue 19: no tokenizer) is the same summary, sources and all.
    assert.deepEqual(draftSummaryFromEvidence(evidence(draftedSession(), git)), d.summary);
  });

  it('counts the commits since the base commit as done; without one it does not count the whole history', async () => {
    const ws = initRepo(tempDir('handoff-drafting-'));
    const old = Array.from({ length: 12 }, (_, i) => {
      write(ws, 'old.txt', `${i}\n`);
      return commitAll(ws, `Old work ${i}`);
    });
    write(ws, 'src/new.ts', 'export const b = 1;\n');
    commitAll(ws, 'Add the session work');
    const withBase = draftFromEvidence(evidence(undefined, await collectGitEvidence({ cwd: ws, baseCommit: old.at(-1) })), {
      userRequestTokens: 1500,
      countTokens,
    });
    assert.equal(withBase.summary.text, 'Done: 1 commit (Add the session work).');
    const noBase = draftFromEvidence(evidence(undefined, await collectGitEvidence({ cwd: ws })), { userRequestTokens: 1500, countTokens });
    assert.equal(noBase.summary.text, 'Done: the latest commits, no base commit yet (Add the session work; Old work 11; Old work 10; …).');
  });

  it('drafts a blocker from a failing last test run, naming it', () => {
    const failing = { ...test('npx mocha test/unit', 'failed', 1, '2026-12-01T10:09:00.000Z'), counts: { passed: 40, failed: 2 } };
    const d = draftFromEvidence(evidence(session({ tests_run: [test('npx mocha test/unit', 'passed', 0, '2026-12-01T10:01:00.000Z'), failing] })), {
      userRequestTokens: 1500,
      countTokens,
    });
    assert.equal(d.blockers.length, 1);
    assert.equal(d.blockers[0].text, 'The last test run failed: `npx mocha test/unit` failed (exit 1; 2 failed, 40 passed) at 2026-12-01T10:09:00.000Z.');
    assert.deepEqual(d.blockers[0].source, { reader: 'claude-code', file: null, time: '2026-12-01T10:09:00.000Z' });
  });

  it('is deterministic, leaves its input unchanged, and drafts from git alone without a session log', () => {
    const s = session({
      user_requests: [request('one', 1), request('two', 2)],
      plan: plan([{ text: 'a', status: 'pending' }]),
      commands_run: [command('npm ci', 'succeeded')],
      tests_run: [test('npm test', 'failed', 1, '2026-12-01T10:00:00.000Z')],
    });
    const before = JSON.stringify(s);
    const a = draftFromEvidence(evidence(s), { userRequestTokens: 1500, countTokens });
    const b = draftFromEvidence(evidence(s), { userRequestTokens: 1500, countTokens });
    assert.deepEqual(a, b);
    assert.equal(JSON.stringify(a), JSON.stringify(b));
    assert.equal(JSON.stringify(s), before, 'the evidence is not changed');
    const gitOnly = draftFromEvidence(evidence(undefined), { userRequestTokens: 1500, countTokens });
    assert.deepEqual(gitOnly, {
      summary: { text: '', sources: [] },
      decisions: [],
      failed_approaches: [],
      next_steps: [],
      blockers: [],
      completed: [],
      user_requests: [],
      commands_run: [],
      commands_run_omitted: 0,
      left_out: { older_requests: 0, commands_beyond_cap: 0, collapsed_todos: 0, turns: 0 },
    });
  });
});
