/** A test run's result as the agent's words state it, for logs with neither exit code nor output; never evidence for a claim. */
import { findClaims } from '../receive/claims';
import { NOT_A_STATEMENT } from '../receive/claimRules';

/** Words before a failure that say there is none ("no tests fail", "none of the tests failed"). */
const NONE_FAILED = /\b(?:no|not|none|never|zero|without)\b|n['’]t\b/;

const FAILED =
  /\b(?:\d+\s+(?:tests?\s+|specs?\s+)?fail(?:s|ed|ing|ures?)\b|(?:tests?|specs?|suite)\s+(?:are\s+|is\s+)?(?:still\s+)?(?:fail(?:s|ed|ing)?|broken|red)\b)/i;

/** `failed` when a failure is stated and not negated, else `passed` on a tests-pass claim. `text`: the agent's words after the run. */
export function claimedTestResult(text: string): 'passed' | 'failed' | undefined {
  for (const sentence of text.split(/(?<=[.!?])\s+|\r?\n/)) {
    const m = FAILED.exec(sentence);
    if (!m || /\b0\s+fail/i.test(m[0])) continue;
    const lower = sentence.toLowerCase();
    if (!NONE_FAILED.test(lower.slice(0, (m.index ?? 0) + m[0].length)) && !NOT_A_STATEMENT.test(lower)) return 'failed';
  }
  return findClaims({ summary: text, decisions: [], completed: [], user_requests: [] }).some((c) => c.kind === 'tests') ? 'passed' : undefined;
}
