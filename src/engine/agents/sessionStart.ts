/**
 * The session-start job of `specialist-handoff hook`: what a new agent session should know
 * of the handoffs in its workspace that wait to be picked up — the newest one's receiving
 * prompt (src/engine/receive/prompt.ts, built with `take: false`), or the short list of them
 * (src/core/agents/sessionStart.ts). It reads only: nothing is marked picked up, nothing is
 * written. Never throws.
 *
 *   folder ─▶ workspace ─▶ pending handoffs (heads, status events applied) ─▶ newest one's prompt ─▶ context
 */
import path from 'node:path';
import { partsError, type HandoverError } from '../../core/handoff/errors';
import { sanitizeTexts } from '../../core/safety/gate';
import { sessionStartContext, SESSION_START_CONTEXT_LIMIT, type PendingHandoff, type SessionStartContext } from '../../core/agents/sessionStart';
import { listHandoffFiles } from '../../store/handoffs/handoffIndex';
import { listStatusFolders, readHeadsListed } from '../../store/handoffs/handoffHeads';
import type { HandoverEnvironment } from '../project/environment';
import { jobError } from '../project/jobError';
import { openProject, workspaceFolderOf } from '../project/project';
import { buildPrompt } from '../receive/prompt';

/** Newest handoff files whose heads are read for pending ones: 200. */
export const SESSION_START_FILES = 200;

/** What the session start is asked about. */
export interface SessionStartRequest {
  /** The session's folder (absolute): the workspace is its git repository's top level, or the folder itself. */
  readonly folder: string;
  /** `handoff.directory` (the CLI's `--dir`); default `.handoff`. */
  readonly handoffDirectory?: string;
  /** The clock (default: now). */
  readonly now?: () => Date;
  /** Most characters of the context (default {@link SESSION_START_CONTEXT_LIMIT}). */
  readonly limit?: number;
}

/**
 * Outcome of {@link sessionStartJob}:
 * - `context`: the text to add (`form` `prompt` or `list`), how many handoffs are pending and
 *   the newest one's id, and the warnings of building its prompt;
 * - `none`: nothing is pending in the workspace;
 * - an error: the folder is missing or not usable (`field: "cwd"`), or the handoff folder
 *   cannot be read.
 */
export type SessionStartOutcome =
  | {
      readonly status: 'context';
      readonly workspaceRoot: string;
      readonly context: SessionStartContext;
      readonly pending: number;
      readonly newestId: string;
      readonly warnings: readonly string[];
    }
  | { readonly status: 'none'; readonly workspaceRoot: string }
  | HandoverError;

/**
 * Finds the workspace of `req.folder`, its pending handoffs (complete handoffs, not results,
 * whose status with its events applied is `pending`, among the newest
 * {@link SESSION_START_FILES} files) and, for the newest of them, its receiving prompt
 * without taking it up; composes the context from them.
 */
export async function sessionStartJob(req: SessionStartRequest): Promise<SessionStartOutcome> {
  try {
    return await run(req);
  } catch (err) {
    return jobError(err, 'answering the session start');
  }
}

async function run(req: SessionStartRequest): Promise<SessionStartOutcome> {
  const folder = await workspaceFolderOf(path.resolve(req.folder));
  if (!folder.ok) {
    return partsError('cwd', { path: ['cwd'], subject: 'the session folder', problem: folder.problem, ...(folder.fix ? { fix: folder.fix } : {}) });
  }
  const workspaceRoot = folder.path;
  const env: HandoverEnvironment = { workspaceRoot, handoffDirectory: req.handoffDirectory, ...(req.now ? { now: req.now } : {}) };
  const opened = await openProject(env);
  if (!opened.ok) return opened.error;
  const project = opened.project;
  const files = (await listHandoffFiles(project.handoffsDir))
    .filter((f) => !f.partial)
    .reverse()
    .slice(0, SESSION_START_FILES);
  const heads = await readHeadsListed(
    files.map((f) => f.path),
    await listStatusFolders(project.handoffRoot),
  );
  const found: Array<Omit<PendingHandoff, 'from' | 'to' | 'topic'> & { texts: [string, string, string] }> = [];
  heads.forEach((h) => {
    if (!h || h.kind !== 'handoff' || h.status !== 'pending') return;
    const s = project.registry.lookup(h.specialist);
    found.push({
      id: h.id,
      created: Date.parse(h.created),
      texts: [h.from, s.ok ? `${s.specialist.label} ${s.specialist.personaMarker}` : h.specialist, h.topic_title || h.topic],
    });
  });
  if (!found.length) return { status: 'none', workspaceRoot };
  // Through the one gate before they are measured: who handed over and the topic are words other agents wrote (the prompt passes it itself).
  const gated = (
    await sanitizeTexts(
      found.flatMap((f) => f.texts),
      'strip',
    )
  ).texts;
  const pending: PendingHandoff[] = found.map((f, i) => ({ id: f.id, created: f.created, from: gated[3 * i], to: gated[3 * i + 1], topic: gated[3 * i + 2] }));
  const newest = pending[0];
  const built = await buildPrompt({ handoff: newest.id, take: false }, env);
  const warnings = built.status === 'ok' ? built.warnings : [built.message];
  const now = (req.now ?? (() => new Date()))().getTime();
  const relative = path.relative(workspaceRoot, project.handoffsDir).split(path.sep).join('/');
  const composed = sessionStartContext({
    pending,
    prompt: built.status === 'ok' ? built.prompt : undefined,
    folder: relative,
    now,
    limit: req.limit ?? SESSION_START_CONTEXT_LIMIT,
  })!;
  return { status: 'context', workspaceRoot, context: composed, pending: pending.length, newestId: newest.id, warnings };
}
