/**
 * "Verify on receipt": a handoff's staleness report plus each recorded test and build command re-run, only with the
 * user's consent (`run`), and judged against what was recorded. A verification that ran is stored and added to the briefing.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { runJob } from '../project/jobError';
import { parseCommandsRun, parseTestsRun } from '../../core/handoff/draftSections';
import { errorText, fieldError, jobError, type JobError } from '../../core/handoff/errors';
import { BRIEFINGS_DIR, HANDOFFS_DIR, fileTimestamp } from '../../core/handoff/naming';
import type { ParsedHandoff } from '../../core/handoff/parse';
import { isUpToDate, stalenessLines } from '../../core/receive/stalenessReport';
import { invisibleInCommand, shownCommand } from '../../core/receive/shownCommand';
import {
  countRechecks,
  judgeRecheck,
  renderVerificationSection,
  verificationLine,
  type CommandRunner,
  type Recheck,
  type Verification,
} from '../../core/receive/verification';
import { ensureSanitized } from '../../core/safety/gate';
import { collectStaleness } from '../../evidence/git/stalenessFacts';
import { findHandoff, readNewestHandoff } from '../../store/handoffs/handoffIndex';
import { appendBriefing, writeBriefingSection } from '../../store/handoffs/handoffStore';
import { otherToolsHandoffFolders } from '../../store/handoffs/timelineFiles';
import { writeVerification } from '../../store/handoffs/verifications';
import { checkRealPathInside, resolveInside } from '../../store/pathGuard';
import type { JobContext } from '../project/jobContext';
import { sanitizeSessionId } from '../handover/fieldGate';
import { openProject } from '../project/project';

import { shellCommandRunner } from './shellCommandRunner';

export { createShellCommandRunner, shellCommandRunner } from './shellCommandRunner';

/** ms; VS Code's `handoff.verify.timeoutSeconds` defaults to the same. */
export const DEFAULT_VERIFY_TIMEOUT_MS = 600_000;
export const MAX_VERIFY_TIMEOUT_MS = 86_400_000;
/** The rest are named in a warning. */
export const MAX_RECHECKS = 100;

/** `recordedCwd` null: the workspace's; `missing`: why it cannot run here, absent when it can. */
export interface PlannedRecheck {
  kind: 'test' | 'build';
  command: string;
  cwd: string;
  recordedCwd: string | null;
  recorded: Recheck['recorded'];
  missing?: string;
}

/** Default: the newest handoff, never a result. */
export interface VerifyPlanRequest {
  handoff?: string;
}

export type VerificationPlan =
  { status: 'ok'; handoff_id: string; handoff_file: string; specialist: string; rechecks: PlannedRecheck[]; warnings: string[] } | JobError;

/** `run` is the user's consent to re-run the commands. */
export interface VerifyRequest {
  handoff?: string;
  run: boolean;
  timeoutMs?: number;
}

/** The file paths are null when nothing was recorded; `briefing_file` also when it could not be written (a warning says why). */
export type VerifyOutcome =
  | {
      status: 'ok';
      verification: Verification;
      line: string;
      handoff_id: string;
      handoff_file: string;
      briefing_file: string | null;
      verification_file: string | null;
      warnings: string[];
    }
  | JobError;

/** `onProgress` is called before each command with the count done so far. */
export type VerifyEnvironment = JobContext & { runner?: CommandRunner; onProgress?: (done: number, total: number, command: string) => void };

interface Planned {
  readonly root: string;
  readonly file: string;
  readonly handoff: ParsedHandoff;
  readonly rechecks: PlannedRecheck[];
  readonly warnings: string[];
}

async function resolveFolder(workspaceRoot: string, recorded: string | null): Promise<{ cwd: string; missing?: string }> {
  const cwd = recorded === null || recorded === '.' ? workspaceRoot : path.resolve(workspaceRoot, recorded);
  const rel = path.relative(workspaceRoot, cwd);
  // Named in the reasons as the user can read it (a hand-edited folder may hold invisible characters).
  recorded = recorded === null ? null : shownCommand(recorded);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return { cwd, missing: `the folder ${recorded} is outside the workspace` };
  const st = await stat(cwd).catch(() => undefined);
  if (!st) return { cwd, missing: `the folder ${recorded} is gone` };
  if (!st.isDirectory()) return { cwd, missing: `${recorded} is not a folder any more` };
  const inside = await checkRealPathInside(workspaceRoot, cwd, 'remove the link');
  return inside.ok ? { cwd } : { cwd, missing: `the folder ${recorded} leads out of the workspace (a link)` };
}

