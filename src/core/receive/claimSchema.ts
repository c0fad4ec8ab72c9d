/**
 * Claims a handoff makes about the state of the work (docs/DESIGN.md §4 "Claims"):
 * statements in the summary, decisions, done items and the user's own words — "all tests
 * pass", "lint is clean", "it builds", "migrated", "deployed", "fixed #123" — and the verdict
 * the recorded evidence gives each. The rule table that finds them and the judge are in
 * ./claims.ts; this file holds only the shapes, shared by the package, the frontmatter and
 * every surface.
 *
 * Defined with zod's mini build, like src/core/handoff/fields.ts (the panel may carry them).
 */
import * as z from 'zod/mini';

const nonNegativeInt = () => z.number().check(z.int(), z.nonnegative());

/**
 * What a claim is about: `tests` (a test run), `lint`, `typecheck`, `build`, `migration`,
 * `deploy` (a recorded command of that kind), `fix` (an issue or bug said fixed: a commit
 * naming it).
 */
export const ClaimKindSchema = z.enum(['tests', 'lint', 'typecheck', 'build', 'migration', 'deploy', 'fix']);
/** A claim's kind. */
export type ClaimKind = z.infer<typeof ClaimKindSchema>;

/**
 * The verdict: `backed` (the latest matching run succeeded, or a commit names the fix),
 * `contradicted` (the latest matching run failed), `no_evidence` (claimed, nothing recorded
 * that matches).
 */
export const ClaimVerdictSchema = z.enum(['backed', 'contradicted', 'no_evidence']);
/** A claim's verdict. */
export type ClaimVerdict = z.infer<typeof ClaimVerdictSchema>;

/** Where in the handoff a claim was made. */
export const ClaimFieldSchema = z.enum(['summary', 'decisions', 'completed', 'user_requests']);
/** A claim's field. */
export type ClaimField = z.infer<typeof ClaimFieldSchema>;

/**
 * The run (or commit) a verdict rests on: the `command` as recorded (a commit: its short sha
 * and subject), its folder, its `result`, its exit code (null when the log has none), the
 * `basis` of the result (`exit code`, `output` — the runner's printed summary — or `commit`),
 * its ISO time (null when not recorded) and the reader that recorded it.
 */
export const ClaimEvidenceSchema = z.object({
  command: z.string().check(z.minLength(1)),
  cwd: z._default(z.nullable(z.string()), null),
  result: z.enum(['passed', 'failed', 'succeeded', 'unknown']),
  exit_code: z._default(z.nullable(z.number().check(z.int())), null),
  basis: z.enum(['exit code', 'output', 'commit']),
  at: z._default(z.nullable(z.string()), null),
  source: z._default(z.string().check(z.minLength(1)), 'user'),
});
/** A claim's evidence. */
export type ClaimEvidence = z.infer<typeof ClaimEvidenceSchema>;

/**
 * One claim: its kind, the words that make it as written (at most 300 characters, cut at a
 * word), the field it is in, its verdict and the evidence (null for `no_evidence`).
 */
export const ClaimSchema = z.object({
  kind: ClaimKindSchema,
  text: z.string().check(z.minLength(1), z.maxLength(300)),
  field: ClaimFieldSchema,
  verdict: ClaimVerdictSchema,
  evidence: z._default(z.nullable(ClaimEvidenceSchema), null),
});
/** A claim with its verdict. */
export type Claim = z.infer<typeof ClaimSchema>;

/** The claims counted by verdict (the frontmatter's `claims`; files written before claims read as zeros). */
export const ClaimCountsSchema = z.object({
  backed: z._default(nonNegativeInt(), 0),
  contradicted: z._default(nonNegativeInt(), 0),
  no_evidence: z._default(nonNegativeInt(), 0),
});
/** Claim counts. */
export type ClaimCounts = z.infer<typeof ClaimCountsSchema>;

/** Counts the claims by verdict. */
export function countClaims(claims: readonly Pick<Claim, 'verdict'>[]): ClaimCounts {
  const counts: ClaimCounts = { backed: 0, contradicted: 0, no_evidence: 0 };
  for (const c of claims) counts[c.verdict]++;
  return counts;
}
