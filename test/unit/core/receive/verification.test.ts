/**
 * The pure side of verify on receipt (src/core/receive/verification.ts, issue 18): each
 * judging rule, the line's wording (the issue's own example), the briefing section, the
 * stored file's format, and the "Tests run" lines read back (parseTestsRun, the inverse of
 * renderTestRun).
 */
import assert from 'node:assert/strict';
import { parseTestsRun } from '../../../../src/core/handoff/draftSections';
import { TestRunSchema, type TestRun } from '../../../../src/core/handoff/fields';
import { renderTestRun } from '../../../../src/core/handoff/render';
import {
  countRechecks,
  judgeRecheck,
  parseVerificationFile,
  renderVerificationFile,
  renderVerificationSection,
  verificationLine,
  type Recheck,
  type RecheckInput,
  type Verification,
} from '../../../../src/core/receive/verification';

const passed = { result: 'ok' as const, exit_code: 0, at: null };
const failed = { result: 'failed' as const, exit_code: 1, at: null };
const ran = (exit_code: number | null, extra: Partial<NonNullable<RecheckInput['now']>> = {}) => ({ exit_code, timed_out: false, duration_ms: 1234, ...extra });
const test = (input: Partial<RecheckInput>): Recheck => judgeRecheck({ kind: 'test', command: 'npm test', cwd: null, recorded: passed, ...input });

function verification(rechecks: Recheck[], extra: Partial<Verification> = {}): Verification {
  return {
    schema: 1,
    handoff_id: '2026-12-01T09-00-00.000Z_quality_reviewer',
    checked_at: '2026-12-01T10:00:00.000Z',
    session_id: 's1',
    ran: true,
    stale: false,
    staleness: [],
    rechecks,
    counts: countRechecks(rechecks),
    ...extra,
  };
}

describe('verify on receipt: judging a re-run against the recorded result', () => {
  it('same outcome → verified, a different one → contradicted, for tests and builds, success as exit code 0', () => {
    const cases: Array<[Recheck, Recheck['verdict'], string]> = [
      [test({ now: ran(0) }), 'verified', 'passed at handoff (exit code 0), passes now (exit code 0)'],
      [test({ now: ran(1) }), 'contradicted', 'passed at handoff (exit code 0), fails now (exit code 1)'],
      [test({ recorded: failed, now: ran(2) }), 'verified', 'failed at handoff (exit code 1), fails now (exit code 2)'],
      [test({ recorded: failed, now: ran(0) }), 'contradicted', 'failed at handoff (exit code 1), passes now (exit code 0)'],
      [
        judgeRecheck({ kind: 'build', command: 'npm run build', cwd: 'web', recorded: passed, now: ran(0) }),
        'verified',
        'succeeded at handoff (exit code 0), succeeds now (exit code 0)',
      ],
      [
        judgeRecheck({ kind: 'build', command: 'npm run build', cwd: 'web', recorded: failed, now: ran(0) }),
        'contradicted',
        'failed at handoff (exit code 1), succeeds now (exit code 0)',
      ],
      [
        test({ recorded: { result: 'ok', exit_code: null, at: null }, now: ran(1) }),
        'contradicted',
        'passed at handoff (exit code not recorded), fails now (exit code 1)',
      ],
    ];
    for (const [r, verdict, reason] of cases) {
      assert.equal(r.verdict, verdict, reason);
      assert.equal(r.reason, reason);
    }
  });

  it('unverifiable with the reason: folder gone, could not start, timed out, cancelled, exit 127 / 126, no exit code, nothing recorded to compare', () => {
    const cases: Array<[Recheck, string]> = [
      [
        test({ missing: 'the folder packages/api is gone', now: ran(0) }),
        'passed at handoff (exit code 0); cannot be re-run here: the folder packages/api is gone',
      ],
      [test({ now: ran(null, { error: 'spawn /bin/sh ENOENT' }) }), 'passed at handoff (exit code 0); could not be started now: spawn /bin/sh ENOENT'],
      [test({ now: ran(null, { timed_out: true }), timeoutMs: 600_000 }), 'passed at handoff (exit code 0); timed out after 600 s now and was stopped'],
      [test({ now: ran(null, { timed_out: true }), cancelled: true }), 'passed at handoff (exit code 0); cancelled before it finished'],
      [test({ now: ran(127) }), 'passed at handoff (exit code 0); the command is not found here now (exit code 127)'],
      [test({ now: ran(126) }), 'passed at handoff (exit code 0); the command cannot be executed here now (exit code 126)'],
      [test({ now: ran(null) }), 'passed at handoff (exit code 0); it ended now without an exit code'],
      [
        test({ recorded: { result: 'unknown', exit_code: null, at: null }, now: ran(0) }),
        'had an unknown result at handoff (exit code not recorded); passes now (exit code 0): nothing recorded to compare with',
      ],
    ];
    for (const [r, reason] of cases) {
      assert.equal(r.verdict, 'unverifiable', reason);
      assert.equal(r.reason, reason);
    }
    assert.equal(test({ missing: 'gone' }).now, null, 'a folder gone never ran');
  });

  it('not run without consent, or when cancelled before it started; counted by verdict', () => {
    const noConsent = test({});
    assert.deepEqual(
      [noConsent.verdict, noConsent.now, noConsent.reason],
      ['not_run', null, "passed at handoff (exit code 0); not re-run (re-running needs the user's consent)"],
    );
    assert.equal(test({ cancelled: true }).reason, 'passed at handoff (exit code 0); not re-run: the verification was cancelled');
    assert.deepEqual(countRechecks([noConsent, test({ now: ran(0) }), test({ now: ran(1) }), test({ now: ran(1) }), test({ now: ran(127) })]), {
      verified: 1,
      contradicted: 2,
      unverifiable: 1,
      not_run: 1,
    });
  });
});

