/**
 * The receiving specialist's prompt. Picking a pending handoff up marks it `accepted` by this session, so a
 * later result from another session can tell it was taken. Never throws.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { runJob } from '../project/jobError';
import { errorText, jobError, type ErrorParts, type JobError } from '../../core/handoff/errors';
import { HANDOFFS_DIR, handoffFileName } from '../../core/handoff/naming';
import { buildSpecialistPrompt } from '../../core/receive/receiverPrompt';
import { describeSanitizing } from '../../core/safety/redact';
import { sanitizeText } from '../../core/safety/gate';
import { stripInvisible } from '../../core/safety/invisible';
import { sanitizeSessionId } from '../handover/fieldGate';
import type { ParsedHandoff } from '../../core/handoff/parse';
import { isUpToDate, stalenessLines } from '../../core/receive/stalenessReport';
import { collectStaleness } from '../../evidence/git/stalenessFacts';
import { findHandoff, readNewestHandoff } from '../../store/handoffs/handoffIndex';
import { setHandoffStatus } from '../../store/handoffs/handoffStore';
import { latestVerification } from '../../store/handoffs/verifications';
import { verificationLine } from '../../core/receive/verification';
import { otherToolsHandoffFolders } from '../../store/handoffs/timelineFiles';
import { type JobContext } from '../handover/handover';
import { openProject } from '../project/project';
import { listTimeline } from '../timeline/timeline';
import { receivingHandoffsFor } from './priorHandoffs';
import { chainWaitingLines } from '../timeline/insights';
import { DEFAULT_PENDING_WARN_AFTER_MS } from '../../core/timeline/waiting';

/** `handoff`: an id, a file name or `latest` (the newest handoff, never a result). */
export interface PromptRequest {
  readonly specialist?: string;
  readonly handoff?: string;
  /** Mark a pending handoff `accepted` by this session (default true). */
  readonly take?: boolean;
}

export type PromptOutcome =
  | {
      status: 'ok';
      prompt: string;
      specialist: string;
      persona_marker: string;
      handoff_id: string | null;
      handoff_file: string | null;
      taken: boolean;
      /** The handoff picked up is still `pending` after this call (built with `take: false`, or not taken). */
      pending: boolean;
      stale: boolean;
      warnings: string[];
      redactions: Record<string, number>;
      /** Invisible characters removed from the prompt (prior handoffs and commit subjects are text other agents wrote). */
      invisible_stripped: number;
    }
  | JobError;

function fail(message: string, field?: string, parts?: ErrorParts): PromptOutcome {
  return jobError(message, field, parts);
}

// Re-exported for the surfaces that import it from here.
export { priorHandoffsFor } from './priorHandoffs';

export async function buildPrompt(req: PromptRequest, env: JobContext): Promise<PromptOutcome> {
  return runJob('building the prompt', () => build(req, env));
}

