/**
 * The receiving specialist hands back: per handoff answered, a `kind: result` file with the policy's status, and the
 * handoff's status set to match. When none matches, only a session note is written. Never throws.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { runJob } from '../project/jobError';
import { claimsOfPackage } from '../../core/receive/claims';
import { composeUnjudgedPackage, fitToBudget, measurePackage } from '../../core/handoff/compose';
import { acceptanceCriteria, matchCriteria, RecordResultRequestSchema, type RecordResultRequest } from '../../core/receive/handBack';
import { HANDOFFS_DIR, handoffId } from '../../core/handoff/naming';
import { renderHandoff, type HandoffMeta } from '../../core/handoff/render';
import { clipText } from '../../core/handoff/text';
import type { ParsedHandoff } from '../../core/handoff/parse';
import { composeError, errorText, jobError, type ErrorParts, type JobError } from '../../core/handoff/errors';
import { issueMessage, issueParts, parseHandoverRequest } from '../../core/handoff/request';
import { describeSanitizing, redactSecrets, redactTexts } from '../../core/safety/redact';
import { stripInvisible } from '../../core/safety/invisible';
import { GateTally, sanitizeFileName, sanitizeText } from '../../core/safety/gate';
import { resultStatus, resultSummaryLines, type ResultStatus } from '../../core/receive/handBackPolicy';
import type { TestRun } from '../../core/handoff/schema';
import { openPickUp } from '../../core/handoff/status';
import { slugifyTopic } from '../../core/handoff/topic';
import { createExclusive, ensureDir, StoreError } from '../../store/safeWrite';
import { ensureRootGitFiles } from '../../store/handoffs/rootGitFiles';
import { discardStagedFile, promoteHandoffFile, setHandoffStatus, stageHandoffFile } from '../../store/handoffs/handoffStore';
import { findHandoff, listHandoffFiles, readHandoffHead } from '../../store/handoffs/handoffIndex';
import { resolveInside } from '../../store/pathGuard';
import { collectEvidenceFor, readSessionLog, type JobContext } from '../handover/handover';
import { openProject } from '../project/project';
import { counterFor } from '../tokenizers/tokenizer';
import { gatePackage, sanitizeSessionId } from '../handover/fieldGate';

export const NOTES_DIR = 'notes';

/** One answered handoff. */
export interface ResultEntry {
  readonly handoff_id: string;
  readonly handoff_file: string;
  readonly result_file: string;
  readonly status: ResultStatus;
  readonly reasons: string[];
}

/** `field: 'taken'`: another session took a handoff up and never answered; ask the user, then call again with `proceed_if_taken`. */
export type RecordResultOutcome =
  | {
      status: 'ok';
      entries: ResultEntry[];
      failures: Array<{ handoff: string; message: string }>;
      note_file: string | null;
      summary: string[];
      warnings: string[];
    }
  | JobError;

function fail(message: string, field?: string, parts?: ErrorParts): RecordResultOutcome {
  return jobError(message, field, parts);
}

/** Not partial, not results, still open and not completed or blocked by a result; newest 500 files read. */
async function openHandoffsFor(dir: string, specialist: string): Promise<Array<{ file: string; handoff: ParsedHandoff }>> {
  const files = (await listHandoffFiles(dir)).filter((f) => !f.partial).slice(-500);
  const parsed: Array<{ file: string; handoff: ParsedHandoff }> = [];
  for (const f of files) {
    const h = await readHandoffHead(f.path);
    if (h) parsed.push({ file: f.path, handoff: h });
  }
  // A result "in progress" leaves the handoff open, so the next hand-back of the same work finds it again.
  const answered = new Set(
    parsed
      .filter((p) => p.handoff.frontmatter.kind === 'result' && ['complete', 'blocked'].includes(p.handoff.frontmatter.status))
      .map((p) => p.handoff.frontmatter.parent_id),
  );
  return parsed.filter(
    (p) =>
      p.handoff.frontmatter.kind === 'handoff' &&
      p.handoff.frontmatter.specialist === specialist &&
      ['pending', 'accepted', 'in_progress'].includes(p.handoff.frontmatter.status) &&
      !answered.has(p.handoff.frontmatter.id),
  );
}