describe('verify on receipt: the line, the briefing section and the stored file', () => {
  it("the line is issue 18's wording: 'Checked at <time>: 2 verified, 1 contradicted: `npm test` passed at handoff, fails now'", () => {
    const v = verification([
      judgeRecheck({ kind: 'build', command: 'npm run build', cwd: null, recorded: passed, now: ran(0) }),
      test({ command: 'npm run lint:types', now: ran(0) }),
      test({ now: ran(1) }),
    ]);
    assert.equal(verificationLine(v), 'Checked at 2026-12-01T10:00:00.000Z: 2 verified, 1 contradicted: `npm test` passed at handoff, fails now');
  });

  it('unverifiable ones are named when nothing is contradicted; at most 3, then "and N more"; stale and not-run said so; none at all said so', () => {
    const gone = (cmd: string) => test({ command: cmd, missing: `the folder ${cmd} is gone` });
    assert.equal(
      verificationLine(verification([test({ now: ran(0) }), test({ command: 'pytest', now: ran(127) })])),
      'Checked at 2026-12-01T10:00:00.000Z: 1 verified, 1 unverifiable: `pytest` passed at handoff; the command is not found here now',
    );
    assert.match(
      verificationLine(verification(['a', 'b', 'c', 'd', 'e'].map(gone))),
      /: 5 unverifiable: `a` .*; `b` .*; `c` passed at handoff; cannot be re-run here: the folder c is gone; and 2 more$/,
    );
    assert.equal(
      verificationLine(verification([test({})], { ran: false, stale: true })),
      'Checked at 2026-12-01T10:00:00.000Z: 1 not run (not re-run: staleness only); the workspace changed since the handoff',
    );
    assert.equal(verificationLine(verification([])), 'Checked at 2026-12-01T10:00:00.000Z: no recorded test or build command to re-run');
    // One line, and the line break shown as the shell gets it (`npm` then `test`, two commands), not folded into a space.
    assert.equal(
      verificationLine(verification([test({ command: 'npm\ntest', now: ran(1) })])),
      'Checked at 2026-12-01T10:00:00.000Z: 1 contradicted: `npm\\ntest` passed at handoff, fails now',
      'one line',
    );
  });

  it('the briefing section: a "## " section with the line, one item per recheck, the staleness and the link; text from others cannot add a heading', () => {
    const v = verification(
      [
        test({ now: ran(1) }),
        judgeRecheck({ kind: 'build', command: 'make', cwd: 'packages/api', recorded: passed, missing: 'the folder packages/api is gone' }),
      ],
      {
        stale: true,
        staleness: ['1 commit since the handoff: `abc1234` ## not a heading', '# planted heading'],
      },
    );
    const text = renderVerificationSection(v, '../../handoffs/2026-12-01T09-00-00.000Z_quality_reviewer.md');
    assert.equal(
      text,
      [
        '',
        '## 2026-12-01T10:00:00.000Z — verification of 2026-12-01T09-00-00.000Z_quality_reviewer',
        '',
        verificationLine(v),
        '',
        '- ❌ contradicted: `npm test` (test) — passed at handoff (exit code 0), fails now (exit code 1); 1.2 s',
        '- ❔ unverifiable: `make` (build in `packages/api`) — succeeded at handoff (exit code 0); cannot be re-run here: the folder packages/api is gone',
        '',
        '**Staleness:**',
        '- 1 commit since the handoff: `abc1234` ## not a heading',
        '- \\# planted heading',
        '',
        '**Handoff:** [2026-12-01T09-00-00.000Z_quality_reviewer](../../handoffs/2026-12-01T09-00-00.000Z_quality_reviewer.md)',
        '',
      ].join('\n'),
    );
    assert.deepEqual(
      text.split('\n').filter((l) => /^ {0,3}#/.test(l)),
      ['## 2026-12-01T10:00:00.000Z — verification of 2026-12-01T09-00-00.000Z_quality_reviewer'],
      'one heading: its own',
    );
    assert.match(
      renderVerificationSection(verification([])),
      /\*\*Staleness:\*\* the handoff matches the workspace: nothing changed since it was written\.\n$/,
    );
  });

  it('the stored file is one line of JSON; read back only under an event name and for its own handoff', () => {
    const v = verification([test({ now: ran(0) })]);
    const text = renderVerificationFile(v);
    assert.ok(text.endsWith('}\n') && !text.slice(0, -1).includes('\n'));
    const name = '2026-12-01T10-00-00.000Z_0a1b2c3d.json';
    assert.deepEqual(parseVerificationFile(name, text, v.handoff_id), v);
    assert.equal(parseVerificationFile('latest.json', text, v.handoff_id), undefined, 'not an event name');
    assert.equal(parseVerificationFile(name, text, 'another_handoff'), undefined, "copied into another handoff's folder");
    assert.equal(parseVerificationFile(name, '{not json', v.handoff_id), undefined);
    assert.equal(parseVerificationFile(name, JSON.stringify({ ...v, extra: 1 }), v.handoff_id), undefined, 'strict schema');
    assert.throws(() => renderVerificationFile({ ...v, schema: 2 as 1 }));
  });
});

describe('the "Tests run" lines read back (parseTestsRun, the inverse of renderTestRun)', () => {
  const runs: TestRun[] = [
    {
      command: 'npm test',
      cwd: null,
      exit_code: 0,
      result: 'passed',
      basis: 'exit code',
      counts: { passed: 12, failed: 0 },
      source: 'claude-code',
      started_at: null,
      duration_ms: null,
    },
    {
      command: 'npx vitest run --reporter=dot',
      cwd: 'packages/api',
      exit_code: 1,
      result: 'failed',
      basis: 'exit code',
      source: 'codex',
      started_at: null,
      duration_ms: null,
    },
    {
      command: 'pytest -k "a and `b`"',
      cwd: 'py dir/with `tick`',
      exit_code: null,
      result: 'passed',
      basis: 'output',
      counts: { passed: 3, skipped: 1 },
      source: 'aider',
      started_at: null,
      duration_ms: null,
    },
    { command: '`go test ./...`', cwd: null, exit_code: null, result: 'unknown', source: 'user', started_at: null, duration_ms: null },
    {
      command: 'cargo test',
      cwd: null,
      exit_code: -1,
      result: 'failed',
      basis: 'exit code',
      counts: { failed: 2 },
      source: 'recorder',
      started_at: null,
      duration_ms: null,
    },
  ].map((r) => TestRunSchema.parse(r));

  it('every line renderTestRun writes is read back to the same run (its time and duration are not in the line)', () => {
    const section = runs.map((t) => renderTestRun(t)).join('\n');
    assert.deepEqual(parseTestsRun(section), runs);
    assert.equal(renderTestRun(runs[1]), '- ❌ failed `npx vitest run --reporter=dot` (exit 1; in `packages/api`; source: codex)');
  });

  it('the workspace folder (`.` or none) is not written; other lines of the section are skipped', () => {
    const dot = TestRunSchema.parse({ command: 'npm test', cwd: '.', exit_code: 0, result: 'passed', source: 'claude-code' });
    assert.equal(renderTestRun(dot), '- ✅ passed `npm test` (exit 0; source: claude-code)');
    const section = [
      '- … and 3 more (passing runs cut to fit the token budget)',
      renderTestRun(dot),
      '',
      '_Session log read: claude-code `x.jsonl` (2 commands)._',
      '- ✅ passed not code (exit 0)',
    ].join('\n');
    assert.deepEqual(
      parseTestsRun(section).map((t) => [t.command, t.cwd]),
      [['npm test', null]],
    );
  });
});
