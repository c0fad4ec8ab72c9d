/** A project's timeline, assembled once for every surface: the files of our, itervox's and Agent Zero's folders, grouped into chains. */
import { groupChains, type TimelineFile, type TimelineNode, type TimelineSource } from '../../core/timeline/chains';
import type { JobError } from '../../core/handoff/errors';
import { timelineVerification, type TimelineVerification } from '../../core/receive/verification';
import {
  listTimelineFiles,
  readChainInfo,
  readChainInfos,
  timelineFolders as timelineFoldersOf,
  type TimelineEntryInfo,
} from '../../store/handoffs/timelineFiles';
import { latestVerifications } from '../../store/handoffs/verifications';
import { listStatusFolders, type StatusFolders } from '../../store/handoffs/handoffHeads';
import { openProject, type Project, type ProjectOptions } from '../project/project';

export type { TimelineEntryInfo } from '../../store/handoffs/timelineFiles';
export type { TimelineVerification } from '../../core/receive/verification';

/** Both absolute; the handoff root already checked. */
export interface TimelineLocation {
  readonly workspaceRoot: string;
  readonly handoffRoot: string;
}

export interface TimelineListing {
  /** Oldest first within each source; copies of our own handoffs in other tools' folders are left out. */
  readonly files: readonly TimelineFile[];
  readonly warnings: readonly string[];
}

/** Names only, no file read. @param specialistIds to read Agent Zero briefing names with (`[]` counts only our own handoffs) */
export async function listTimeline(where: TimelineLocation, specialistIds: readonly string[]): Promise<TimelineListing> {
  return listTimelineFiles(where.workspaceRoot, where.handoffRoot, specialistIds);
}

/** What a surface watches to refresh its timeline. */
export function timelineFolders(where: TimelineLocation): Record<TimelineSource, string> {
  return timelineFoldersOf(where.workspaceRoot, where.handoffRoot);
}

/** Reads at most the file's head; undefined when it has no chain links or cannot be read. */
export async function readTimelineInfo(file: TimelineFile): Promise<TimelineEntryInfo | undefined> {
  return readChainInfo(file).catch(() => undefined);
}

export type TimelineStatusListing = StatusFolders;

/** A surface that reads in batches lists once, and drops it when a status event is created or deleted. */
export function listTimelineStatus(where: TimelineLocation): Promise<TimelineStatusListing> {
  return listStatusFolders(where.handoffRoot);
}

/** One listing of `status/` for all files, then a bounded head read each; in the order given. Never throws. */
export async function readTimelineInfos(
  where: TimelineLocation,
  files: readonly TimelineFile[],
  status?: TimelineStatusListing,
): Promise<(TimelineEntryInfo | undefined)[]> {
  return readChainInfos(files, where.handoffRoot, status).catch(() => files.map(() => undefined));
}

/** One listing of `verifications/`, then one read per verified handoff, for a surface that reads chain links itself. */
export async function timelineVerifications(where: TimelineLocation): Promise<ReadonlyMap<string, TimelineVerification>> {
  const out = new Map<string, TimelineVerification>();
  for (const [id, v] of await latestVerifications(where.handoffRoot)) out.set(id, timelineVerification(v));
  return out;
}

export interface TimelineOptions {
  /** Default: all. */
  readonly newest?: number;
  /** `time`: the file's time, then its key, descending; `name`: the file name, descending. Default `time`. */
  readonly newestBy?: 'time' | 'name';
  readonly order?: 'newest' | 'oldest';
}

export interface Timeline {
  readonly files: readonly TimelineFile[];
  /** At most `options.newest`, newest first. */
  readonly newest: readonly TimelineFile[];
  /** By {@link TimelineFile.key}; our handoffs carry their latest `verification`. */
  readonly info: ReadonlyMap<string, TimelineEntryInfo>;
  readonly chains: readonly TimelineNode[];
  readonly warnings: readonly string[];
}

function byTimeDescending(a: TimelineFile, b: TimelineFile): number {
  return b.time - a.time || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0);
}

function byNameDescending(a: TimelineFile, b: TimelineFile): number {
  return a.name < b.name ? 1 : a.name > b.name ? -1 : 0;
}

/** A file that cannot be read has no chain links. Never throws for a missing folder. */
export async function readTimeline(project: Project, options: TimelineOptions = {}): Promise<Timeline> {
  const listing = await listTimeline(
    project,
    project.registry.all().map((s) => s.id),
  );
  const sorted = [...listing.files].sort(options.newestBy === 'name' ? byNameDescending : byTimeDescending);
  const newest = options.newest === undefined ? sorted : sorted.slice(0, Math.max(0, options.newest));
  const info = new Map<string, TimelineEntryInfo>();
  // Verifications in bulk, once per timeline read.
  const verified = await timelineVerifications(project);
  // Chain links in bulk too: one listing of status/, one bounded head read per file.
  const infos = await readTimelineInfos(project, newest);
  newest.forEach((f, k) => {
    const i = infos[k];
    const v = i && f.source === 'handoff' ? verified.get(i.id) : undefined;
    if (i) info.set(f.key, v ? { ...i, verification: v } : i);
  });
  return { files: listing.files, newest, info, chains: groupChains(newest, info, options.order ?? 'newest'), warnings: listing.warnings };
}

/** Never throws: a folder that cannot be opened is `{ok: false, error}`. */
export async function openTimeline(
  options: ProjectOptions,
  timelineOptions: TimelineOptions = {},
): Promise<{ readonly ok: true; readonly project: Project; readonly timeline: Timeline } | { readonly ok: false; readonly error: JobError }> {
  const opened = await openProject(options);
  if (!opened.ok) return opened;
  return { ok: true, project: opened.project, timeline: await readTimeline(opened.project, timelineOptions) };
}
