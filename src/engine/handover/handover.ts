/**
 * The handoff engine, one job for every surface: `prepareHandover` validates, collects and measures;
 * `writeHandover` fits, writes the handoff, its history and its briefing section. Neither throws.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { runJob } from '../project/jobError';
import { claimsOfPackage } from '../../core/receive/claims';
import { composeUnjudgedPackage, fitToBudget, MAX_HOP_DEPTH, measurePackage, type FitResult } from '../../core/handoff/compose';
import type { GitEvidence } from '../../core/handoff/gitEvidence';
import { renderHistory } from '../../core/handoff/history';
import { BRIEFINGS_DIR, HANDOFFS_DIR, HISTORY_DIR, briefingFileName, handoffId, utcDay } from '../../core/handoff/naming';
import { handoffFrontmatter, renderBriefingHeader, renderBriefingSection, renderHandoff, type HandoffMeta } from '../../core/handoff/render';
import { plural } from '../../core/handoff/text';
import { addCounts, describeSanitizing, redactTexts } from '../../core/safety/redact';
import type { KnownSecrets } from '../../core/safety/recurrence';
import { GateTally, sanitizeFileName } from '../../core/safety/gate';
import { DEFAULT_USER_REQUEST_TOKENS, parseHandoverRequest, type HandoverRequest } from '../../core/handoff/request';
import { errorText, jobError, partsError, type JobError } from '../../core/handoff/errors';
import { HandoffFrontmatterSchema, type HandoffFrontmatter, type HandoffPackage, type HandoverResult } from '../../core/handoff/schema';
import { overBudgetWarning } from '../../core/handoff/summary';
import type { Specialist } from '../../core/specialists/registry';
import type { TokenCounter } from '../../core/handoff/tokens';
import { memoisedCounter } from '../../core/handoff/tokenPieces';
import { slugifyTopic } from '../../core/handoff/topic';
import { saveSessionLogState } from '../../store/sessionLogState';
import type { SessionLogState } from '../../core/session/events';
import { StoreError, createExclusive, ensureDir } from '../../store/safeWrite';
import { discardStagedHandoff, promoteHandoffFile, restageHandoffFile, stageHandoffFile, writeBriefingSection } from '../../store/handoffs/handoffStore';
import { briefingExists, briefingPaths } from '../../store/handoffs/briefingFiles';
import { findHandoff } from '../../store/handoffs/handoffIndex';
import { resolveInside } from '../../store/pathGuard';
import { writeInteropMirrors } from '../../store/interop/mirrors';
import { counterFor } from '../tokenizers/tokenizer';
import type { JobContext } from '../project/jobContext';
import { agentLoopGuard } from './loopGuard';
import { gatePackage, sanitizeRequestFields, sanitizeSessionId } from './fieldGate';
import { openProject } from '../project/project';
import { draftFromEvidence } from '../draft/evidenceDraft';
import { collectEvidenceFor, displayFile, readSessionLog, sessionSources } from './handoverEvidence';

export type { JobContext } from '../project/jobContext';
export { collectEvidenceFor, latestHandoff, readSessionLog } from './handoverEvidence';

/** Everything decided before writing: the caller may show the estimate and a fit preview. */
export interface PreparedHandover {
  readonly env: JobContext;
  readonly request: HandoverRequest;
  readonly root: string;
  readonly specialist: Specialist;
  readonly evidence: GitEvidence;
  /** The measured package, not yet fitted. */
  readonly pkg: HandoffPackage;
  readonly counter: TokenCounter;
  readonly warnings: string[];
  readonly parent?: HandoffFrontmatter;
  readonly sessionState?: { readonly path: string; readonly state: SessionLogState };
  /** Value → kind, redacted wherever they recur in the files written. Never printed or written. */
  readonly secrets: KnownSecrets;
}

export type PrepareResult = { status: 'prepared'; prepared: PreparedHandover } | JobError;

function posixRelative(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join('/');
}

