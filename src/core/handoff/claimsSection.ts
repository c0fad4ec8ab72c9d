// The handoff file's Claims section and the briefing's claims line; src/core/receive/claims.ts finds and judges the claims.
import { codeSpan } from './codeSpan';
import type { Claim, ClaimEvidence, ClaimKind, ClaimVerdict } from '../receive/claimSchema';
import { countClaims } from '../receive/claimSchema';

export { countClaims };

/** The rest are counted. */
export const CLAIMS_LISTED = 20;

export const VERDICT_WORDS: Readonly<Record<ClaimVerdict, string>> = Object.freeze({
  backed: '✅ **backed**',
  contradicted: '❌ **contradicted**',
  no_evidence: '❔ **claimed, no evidence**',
});

const MISSING: Readonly<Record<ClaimKind, string>> = {
  tests: 'no test run with a result was recorded',
  lint: 'no lint command (eslint, ruff, `npm run lint` …) was recorded',
  typecheck: 'no type-check command (tsc, mypy, pyright, `npm run typecheck` …) was recorded',
  build: 'no build command was recorded',
  migration: 'no migration command was recorded',
  deploy: 'no deploy command was recorded',
  fix: 'no commit names the issue',
};

const KIND_WORDS: Readonly<Record<ClaimKind, string>> = {
  tests: 'tests',
  lint: 'lint',
  typecheck: 'type-check',
  build: 'build',
  migration: 'migration',
  deploy: 'deploy',
  fix: 'fix',
};

const FIELD_WORDS: Readonly<Record<Claim['field'], string>> = { summary: 'summary', decisions: 'decisions', completed: 'done', user_requests: 'user requests' };

const ORDER: readonly ClaimVerdict[] = ['contradicted', 'no_evidence', 'backed'];

function flat(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/g, ' ').trim();
}

/** `` `npm run lint` succeeded (exit 0; in `.`; source: claude-code) ``, or `` commit `1a2b3c4d5e` Fix login (#12) (2026-…) ``. */
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

/** ``- ❌ **contradicted** · tests: “All tests pass.” (summary) — `npm test` failed (exit 1; source: claude-code)`` */
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

/** Contradicted first, then no evidence, then backed; at most {@link CLAIMS_LISTED}, then "… and N more". */
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

/** `**Claims:** 1 contradicted, 1 backed — contradicted: tests “All tests pass.”`; undefined without claims. */
export function briefingClaimsLine(claims: readonly Claim[]): string | undefined {
  if (!claims.length) return undefined;
  return `**Claims:** ${claimCountsLine(claims)}${contradictedText(claims)}.`;
}

/** The claims row of the CLI's summary; call it only when there are claims. */
export function terminalClaimsText(claims: readonly Claim[]): string {
  return `${claimCountsLine(claims)}${contradictedText(claims)} (see Claims in the handoff)`;
}

export function briefingClaimsLines(claims: readonly Claim[]): string[] {
  const line = briefingClaimsLine(claims);
  return line ? [line, ''] : [];
}
