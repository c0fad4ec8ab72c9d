/** A verification on receipt: the staleness report plus each recorded test and build command re-run (only with the user's consent) and judged. */
import * as z from 'zod';
import { codeSpan } from '../handoff/codeSpan';
import { parseEventFile } from '../handoff/statusEvents';
import { shownCommand } from './shownCommand';

/** `unverifiable`: the command or folder is gone, it timed out, or it needs what this machine lacks; `not_run`: no consent to re-run. */
export const RecheckVerdictSchema = z.enum(['verified', 'contradicted', 'unverifiable', 'not_run']);
export type RecheckVerdict = z.infer<typeof RecheckVerdictSchema>;

/**
 * `kind` `build` is a build command of Commands run; `cwd` null is the workspace folder; `recorded.result` `ok` is passed or
 * succeeded; `now` is null when not run, its `exit_code` null when it did not exit; `reason` says the verdict in words.
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
export type Recheck = z.infer<typeof RecheckSchema>;

export const RecheckCountsSchema = z.object({
  verified: z.number().int().nonnegative(),
  contradicted: z.number().int().nonnegative(),
  unverifiable: z.number().int().nonnegative(),
  not_run: z.number().int().nonnegative(),
});
export type RecheckCounts = z.infer<typeof RecheckCountsSchema>;

/** As stored (`schema: 1`). `ran`: the user consented to re-running; `stale`: the workspace changed since the handoff. */
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
export type Verification = z.infer<typeof VerificationSchema>;

export function countRechecks(rechecks: readonly Pick<Recheck, 'verdict'>[]): RecheckCounts {
  const counts: RecheckCounts = { verified: 0, contradicted: 0, unverifiable: 0, not_run: 0 };
  for (const r of rechecks) counts[r.verdict]++;
  return counts;
}

/** A port (the CLI spawns a shell; VS Code runs a task so the user sees the output). On timeout or abort: `timed_out` and a null exit code. Never throws. */
export interface CommandRunner {
  run(
    command: { readonly command: string; readonly cwd: string; readonly kind: Recheck['kind'] },
    options: { readonly timeoutMs: number; readonly signal?: AbortSignal },
  ): Promise<{ exit_code: number | null; timed_out: boolean; duration_ms: number; error?: string }>;
}

/** One folder of verification files per handoff id, under the handoff root. */
export const VERIFICATIONS_DIR = 'verifications';

/** Names follow the status events' (`<ISO time>_<8 hex>.json`); undefined when the name, JSON or schema does not hold, or it is another handoff's. */
export function parseVerificationFile(name: string, text: string, id: string): Verification | undefined {
  return parseEventFile(VerificationSchema, name, text, id);
}

/** One line of JSON and a final newline; throws a ZodError when `v` does not hold to the schema. */
export function renderVerificationFile(v: Verification): string {
  return `${JSON.stringify(VerificationSchema.parse(v))}\n`;
}

export interface TimelineVerification {
  readonly checked_at: string;
  readonly counts: RecheckCounts;
  readonly line: string;
}

export function timelineVerification(v: Verification): TimelineVerification {
  return { checked_at: v.checked_at, counts: v.counts, line: verificationLine(v) };
}

/** POSIX shell (XCU 2.8.2): a command not found exits 127. */
export const EXIT_NOT_FOUND = 127;
/** POSIX shell (XCU 2.8.2): a command found but not executable exits 126. */
export const EXIT_NOT_EXECUTABLE = 126;

export interface RecheckInput {
  readonly kind: Recheck['kind'];
  readonly command: string;
  readonly cwd: string | null;
  readonly recorded: Recheck['recorded'];
  readonly now?: { readonly exit_code: number | null; readonly timed_out: boolean; readonly duration_ms: number; readonly error?: string };
  /** Why it cannot run here (the folder is gone): unverifiable, whatever `now` says. */
  readonly missing?: string;
  readonly timeoutMs?: number;
  /** While it ran (the runner then reports `timed_out`), or before (no `now`). */
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
 * The first rule that applies: `missing` → `unverifiable`; not run → `not_run`; could not start, cancelled, timed out,
 * exit 127 or 126 (not found or not executable here), no exit code, or nothing recorded → `unverifiable`; the same
 * success or failure as recorded → `verified`; else `contradicted`. Never throws.
 */
export function judgeRecheck(input: RecheckInput): Recheck {
  const base = { kind: input.kind, command: input.command, cwd: input.cwd, recorded: input.recorded };
  const at = `${recordedWords(input.kind, input.recorded)} (${exitWords(input.recorded.exit_code)})`;
  const now = input.now ? { exit_code: input.now.exit_code, timed_out: input.now.timed_out, duration_ms: Math.max(0, input.now.duration_ms) } : null;
  const out = (verdict: RecheckVerdict, reason: string): Recheck => ({ ...base, now, verdict, reason: reason.slice(0, 2000) });
  if (input.missing) return out('unverifiable', `${at}; cannot be re-run here: ${input.missing}`);
  if (!input.now)
    return out('not_run', input.cancelled ? `${at}; not re-run: the verification was cancelled` : `${at}; not re-run (re-running needs the user's consent)`);
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

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export const VERIFICATION_LINE_ITEMS = 3;

/** "Checked at …: 2 verified, 1 contradicted: `npm test` passed at handoff, fails now", for the receiving prompt and the timeline. */
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

const VERDICT_MARK: Record<RecheckVerdict, string> = {
  verified: '✅ verified',
  contradicted: '❌ contradicted',
  unverifiable: '❔ unverifiable',
  not_run: '⏸️ not run',
};

function seconds(ms: number): string {
  return `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
}

/** Commit subjects come from others: escape what would be a heading or a rule. */
function safeLine(text: string): string {
  return oneLine(text).replace(/^(#{1,6}|-{3,}|={3,})/, '\\$1');
}

/** The briefing section (appended, never edited): the {@link verificationLine}, one item per recheck, the staleness lines and the handoff's link. */
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