function provisionalMeta(p: { root: string; specialist: Specialist; pkg: HandoffPackage }, date: Date, withHistory: boolean): HandoffMeta {
  const id = handoffId(date, p.specialist.id);
  return {
    id,
    created: date.toISOString(),
    status: 'pending',
    // One file per section in the briefing's folder.
    briefingFile: `${BRIEFINGS_DIR}/${briefingFileName(p.specialist.id, p.pkg.topic, date).replace(/\.md$/, '')}/${id}.md`,
    historyFile: withHistory ? `${HISTORY_DIR}/${id}.md` : null,
  };
}

/** Never throws: every failure is `{status:"error", message:"ERROR: …", field}`. */
export async function prepareHandover(input: unknown, env: JobContext): Promise<PrepareResult> {
  return runJob('preparing the handoff', async () => {
    if (!env.workspaceRoot || !path.isAbsolute(env.workspaceRoot)) {
      return jobError(`project_root must be an absolute path (got "${env.workspaceRoot ?? ''}")`, 'project_root');
    }
    const parsed = parseHandoverRequest(input);
    if (!parsed.ok) {
      return jobError(parsed.message, parsed.field, parsed.parts);
    }
    if (env.maxHandoverDepth !== undefined && !(Number.isInteger(env.maxHandoverDepth) && env.maxHandoverDepth >= 1 && env.maxHandoverDepth <= MAX_HOP_DEPTH)) {
      return jobError(`maxHandoverDepth must be a whole number of hops from 1 to ${MAX_HOP_DEPTH} (got ${String(env.maxHandoverDepth)})`, 'maxHandoverDepth');
    }
    // The topic is redacted before it is slugged: a slugged token no longer looks like a secret.
    const fields = await sanitizeRequestFields(parsed.request);
    const request = fields.request;
    const opened = await openProject(env);
    if (!opened.ok) {
      return opened.error;
    }
    const root = opened.project.handoffRoot;
    const registry = opened.project.registry;
    const warnings = opened.project.warnings.map((w) => `WARNING: ${w}`);
    const lookup = registry.lookup(request.specialist);
    if (!lookup.ok) {
      return jobError(lookup.message, 'specialist', lookup.parts);
    }
    const topic = slugifyTopic(request.topic);
    if (!topic.ok) {
      return jobError(topic.message, 'topic', topic.parts);
    }
    if (topic.fallback) {
      warnings.push(`WARNING: topic "${topic.title}" has no letters or digits; its files use the slug "${topic.slug}"`);
    }
    let parent: HandoffFrontmatter | undefined;
    if (request.parent) {
      const found = await findHandoff(path.join(root, HANDOFFS_DIR), request.parent);
      if (!found.ok) {
        return jobError(found.message, 'parent');
      }
      parent = found.handoff.frontmatter;
    }
    const [evidence, session] = await Promise.all([
      env.evidence ?? collectEvidenceFor(env),
      env.sessionEvidence ? Promise.resolve({ evidence: env.sessionEvidence }) : readSessionLog(env),
    ]);
    if (evidence.problem === 'no_work_tree') {
      // A bare repository or a .git folder: a handoff folder there would sit among git's own data.
      return partsError('project_root', {
        path: ['project_root'],
        subject: 'project_root',
        problem: `${env.workspaceRoot} is a bare git repository or a repository's .git folder: it has no working tree to hand over from, and nothing is written into it`,
        fix: 'use the working folder of a clone (git clone <repository> <folder>)',
      });
    }
    for (const note of evidence.notes) {
      warnings.push(`WARNING: ${note}`);
    }
    for (const note of session?.evidence.notes ?? []) {
      warnings.push(`WARNING: ${note}`);
    }
    // One memo of token counts: measuring, fitting and the history count the same lines again and again.
    const counter = memoisedCounter(counterFor(request.tokenizer));
    const sessionId = await sanitizeSessionId(env.sessionId ?? request.session_id ?? randomUUID(), fields.secrets);
    // The draft of the evidence: user requests and commands run, and with `draft` every field left empty.
    const draft = draftFromEvidence(
      { git: evidence, session: session?.evidence, latest: undefined },
      {
        userRequestTokens: env.userRequestTokens ?? DEFAULT_USER_REQUEST_TOKENS,
        countTokens: (t) => counter.count(t).tokens,
        includeRecentTurns: request.include_recent_turns,
      },
    );
    const composed = composeUnjudgedPackage(request, {
      draft,
      specialist: lookup.specialist,
      topic,
      evidence: session ? { ...evidence, notes: [...evidence.notes, ...session.evidence.notes] } : evidence,
      sessionId,
      parent,
      maxHandoverDepth: env.maxHandoverDepth,
      session: session && {
        tests_run: session.evidence.tests_run,
        recent_turns: session.evidence.recent_turns,
        file_edits: session.evidence.file_edits,
        sources: sessionSources(session.evidence, env.workspaceRoot),
        ...(session.evidence.compaction
          ? {
              compaction: {
                ...session.evidence.compaction,
                file: session.evidence.compaction.file && displayFile(session.evidence.compaction.file, env.workspaceRoot),
              },
            }
          : {}),
      },
    });
    if (env.caller === 'agent') {
      const refused = await agentLoopGuard(composed, parent, lookup.specialist, root);
      if (refused) return refused;
      if (composed.hop_guard) {
        // A return after progress: allowed, and the handoff records that the guard saw it.
        composed.hop_guard = { ...composed.hop_guard, confirmed: true, allowed_by: 'progress' };
        warnings.push(`WARNING: this chain returns to ${lookup.specialist.id}; allowed because the code changed since it last had this work`);
      }
    }
    // Secrets and invisible characters out of every text and short field before anything is measured; a secret found in one is redacted in all.
    const gated = await gatePackage(composed, request, fields.secrets);
    for (const note of gated.notes) {
      warnings.push(`WARNING: ${note}`);
    }
    const safePkg = { ...gated.pkg, redactions: addCounts(gated.pkg.redactions, fields.found) };
    // The claims quote the texts: judged again on the sanitized ones.
    safePkg.claims = claimsOfPackage(safePkg);
    const sanitizing = describeSanitizing(addCounts(gated.found, fields.found), gated.invisible);
    if (sanitizing) {
      warnings.push(`WARNING: ${sanitizing}`);
    }
    if (gated.escaped > 0) {
      warnings.push(
        `WARNING: ${gated.escaped} control or invisible character${gated.escaped === 1 ? '' : 's'} in file paths or the branch name ${gated.escaped === 1 ? 'is' : 'are'} shown as \\u{…} escapes`,
      );
    }
    // Warnings repeat evidence notes (git and session-log messages): no secrets in them either.
    const safeWarnings = await redactTexts(warnings, { known: gated.secrets });
    warnings.splice(0, warnings.length, ...safeWarnings.texts);
    const now = (env.now ?? (() => new Date()))();
    const pkg = measurePackage(safePkg, provisionalMeta({ root, specialist: lookup.specialist, pkg: safePkg }, now, false), lookup.specialist, counter);
    if (composed.hop_guard && !composed.hop_guard.confirmed) {
      const g = composed.hop_guard;
      const why = g.reasons
        .map((r) =>
          r === 'depth'
            ? `hop ${composed.hop} would exceed the limit of ${plural(g.max_depth, 'hop')}`
            : `${lookup.specialist.id} is already in this chain (${composed.chain.slice(0, -1).join(' → ')})`,
        )
        .join(' and ');
      return partsError(
        'hop_guard',
        { subject: 'hop guard:', problem: why, fix: 'confirm the handoff to proceed (hop_guard_confirmed), or hand over to someone else' },
        'refused',
      );
    }
    const sessionState = session && env.sessionLog?.statePath ? { path: env.sessionLog.statePath, state: session.evidence.next_state } : undefined;
    const prepared = {
      env,
      request: gated.request,
      root,
      specialist: lookup.specialist,
      evidence,
      pkg,
      counter,
      warnings,
      parent,
      sessionState,
      secrets: safeWarnings.secrets,
    };
    return { status: 'prepared', prepared };
  });
}

