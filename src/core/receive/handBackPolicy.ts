/**
 * The hand-back status policy: which status a handoff is recorded with when a
 * specialist hands back, and the one-screen summary shown before the user confirms.
 *
 * The policy table follows the hand-back status policy (docs/DESIGN.md §5 "Hand-back policy": complete /
 * in_progress / blocked / session note only) with docs/DESIGN.md §5's test rule: a handoff
 * cannot be recorded `complete` while a recorded test failed after the last passing run.
 *
 * Pure: no I/O.
 */
import { codeSpan, formatCount, plural } from '../handoff/render';
import type { TestRun } from '../handoff/schema';

export { AcceptanceCheckSchema, type AcceptanceCheck } from '../handoff/schema';
import type { AcceptanceCheck } from '../handoff/schema';

/** A status a hand-back can record on a handoff (a subset of docs/DESIGN.md §5's handoff statuses). */
export type ResultStatus = 'complete' | 'in_progress' | 'blocked';

/** Inputs of {@link resultStatus}. */
export interface ResultStatusInput {
  /** Whether the session maps reliably to a handoff it can hand back. */
  readonly matched: boolean;
  /** The acceptance criteria checked, in display order. */
  readonly criteria: readonly AcceptanceCheck[];
  /** The recorded test runs, chronological (oldest first); the order is trusted, not re-sorted. */
  readonly tests: readonly TestRun[];
  /** External blockers; blank entries are ignored. */
  readonly blockers: readonly string[];
}

/** Outcome of {@link resultStatus}: the status to record (or `note_only`) and the reasons in words. */
export interface ResultStatusDecision {
  readonly status: ResultStatus | 'note_only';
  readonly reasons: string[];
}

/** Most failing runs named one by one in the reasons; the rest are counted. */
export const MAX_FAILURES_NAMED = 5;

/** Text on one line: line breaks and runs of spaces become one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The failing test runs that block `complete`: every `failed` run after the last `passed` one (all
 * failures when none passed). A result resting on the agent's claim alone (`basis: 'claim'`) is no
 * recorded result: neither a pass nor a failure here.
 */
export function failuresAfterLastPass(all: readonly TestRun[]): { failures: TestRun[]; lastPass: TestRun | undefined } {
  const tests = all.filter((t) => t.basis !== 'claim');
  let last = -1;
  for (let i = tests.length - 1; i >= 0; i--) {
    if (tests[i].result === 'passed') {
      last = i;
      break;
    }
  }
  return { failures: tests.slice(last + 1).filter((t) => t.result === 'failed'), lastPass: last >= 0 ? tests[last] : undefined };
}

function testReasons(tests: readonly TestRun[]): { blocking: string[]; info: string[] } {
  const { failures, lastPass } = failuresAfterLastPass(tests);
  const when = (t: TestRun): string => (t.started_at ? `at ${t.started_at}` : '(time not recorded)');
  const blocking = failures.slice(0, MAX_FAILURES_NAMED).map((t) =>
    lastPass
      ? `Test ${codeSpan(t.command)} failed ${when(t)} after the last passing run (${codeSpan(lastPass.command)}); run the tests again and record a passing run.`
      : `Test ${codeSpan(t.command)} failed ${when(t)} and no test run has passed since; fix the failure and record a passing run.`,
  );
  if (failures.length > MAX_FAILURES_NAMED) {
    blocking.push(`… and ${plural(failures.length - MAX_FAILURES_NAMED, 'more failing test run')}.`);
  }
  const info: string[] = [];
  const unknown = tests.filter((t) => t.result === 'unknown').length;
  if (unknown > 0) {
    info.push(`${plural(unknown, 'test run')} with an unknown result ${unknown === 1 ? 'was' : 'were'} not counted as passing or failing.`);
  }
  return { blocking, info };
}

