/**
 * `npm run test:real`, issue 18 ("Claims and their evidence"): the claim rules on the words
 * people and agents really wrote — every user and assistant turn of every real session log in
 * ../shared/fixtures/session-logs, read in place through the readers (never copied). Requests,
 * questions, negations and plans in them are never claims of success, whatever field they are
 * put in (a summary, a user request, even a plan item marked done); the real success
 * statements are found; and Cline's "All 41 tests passed." is backed by the task's own
 * recorded run (no exit code in Cline's log: its printed 41/41 summary, basis output).
 */
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { findClaims, judgeClaims, type FoundClaim } from '../../src/core/receive/claims';
import type { SessionCommand, SessionTurn } from '../../src/core/session/events';
import { testRunsFrom } from '../../src/core/session/testDetection';
import { readByContent } from '../../src/evidence/session/agentReaders';
import { FIXTURES } from '../helpers/latestRequest';

/** Every file and folder under `dir`. */
function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = path.join(dir, n);
      return statSync(p).isDirectory() ? [p, ...walk(p)] : [p];
    });
}

interface Transcript {
  readonly rel: string;
  readonly turns: SessionTurn[];
  readonly commands: SessionCommand[];
  readonly source: Parameters<typeof testRunsFrom>[1];
}

/** Each transcript once (a Cline task folder and its files read as the same task). */
async function transcripts(): Promise<Transcript[]> {
  const out: Transcript[] = [];
  const seen = new Set<string>();
  for (const p of walk(FIXTURES)) {
    const r = await readByContent(p);
    if (!r) continue;
    const turns = r.read.events.filter((e): e is SessionTurn => e.kind === 'turn');
    const key = JSON.stringify(turns.map((t) => t.text));
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      rel: path.relative(FIXTURES, p),
      turns,
      commands: r.read.events.filter((e): e is SessionCommand => e.kind === 'command'),
      source: r.read.source,
    });
  }
  return out;
}

/** The claims of one text put in each field in turn. */
function claimsIn(text: string): Array<FoundClaim & { as: string }> {
  const none = { summary: '', decisions: [], completed: [], user_requests: [] };
  return [
    ...findClaims({ ...none, summary: text }).map((c) => ({ ...c, as: 'summary' })),
    ...findClaims({ ...none, decisions: [text] }).map((c) => ({ ...c, as: 'decisions' })),
    ...findClaims({ ...none, user_requests: [text] }).map((c) => ({ ...c, as: 'user_requests' })),
    ...findClaims({ ...none, completed: [text] }).map((c) => ({ ...c, as: 'completed' })),
  ];
}

/** Real phrasings of the fixtures that are requests, questions or plans: [file, words as the reader gives them]. */
const NOT_CLAIMS: Array<[string, string]> = [
  ['aider/metadata-aider.aider.chat.history.md', 'Please fix the frontend UI so that it does not use Chart.js or any external libraries.'],
  ['aider/metadata-aider.aider.chat.history.md', 'To fix the frontend UI so that it does not use Chart.js or any external libraries, I will modify'],
  ['aider/metadata-aider.aider.chat.history.md', 'help me debug why the labels on the chart are not displayinh'],
  ['claude-code/claude-code-log-representative_messages.jsonl', 'Can you run that example to show the output?'],
  ['claude-code/pyrycode-clean-trimmed.jsonl', '- [ ] `make vet`, `make test`, `make build` clean.'],
  ['claude-code/pyrycode-clean-trimmed.jsonl', "I'll run the security review pass after writing the spec."],
  ['cline/gmfstu-task-1769053680585', 'Now let me verify the implementation by running the golden tests:'],
  ['codex/agent-history-codex_with_escalation.jsonl', "I'll create a test file for you."],
  ['specstory/better-agents-2025-11-15_06-33Z-check-and-fix-tag-format-in-config.md', 'can you check our @.release-please-config.json and fix this?'],
  ['specstory/better-agents-2025-11-15_06-33Z-check-and-fix-tag-format-in-config.md', "I'm migrating this from another project"],
  ['specstory/better-agents-2025-11-15_06-33Z-check-and-fix-tag-format-in-config.md', 'Yes, your migration looks correct!'],
];

describe('claims on real phrasings (../shared/fixtures/session-logs, read in place)', function () {
  this.timeout(30_000);
  let all: Transcript[];
  before(async () => {
    all = await transcripts();
  });

  it('reads every transcript of the fixtures, with user and assistant turns', () => {
    assert.ok(all.length >= 9, `transcripts: ${all.map((t) => t.rel).join(', ')}`);
    assert.ok(all.flatMap((t) => t.turns).filter((t) => t.role === 'user').length >= 30);
    assert.ok(all.flatMap((t) => t.turns).filter((t) => t.role === 'assistant').length >= 30);
  });

  it("no user turn is a claim of success, in any field (requests, questions, a ticket's open criteria)", () => {
    const found = all.flatMap((t) =>
      t.turns.filter((u) => u.role === 'user').flatMap((u) => claimsIn(u.text).map((c) => `${t.rel} (${c.as}): ${c.kind} “${c.text}”`)),
    );
    assert.deepEqual(found, []);
  });

  it('the requests, questions and plans of the fixtures are in the turns as written, and none is a claim', () => {
    for (const [rel, words] of NOT_CLAIMS) {
      const t = all.find((x) => x.rel === rel);
      assert.ok(t, rel);
      assert.ok(
        t.turns.some((u) => u.text.includes(words)),
        `${rel} holds "${words}"`,
      );
      assert.deepEqual(claimsIn(words), [], words);
    }
  });

  it('the real success statements are found: only Cline\'s "All 41 tests passed." and "All 41 golden tests passing, …", as tests claims', () => {
    const found = all.flatMap((t) =>
      t.turns
        .filter((u) => u.role === 'assistant')
        .flatMap((u) => findClaims({ summary: u.text, decisions: [], completed: [], user_requests: [] }))
        .map((c) => [t.rel, c.kind, c.text]),
    );
    assert.deepEqual(found, [
      ['cline/gmfstu-task-1769053680585', 'tests', 'All 41 tests passed.'],
      ['cline/gmfstu-task-1769053680585', 'tests', 'All 41 golden tests passing, including 12 network security tests'],
    ]);
  });

  it("Cline's claim is backed by the task's own recorded test run, on the basis of its printed summary", () => {
    const cline = all.find((t) => t.rel === 'cline/gmfstu-task-1769053680585');
    assert.ok(cline);
    const last = cline.turns.filter((t) => t.role === 'assistant').at(-2);
    assert.ok(last);
    const claims = judgeClaims(findClaims({ summary: last.text, decisions: [], completed: [], user_requests: [] }), {
      tests_run: testRunsFrom(cline.commands, cline.source),
      commands_run: [],
      commits: [],
    });
    assert.deepEqual(
      claims.map((c) => [c.text, c.verdict, c.evidence?.command, c.evidence?.result, c.evidence?.basis, c.evidence?.exit_code]),
      [
        [
          'All 41 tests passed.',
          'backed',
          'cd /workspaces/Online-Card-Architecture/golden_tests && dotnet run --configuration Release',
          'passed',
          'output',
          null,
        ],
      ],
    );
  });
});
