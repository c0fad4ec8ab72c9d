/**
 * A verification on receipt (issue 18, docs/DESIGN.md §5 "Verify on receipt"): the staleness
 * report of a handoff plus each recorded test and build command re-run (only with the user's
 * consent) and judged against what the handoff recorded. Stored as one event file per
 * verification (src/store/handoffs/verifications.ts, like the status events), appended to the
 * specialist's briefing, shown in the timeline and put at the top of the receiving prompt.
 *
 * Pure: shapes and their wording, no I/O.
 */
import { z } from 'zod';

/**
 * One recorded result, checked again: `verified` (same outcome now), `contradicted` (a
 * different outcome), `unverifiable` (the command or folder is gone, it timed out, or it
 * needs what this machine lacks), `not_run` (the user did not consent to re-running it).
 */
export const RecheckVerdictSchema = z.enum(['verified', 'contradicted', 'unverifiable', 'not_run']);
/** A recheck's verdict. */
export type RecheckVerdict = z.infer<typeof RecheckVerdictSchema>;

/**
 * One recorded command checked again. `kind`: `test` (from the Tests run section) or `build`
 * (a build command of the Commands run section). `cwd`: the recorded folder, as recorded
 * (null: the workspace folder). `recorded`: its outcome at handoff (`passed`/`succeeded` →
 * ok, `failed`, `unknown`), exit code and ISO time. `now`: the re-run (null when not run):
 * exit code (null when it did not exit: timed out, could not start), whether it timed out,
 * how long it took in ms. `reason`: the verdict in words, e.g. "passed at handoff (exit code
 * 0), fails now (exit code 1)".
 */
export const RecheckSchema = z.object({
  kind: z.enum(['test', 'build']),
  command: z.string().min(1).max(2000),
  cwd: z.string().max(4096).nullable(),
  recorded: z.object({
    result: z.enum(['ok', 'failed', 'unknown']),
    exit_code: z.number().int().nullable(),
    at: z.string().max(100).nullable(),
  }),
  now: z
    .object({
      exit_code: z.number().int().nullable(),
      timed_out: z.boolean(),
      duration_ms: z.number().nonnegative(),
    })
    .nullable(),
  verdict: RecheckVerdictSchema,
  reason: z.string().max(2000),
});
/** A recheck. */
export type Recheck = z.infer<typeof RecheckSchema>;

/** Rechecks counted by verdict. */
export const RecheckCountsSchema = z.object({
  verified: z.number().int().nonnegative(),
  contradicted: z.number().int().nonnegative(),
  unverifiable: z.number().int().nonnegative(),
  not_run: z.number().int().nonnegative(),
});
/** Recheck counts. */
export type RecheckCounts = z.infer<typeof RecheckCountsSchema>;

/**
 * One verification as stored (`schema: 1`): the handoff, when it was checked (ISO), by which
 * session, whether commands were re-run (`ran`: the user consented), whether the workspace
 * changed since the handoff (`stale`) with the staleness lines, the rechecks and their counts.
 */
export const VerificationSchema = z
  .object({
    schema: z.literal(1),
    handoff_id: z.string().min(1).max(300),
    checked_at: z.string().min(1).max(100),
    session_id: z.string().min(1).max(300),
    ran: z.boolean(),
    stale: z.boolean(),
    staleness: z.array(z.string().max(2000)).max(200),
    rechecks: z.array(RecheckSchema).max(100),
    counts: RecheckCountsSchema,
  })
  .strict();
/** A verification. */
export type Verification = z.infer<typeof VerificationSchema>;

/** Counts rechecks by verdict. */
export function countRechecks(rechecks: readonly Pick<Recheck, 'verdict'>[]): RecheckCounts {
  const counts: RecheckCounts = { verified: 0, contradicted: 0, unverifiable: 0, not_run: 0 };
  for (const r of rechecks) counts[r.verdict]++;
  return counts;
}

/**
 * Runs one recorded command again (a port: the CLI spawns a shell, VS Code runs a task so the
 * user sees its output). `cwd` is absolute and exists; the runner stops the command after
 * `timeoutMs` (ms) or when `signal` aborts, and then reports `timed_out: true` and a null
 * exit code. `error`: why it could not start (e.g. the task could not be created). Never throws.
 */
export interface CommandRunner {
  run(
    command: { readonly command: string; readonly cwd: string; readonly kind: Recheck['kind'] },
    options: { readonly timeoutMs: number; readonly signal?: AbortSignal },
  ): Promise<{ exit_code: number | null; timed_out: boolean; duration_ms: number; error?: string }>;
}