/** `env.sessionId` is the session recording the result. */
export async function recordResult(input: unknown, env: JobContext): Promise<RecordResultOutcome> {
  return runJob('recording the result', () => recordUnguarded(input, env));
}

/** Redacts the job's own words too: warnings, summary lines and reasons quote the request. */
async function redactOutcome(out: Extract<RecordResultOutcome, { status: 'ok' }>, known: Map<string, string>): Promise<RecordResultOutcome> {
  const texts = [...out.warnings, ...out.summary, ...out.failures.map((f) => f.message), ...out.entries.flatMap((e) => e.reasons)];
  const r = await redactTexts(texts, { known });
  let i = 0;
  const next = (): string => r.texts[i++];
  const warnings = out.warnings.map(next);
  const summary = out.summary.map(next);
  const failures = out.failures.map((f) => ({ ...f, message: next() }));
  const entries = out.entries.map((e) => ({ ...e, reasons: e.reasons.map(next) }));
  return { ...out, warnings, summary, failures, entries };
}

async function recordUnguarded(input: unknown, env: JobContext): Promise<RecordResultOutcome> {
  const parsed = RecordResultRequestSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const parts = issueParts(issue?.path ?? [], issueMessage(issue, input));
    return fail(composeError(parts), String(issue?.path[0] ?? ''), parts);
  }
  const req: RecordResultRequest = parsed.data;
  const opened = await openProject(env);
  if (!opened.ok) {
    return opened.error;
  }
  const root = opened.project.handoffRoot;
  const { registry, warnings: registryWarnings } = opened.project;
  const warnings = registryWarnings.map((w) => `WARNING: ${w}`);
  const lookup = registry.lookup(req.specialist);
  if (!lookup.ok) {
    return fail(lookup.message, 'specialist', lookup.parts);
  }
  const specialist = lookup.specialist;
  const dir = path.join(root, HANDOFFS_DIR);
  const now = (env.now ?? (() => new Date()))();
  const sessionId = await sanitizeSessionId(env.sessionId ?? randomUUID());
  // One set of known secrets through the whole job: every result, file and line of the outcome.
  const known = new Map<string, string>();

  const failures: Array<{ handoff: string; message: string }> = [];
  let targets: Array<{ file: string; handoff: ParsedHandoff }> = [];
  if (req.handoffs.length) {
    for (const ref of req.handoffs) {
      const found = await findHandoff(dir, ref, 'handoff');
      if (!found.ok) {
        failures.push({ handoff: ref, message: errorText(found.message) });
      } else if (found.handoff.frontmatter.kind === 'result') {
        failures.push({
          handoff: ref,
          message: `${found.handoff.frontmatter.id} is itself a result; answer the handoff it belongs to (${found.handoff.frontmatter.parent_id ?? 'none'})`,
        });
      } else {
        targets.push({ file: found.file, handoff: found.handoff });
      }
    }
  } else {
    targets = await openHandoffsFor(dir, specialist.id);
  }

  // Nothing matches: a session note only, nothing else changes (hand-back policy).
  if (targets.length === 0) {
    const note = await writeSessionNote(env.workspaceRoot, root, now, specialist.id, sessionId, req, failures, warnings, known);
    if (typeof note !== 'string') {
      return note;
    }
    const summary = [
      `No open handoff to ${specialist.personaMarker} matched: nothing was marked; a session note was written.`,
      ...resultSummaryLines(
        [],
        failures.map((f) => ({ label: f.handoff, message: f.message })),
      ),
    ];
    return redactOutcome({ status: 'ok', entries: [], failures, note_file: note, summary, warnings }, known);
  }

  // Another session took one of them up and never answered it: ask first.
  if (!req.proceed_if_taken) {
    for (const t of targets) {
      const fm = t.handoff.frontmatter;
      const pick = openPickUp(fm.status, fm.status_history);
      if (pick && pick.session_id !== sessionId) {
        const parts = {
          problem: `handoff ${fm.id} was taken up by another session (${pick.session_id}, ${pick.at}) that never recorded a result`,
          fix: 'proceed to record yours anyway (proceed_if_taken), or leave it to that session',
        };
        return fail(composeError(parts), 'taken', parts);
      }
    }
  }

  const counter = counterFor(req.tokenizer);
  const session = await readSessionLog(env);
  const tests: TestRun[] = [...(session?.evidence.tests_run ?? []), ...req.tests_run].sort((a, b) =>
    (a.started_at ?? '') < (b.started_at ?? '') ? -1 : (a.started_at ?? '') > (b.started_at ?? '') ? 1 : 0,
  );
  const entries: ResultEntry[] = [];
  for (const t of targets) {
    const fm = t.handoff.frontmatter;
    try {
      const criteria = acceptanceCriteria(t.handoff);
      const { checks, unknown } = matchCriteria(criteria, req.criteria_met);
      for (const u of unknown) {
        warnings.push(
          `WARNING: "${clipText(u, 80)}" is not an acceptance criterion of ${fm.id} (they are: ${criteria.map((c, i) => `${i + 1}. ${clipText(c, 60)}`).join('; ')})`,
        );
      }
      const policy = resultStatus({ matched: true, criteria: checks, tests, blockers: req.blockers });
      const status: ResultStatus = policy.status === 'note_only' ? 'in_progress' : policy.status;
      const request = parseHandoverRequest({
        specialist: specialist.id,
        topic: fm.topic_title || fm.topic,
        summary: req.summary,
        next_steps: req.next_steps,
        blockers: req.blockers,
        max_context_tokens: req.max_context_tokens,
        tokenizer: req.tokenizer,
        return_condition: fm.return_condition,
        handover_reason: `Result for ${fm.id}`,
      });
      if (!request.ok) {
        failures.push({ handoff: fm.id, message: request.message });
        continue;
      }
      const topic = slugifyTopic(fm.topic_title || fm.topic);
      const evidence = await collectEvidenceFor({ ...env, baseCommit: fm.head_commit });
      const composed = composeUnjudgedPackage(request.request, {
        specialist,
        topic: topic.ok ? topic : { slug: fm.topic, title: fm.topic_title },
        evidence,
        sessionId,
        parent: fm,
        result: { to: fm.from, acceptance: checks },
        session: { tests_run: tests, recent_turns: [], file_edits: session?.evidence.file_edits ?? [], sources: [] },
      });
      const meta = (date: Date): HandoffMeta => ({
        id: handoffId(date, specialist.id),
        created: date.toISOString(),
        status,
        briefingFile: null,
        historyFile: null,
      });
      // A secret found in any text or short field is redacted in all.
      const gated = await gatePackage(composed, request.request, known);
      gated.secrets.forEach((kind, value) => known.set(value, kind));
      for (const note of gated.notes) warnings.push(`WARNING: ${note}`);
      const sanitizing = describeSanitizing(gated.found, gated.invisible);
      if (sanitizing) warnings.push(`WARNING: ${fm.id}: ${sanitizing}`);
      // The claims quote the texts: judged again on the sanitized ones.
      let pkg = measurePackage({ ...gated.pkg, claims: claimsOfPackage(gated.pkg) }, meta(now), specialist, counter);
      if (pkg.oversize_warning) {
        pkg = fitToBudget(pkg, meta(now), specialist, counter).pkg;
      }
      const gate = new GateTally(known);
      // The status event names the result, staged as .partial.md, so it holds only once the result is promoted.
      const staged = await stageHandoffFile(env.workspaceRoot, dir, now, async (date) => ({
        name: await sanitizeFileName(`${meta(date).id}.md`, known),
        content: await gate.text(renderHandoff(pkg, meta(date), specialist)),
      }));
      gate.secrets.forEach((kind, value) => known.set(value, kind));
      const set = await setHandoffStatus(t.file, status, { at: now.toISOString(), session_id: sessionId, result_id: staged.finalName.replace(/\.md$/, '') });
      if (!set.ok) {
        await discardStagedFile(staged);
        failures.push({ handoff: fm.id, message: `${errorText(set)} — no result was written` });
        continue;
      }
      const created = await promoteHandoffFile(staged).catch(async (err: unknown) => {
        await discardStagedFile(staged);
        throw err;
      });
      warnings.push(...gate.warnings(`the result for ${fm.id}`));
      entries.push({ handoff_id: fm.id, handoff_file: t.file, result_file: created.path, status, reasons: policy.reasons });
    } catch (err) {
      failures.push({ handoff: fm.id, message: err instanceof StoreError ? errorText(err) : (err as Error).message });
    }
  }
  const summary = resultSummaryLines(
    entries.map((e) => ({ label: e.handoff_id, status: e.status })),
    failures.map((f) => ({ label: f.handoff, message: f.message })),
  );
  return redactOutcome({ status: 'ok', entries, failures, note_file: null, summary, warnings }, known);
}

