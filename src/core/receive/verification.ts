/**
 * A verification on receipt (docs/DESIGN.md §5 "Verify on receipt"): the staleness
 * report of a handoff plus each recorded test and build command re-run (only with the user's
 * consent) and judged against what the handoff recorded. Stored as one event file per
 * verification (src/store/handoffs/verifications.ts, like the status events), appended to the
 * specialist's briefing, shown in the timeline and put at the top of the receiving prompt.
 *
 * Pure: shapes and their wording, no I/O.
 */
import { z } from 'zod';
import { codeSpan } from '../handoff/codeSpan';
import { parseEventFile } from '../handoff/statusEvents';
import { shownCommand } from './shownCommand';

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

/** Sub-folder of the handoff root holding one folder of verification files per handoff id (docs/DESIGN.md §9 "Verify on receipt"). */
export const VERIFICATIONS_DIR = 'verifications';

/**
 * Parses one verification file: JSON validated with {@link VerificationSchema}, for handoff
 * `id`. The name must be an event file's (`<ISO time, ':' → '-'>_<8 hex>.json`, the same as
 * status events: src/core/handoff/statusEvents.ts `STATUS_EVENT_NAME`).
 * @returns the verification, or undefined when the name, the JSON or the schema does not
 *   hold, or it belongs to another handoff (a file copied into the wrong folder)
 */
export function parseVerificationFile(name: string, text: string, id: string): Verification | undefined {
  return parseEventFile(VerificationSchema, name, text, id);
}

/** A verification file's text: one line of JSON and a final newline. @throws ZodError when `v` does not hold to {@link VerificationSchema} */
export function renderVerificationFile(v: Verification): string {
  return `${JSON.stringify(VerificationSchema.parse(v))}\n`;
}

/** What the timeline shows of a handoff's latest verification: when (ISO), the counts, and {@link verificationLine}. */
export interface TimelineVerification {
  readonly checked_at: string;
  readonly counts: RecheckCounts;
  readonly line: string;
}

/** The timeline's view of a verification. */
export function timelineVerification(v: Verification): TimelineVerification {
  return { checked_at: v.checked_at, counts: v.counts, line: verificationLine(v) };
}

/** POSIX shell: "If a command is not found, the exit status shall be 127" (XCU 2.8.2, Exit Status for Commands). */
export const EXIT_NOT_FOUND = 127;
/** POSIX shell: a command found but not executable exits 126 (XCU 2.8.2). */
export const EXIT_NOT_EXECUTABLE = 126;

/** What one re-run gave (a {@link CommandRunner}'s answer), or why it did not run. */
export interface RecheckInput {
  readonly kind: Recheck['kind'];
  readonly command: string;
  /** The recorded folder as recorded (null: the workspace folder). */
  readonly cwd: string | null;
  readonly recorded: Recheck['recorded'];
  /** The runner's answer; absent when it was not run. */
  readonly now?: { readonly exit_code: number | null; readonly timed_out: boolean; readonly duration_ms: number; readonly error?: string };
  /** Why it cannot run here (the folder is gone): unverifiable, whatever `now` says. */
  readonly missing?: string;
  /** The per-command timeout in ms, for the reason of a command that timed out. */
  readonly timeoutMs?: number;
  /** The user cancelled: while it ran (the runner then reports `timed_out`), or before it ran (no `now`: not run). */
  readonly cancelled?: boolean;
}

function recordedWords(kind: Recheck['kind'], r: Recheck['recorded']): string {
  const word = r.result === 'ok' ? (kind === 'test' ? 'passed' : 'succeeded') : r.result === 'failed' ? 'failed' : 'had an unknown result';
  return `${word} at handoff`;
}

function exitWords(code: number | null): string {
  return code === null ? 'exit code not recorded' : `exit code ${code}`;
}

function nowWords(kind: Recheck['kind'], code: number): string {
  return code === 0 ? (kind === 'test' ? 'passes now' : 'succeeds now') : 'fails now';
}

