/** Which status a hand-back records on a handoff, and the one-screen summary shown before the user confirms. */
import { codeSpan } from '../handoff/codeSpan';
import { formatCount } from '../handoff/limits';
import { plural } from '../handoff/text';
import type { TestRun } from '../handoff/schema';

export { AcceptanceCheckSchema, type AcceptanceCheck } from '../handoff/schema';
import type { AcceptanceCheck } from '../handoff/schema';

/** The handoff statuses a hand-back can record. */
export type ResultStatus = 'complete' | 'in_progress' | 'blocked';

export interface ResultStatusInput {
  /** Whether the session maps reliably to a handoff. */
  readonly matched: boolean;
  readonly criteria: readonly AcceptanceCheck[];
  /** Oldest first; the order is trusted, not re-sorted. */
  readonly tests: readonly TestRun[];
  /** Blank entries are ignored. */
  readonly blockers: readonly string[];
}

export interface ResultStatusDecision {
  readonly status: ResultStatus | 'note_only';
  readonly reasons: string[];
}

/** Most failing runs named one by one in the reasons; the rest are counted. */
export const MAX_FAILURES_NAMED = 5;

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Every `failed` run after the last `passed` one (all when none passed); a result resting on the agent's claim counts as neither. */
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
  const blocking = failures
    .slice(0, MAX_FAILURES_NAMED)
    .map((t) =>
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
 * First matching row wins: not `matched` → `note_only` (no status changes); a blocker → `blocked`; every criterion met
 * (at least one) and no test failed after the last pass → `complete`; else `in_progress`. No test runs at all do not
 * block `complete`. `reasons` are sentences the user can act on. Never throws.
 */
export function resultStatus(input: ResultStatusInput): ResultStatusDecision {
  if (!input.matched) {
    return {
      status: 'note_only',
      reasons: [
        'No handoff matches this session, so only a session note is written; no handoff status changes. Pick the handoff this work belongs to if there is one.',
      ],
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

/** Icons of the statuses in the summary. */
export const RESULT_ICONS: Readonly<Record<ResultStatus, string>> = Object.freeze({ complete: '✅', in_progress: '🟡', blocked: '🚫' });

export const ISSUES_ICON = '⚠️';

/** `✅ Auth refresh — complete` per entry, then `⚠️ 2 issues:` and `- <label>: <message>` per failure, each on one line. */
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
