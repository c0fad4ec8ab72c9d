/**
 * Handoff insights of a project (issue 21, docs/DESIGN.md §5 "Insights"), for every surface
 * that shows them — `specialist-handoff insights`, "Handoff: Show Insights": the handoff files
 * of `<handoff root>/handoffs/` listed by name, the frontmatter of each read through the store
 * (its status events applied), and the figures made by `computeInsights`
 * (src/core/timeline/insights.ts). Nothing but the files is read or kept.
 *
 *   project ─▶ listHandoffFiles (names) ─▶ since? ─▶ readInsightHeads ─▶ computeInsights ─▶ Insights
 */
import { DEFAULT_MAX_HANDOVER_DEPTH } from '../core/handoff/compose';
import type { ParsedHandoff } from '../core/handoff/parse';
import { computeInsights, type Insights, type InsightsEntry } from '../core/timeline/insights';
import { DEFAULT_PENDING_WARN_AFTER_MS, waitingOf, waitingPromptLine } from '../core/timeline/waiting';
import { parseHandoffFileName } from '../core/handoff/naming';
import type { TimelineFile } from '../core/timeline/chains';
import { readTimelineInfo, type TimelineEntryInfo } from './timeline';
import { listHandoffFiles, readHandoffHead, type HandoffFileEntry } from '../store/handoffs/handoffIndex';
import type { Project } from './project';

export type { Insights, InsightsFigures, SpecialistInsights, ChainInsights, WaitingHandoff } from '../core/timeline/insights';

/** How {@link readInsights} figures. */
export interface ReadInsightsOptions {
  /** Only entries created at or after this time (default: all). */
  readonly since?: Date;
  /** The clock: what "pending for how long" is measured against (default: now). */
  readonly now?: Date;
  /** `handoff.pendingWarnAfter` in ms (0: no warnings; default 2 days: `parsePendingWarnAfter`). */
  readonly pendingWarnAfterMs?: number;
  /** `handoff.maxHandoverDepth`: the depth limit chains are measured against (default 3, docs/DESIGN.md §4 "The hop guard"). */
  readonly maxDepth?: number;
}

/** Files read at once: enough to keep the disk busy, few enough to keep memory flat on 10,000 files. */
const READ_BATCH = 100;

/** The entry the figures read of a parsed head of ours (its status events applied); `partial` from its file name. */
export function insightsEntryOf(h: ParsedHandoff, partial: boolean): InsightsEntry {
  const fm = h.frontmatter;
  return {
    id: fm.id,
    kind: fm.kind,
    specialist: fm.specialist,
    from: fm.from,
    topic: fm.topic_title || fm.topic,
    created: fm.created,
    status: fm.status,
    status_history: fm.status_history,
    root_id: fm.root_id,
    parent_id: fm.parent_id,
    depth: Math.max(fm.hop, fm.chain.length),
    hop_guard_depth: fm.hop_guard?.reasons.includes('depth') ?? false,
    tests_failed_count: fm.tests_failed_count,
    partial,
  };
}

/**
 * The one function insights read heads through (the store's `readHandoffHead`: the file's
 * frontmatter, its status events applied), batch by batch, so the reader can be switched in
 * one place. A file that cannot be read or parsed is counted in `unreadable`.
 */
async function readInsightHeads(files: readonly HandoffFileEntry[]): Promise<{ entries: InsightsEntry[]; unreadable: number }> {
  const entries: InsightsEntry[] = [];
  let unreadable = 0;
  for (let i = 0; i < files.length; i += READ_BATCH) {
    const batch = files.slice(i, i + READ_BATCH);
    const heads = await Promise.all(batch.map((f) => readHandoffHead(f.path).catch(() => undefined)));
    heads.forEach((h, j) => {
      if (h) entries.push(insightsEntryOf(h, batch[j].partial));
      else unreadable++;
    });
  }
  return { entries, unreadable };
}

/**
 * The insights of an opened project ({@link Insights}): every handoff and result of its
 * `handoffs/` folder created at or after `since` (files are skipped by the time in their
 * name, so an old history costs a listing only), figured at `now`.
 * @returns the figures; a folder that cannot be listed reads as empty, a file that cannot be read is counted in `files_unreadable`. Never throws.
 */
export async function readInsights(project: Project, options: ReadInsightsOptions = {}): Promise<Insights> {
  const now = (options.now ?? new Date()).getTime();
  const since = options.since?.getTime();
  const listed = await listHandoffFiles(project.handoffsDir).catch(() => [] as HandoffFileEntry[]);
  const files = since === undefined ? listed : listed.filter((f) => f.time >= since);
  const { entries, unreadable } = await readInsightHeads(files);
  return computeInsights(entries, {
    now,
    ...(since === undefined ? {} : { since }),
    pendingWarnAfterMs: options.pendingWarnAfterMs ?? DEFAULT_PENDING_WARN_AFTER_MS,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_HANDOVER_DEPTH,
    filesUnreadable: unreadable,
  });
}

/** Most files read to find the handoffs of a chain for the receiving prompt's waiting lines: the newest 200 since the chain began. */
export const CHAIN_WAITING_FILES = 200;

/**
 * The receiving prompt's `**Waiting:**` lines (issue 21, `waitingPromptLine`): the handoffs of
 * the chain `rootId` waiting too long for a pick-up or an answer at `now` — the picked-up one
 * (`pickedUpId`) first, then the others oldest first. Reads the chain links of our files since
 * the chain's first handoff (by the time in their names; at most {@link CHAIN_WAITING_FILES},
 * the newest). Never throws.
 * @param warnAfterMs `handoff.pendingWarnAfter` in ms (0: no lines)
 */
export async function chainWaitingLines(files: readonly TimelineFile[], rootId: string, pickedUpId: string, now: number, warnAfterMs: number): Promise<string[]> {
  if (warnAfterMs <= 0) return [];
  const from = parseHandoffFileName(`${rootId}.md`)?.time ?? 0;
  const ours = files.filter((f) => f.source === 'handoff' && f.time >= from).slice(-CHAIN_WAITING_FILES);
  const infos = await Promise.all(ours.map((f) => readTimelineInfo(f)));
  const chain: Array<{ file: TimelineFile; info: TimelineEntryInfo }> = [];
  ours.forEach((file, i) => {
    const info = infos[i];
    if (info && info.root_id === rootId) chain.push({ file, info });
  });
  const answered = new Set(chain.filter((c) => c.info.kind === 'result').map((c) => c.info.parent_id));
  const lines: Array<{ first: boolean; time: number; line: string }> = [];
  for (const { file, info } of chain) {
    const w = waitingOf({ kind: info.kind, created: new Date(file.time).toISOString(), status: info.status, ...(info.status_at ? { status_at: info.status_at } : {}), partial: file.partial }, answered.has(info.id), now, warnAfterMs);
    if (w) lines.push({ first: info.id === pickedUpId, time: file.time, line: waitingPromptLine(w, { id: info.id, specialist: file.specialist }, info.id === pickedUpId) });
  }
  return lines.sort((a, b) => Number(b.first) - Number(a.first) || a.time - b.time).map((l) => l.line);
}
