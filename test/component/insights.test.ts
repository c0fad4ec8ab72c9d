/**
 * Issue 21, "Unit tests on a generated history (known timestamps and statuses) give the exact
 * figures": a real git repository in a temporary folder, a history written by the real engine
 * and store with fixed clocks — handoffs, pick-ups (the prompt marks them accepted), status
 * events (Set Status), results (hand-backs, one retried, one with a failing test), a chain to
 * past the depth limit on a confirmation — and the figures readInsights gives, to the
 * millisecond.
 */
import assert from 'node:assert/strict';
import { InsightsSchema, type Insights } from '../../src/core/timeline/insights';
import { HandoverOkSchema, type TestRun } from '../../src/core/handoff/schema';
import { handover } from '../../src/engine/handover/handover';
import { readInsights } from '../../src/engine/timeline/insights';
import { openProject, type Project } from '../../src/engine/project/project';
import { buildPrompt } from '../../src/engine/receive/prompt';
import { recordResult } from '../../src/engine/receive/recordResult';
import { setHandoffStatus } from '../../src/store/handoffs/handoffStore';
import { formatInsights } from '../../src/cli/insights';
import { EXIT_BAD_INPUT, EXIT_OK } from '../../src/cli/main';
import { cli, repoWithWork } from '../helpers/cli';
import { cleanupTempDirs } from '../helpers/repo';

const T0 = Date.parse('2026-11-20T09:00:00.000Z');
const MIN = 60_000;
const DAY = 1440;
const at = (minute: number) => new Date(T0 + minute * MIN);
const iso = (minute: number) => at(minute).toISOString();
/** The clock of the figures: ten days after the first handoff. */
const NOW = 10 * DAY;
const WARN_2_DAYS = 2 * DAY * MIN;

const failing: TestRun = { command: 'npm test', cwd: null, exit_code: 1, result: 'failed', source: 'user', started_at: iso(110), duration_ms: 1200 };
const passing: TestRun = { command: 'npm test', cwd: null, exit_code: 0, result: 'passed', source: 'user', started_at: iso(230), duration_ms: 1100 };

interface History {
  readonly dir: string;
  readonly project: Project;
  readonly ids: Record<'A1' | 'B1' | 'B2' | 'B3' | 'B4' | 'C1' | 'D1', string>;
}

async function handoffAt(
  dir: string,
  minute: number,
  specialist: string,
  topic: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; file: string }> {
  const r = HandoverOkSchema.parse(
    await handover(
      { specialist, topic, summary: `Work on ${topic}.`, next_steps: ['Do the next part'], ...extra },
      { workspaceRoot: dir, now: () => at(minute), sessionId: `s-${minute}` },
    ),
  );
  return { id: r.package.id, file: r.handoff_file };
}

async function handBack(dir: string, minute: number, specialist: string, handoffId: string, extra: Record<string, unknown>): Promise<void> {
  const r = await recordResult(
    { specialist, handoffs: [handoffId], summary: 'Handing back.', proceed_if_taken: true, ...extra },
    { workspaceRoot: dir, now: () => at(minute), sessionId: `r-${minute}` },
  );
  assert.equal(r.status, 'ok', JSON.stringify(r));
  assert.ok(r.status === 'ok' && r.entries.length === 1, JSON.stringify(r));
}

async function pickUp(dir: string, minute: number, handoffId: string): Promise<void> {
  const r = await buildPrompt({ handoff: handoffId }, { workspaceRoot: dir, now: () => at(minute), sessionId: `p-${minute}` });
  assert.ok(r.status === 'ok' && r.taken, JSON.stringify(r));
}

async function setStatus(file: string, minute: number, to: 'accepted' | 'complete'): Promise<void> {
  const r = await setHandoffStatus(file, to, { at: iso(minute), session_id: `set-${minute}` });
  assert.ok(r.ok, JSON.stringify(r));
}