async function build(req: PromptRequest, env: JobContext): Promise<PromptOutcome> {
  const opened = await openProject(env);
  if (!opened.ok) return opened.error;
  const project = opened.project;
  const root = project.handoffRoot;
  const registry = project.registry;
  const warnings = project.warnings.map((w) => `WARNING: ${w}`);
  const dir = path.join(root, HANDOFFS_DIR);

  let handoff: { file: string; parsed: ParsedHandoff } | undefined;
  if (req.handoff && req.handoff !== 'latest') {
    const found = await findHandoff(dir, req.handoff, 'handoff');
    if (!found.ok) return fail(found.message, 'handoff');
    handoff = { file: found.file, parsed: found.handoff };
  } else {
    // Never a result: `kind: result` hands work back, there is nothing to pick up.
    const newest = await readNewestHandoff(dir, req.specialist);
    handoff = newest && { file: newest.file, parsed: newest.handoff };
    if (!handoff && req.handoff === 'latest') {
      return fail(
        `there is no handoff to pick up in ${dir}${req.specialist ? ` for ${req.specialist}` : ''} (results are not picked up) — hand over first, or leave out --handoff`,
        'handoff',
      );
    }
  }
  const specialistId = req.specialist ?? handoff?.parsed.frontmatter.specialist;
  if (!specialistId) {
    return fail('there is no handoff yet to pick up — name a specialist (--specialist) to brief one without a handoff', 'specialist');
  }
  const lookup = registry.lookup(specialistId);
  if (!lookup.ok) return fail(lookup.message, 'specialist', lookup.parts);
  const specialist = lookup.specialist;
  if (handoff && req.specialist && handoff.parsed.frontmatter.specialist !== req.specialist) {
    warnings.push(`WARNING: handoff ${handoff.parsed.frontmatter.id} is addressed to ${handoff.parsed.frontmatter.specialist}, not ${req.specialist}`);
  }

  const timeline = await listTimeline(
    project,
    registry.all().map((s) => s.id),
  );
  const handoffs = await receivingHandoffsFor(timeline.files, {
    workspaceRoot: env.workspaceRoot,
    ...(handoff ? { pickedUp: { id: handoff.parsed.frontmatter.id, path: handoff.file } } : {}),
  });
  const prior = handoffs.prior;
  warnings.push(...timeline.warnings.map((w) => `WARNING: ${w}`), ...prior.warnings);
  const report = handoff
    ? await collectStaleness({
        cwd: env.workspaceRoot,
        handoff: handoff.parsed,
        binary: env.gitBinary,
        signal: env.signal,
        handoffRoot: root,
        alsoExclude: otherToolsHandoffFolders(path.resolve(env.workspaceRoot)),
      })
    : undefined;
  const staleness = report ? stalenessLines(report) : [];
  const verification = handoff ? await latestVerification(root, handoff.parsed.frontmatter.id) : undefined;
  const now = (env.now ?? (() => new Date()))();
  const waiting = handoff
    ? await chainWaitingLines(
        project,
        timeline.files,
        handoff.parsed.frontmatter.root_id,
        handoff.parsed.frontmatter.id,
        now.getTime(),
        env.pendingWarnAfterMs ?? DEFAULT_PENDING_WARN_AFTER_MS,
      )
    : [];
  const deliverable = path
    .relative(env.workspaceRoot, path.join(dir, handoffFileName(now, specialist.id)))
    .split(path.sep)
    .join('/');
  const built = buildSpecialistPrompt({
    specialist: {
      id: specialist.id,
      label: specialist.label,
      personaMarker: specialist.personaMarker,
      mandate: specialist.mandate,
      returnCondition: specialist.returnCondition,
    },
    handoff: handoff
      ? {
          id: handoff.parsed.frontmatter.id,
          relativePath: path.relative(env.workspaceRoot, handoff.file).split(path.sep).join('/'),
          returnCondition: handoff.parsed.frontmatter.return_condition,
          ...(handoffs.pickedUp !== null ? { body: handoffs.pickedUp } : {}),
        }
      : null,
    priorHandoffs: prior.text,
    ...(verification ? { verification: verificationLine(verification) } : {}),
    waiting,
    staleness,
    runContext: { timestamp: now.toISOString(), deliverablePath: deliverable },
  });
  // The prompt carries text other tools and agents wrote, so it passes the gate as an output.
  const visible = stripInvisible(built);
  const redacted = await sanitizeText(visible.text, 'strip');
  const prompt: string = redacted.text;
  for (const note of redacted.notes) warnings.push(`WARNING: ${note}`);
  const sanitizing = describeSanitizing(redacted.found, visible.removed);
  if (sanitizing) warnings.push(`WARNING: prompt: ${sanitizing}`);

  let taken = false;
  if (handoff && req.take !== false && handoff.parsed.frontmatter.status === 'pending') {
    const set = await setHandoffStatus(handoff.file, 'accepted', { at: now.toISOString(), session_id: await sanitizeSessionId(env.sessionId ?? randomUUID()) });
    if (set.ok) taken = set.change !== null;
    else warnings.push(`WARNING: ${errorText(set)}`);
  }
  return {
    status: 'ok',
    prompt,
    specialist: specialist.id,
    persona_marker: specialist.personaMarker,
    handoff_id: handoff?.parsed.frontmatter.id ?? null,
    handoff_file: handoff?.file ?? null,
    taken,
    pending: !taken && handoff?.parsed.frontmatter.status === 'pending',
    stale: report ? !isUpToDate(report) : false,
    warnings,
    redactions: redacted.found,
    invisible_stripped: visible.removed,
  };
}