async function plan(req: VerifyPlanRequest, env: JobContext): Promise<Planned | JobError> {
  const opened = await openProject(env);
  if (!opened.ok) return opened.error;
  const root = opened.project.handoffRoot;
  const dir = path.join(root, HANDOFFS_DIR);
  const warnings = opened.project.warnings.map((w) => `WARNING: ${w}`);
  let found: { file: string; handoff: ParsedHandoff } | undefined;
  if (req.handoff && req.handoff !== 'latest') {
    const f = await findHandoff(dir, req.handoff, 'handoff');
    if (!f.ok) return jobError(f.message, 'handoff', { code: 'not_found' });
    found = f;
  } else {
    found = await readNewestHandoff(dir).catch(() => undefined);
    if (!found)
      return jobError(
        `there is no handoff to verify in ${dir} (a result is verified only when named) — hand over first, or name the handoff to verify`,
        'handoff',
        { code: 'not_found' },
      );
  }
  const { handoff } = found;
  // Tests: the latest run of each command in each folder (the section lists them oldest first).
  const tests = new Map<string, ReturnType<typeof parseTestsRun>[number]>();
  for (const t of parseTestsRun(handoff.sections.get('Tests run') ?? '')) {
    const key = `${t.cwd ?? '.'}\u0000${t.command}`;
    tests.delete(key);
    tests.set(key, t);
  }
  const builds = parseCommandsRun(handoff.sections.get('Commands run') ?? '').filter((c) => c.kind === 'build');
  const recorded: Array<Omit<PlannedRecheck, 'cwd'>> = [
    ...[...tests.values()].map((t) => ({
      kind: 'test' as const,
      command: t.command,
      recordedCwd: t.cwd,
      recorded: { result: t.result === 'passed' ? ('ok' as const) : t.result, exit_code: t.exit_code, at: t.started_at },
    })),
    ...builds.map((b) => ({
      kind: 'build' as const,
      command: b.command,
      recordedCwd: b.cwd,
      recorded: { result: b.result === 'succeeded' ? ('ok' as const) : b.result, exit_code: b.exit_code, at: b.last_at },
    })),
  ].filter((r) => {
    if (r.command.length <= 2000) return true;
    warnings.push(`WARNING: a recorded ${r.kind} command of ${r.command.length} characters is longer than 2,000 and is not re-run`);
    return false;
  });
  if (recorded.length > MAX_RECHECKS)
    warnings.push(`WARNING: the handoff records ${recorded.length} test and build commands; the first ${MAX_RECHECKS} are checked`);
  const rechecks: PlannedRecheck[] = [];
  for (const r of recorded.slice(0, MAX_RECHECKS)) {
    const hidden = invisibleInCommand(r.command);
    // Never run what the user cannot see: a hand-edited or merged handoff may hide a command.
    const where = hidden.length
      ? {
          cwd: path.resolve(env.workspaceRoot, r.recordedCwd ?? '.'),
          missing: `the recorded command holds invisible characters (${hidden.join(' ')}) and is not re-run — check the handoff's ${r.kind === 'test' ? 'Tests run' : 'Commands run'} section, run it yourself if it is what you mean`,
        }
      : await resolveFolder(env.workspaceRoot, r.recordedCwd);
    rechecks.push({ ...r, cwd: where.cwd, ...(where.missing ? { missing: where.missing } : {}) });
  }
  return { root, file: found.file, handoff, rechecks, warnings };
}

/** Runs and writes nothing: what a consent dialog lists. Never throws. */
export async function planVerification(req: VerifyPlanRequest, env: JobContext): Promise<VerificationPlan> {
  return runJob('planning the verification', async () => {
    const p = await plan(req, env);
    if ('status' in p) return p;
    const fm = p.handoff.frontmatter;
    return { status: 'ok', handoff_id: fm.id, handoff_file: p.file, specialist: fm.specialist, rechecks: p.rechecks, warnings: p.warnings };
  });
}

/**
 * Staleness first, before anything runs and changes the workspace; then, with `run`, each command in its folder,
 * one at a time. Nothing is recorded without `run`, or when cancelled before any command ran. Never throws.
 */
export async function verifyHandoff(req: VerifyRequest, env: VerifyEnvironment): Promise<VerifyOutcome> {
  return runJob('verifying the handoff', () => verify(req, env));
}