/** `notes/<timestamp>_<specialist>.md`, without invisible characters or secrets (their counts go to `warnings`). */
async function writeSessionNote(
  workspaceRoot: string,
  root: string,
  now: Date,
  specialist: string,
  sessionId: string,
  req: RecordResultRequest,
  failures: ReadonlyArray<{ handoff: string; message: string }>,
  warnings: string[],
  known: Map<string, string>,
): Promise<string | RecordResultOutcome> {
  const dir = path.join(root, NOTES_DIR);
  const list = (xs: readonly string[]) => (xs.length ? xs.map((x) => `- ${x.replace(/\n/g, ' ')}`).join('\n') : '_None._');
  const raw = [
    `# Session note from ${specialist}`,
    '',
    `Session \`${sessionId}\`, ${now.toISOString()}. No open handoff to ${specialist} matched this result, so no handoff status was changed.`,
    ...(failures.length ? ['', ...failures.map((f) => `- ${f.handoff}: ${f.message}`)] : []),
    '',
    '## Summary',
    '',
    req.summary.trim() || '_None._',
    '',
    '## Next steps',
    '',
    list(req.next_steps),
    '',
    '## Blockers',
    '',
    list(req.blockers),
    '',
  ].join('\n');
  const stripped = stripInvisible(raw);
  const redacted = await redactSecrets(stripped.text, { known });
  redacted.secrets.forEach((kind, value) => known.set(value, kind));
  const text = (await sanitizeText(redacted.text, 'escape', known)).text; // the gate's final check (src/core/safety/gate.ts)
  for (const n of redacted.notes) warnings.push(`WARNING: ${n}`);
  const sanitizing = describeSanitizing(redacted.found, stripped.removed);
  if (sanitizing) warnings.push(`WARNING: session note: ${sanitizing}`);
  try {
    await ensureDir(workspaceRoot, dir);
    // The root's .gitignore first, so git never shows the note's temporary file.
    await ensureRootGitFiles(root);
    for (let i = 0; i < 1000; i++) {
      const name = await sanitizeFileName(`${handoffId(new Date(now.getTime() + i), specialist)}.md`);
      const target = resolveInside(dir, name);
      if (!target.ok) return fail(target.message, 'io');
      if (await createExclusive(target.path, text)) return target.path;
    }
    return fail(`could not find a free note name in ${dir}`, 'io');
  } catch (err) {
    return fail((err as Error).message, 'io');
  }
}
