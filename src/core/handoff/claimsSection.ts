/**
 * The handoff file's **Claims** section (docs/DESIGN.md §5), right after the Summary:
 * each statement the handoff makes about the state of the work with its verdict and the
 * evidence it rests on (src/core/receive/claims.ts finds and judges them), and the briefing's
 * one-line count. Pure: rendering only.
 */
import { codeSpan } from './codeSpan';
import type { Claim, ClaimEvidence, ClaimKind, ClaimVerdict } from '../receive/claimSchema';
import { countClaims } from '../receive/claimSchema';

export { countClaims };

/** Claims listed one by one (the rest are counted): 20, contradicted first, then no evidence, then backed. */
export const CLAIMS_LISTED = 20;

/** The verdict as the section shows it: ✅ backed, ❌ contradicted, ❔ claimed, no evidence. */
export const VERDICT_WORDS: Readonly<Record<ClaimVerdict, string>> = Object.freeze({
  backed: '✅ **backed**',
  contradicted: '❌ **contradicted**',
  no_evidence: '❔ **claimed, no evidence**',
});

/** What is missing when a claim has no evidence, per kind. */
const MISSING: Readonly<Record<ClaimKind, string>> = {
  tests: 'no test run with a result was recorded',
  lint: 'no lint command (eslint, ruff, `npm run lint` …) was recorded',
  typecheck: 'no type-check command (tsc, mypy, pyright, `npm run typecheck` …) was recorded',
  build: 'no build command was recorded',
  migration: 'no migration command was recorded',
  deploy: 'no deploy command was recorded',
  fix: 'no commit names the issue',
};

const KIND_WORDS: Readonly<Record<ClaimKind, string>> = { tests: 'tests', lint: 'lint', typecheck: 'type-check', build: 'build', migration: 'migration', deploy: 'deploy', fix: 'fix' };

const FIELD_WORDS: Readonly<Record<Claim['field'], string>> = { summary: 'summary', decisions: 'decisions', completed: 'done', user_requests: 'user requests' };

const ORDER: readonly ClaimVerdict[] = ['contradicted', 'no_evidence', 'backed'];

/** Text on one line (control characters as spaces). */
function flat(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/g, ' ').trim();
}

/**
 * The evidence in words: a run — `` `npm run lint` succeeded (exit 0; in `.`; at 2026-…; source: claude-code) ``,
 * its basis named when it is the output (no exit code); a commit — `` commit `1a2b3c4d5e` Fix login (#12) (2026-…) ``.
 */
export function describeEvidence(e: ClaimEvidence): string {
  if (e.basis === 'commit') {
    const [sha, ...subject] = e.command.split(' ');
    return `commit ${codeSpan(sha)}${subject.length ? ` ${flat(subject.join(' '))}` : ''}${e.at ? ` (${flat(e.at).slice(0, 10)})` : ''}`;
  }
  const details = [e.exit_code !== null ? `exit ${e.exit_code}` : e.basis === 'output' ? 'no exit code: result read from the output' : 'exit code unknown'];
  if (e.cwd) details.push(`in ${codeSpan(e.cwd)}`);
  if (e.at) details.push(`at ${flat(e.at).replace(/\s+/g, '_')}`);
  details.push(`source: ${flat(e.source) || '?'}`);
  return `${codeSpan(e.command)} ${e.result} (${details.join('; ')})`;
}

/**
 * One line for a claim: verdict, kind, the claim's words quoted, where it was made, then its
 * evidence or what is missing, e.g.
 * ``- ❌ **contradicted** · tests: “All tests pass.” (summary) — `npm test` failed (exit 1; source: claude-code)``.
 */
export function renderClaim(c: Claim): string {
  const why = c.evidence ? describeEvidence(c.evidence) : MISSING[c.kind];
  return `- ${VERDICT_WORDS[c.verdict]} · ${KIND_WORDS[c.kind]}: “${flat(c.text)}” (${FIELD_WORDS[c.field]}) — ${why}`;
}

/** The claims counted in words, verdicts with none left out: "1 contradicted, 2 backed", or "none". */
export function claimCountsLine(claims: readonly Pick<Claim, 'verdict'>[]): string {
  const n = countClaims(claims);
  const parts = ORDER.filter((v) => n[v] > 0).map((v) => `${n[v]} ${v === 'no_evidence' ? 'claimed, no evidence' : v}`);
  return parts.length ? parts.join(', ') : 'none';
}

/**
 * The "Claims" section's body: one line per claim ({@link renderClaim}), contradicted first,
 * then no evidence, then backed (found order within each), at most {@link CLAIMS_LISTED}, then
 * "… and N more (counts)"; `_None._` when the handoff makes no claim.
 */
export function renderClaims(claims: readonly Claim[]): string {
  if (!claims.length) return '_None._';
  const ordered = ORDER.flatMap((v) => claims.filter((c) => c.verdict === v));
  const lines = ordered.slice(0, CLAIMS_LISTED).map(renderClaim);
  const rest = ordered.slice(CLAIMS_LISTED);
  if (rest.length) lines.push(`- … and ${rest.length} more (${claimCountsLine(rest)})`);
  return lines.join('\n');
}

/** ` — contradicted: tests “…”; lint “…”` naming the first 3 contradicted claims, or '' when none is. */
function contradictedText(claims: readonly Claim[]): string {
  const contradicted = claims.filter((c) => c.verdict === 'contradicted').slice(0, 3);
  return contradicted.length ? ` — contradicted: ${contradicted.map((c) => `${KIND_WORDS[c.kind]} “${flat(c.text)}”`).join('; ')}` : '';
}

/**
 * The briefing's claims line, when the handoff makes any: the counts, then each contradicted
 * claim's kind and words (at most 3), e.g. `**Claims:** 1 contradicted, 1 backed — contradicted: tests “All tests pass.”`.
 * @returns the line, or undefined when there are no claims
 */
export function briefingClaimsLine(claims: readonly Claim[]): string | undefined {
  if (!claims.length) return undefined;
  return `**Claims:** ${claimCountsLine(claims)}${contradictedText(claims)}.`;
}

/**
 * The claims row of the CLI's one-screen summary after `handover` (src/core/handoff/summary.ts):
 * the counts, then each contradicted claim's kind and words (at most 3) and where to read the
 * evidence, e.g. `1 contradicted, 1 backed — contradicted: tests “All tests pass.” (see Claims in the handoff)`.
 * Call it only when there are claims (the summary has no row otherwise).
 */
export function terminalClaimsText(claims: readonly Claim[]): string {
  return `${claimCountsLine(claims)}${contradictedText(claims)} (see Claims in the handoff)`;
}

/** The briefing's lines for the claims: {@link briefingClaimsLine} and a blank line, or none when there are no claims. */
export function briefingClaimsLines(claims: readonly Claim[]): string[] {
  const line = briefingClaimsLine(claims);
  return line ? [line, ''] : [];
}
