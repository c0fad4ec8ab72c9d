/** What a new agent session should know of the handoffs waiting in its workspace. Reads only. */
import path from 'node:path';
import { runJob } from '../project/jobError';
import { partsError, type JobError } from '../../core/handoff/errors';
import { sanitizeTexts } from '../../core/safety/gate';
import { sessionStartContext, SESSION_START_CONTEXT_LIMIT, type PendingHandoff, type SessionStartContext } from '../../core/agents/sessionStart';
import { listHandoffFiles } from '../../store/handoffs/handoffIndex';
import { listStatusFolders, readHeadsListed } from '../../store/handoffs/handoffHeads';
import type { JobContext } from '../project/jobContext';
import { openProject, workspaceFolderOf } from '../project/project';
import { buildPrompt } from '../receive/prompt';

export const SESSION_START_FILES = 200;

export interface SessionStartRequest {
  /** The workspace is its git repository's top level, or the folder itself. */
  readonly folder: string;
  readonly handoffDirectory?: string;
  readonly now?: () => Date;
  readonly limit?: number;
}

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
  | JobError;

/** The newest pending handoff's prompt (built with `take: false`, so nothing is marked picked up), or a list of them. Never throws. */
export async function sessionStartJob(req: SessionStartRequest): Promise<SessionStartOutcome> {
  return runJob('answering the session start', () => run(req));
}

async function run(req: SessionStartRequest): Promise<SessionStartOutcome> {
  const folder = await workspaceFolderOf(path.resolve(req.folder));
  if (!folder.ok) {
    return partsError('cwd', { path: ['cwd'], subject: 'the session folder', problem: folder.problem, ...(folder.fix ? { fix: folder.fix } : {}) });
  }
  const workspaceRoot = folder.path;
  const env: JobContext = { workspaceRoot, handoffDirectory: req.handoffDirectory, ...(req.now ? { now: req.now } : {}) };
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
