import assert from 'node:assert/strict';
import {
  AcceptanceCheckSchema,
  RESULT_ICONS,
  failuresAfterLastPass,
  resultStatus,
  resultSummaryLines,
  type AcceptanceCheck,
  type ResultStatusDecision,
} from '../../../../src/core/receive/handBackPolicy';
import { TestRunSchema, type TestRun } from '../../../../src/core/handoff/schema';

function run(command: string, result: TestRun['result'], started_at: string | null = null): TestRun {
  return TestRunSchema.parse({ command, result, started_at, exit_code: result === 'passed' ? 0 : result === 'failed' ? 1 : null });
}

const MET: AcceptanceCheck = { criterion: 'refresh tokens rotate', met: true };
const OPEN: AcceptanceCheck = { criterion: 'logout revokes tokens', met: false };
const PASS = run('npm test', 'passed', '2026-05-26T14:00:00Z');
const FAIL = run('npm test', 'failed', '2026-05-26T15:00:00Z');

describe('hand-back status policy', () => {
  const table: Array<{
    row: string;
    matched: boolean;
    criteria: AcceptanceCheck[];
    tests: TestRun[];
    blockers: string[];
    status: ResultStatusDecision['status'];
  }> = [
    { row: 'no matching handoff → session note only', matched: false, criteria: [MET], tests: [PASS], blockers: [], status: 'note_only' },
    { row: 'no matching handoff wins over a blocker', matched: false, criteria: [], tests: [], blockers: ['waiting on API keys'], status: 'note_only' },
    { row: 'a blocker → blocked', matched: true, criteria: [MET], tests: [PASS], blockers: ['waiting on API keys'], status: 'blocked' },
    {
      row: 'a blocker wins over open criteria and failing tests',
      matched: true,
      criteria: [OPEN],
      tests: [FAIL],
      blockers: ['design decision pending'],
      status: 'blocked',
    },
    {
      row: 'all criteria met and tests pass → complete',
      matched: true,
      criteria: [MET, { criterion: 'b', met: true }],
      tests: [PASS],
      blockers: [],
      status: 'complete',
    },
    { row: 'all criteria met, no tests recorded → complete', matched: true, criteria: [MET], tests: [], blockers: [], status: 'complete' },
    { row: 'a criterion open → in_progress', matched: true, criteria: [MET, OPEN], tests: [PASS], blockers: [], status: 'in_progress' },
    { row: 'no criteria at all → in_progress', matched: true, criteria: [], tests: [PASS], blockers: [], status: 'in_progress' },
    {
      row: 'criteria met but a test failed after the last pass → in_progress',
      matched: true,
      criteria: [MET],
      tests: [PASS, FAIL],
      blockers: [],
      status: 'in_progress',
    },
    { row: 'blank blockers are ignored', matched: true, criteria: [MET], tests: [PASS], blockers: ['', '  \n'], status: 'complete' },
  ];
  for (const t of table) {
    it(t.row, () => {
      const out = resultStatus({ matched: t.matched, criteria: t.criteria, tests: t.tests, blockers: t.blockers });
      assert.equal(out.status, t.status);
      assert.ok(out.reasons.length > 0, 'every decision explains itself');
    });
  }

  it('explains the note-only row', () => {
    const out = resultStatus({ matched: false, criteria: [], tests: [], blockers: [] });
    assert.match(out.reasons[0], /only a session note/);
  });

  it('lists blockers first, then what else keeps the work from complete', () => {
    const out = resultStatus({ matched: true, criteria: [OPEN], tests: [FAIL], blockers: ['waiting on\nAPI keys'] });
    assert.equal(out.reasons[0], 'Blocked: waiting on API keys');
    assert.equal(out.reasons[1], 'Acceptance criterion not met: logout revokes tokens');
    assert.match(out.reasons[2], /^Test `npm test` failed at 2026-05-26T15:00:00Z and no test run has passed since/);
  });

  it('names what to do when no criteria were checked', () => {
    const out = resultStatus({ matched: true, criteria: [], tests: [], blockers: [] });
    assert.deepEqual(out.reasons, ['No acceptance criteria were checked; add at least one and mark it met to record the handoff complete.']);
  });

  it('says why it is complete', () => {
    const out = resultStatus({ matched: true, criteria: [MET], tests: [PASS], blockers: [] });
    assert.deepEqual(out.reasons, ['The acceptance criterion is met.', 'The last recorded test run that passed, `npm test`, has no failure after it.']);
  });
});