/**
 * The history (minutes after T0 = 2026-11-20 09:00 UTC):
 * - chain A: A1 → quality_reviewer at 0, picked up at 60; hand-backs in progress at 120 (a
 *   failing test) and 180 (a retry), complete at 240;
 * - chain B: B1 → codebase_explorer at 1440 (accepted 1470, complete 1490); B2 →
 *   implementation_engineer at 1500, handed back blocked at 1600; B3 → test_debug_engineer at
 *   1560, picked up at 1600 and never answered; B4 → security_data_engineer at 1620, hop 4 past
 *   the limit of 3 on a confirmation, still pending;
 * - C1 → quality_reviewer a day before now, pending; D1 → implementation_engineer at day 8,
 *   accepted an hour before now.
 */
async function writeHistory(): Promise<History> {
  const dir = repoWithWork();
  const A1 = await handoffAt(dir, 0, 'quality_reviewer', 'token auth');
  await pickUp(dir, 60, A1.id);
  await handBack(dir, 120, 'quality_reviewer', A1.id, { tests_run: [failing] });
  await handBack(dir, 180, 'quality_reviewer', A1.id, {});
  await handBack(dir, 240, 'quality_reviewer', A1.id, { criteria_met: 'all', tests_run: [passing] });

  const B1 = await handoffAt(dir, DAY, 'codebase_explorer', 'billing');
  await setStatus(B1.file, DAY + 30, 'accepted');
  await setStatus(B1.file, DAY + 50, 'complete');
  const B2 = await handoffAt(dir, DAY + 60, 'implementation_engineer', 'billing', { parent: B1.id });
  const B3 = await handoffAt(dir, DAY + 120, 'test_debug_engineer', 'billing', { parent: B2.id });
  await handBack(dir, DAY + 160, 'implementation_engineer', B2.id, { blockers: ['The payment sandbox is down'] });
  await pickUp(dir, DAY + 160, B3.id);
  const B4 = await handoffAt(dir, DAY + 180, 'security_data_engineer', 'billing', { parent: B3.id, hop_guard_confirmed: true });

  const C1 = await handoffAt(dir, NOW - DAY, 'quality_reviewer', 'search');
  const D1 = await handoffAt(dir, 8 * DAY, 'implementation_engineer', 'exports');
  await setStatus(D1.file, NOW - 60, 'accepted');

  const opened = await openProject({ workspaceRoot: dir });
  assert.ok(opened.ok);
  return { dir, project: opened.project, ids: { A1: A1.id, B1: B1.id, B2: B2.id, B3: B3.id, B4: B4.id, C1: C1.id, D1: D1.id } };
}

const zero = {
  written: 0,
  picked_up: 0,
  pending: 0,
  accepted: 0,
  in_progress: 0,
  completed: 0,
  blocked: 0,
  partial: 0,
  pending_too_long: 0,
  unanswered_too_long: 0,
  median_pickup_ms: null,
  median_complete_ms: null,
  handbacks: 0,
  retries: 0,
  tests_failing_at_handback: 0,
};

