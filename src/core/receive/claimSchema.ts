/** The shapes of the claims a handoff makes ("all tests pass", "deployed", "fixed #123") and their verdicts; zod mini, as the panel may carry them. */
import * as z from 'zod/mini';

const nonNegativeInt = () => z.number().check(z.int(), z.nonnegative());

/** `tests` are judged by test runs, `fix` (an issue said fixed) by a commit naming it, the others by a command of that kind. */
export const ClaimKindSchema = z.enum(['tests', 'lint', 'typecheck', 'build', 'migration', 'deploy', 'fix']);
export type ClaimKind = z.infer<typeof ClaimKindSchema>;

/** `backed`: the latest matching run succeeded (or a commit names the fix); `contradicted`: it failed; `no_evidence`: nothing matches. */
export const ClaimVerdictSchema = z.enum(['backed', 'contradicted', 'no_evidence']);
export type ClaimVerdict = z.infer<typeof ClaimVerdictSchema>;

/** Where in the handoff a claim was made. */
export const ClaimFieldSchema = z.enum(['summary', 'decisions', 'completed', 'user_requests']);
export type ClaimField = z.infer<typeof ClaimFieldSchema>;

/** `command` as recorded (a commit: short sha and subject); `basis` `output` is the runner's printed summary. */
export const ClaimEvidenceSchema = z.object({
  command: z.string().check(z.minLength(1)),
  cwd: z._default(z.nullable(z.string()), null),
  result: z.enum(['passed', 'failed', 'succeeded', 'unknown']),
  exit_code: z._default(z.nullable(z.number().check(z.int())), null),
  basis: z.enum(['exit code', 'output', 'commit']),
  at: z._default(z.nullable(z.string()), null),
  source: z._default(z.string().check(z.minLength(1)), 'user'),
});
export type ClaimEvidence = z.infer<typeof ClaimEvidenceSchema>;

/** `text` as written, cut at a word; `evidence` null for `no_evidence`. */
export const ClaimSchema = z.object({
  kind: ClaimKindSchema,
  text: z.string().check(z.minLength(1), z.maxLength(300)),
  field: ClaimFieldSchema,
  verdict: ClaimVerdictSchema,
  evidence: z._default(z.nullable(ClaimEvidenceSchema), null),
});
export type Claim = z.infer<typeof ClaimSchema>;

/** The frontmatter's `claims`; files written before claims read as zeros. */
export const ClaimCountsSchema = z.object({
  backed: z._default(nonNegativeInt(), 0),
  contradicted: z._default(nonNegativeInt(), 0),
  no_evidence: z._default(nonNegativeInt(), 0),
});
export type ClaimCounts = z.infer<typeof ClaimCountsSchema>;

export function countClaims(claims: readonly Pick<Claim, 'verdict'>[]): ClaimCounts {
  const counts: ClaimCounts = { backed: 0, contradicted: 0, no_evidence: 0 };
  for (const c of claims) counts[c.verdict]++;
  return counts;
}