describe('hand-back test order', () => {
  const decide = (tests: TestRun[]): ResultStatusDecision => resultStatus({ matched: true, criteria: [MET], tests, blockers: [] });

  it('a failure followed by a pass allows complete', () => {
    assert.equal(decide([FAIL, PASS]).status, 'complete');
    const two = resultStatus({ matched: true, criteria: [MET, MET], tests: [FAIL, PASS], blockers: [] });
    assert.equal(two.reasons[0], 'All 2 acceptance criteria are met.');
  });

  it('a failure after the last pass blocks complete and names the run and its time', () => {
    const out = decide([PASS, FAIL]);
    assert.equal(out.status, 'in_progress');
    assert.equal(
      out.reasons[0],
      'Test `npm test` failed at 2026-05-26T15:00:00Z after the last passing run (`npm test`); run the tests again and record a passing run.',
    );
  });

  it('failures with no pass at all block complete', () => {
    const out = decide([run('pytest', 'failed')]);
    assert.equal(out.status, 'in_progress');
    assert.match(out.reasons[0], /^Test `pytest` failed \(time not recorded\) and no test run has passed since/);
  });

  it('unknown results neither pass nor fail', () => {
    const unknown = run('make test', 'unknown');
    assert.equal(decide([unknown]).status, 'complete');
    assert.equal(decide([FAIL, unknown]).status, 'in_progress', 'an unknown run does not clear a failure');
    assert.equal(decide([PASS, unknown]).status, 'complete', 'an unknown run does not fail a pass');
    assert.equal(decide([FAIL, PASS, unknown, unknown]).status, 'complete');
    assert.match(decide([unknown, unknown]).reasons.at(-1) ?? '', /^2 test runs with an unknown result were not counted/);
  });

  it('the order given is the order read (oldest first), not started_at', () => {
    // The caller passes chronological order; a pass listed last clears earlier failures.
    assert.equal(decide([FAIL, run('npm test', 'passed', '2020-01-01T00:00:00Z')]).status, 'complete');
  });

  it('any failure after the last pass counts, even of another command', () => {
    const out = decide([PASS, run('npm run lint', 'failed'), run('npm run e2e', 'passed'), run('pytest', 'failed')]);
    assert.equal(out.status, 'in_progress');
    assert.equal(out.reasons.length, 1);
    assert.match(out.reasons[0], /`pytest`.*after the last passing run \(`npm run e2e`\)/);
  });

  it('names at most five failing runs and counts the rest', () => {
    const out = decide(Array.from({ length: 8 }, (_, i) => run(`t${i}`, 'failed')));
    assert.equal(out.reasons.length, 6);
    assert.equal(out.reasons[5], '… and 3 more failing test runs.');
  });

  it('failuresAfterLastPass returns the blocking failures and the last pass', () => {
    const tests = [FAIL, PASS, run('a', 'unknown'), FAIL, run('b', 'failed')];
    const { failures, lastPass } = failuresAfterLastPass(tests);
    assert.equal(lastPass, PASS);
    assert.deepEqual(failures, [FAIL, tests[4]]);
    assert.deepEqual(failuresAfterLastPass([]), { failures: [], lastPass: undefined });
  });
});

describe('hand-back summary lines', () => {
  it('one line per entry with its icon, then the issues', () => {
    const lines = resultSummaryLines(
      [
        { label: 'auth-refresh', status: 'complete' },
        { label: 'logout', status: 'in_progress' },
        { label: 'billing', status: 'blocked' },
      ],
      [
        { label: 'billing', message: 'could not write the handoff: disk full' },
        { label: 'search', message: 'no matching\nhandoff' },
      ],
    );
    assert.deepEqual(lines, [
      '✅ auth-refresh — complete',
      '🟡 logout — in_progress',
      '🚫 billing — blocked',
      '⚠️ 2 issues:',
      '- billing: could not write the handoff: disk full',
      '- search: no matching handoff',
    ]);
  });

  it('no issues line without failures, and the singular for one', () => {
    assert.deepEqual(resultSummaryLines([{ label: 'a', status: 'complete' }], []), ['✅ a — complete']);
    assert.deepEqual(resultSummaryLines([], [{ label: 'a', message: 'm' }]), ['⚠️ 1 issue:', '- a: m']);
  });

  it('has an icon for every status', () => {
    assert.deepEqual(RESULT_ICONS, { complete: '✅', in_progress: '🟡', blocked: '🚫' });
  });

  it('validates acceptance checks with zod', () => {
    assert.ok(AcceptanceCheckSchema.safeParse({ criterion: 'x', met: true }).success);
    assert.ok(!AcceptanceCheckSchema.safeParse({ criterion: '  ', met: true }).success);
    assert.ok(!AcceptanceCheckSchema.safeParse({ criterion: 'x', met: 'yes' }).success);
    assert.ok(!AcceptanceCheckSchema.safeParse({ criterion: 'x', met: true, extra: 1 }).success);
  });
});
