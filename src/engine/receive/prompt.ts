/**
 * "Handoff: Copy Prompt for Specialist" and `specialist-handoff prompt`: what the
 * receiving agent needs to pick a handoff up — the specialist's mandate, the receive
 * rules, the run context, the staleness report (what changed in the workspace since the
 * handoff), the handoff itself without its frontmatter, and the `## Prior Agent Handoffs`
 * block (docs/DESIGN.md §5: every other timeline file, ours as digests, 30 KB budget with the
 * handoff picked up, oldest dropped first). Picking a pending handoff up marks it `accepted`
 * by this session (so a later result from another session can say it was taken).
 * Never throws.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { errorText, handoverError, type ErrorParts, type HandoverError } from '../../core/handoff/errors';
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
import { type HandoverEnvironment } from '../handover/handover';
import { openProject } from '../project/project';
import { listTimeline } from '../timeline/timeline';
import { receivingHandoffsFor } from './priorHandoffs';
import { chainWaitingLines } from '../timeline/insights';
import { DEFAULT_PENDING_WARN_AFTER_MS } from '../../core/timeline/waiting';
import { jobError } from '../project/jobError';

/** What to build the prompt for: a specialist, a handoff (id, file name or `latest`: the newest handoff, never a result), or both. */
export interface PromptRequest {
  readonly specialist?: string;
  readonly handoff?: string;
  /** Mark a pending handoff `accepted` by this session (default true). */
  readonly take?: boolean;
}

/** Outcome of {@link buildPrompt}. */
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
      /** Secrets replaced by `[REDACTED:<kind>]` in the prompt, per kind (`{}` when none). */
      redactions: Record<string, number>;
      /** Invisible characters removed from the prompt (prior handoffs and commit subjects are text other agents wrote). */
      invisible_stripped: number;
    }
  | HandoverError;

function fail(message: string, field?: string, parts?: ErrorParts): PromptOutcome {
  return handoverError(message, field, parts);
}

// The prior handoffs block is read by priorHandoffs.ts; re-exported for the surfaces that import it from here.
export { priorHandoffsFor } from './priorHandoffs';

/** Builds the prompt for the receiving specialist. */
export async function buildPrompt(req: PromptRequest, env: HandoverEnvironment): Promise<PromptOutcome> {
  try {
    return await build(req, env);
  } catch (err) {
    return jobError(err, 'building the prompt');
  }
}

async function build(req: PromptRequest, env: HandoverEnvironment): Promise<PromptOutcome> {
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
    // The newest handoff (never a result: `kind: result` hands work back, there is nothing to pick up) to this specialist, or the newest handoff at all.
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
  // Issue 18: the handoff picked up in full without its frontmatter, the others as digests, within the 30 KB budget.
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
  // Issue 21: the handoffs of its chain waiting too long for a pick-up or an answer.
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
          // Issue 18: its human sections in full (the user's requests, what is done, the commands run among them).
          ...(handoffs.pickedUp !== null ? { body: handoffs.pickedUp } : {}),
        }
      : null,
    priorHandoffs: prior.text,
    // Issue 18: the latest verification of the handoff picked up, at the top of the prompt.
    ...(verification ? { verification: verificationLine(verification) } : {}),
    waiting,
    staleness,
    runContext: { timestamp: now.toISOString(), deliverablePath: deliverable },
  });
  // Nothing leaked (docs/DESIGN.md §7): the prompt carries files other tools and agents wrote (prior
  // handoffs, commit subjects in the staleness report), so invisible characters and every
  // secret come out of all of it.
  // Through the one gate (src/core/safety/gate.ts) after the counted strip: the receiving prompt is an output.
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