/**
 * The hand-back status policy, first matching row wins:
 *
 * | local state | status |
 * |---|---|
 * | `matched` false: no handoff maps reliably to this session | `note_only` — write a session note only; no handoff status changes |
 * | at least one non-blank blocker | `blocked` |
 * | at least one criterion, every criterion met, and no test `failed` after the last `passed` run | `complete` |
 * | anything else (work started, criteria open or missing, or a failing test) | `in_progress` |
 *
 * Tests are read in the order given (oldest first). Every `failed` run after the last
 * `passed` run blocks `complete`; failures with no passing run at all block it too; a
 * failure followed by a pass does not; `unknown` results neither pass nor fail. No test
 * runs at all do not block `complete` (nothing failed).
 *
 * Source: docs/DESIGN.md §5 "Hand-back policy" (hand-back status policy) for the four rows; docs/DESIGN.md §5 for the
 * test rule.
 *
 * @returns the status and `reasons`: sentences the user can act on, e.g. "Acceptance
 *   criterion not met: …", "Test `npm test` failed at … after the last passing run …".
 *   `blocked` lists the blockers first, then what else keeps the work from complete.
 *   Never throws.
 */
export function resultStatus(input: ResultStatusInput): ResultStatusDecision {
  if (!input.matched) {
    return {
      status: 'note_only',
      reasons: ['No handoff matches this session, so only a session note is written; no handoff status changes. Pick the handoff this work belongs to if there is one.'],
    };
  }
  const blockers = input.blockers.map(oneLine).filter((b) => b.length > 0);
  const unmet = input.criteria.filter((c) => !c.met);
  const criteriaReasons: string[] =
    input.criteria.length === 0
      ? ['No acceptance criteria were checked; add at least one and mark it met to record the handoff complete.']
      : unmet.map((c) => `Acceptance criterion not met: ${oneLine(c.criterion)}`);
  const tests = testReasons(input.tests);

  if (blockers.length > 0) {
    return {
      status: 'blocked',
      reasons: [...blockers.map((b) => `Blocked: ${b}`), ...criteriaReasons, ...tests.blocking, ...tests.info],
    };
  }
  if (criteriaReasons.length === 0 && tests.blocking.length === 0) {
    const { lastPass } = failuresAfterLastPass(input.tests);
    const testLine = lastPass
      ? `The last recorded test run that passed, ${codeSpan(lastPass.command)}, has no failure after it.`
      : 'No test run failed (none with a pass or fail result was recorded).';
    return {
      status: 'complete',
      reasons: [
        input.criteria.length === 1 ? 'The acceptance criterion is met.' : `All ${formatCount(input.criteria.length)} acceptance criteria are met.`,
        testLine,
        ...tests.info,
      ],
    };
  }
  return { status: 'in_progress', reasons: [...criteriaReasons, ...tests.blocking, ...tests.info] };
}

/** Icon of each recorded status in the summary (the hand-back status policy's output format, docs/DESIGN.md §5 "Hand-back policy"). */
export const RESULT_ICONS: Readonly<Record<ResultStatus, string>> = Object.freeze({ complete: '✅', in_progress: '🟡', blocked: '🚫' });

/** Icon of the line that introduces the issues of a hand-back. */
export const ISSUES_ICON = '⚠️';

/**
 * The one-screen summary of a hand-back, as lines (no line ends):
 * one `<icon> <label> — <status>` line per entry (e.g. `✅ Auth refresh — complete`,
 * `🟡 … — in_progress`, `🚫 … — blocked`), then, when there are failures, a line
 * `⚠️ N issue(s):` (`1 issue:`, `2 issues:`) and one `- <label>: <message>` per failure.
 * Labels and messages are put on one line (line breaks become spaces). Format after the
 * hand-back status policy's output (docs/DESIGN.md §5 "Hand-back policy").
 *
 * @param entries what was recorded, in display order
 * @param failures what could not be recorded and why, in display order
 */
export function resultSummaryLines(
  entries: ReadonlyArray<{ label: string; status: ResultStatus }>,
  failures: ReadonlyArray<{ label: string; message: string }>,
): string[] {
  const lines = entries.map((e) => `${RESULT_ICONS[e.status]} ${oneLine(e.label)} — ${e.status}`);
  if (failures.length > 0) {
    lines.push(`${ISSUES_ICON} ${plural(failures.length, 'issue')}:`);
    for (const f of failures) {
      lines.push(`- ${oneLine(f.label)}: ${oneLine(f.message)}`);
    }
  }
  return lines;
}