/** What fit-to-budget would cut, without writing anything. */
export function previewFit(prepared: PreparedHandover): FitResult {
  const now = (prepared.env.now ?? (() => new Date()))();
  const meta = provisionalMeta(prepared, now, true);
  return fitToBudget(prepared.pkg, meta, prepared.specialist, prepared.counter);
}

export interface WriteOptions {
  /** Default: the request's `fit_to_budget`. */
  readonly fit?: boolean;
}

/**
 * Staged as `<id>.partial.md` and renamed only once its briefing section is on disk, so a failed or killed
 * write never leaves a complete-looking handoff without its briefing. Never throws.
 */
export async function writeHandover(prepared: PreparedHandover, options: WriteOptions = {}): Promise<HandoverResult> {
  return runJob('writing the handoff', () => writeUnguarded(prepared, options));
}

/** Created whole or not at all; a taken name is a problem, since that file is not this handoff's history. */
async function writeHistory(prepared: PreparedHandover, meta: HandoffMeta, original: HandoffPackage, gate: GateTally): Promise<string | { problem: string }> {
  const historyDir = path.join(prepared.root, HISTORY_DIR);
  const target = resolveInside(historyDir, `${meta.id}.md`);
  try {
    if (!target.ok) throw new StoreError(target.message);
    await ensureDir(prepared.env.workspaceRoot, historyDir);
    const tally = new GateTally(gate.secrets);
    const content = await tally.text(renderHistory(original, meta, prepared.specialist, prepared.counter));
    if (!(await createExclusive(target.path, content))) {
      return { problem: `ERROR: ${target.path} already exists and is not this handoff's history — it was left as it is` };
    }
    gate.add(tally);
    return target.path;
  } catch (err) {
    return { problem: errorText(err as Error) };
  }
}