async function verify(req: VerifyRequest, env: VerifyEnvironment): Promise<VerifyOutcome> {
  const timeoutMs = req.timeoutMs ?? DEFAULT_VERIFY_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_VERIFY_TIMEOUT_MS) {
    return fieldError(
      'timeoutMs',
      `must be a whole number of ms from 1 to ${MAX_VERIFY_TIMEOUT_MS} (a day), got ${String(timeoutMs).slice(0, 40)}`,
      'give the seconds a command may run, e.g. 600',
      'bad_request',
    );
  }
  const p = await plan(req, env);
  if ('status' in p) return p;
  const { handoff, root, warnings } = p;
  const report = await collectStaleness({
    cwd: env.workspaceRoot,
    handoff,
    binary: env.gitBinary,
    signal: env.signal,
    handoffRoot: root,
    alsoExclude: otherToolsHandoffFolders(path.resolve(env.workspaceRoot)),
  });
  const staleness = stalenessLines(report)
    .map((l) => l.slice(0, 2000))
    .slice(0, 200);
  const runner = env.runner ?? shellCommandRunner;
  const rechecks: Recheck[] = [];
  const runnable = p.rechecks.filter((r) => !r.missing).length;
  let done = 0;
  for (const r of p.rechecks) {
    const base = { kind: r.kind, command: r.command, cwd: r.recordedCwd, recorded: r.recorded, timeoutMs };
    if (r.missing || !req.run) {
      rechecks.push(judgeRecheck({ ...base, ...(r.missing ? { missing: r.missing } : {}) }));
      continue;
    }
    if (env.signal?.aborted) {
      rechecks.push(judgeRecheck({ ...base, cancelled: true }));
      continue;
    }
    env.onProgress?.(done, runnable, r.command);
    const now = await runner
      .run({ command: r.command, cwd: r.cwd, kind: r.kind }, { timeoutMs, signal: env.signal })
      .catch((err: unknown) => ({ exit_code: null, timed_out: false, duration_ms: 0, error: (err as Error)?.message ?? String(err) }));
    done++;
    rechecks.push(judgeRecheck({ ...base, now, cancelled: env.signal?.aborted === true }));
  }
  const clock = env.now ?? (() => new Date());
  const verification: Verification = {
    schema: 1,
    handoff_id: handoff.frontmatter.id,
    checked_at: clock().toISOString(),
    session_id: (await sanitizeSessionId(env.sessionId ?? randomUUID())).slice(0, 300),
    ran: req.run,
    stale: !isUpToDate(report),
    staleness,
    rechecks,
    counts: countRechecks(rechecks),
  };
  const line = verificationLine(verification);
  let verificationFile: string | null = null;
  let briefingFile: string | null = null;
  // Cancelled before any command ran: nothing was checked beyond staleness, so nothing is recorded (it would hide the latest real one).
  const record = req.run && !(env.signal?.aborted && done === 0 && runnable > 0);
  if (req.run && !record) warnings.push('WARNING: the verification was cancelled before any command ran; nothing was recorded');
  if (record) {
    try {
      verificationFile = await writeVerification(root, verification, clock());
    } catch (err) {
      return jobError(`the verification could not be recorded: ${errorText(err as Error)}`, 'io', { code: 'io' });
    }
    const written = await appendToBriefing(env.workspaceRoot, root, handoff, verification);
    if (typeof written === 'string') briefingFile = written;
    else if (written) warnings.push(`WARNING: the verification was recorded but not added to the briefing: ${errorText(written.error)}`);
  }
  return {
    status: 'ok',
    verification,
    line,
    handoff_id: verification.handoff_id,
    handoff_file: p.file,
    briefing_file: briefingFile,
    verification_file: verificationFile,
    warnings,
  };
}

/** A new file beside the handoff's section, sorting right after it, or one append to a single-file briefing; undefined when no briefing is named. */
async function appendToBriefing(workspaceRoot: string, root: string, handoff: ParsedHandoff, v: Verification): Promise<string | undefined | { error: Error }> {
  const named = handoff.frontmatter.briefing_file;
  if (!named) return undefined;
  const resolved = resolveInside(root, ...named.split('/'));
  if (!resolved.ok) return { error: new Error(resolved.message) };
  const briefing = resolved.path;
  const folder = path.dirname(briefing);
  const linkTo = (from: string) =>
    path
      .relative(from, path.join(root, HANDOFFS_DIR, `${v.handoff_id}.md`))
      .split(path.sep)
      .join('/');
  try {
    if (path.basename(path.dirname(folder)) === BRIEFINGS_DIR) {
      const text = await readFile(briefing, 'utf8').catch(() => '');
      const at = text.indexOf('\n## ');
      const header = at > 0 ? text.slice(0, at) : `# Briefing: verification of ${v.handoff_id}\n`;
      const name = `${v.handoff_id}.verification-${fileTimestamp(new Date(Date.parse(v.checked_at) || Date.now()))}_${randomBytes(4).toString('hex')}.md`;
      const target = resolveInside(folder, name);
      if (!target.ok) return { error: new Error(target.message) };
      const section = renderVerificationSection(v, linkTo(folder));
      await writeBriefingSection(workspaceRoot, target.path, await ensureSanitized(header), await ensureSanitized(section), async () => undefined);
      return target.path;
    }
    await appendBriefing(workspaceRoot, briefing, await ensureSanitized(''), await ensureSanitized(renderVerificationSection(v, linkTo(folder))));
    return briefing;
  } catch (err) {
    return { error: err instanceof Error ? err : new Error(String(err)) };
  }
}
