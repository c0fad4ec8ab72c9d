/**
 * A test run's result as the agent's own words state it, for a run whose log holds neither an
 * exit code nor the runner's output (SpecStory blocks of the Cursor extension, a Cline command
 * with no output): "All tests pass now." after the run. Such a result is shown with its basis,
 * the agent's claim — never as an exit code — and is no evidence for a claim (src/core/receive/claims.ts).
 * Success statements are found by the claim rules (src/core/receive/claimRules.ts); failures by
 * the plain statements below (a condition or a plan — "if the tests fail" — states none). Pure.
 */
import { findClaims } from '../receive/claims';
import { NOT_A_STATEMENT } from '../receive/claimRules';

/** Words before a failure that say there is none ("no tests fail", "none of the tests failed"). */
const NONE_FAILED = /\b(?:no|not|none|never|zero|without)\b|n['’]t\b/;

/** "3 tests fail", "the tests are still failing", "2 failed", "test suite fails": a failure stated. */
const FAILED = /\b(?:\d+\s+(?:tests?\s+|specs?\s+)?fail(?:s|ed|ing|ures?)\b|(?:tests?|specs?|suite)\s+(?:are\s+|is\s+)?(?:still\s+)?(?:fail(?:s|ed|ing)?|broken|red)\b)/i;

/**
 * The result the agent's words state for the test run before them: `failed` when a failure is
 * stated (not negated: "no tests fail" states none), else `passed` when a tests-pass claim is
 * found, else undefined.
 * @param text the agent's words after the run, up to its next tool use or the user's next turn
 */
export function claimedTestResult(text: string): 'passed' | 'failed' | undefined {
  for (const sentence of text.split(/(?<=[.!?])\s+|\r?\n/)) {
    const m = FAILED.exec(sentence);
    if (!m || /\b0\s+fail/i.test(m[0])) continue;
    const lower = sentence.toLowerCase();
    if (!NONE_FAILED.test(lower.slice(0, (m.index ?? 0) + m[0].length)) && !NOT_A_STATEMENT.test(lower)) return 'failed';
  }
  return findClaims({ summary: text, decisions: [], completed: [], user_requests: [] }).some((c) => c.kind === 'tests') ? 'passed' : undefined;
}
