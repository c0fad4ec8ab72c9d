/** Handoff insights of a project, from the handoff files' frontmatter with their status events applied. */
import { DEFAULT_MAX_HANDOVER_DEPTH } from '../../core/handoff/compose';
import { computeInsights, type Insights, type InsightsEntry } from '../../core/timeline/insights';
import { DEFAULT_PENDING_WARN_AFTER_MS, waitingOf, waitingPromptLine } from '../../core/timeline/waiting';
import { parseHandoffFileName } from '../../core/handoff/naming';
import type { TimelineFile } from '../../core/timeline/chains';
import { readTimelineInfos, type TimelineEntryInfo, type TimelineLocation } from './timeline';
import { listHandoffFiles, type HandoffFileEntry } from '../../store/handoffs/handoffIndex';
import { listStatusFolders, readHeadsListed, type HandoffHead } from '../../store/handoffs/handoffHeads';
import type { Project } from '../project/project';

export type { Insights, InsightsFigures, SpecialistInsights, ChainInsights, WaitingHandoff } from '../../core/timeline/insights';

export interface ReadInsightsOptions {
  readonly since?: Date;
  readonly now?: Date;
  /** 0: no warnings. */
  readonly pendingWarnAfterMs?: number;
  readonly maxDepth?: number;
}

/** `partial` comes from the file name. */
export function insightsEntryOf(head: HandoffHead, partial: boolean): InsightsEntry {
  return {
    id: head.id,
    kind: head.kind,
    specialist: head.specialist,
    from: head.from,
    topic: head.topic_title || head.topic,
    created: head.created,
    status: head.status,
    status_history: head.status_history,
    root_id: head.root_id,
    parent_id: head.parent_id,
    depth: Math.max(head.hop, head.chain.length),
    hop_guard_depth: head.hop_guard?.reasons.includes('depth') ?? false,
    tests_failed_count: head.tests_failed_count,
    partial,
  };
}

/** One listing of `status/` for all files; a file that cannot be read or parsed is counted in `unreadable`. */
async function readInsightHeads(handoffRoot: string, files: readonly HandoffFileEntry[]): Promise<{ entries: InsightsEntry[]; unreadable: number }> {
  const status = await listStatusFolders(handoffRoot);
  const heads = await readHeadsListed(
    files.map((f) => f.path),
    status,
  );
  const entries: InsightsEntry[] = [];
  let unreadable = 0;
  heads.forEach((h, i) => {
    if (h) entries.push(insightsEntryOf(h, files[i].partial));
    else unreadable++;
  });
  return { entries, unreadable };
}

/** Files are skipped by the time in their name, so an old history costs a listing only. Never throws. */
export async function readInsights(project: Project, options: ReadInsightsOptions = {}): Promise<Insights> {
  const now = (options.now ?? new Date()).getTime();
  const since = options.since?.getTime();
  const listed = await listHandoffFiles(project.handoffsDir).catch(() => [] as HandoffFileEntry[]);
  const files = since === undefined ? listed : listed.filter((f) => f.time >= since);
  const { entries, unreadable } = await readInsightHeads(project.handoffRoot, files);
  return computeInsights(entries, {
    now,
    ...(since === undefined ? {} : { since }),
    pendingWarnAfterMs: options.pendingWarnAfterMs ?? DEFAULT_PENDING_WARN_AFTER_MS,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_HANDOVER_DEPTH,
    filesUnreadable: unreadable,
  });
}

/** The newest files since the chain began. */
export const CHAIN_WAITING_FILES = 200;

/** The chain's handoffs waiting too long at `now`: the picked-up one first, then oldest first; none when `warnAfterMs` is 0. Never throws. */
export async function chainWaitingLines(
  where: TimelineLocation,
  files: readonly TimelineFile[],
  rootId: string,
  pickedUpId: string,
  now: number,
  warnAfterMs: number,
): Promise<string[]> {
  if (warnAfterMs <= 0) return [];
  const from = parseHandoffFileName(`${rootId}.md`)?.time ?? 0;
  const ours = files.filter((f) => f.source === 'handoff' && f.time >= from).slice(-CHAIN_WAITING_FILES);
  const infos = await readTimelineInfos(where, ours);
  const chain: Array<{ file: TimelineFile; info: TimelineEntryInfo }> = [];
  ours.forEach((file, i) => {
    const info = infos[i];
    if (info && info.root_id === rootId) chain.push({ file, info });
  });
  const answered = new Set(chain.filter((c) => c.info.kind === 'result').map((c) => c.info.parent_id));
  const lines: Array<{ first: boolean; time: number; line: string }> = [];
  for (const { file, info } of chain) {
    const w = waitingOf(
      {
        kind: info.kind,
        created: new Date(file.time).toISOString(),
        status: info.status,
        ...(info.status_at ? { status_at: info.status_at } : {}),
        partial: file.partial,
      },
      answered.has(info.id),
      now,
      warnAfterMs,
    );
    if (w)
      lines.push({
        first: info.id === pickedUpId,
        time: file.time,
        line: waitingPromptLine(w, { id: info.id, specialist: file.specialist }, info.id === pickedUpId),
      });
  }
  return lines.sort((a, b) => Number(b.first) - Number(a.first) || a.time - b.time).map((l) => l.line);
}