/**
 * Judges one recorded result against its re-run (docs/DESIGN.md §9 "Verify on receipt"),
 * first rule that applies:
 * 1. `missing` → unverifiable (that reason);
 * 2. not run → `not_run` (cancelled before it ran, or no consent);
 * 3. it could not start (`error`) → unverifiable; cancelled → unverifiable; timed out →
 *    unverifiable ("timed out after N s and was stopped");
 * 4. exit code 127 / 126 now → unverifiable: the command is not found / not executable here
 *    (POSIX shell exit statuses, {@link EXIT_NOT_FOUND});
 * 5. no exit code → unverifiable;
 * 6. the recorded result unknown → unverifiable (nothing to compare with);
 * 7. recorded ok and exit 0 now, or recorded failed and a non-zero exit now → `verified`;
 *    otherwise → `contradicted`. Exit codes are compared as success (0) or failure (any
 *    other), as the recorded result was (src/core/session/testDetection.ts).
 * `reason` says it in words with the exit codes, e.g. "passed at handoff (exit code 0),
 * fails now (exit code 1)". Pure; never throws.
 */
export function judgeRecheck(input: RecheckInput): Recheck {
  const base = { kind: input.kind, command: input.command, cwd: input.cwd, recorded: input.recorded };
  const at = `${recordedWords(input.kind, input.recorded)} (${exitWords(input.recorded.exit_code)})`;
  const now = input.now ? { exit_code: input.now.exit_code, timed_out: input.now.timed_out, duration_ms: Math.max(0, input.now.duration_ms) } : null;
  const out = (verdict: RecheckVerdict, reason: string): Recheck => ({ ...base, now, verdict, reason: reason.slice(0, 2000) });
  if (input.missing) return out('unverifiable', `${at}; cannot be re-run here: ${input.missing}`);
  if (!input.now) return out('not_run', input.cancelled ? `${at}; not re-run: the verification was cancelled` : `${at}; not re-run (re-running needs the user's consent)`);
  const code = input.now.exit_code;
  if (input.now.error) return out('unverifiable', `${at}; could not be started now: ${input.now.error}`);
  if (input.cancelled) return out('unverifiable', `${at}; cancelled before it finished`);
  if (input.now.timed_out) {
    const limit = input.timeoutMs !== undefined ? ` after ${Math.round(input.timeoutMs / 100) / 10} s` : '';
    return out('unverifiable', `${at}; timed out${limit} now and was stopped`);
  }
  if (code === EXIT_NOT_FOUND) return out('unverifiable', `${at}; the command is not found here now (exit code 127)`);
  if (code === EXIT_NOT_EXECUTABLE) return out('unverifiable', `${at}; the command cannot be executed here now (exit code 126)`);
  if (code === null) return out('unverifiable', `${at}; it ended now without an exit code`);
  const nowText = `${nowWords(input.kind, code)} (exit code ${code})`;
  if (input.recorded.result === 'unknown') return out('unverifiable', `${at}; ${nowText}: nothing recorded to compare with`);
  const same = (input.recorded.result === 'ok') === (code === 0);
  return out(same ? 'verified' : 'contradicted', `${at}, ${nowText}`);
}

/** A recheck in a few words, without exit codes: "passed at handoff, fails now". */
function shortReason(r: Recheck): string {
  if ((r.verdict === 'verified' || r.verdict === 'contradicted') && r.now?.exit_code !== null && r.now?.exit_code !== undefined) {
    return `${recordedWords(r.kind, r.recorded)}, ${nowWords(r.kind, r.now.exit_code)}`;
  }
  return r.reason.replace(/ \((?:exit code [^)]*)\)/g, '');
}

/** Text on one line: line breaks and runs of spaces become one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Rechecks named in {@link verificationLine} before "and N more". */
export const VERIFICATION_LINE_ITEMS = 3;