describe('insights of a generated history (issue 21)', function () {
  this.timeout(60_000);
  let h: History;
  let all: Insights;
  before(async () => {
    h = await writeHistory();
    all = await readInsights(h.project, { now: at(NOW), pendingWarnAfterMs: WARN_2_DAYS });
  });
  after(cleanupTempDirs);

  it('matches its zod schema, and reads every file of the history', () => {
    assert.deepEqual(InsightsSchema.parse(all), all);
    assert.equal(all.files_read, 11, '7 handoffs and 4 results');
    assert.equal(all.files_unreadable, 0);
    assert.deepEqual(all.period, { since: null, until: iso(NOW) });
    assert.equal(all.generated_at, iso(NOW));
    assert.equal(all.pending_warn_after_ms, WARN_2_DAYS);
  });

  it('gives the exact overall figures', () => {
    assert.deepEqual(all.overall, {
      written: 7,
      picked_up: 5, // A1, B1, B2 (its blocked hand-back), B3, D1
      pending: 2, // B4, C1
      accepted: 2, // B3, D1
      in_progress: 0,
      completed: 2, // A1, B1
      blocked: 1, // B2
      partial: 0,
      pending_too_long: 1, // B4 (C1 waits one day only)
      unanswered_too_long: 1, // B3 (D1 was accepted an hour ago)
      median_pickup_ms: 60 * MIN, // 30, 40, 60, 100, 2,820 minutes
      median_complete_ms: 145 * MIN, // (50 + 240) / 2 minutes
      handbacks: 4,
      retries: 1, // A1 came back in progress twice
      tests_failing_at_handback: 1, // A1's first hand-back
    });
  });

  it('gives the exact figures per specialist', () => {
    assert.deepEqual(all.specialists, [
      { specialist: 'codebase_explorer', ...zero, written: 1, picked_up: 1, completed: 1, median_pickup_ms: 30 * MIN, median_complete_ms: 50 * MIN },
      { specialist: 'implementation_engineer', ...zero, written: 2, picked_up: 2, accepted: 1, blocked: 1, median_pickup_ms: 1460 * MIN, handbacks: 1 },
      {
        specialist: 'quality_reviewer',
        ...zero,
        written: 2,
        picked_up: 1,
        pending: 1,
        completed: 1,
        median_pickup_ms: 60 * MIN,
        median_complete_ms: 240 * MIN,
        handbacks: 3,
        retries: 1,
        tests_failing_at_handback: 1,
      },
      { specialist: 'security_data_engineer', ...zero, written: 1, pending: 1, pending_too_long: 1 },
      { specialist: 'test_debug_engineer', ...zero, written: 1, picked_up: 1, accepted: 1, unanswered_too_long: 1, median_pickup_ms: 40 * MIN },
    ]);
  });

  it('counts the chains by length and the one that reached, and went past, the depth limit', () => {
    assert.deepEqual(all.chains, {
      total: 4,
      by_length: [
        { hops: 1, chains: 3 },
        { hops: 4, chains: 1 },
      ],
      reached_depth_limit: 1,
      past_depth_limit: 1,
      max_depth: 3,
    });
    // A limit of 5 hops: chain B (4 hops) has not reached it.
    return readInsights(h.project, { now: at(NOW), pendingWarnAfterMs: WARN_2_DAYS, maxDepth: 5 }).then((i) => {
      assert.equal(i.chains.reached_depth_limit, 0);
      assert.equal(i.chains.past_depth_limit, 1, 'B4 was written past the limit it had then');
    });
  });

  it('lists the handoffs waiting too long, oldest first, with since when', () => {
    assert.deepEqual(all.waiting, [
      {
        id: h.ids.B3,
        specialist: 'test_debug_engineer',
        from: 'implementation_engineer',
        topic: 'billing',
        waiting: 'answer',
        since: iso(DAY + 160),
        age_ms: (NOW - DAY - 160) * MIN,
      },
      {
        id: h.ids.B4,
        specialist: 'security_data_engineer',
        from: 'test_debug_engineer',
        topic: 'billing',
        waiting: 'pickup',
        since: iso(DAY + 180),
        age_ms: (NOW - DAY - 180) * MIN,
      },
    ]);
    assert.equal(all.waiting_omitted, 0);
  });

  it('figures a period: only what was written since the date', async () => {
    const i = await readInsights(h.project, { since: at(DAY), now: at(NOW), pendingWarnAfterMs: WARN_2_DAYS });
    assert.deepEqual(i.period, { since: iso(DAY), until: iso(NOW) });
    assert.equal(i.files_read, 7, 'chain A and its results are older');
    assert.deepEqual(i.overall, {
      ...zero,
      written: 6,
      picked_up: 4,
      pending: 2,
      accepted: 2,
      completed: 1,
      blocked: 1,
      pending_too_long: 1,
      unanswered_too_long: 1,
      median_pickup_ms: 70 * MIN,
      median_complete_ms: 50 * MIN,
      handbacks: 1,
    });
    assert.equal(i.chains.total, 3);
  });

  it('warns about nothing when the warning is off, and about more with a shorter one', async () => {
    const off = await readInsights(h.project, { now: at(NOW), pendingWarnAfterMs: 0 });
    assert.equal(off.overall.pending_too_long + off.overall.unanswered_too_long, 0);
    assert.deepEqual(off.waiting, []);
    const hour = await readInsights(h.project, { now: at(NOW), pendingWarnAfterMs: 30 * MIN });
    assert.deepEqual(
      hour.waiting.map((w) => w.id),
      [h.ids.B3, h.ids.B4, h.ids.C1, h.ids.D1],
    );
  });

  it('CLI: "insights --json" prints the Insights object readInsights gives at the same instant', async () => {
    const r = await cli(['insights', '--json', '--since', '2026-11-21'], h.dir);
    assert.equal(r.code, EXIT_OK, r.err);
    const printed = InsightsSchema.parse(JSON.parse(r.out));
    const expected = await readInsights(h.project, {
      since: new Date('2026-11-21T00:00:00.000Z'),
      now: new Date(printed.generated_at),
      pendingWarnAfterMs: WARN_2_DAYS,
    });
    assert.deepEqual(printed, expected);
    assert.equal(printed.overall.written, 6);
  });

  it('CLI: the table names every specialist, the totals, the chains and who waits since when', () => {
    const lines = formatInsights(all).split('\n');
    assert.equal(lines[0], 'Handoff insights, all handoffs, until 2026-11-30 09:00 UTC (warning after 2 days waiting; times are medians)');
    const header = lines[2].split(/\s{2,}/);
    assert.deepEqual(header, [
      'specialist',
      'written',
      'picked up',
      'pending',
      'accepted',
      'in progress',
      'complete',
      'blocked',
      'waiting too long',
      'to pick up',
      'to complete',
      'hand-backs',
      'retries',
      'failing tests',
    ]);
    const row = (name: string) => lines.find((l) => l.startsWith(`${name} `))?.split(/\s{2,}/);
    assert.deepEqual(row('quality_reviewer'), ['quality_reviewer', '2', '1', '1', '0', '0', '1', '0', '0', '1 h', '4 h', '3', '1', '1']);
    assert.deepEqual(
      row('implementation_engineer'),
      ['implementation_engineer', '2', '2', '0', '1', '0', '0', '1', '0', '1 d', '—', '1', '0', '0'],
      'the median of 100 and 2,820 minutes: 1,460 minutes, 1 day and 20 minutes, shown in days and hours',
    );
    assert.deepEqual(row('all'), ['all', '7', '5', '2', '2', '0', '2', '1', '2', '1 h', '2 h 25 min', '4', '1', '1']);
    assert.ok(lines.includes('Chains: 4 (3 of 1 hop, 1 of 4 hops); 1 reached the depth limit of 3 hops, 1 went past it on a confirmation.'), lines.join('\n'));
    assert.ok(
      lines.includes(
        `- ${h.ids.B3} (to test_debug_engineer, from implementation_engineer, billing): accepted since 2026-11-21 11:40 UTC (8 days), never answered`,
      ),
      lines.join('\n'),
    );
    assert.ok(
      lines.includes(
        `- ${h.ids.B4} (to security_data_engineer, from test_debug_engineer, billing): pending since 2026-11-21 12:00 UTC (8 days), not picked up`,
      ),
      lines.join('\n'),
    );
  });

  it('CLI: bad flags name the flag and the fix, exit 2, and print nothing else', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--since', 'last week'], /^ERROR: --since must be a date such as 2026-11-28 \(UTC\) or an ISO 8601 time with its zone/],
      [['--since', '2026-02-30'], /^ERROR: --since must be a date/],
      [['--since', '2999-01-01'], /^ERROR: --since 2999-01-01 is in the future/],
      [
        ['--pending-warn-after', 'soon'],
        /^ERROR: --pending-warn-after is "soon", which is not a duration — give --pending-warn-after a whole number and a unit/,
      ],
      [['--pending-warn-after', '0h'], /^ERROR: --pending-warn-after is "0h": a warning after no time at all/],
      [['--max-depth', '0'], /^ERROR: --max-depth must be from 1 to 100 hops \(got 0\)/],
      [['--summary', 'x'], /^ERROR: --summary is not an option of "insights"/],
    ];
    for (const [args, expected] of cases) {
      const r = await cli(['insights', ...args], h.dir);
      assert.equal(r.code, EXIT_BAD_INPUT, args.join(' '));
      assert.match(r.err, expected);
      assert.equal(r.out, '');
    }
  });

  it('CLI: a project without handoffs says so and exits 0', async () => {
    const r = await cli(['insights', '--pending-warn-after', 'off'], repoWithWork());
    assert.equal(r.code, EXIT_OK, r.err);
    assert.match(r.out, /\(no waiting warning; times are medians\)\n\nNo handoff yet\.$/);
  });
});