async function writeUnguarded(prepared: PreparedHandover, options: WriteOptions): Promise<HandoverResult> {
  const { env, root, specialist, counter } = prepared;
  const warnings = [...prepared.warnings];
  const start = (env.now ?? (() => new Date()))();
  let pkg = prepared.pkg;
  let original = prepared.pkg;
  const fit = options.fit ?? prepared.request.fit_to_budget;
  if (fit && pkg.oversize_warning) {
    const result = fitToBudget(pkg, provisionalMeta(prepared, start, true), specialist, counter);
    pkg = result.pkg;
    original = result.original;
  }
  const cut = pkg.dropped.length > 0;
  if (pkg.oversize_warning) {
    warnings.push(overBudgetWarning(pkg, fit));
  }

  let created;
  let meta: HandoffMeta | undefined;
  // Every file's final bytes pass the gate once more, with one set of known secrets across the handoff's files.
  const gate = new GateTally(prepared.secrets);
  let stageGate = new GateTally(gate.secrets);
  const handoffsDir = path.join(root, HANDOFFS_DIR);
  try {
    // Both folders first, so a briefing folder that cannot be written leaves no handoff behind on every retry.
    for (const made of await Promise.allSettled([ensureDir(env.workspaceRoot, path.join(root, BRIEFINGS_DIR)), ensureDir(env.workspaceRoot, handoffsDir)])) {
      if (made.status === 'rejected') throw made.reason;
    }
    // Check the frontmatter against its schema first rather than leave a file no reader accepts.
    const check = HandoffFrontmatterSchema.safeParse(handoffFrontmatter(pkg, provisionalMeta({ root, specialist, pkg }, start, cut)));
    if (!check.success) {
      const issue = check.error.issues[0];
      return jobError(
        `the handoff would not read back: frontmatter field "${issue?.path.join('.')}" ${issue?.message ?? 'is invalid'} — nothing was written`,
        'internal',
      );
    }
    created = await stageHandoffFile(env.workspaceRoot, handoffsDir, start, async (date) => {
      meta = provisionalMeta({ root, specialist, pkg }, date, cut);
      stageGate = new GateTally(gate.secrets); // counted for the attempt that is kept
      return { name: await sanitizeFileName(`${meta.id}.md`, gate.secrets), content: await stageGate.text(renderHandoff(pkg, meta, specialist)) };
    });
  } catch (err) {
    return err instanceof StoreError ? jobError(err.message, 'io', err.parts) : jobError(`could not write the handoff: ${(err as Error).message}`, 'io');
  }
  let finalMeta = meta as HandoffMeta;

  // The history is linked only if written whole; else the handoff is staged again without the link.
  let historyPath: string | null = null;
  if (cut && finalMeta.historyFile) {
    gate.know(stageGate.secrets);
    const history = await writeHistory(prepared, finalMeta, original, gate);
    if (typeof history === 'string') {
      historyPath = history;
      gate.add(stageGate);
    } else {
      finalMeta = { ...finalMeta, historyFile: null };
      pkg = measurePackage(pkg, finalMeta, specialist, counter);
      const restageGate = new GateTally(gate.secrets);
      try {
        await restageHandoffFile(created, await restageGate.text(renderHandoff(pkg, finalMeta, specialist)));
      } catch (err) {
        await discardStagedHandoff(created);
        return jobError(`${errorText(err as Error)} (its history file could not be written either: ${errorText(history.problem)}; nothing was kept)`, 'io');
      }
      gate.add(restageGate);
      warnings.push(`WARNING: the handoff was written without its history file (what fit to budget cut is not kept): ${errorText(history.problem)}`);
    }
  } else {
    gate.add(stageGate);
  }

  // Nothing below counts tokens (the figures are the package's).
  env.onCountingDone?.();
  const briefingName = await sanitizeFileName(briefingFileName(specialist.id, pkg.topic, created.date), gate.secrets);
  let briefing;
  let handoffFile: string;
  try {
    // One file per section, in the briefing's folder: branches never edit the same briefing file.
    const where = briefingPaths(path.join(root, BRIEFINGS_DIR), briefingName, finalMeta.id);
    // Whether it existed is read from its files, which making its folder does not change: side by side.
    const [existed] = await Promise.all([briefingExists(where), ensureDir(env.workspaceRoot, where.folder)]);
    // The handoff gets its complete name under the section's lock, right after the section is written.
    const written = await writeBriefingSection(
      env.workspaceRoot,
      where.section,
      await gate.text(renderBriefingHeader(specialist, pkg, utcDay(created.date), 'folder')),
      // The briefing has no budget: it keeps the uncut summary, with the written file's figures.
      await gate.text(renderBriefingSection({ ...pkg, summary: original.summary }, finalMeta, specialist, posixRelative(where.folder, created.finalPath))),
      () => promoteHandoffFile(created),
    );
    handoffFile = written.completed.path;
    briefing = { path: written.path, existed_before: existed, newly_created: !existed, size_bytes: written.size_bytes };
  } catch (err) {
    const withdrawn = (err as { withdrawn?: boolean }).withdrawn;
    const section = withdrawn === undefined ? '' : withdrawn ? 'its briefing section was taken back; ' : 'its briefing section could not be taken back; ';
    return jobError(`${errorText(err as Error)} (${section}the handoff was kept as ${created.path}, marked partial)`, 'io');
  }

  if (prepared.sessionState) {
    const problem = await saveSessionLogState(prepared.sessionState.path, prepared.sessionState.state);
    if (problem) warnings.push(`WARNING: ${problem}`);
  }
  // Interop copies come after our own files are safe; a failed copy is a WARNING, never an error.
  const interop = await writeInteropMirrors({
    workspaceRoot: env.workspaceRoot,
    settings: env.interop,
    handoffFile,
    briefingName,
    briefingHeader: await gate.text(renderBriefingHeader(specialist, pkg, utcDay(created.date))),
    briefingSection: (dir) => gate.text(renderBriefingSection({ ...pkg, summary: original.summary }, finalMeta, specialist, posixRelative(dir, handoffFile))),
  });
  warnings.push(...interop.warnings, ...gate.warnings('the handoff files'));
  const relHandoff = posixRelative(env.workspaceRoot, handoffFile);
  return {
    status: 'ok',
    persona_marker: specialist.personaMarker,
    package: { ...pkg, correlation_id: pkg.correlation_id ?? finalMeta.id, id: finalMeta.id, created: finalMeta.created, briefing_file: briefing.path },
    briefing,
    handoff_file: handoffFile,
    history_file: historyPath,
    next_step: `Start a new session for the ${specialist.label} and tell it: "Read ${relHandoff} and continue as ${specialist.personaMarker}."`,
    warnings,
    ...(interop.mirrors.length ? { mirrors: interop.mirrors } : {}),
  };
}

/** Prepares and writes in one call. Never throws. */
export async function handover(input: unknown, env: JobContext): Promise<HandoverResult> {
  const prepared = await prepareHandover(input, env);
  if (prepared.status === 'error') {
    return prepared;
  }
  return writeHandover(prepared.prepared);
}