/**
 * One line saying what a verification found: `Checked at <checked_at>:`,
 * the non-zero counts in the order verified, contradicted, unverifiable, not run, then the
 * contradicted commands (else the unverifiable ones) with why, at most
 * {@link VERIFICATION_LINE_ITEMS}, e.g. "Checked at 2026-12-01T10:00:00.000Z: 2 verified, 1
 * contradicted: `npm test` passed at handoff, fails now"; "; the workspace changed since the
 * handoff" when it is stale. Shown at the top of the receiving prompt and in the timeline. Pure.
 */
export function verificationLine(v: Verification): string {
  const c = v.counts;
  const counts = (
    [
      [c.verified, 'verified'],
      [c.contradicted, 'contradicted'],
      [c.unverifiable, 'unverifiable'],
      [c.not_run, 'not run'],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, w]) => `${n} ${w}`)
    .join(', ');
  let line = `Checked at ${oneLine(v.checked_at)}: ${counts || 'no recorded test or build command to re-run'}`;
  const named = v.rechecks.filter((r) => r.verdict === 'contradicted');
  const shown = named.length ? named : v.rechecks.filter((r) => r.verdict === 'unverifiable');
  if (shown.length) {
    const items = shown.slice(0, VERIFICATION_LINE_ITEMS).map((r) => `${codeSpan(shownCommand(r.command))} ${shortReason(r)}`);
    if (shown.length > VERIFICATION_LINE_ITEMS) items.push(`and ${shown.length - VERIFICATION_LINE_ITEMS} more`);
    line += `: ${items.join('; ')}`;
  } else if (!v.ran && v.rechecks.length) {
    line += ' (not re-run: staleness only)';
  }
  if (v.stale) line += '; the workspace changed since the handoff';
  return line;
}

const VERDICT_MARK: Record<RecheckVerdict, string> = { verified: '✅ verified', contradicted: '❌ contradicted', unverifiable: '❔ unverifiable', not_run: '⏸️ not run' };

/** Seconds with one decimal from ms: `1.2 s`. */
function seconds(ms: number): string {
  return `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
}

/** Escapes a line that would otherwise be a heading or a rule (commit subjects come from others). */
function safeLine(text: string): string {
  return oneLine(text).replace(/^(#{1,6}|-{3,}|={3,})/, '\\$1');
}

/**
 * The briefing section of a verification (docs/DESIGN.md §5 "Briefings", appended, never
 * edited): `## <checked_at> — verification of <handoff id>`, the {@link verificationLine},
 * one item per recheck (mark, verdict, command, kind, folder, reason, how long it took),
 * the staleness lines (or that the workspace matches the handoff) and, given `handoffLink`
 * (the handoff file relative to the briefing's folder), the link to the handoff. Starts
 * with a blank line and `## ` like every briefing section, ends with a blank line. Pure.
 */
export function renderVerificationSection(v: Verification, handoffLink?: string): string {
  const lines: string[] = ['', `## ${oneLine(v.checked_at)} — verification of ${oneLine(v.handoff_id)}`, '', verificationLine(v), ''];
  if (v.rechecks.length) {
    for (const r of v.rechecks) {
      const where = r.cwd && r.cwd !== '.' ? ` in ${codeSpan(shownCommand(r.cwd))}` : '';
      const took = r.now ? `; ${seconds(r.now.duration_ms)}` : '';
      lines.push(`- ${VERDICT_MARK[r.verdict]}: ${codeSpan(shownCommand(r.command))} (${r.kind}${where}) — ${oneLine(r.reason)}${took}`);
    }
    lines.push('');
  }
  if (v.staleness.length) {
    lines.push('**Staleness:**', ...v.staleness.map((s) => `- ${safeLine(s)}`), '');
  } else {
    lines.push('**Staleness:** the handoff matches the workspace: nothing changed since it was written.', '');
  }
  if (handoffLink) lines.push(`**Handoff:** [${oneLine(v.handoff_id)}](${encodeURI(handoffLink)})`, '');
  return lines.join('\n');
}
