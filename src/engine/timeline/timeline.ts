/**
 * The timeline of a project, assembled once for every surface that shows it — the VS Code
 * tree view, `@handoff /timeline` and the MCP tool `prior_handoffs`: the files of the three
 * timeline sources (this extension's `<handoff root>/handoffs/`, itervox's
 * `.itervox/handoff/`, Agent Zero's `.a0proj/handover/`), the chain links of the newest of
 * them read from their frontmatter, and those grouped into chains of hops
 * (docs/ARCHITECTURE.md, "The timeline"; chain links: docs/DESIGN.md, "Chains").
 *
 *   project ─▶ listTimeline (names only) ─▶ newest N ─▶ readTimelineInfos ─▶ groupChains ─▶ Timeline
 */
import { groupChains, type TimelineFile, type TimelineNode, type TimelineSource } from '../../core/timeline/chains';
import type { HandoverError } from '../../core/handoff/errors';
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

/** Where a timeline is read: the workspace folder and its (already checked) handoff root, both absolute. */
export interface TimelineLocation {
  readonly workspaceRoot: string;
  readonly handoffRoot: string;
}

/** The timeline files of a project, by name only (no file read), and a line per folder that could not be listed or was not read. */
export interface TimelineListing {
  /** Every timeline file of the three sources, oldest first by name within each source; copies of our own handoffs in the other tools' folders are left out. */
  readonly files: readonly TimelineFile[];
  /** One line per folder that could not be listed or leads out of the workspace (without the `WARNING: ` prefix). */
  readonly warnings: readonly string[];
}

/**
 * Lists the timeline files of a project by name (directory listings only).
 * @param specialistIds the ids Agent Zero briefing names are read with (the registry's; `[]` when only our own handoffs are counted)
 * @returns the files and warnings; never throws for a missing folder
 */
export async function listTimeline(where: TimelineLocation, specialistIds: readonly string[]): Promise<TimelineListing> {
  return listTimelineFiles(where.workspaceRoot, where.handoffRoot, specialistIds);
}

/**
 * The folder of each timeline source of a project (absolute): what a surface watches to
 * refresh its timeline.
 */
export function timelineFolders(where: TimelineLocation): Record<TimelineSource, string> {
  return timelineFoldersOf(where.workspaceRoot, where.handoffRoot);
}

/**
 * Reads the chain links of one timeline file from its frontmatter (our handoffs and
 * results; files of other tools have none). Reads at most the file's head.
 * @returns the links, or undefined when the file has none or cannot be read. Never throws.
 */
export async function readTimelineInfo(file: TimelineFile): Promise<TimelineEntryInfo | undefined> {
  return readChainInfo(file).catch(() => undefined);
}

/** One listing of a project's `<handoff root>/status/`: which handoffs have status events (`listStatusFolders`). */
export type TimelineStatusListing = StatusFolders;

/**
 * Lists `<handoff root>/status/` once, for the {@link readTimelineInfos} calls of one
 * timeline read (a surface that reads in batches takes it once and drops it when a status
 * event is created or deleted). Never throws.
 */
export function listTimelineStatus(where: TimelineLocation): Promise<TimelineStatusListing> {
  return listStatusFolders(where.handoffRoot);
}

/**
 * Reads the chain links of many timeline files of a project at once (what a surface that
 * reads a whole folder calls, e.g. the VS Code tree's background batches): one listing of
 * `<handoff root>/status/` for all of them (`status`, or listed here), then only the status
 * events of handoffs that have a folder there, a bounded head read per file (`readChainInfos`).
 * @returns one entry per file, in the order given (undefined: no chain links). Never throws.
 */
export async function readTimelineInfos(
  where: TimelineLocation,
  files: readonly TimelineFile[],
  status?: TimelineStatusListing,
): Promise<(TimelineEntryInfo | undefined)[]> {
  return readChainInfos(files, where.handoffRoot, status).catch(() => files.map(() => undefined));
}

/**
 * The latest verification of every verified handoff of a project, by handoff id, as the
 * timeline shows it (when, counts, line: `verificationLine`). One listing of
 * `<handoff root>/verifications/`, then one read per verified handoff (never per handoff
 * listed): what a surface that reads chain links itself (the VS Code tree) calls once per
 * refresh. Never throws; none is an empty map.
 */
export async function timelineVerifications(where: TimelineLocation): Promise<ReadonlyMap<string, TimelineVerification>> {
  const out = new Map<string, TimelineVerification>();
  for (const [id, v] of await latestVerifications(where.handoffRoot)) out.set(id, timelineVerification(v));
  return out;
}

/** How much of the timeline {@link readTimeline} reads and how it orders it. */
export interface TimelineOptions {
  /** How many of the newest files get their chain links read and are grouped (default: all). */
  readonly newest?: number;
  /**
   * What "newest" is: `time` — the file's time, then its key, both descending (the chat's
   * `/timeline`); `name` — the file name, descending (`prior_handoffs`). Default `time`.
   */
  readonly newestBy?: 'time' | 'name';
  /** Order of the chains: `newest` first (default) or `oldest` first (see `groupChains` in src/core/timeline/chains.ts). */
  readonly order?: 'newest' | 'oldest';
}

/** A project's timeline: every file, the newest ones with their chain links, grouped into chains. */
export interface Timeline {
  /** Every timeline file, as {@link listTimeline} lists them. */
  readonly files: readonly TimelineFile[];
  /** The newest files (at most `options.newest`), newest first. */
  readonly newest: readonly TimelineFile[];
  /** Chain links of the `newest` files that have them, by {@link TimelineFile.key}; our handoffs' latest verification in `verification`. */
  readonly info: ReadonlyMap<string, TimelineEntryInfo>;
  /** The `newest` files nested into chains of hops, in `options.order`. */
  readonly chains: readonly TimelineNode[];
  /** Folders that could not be listed or were not read (without the `WARNING: ` prefix). */
  readonly warnings: readonly string[];
}

function byTimeDescending(a: TimelineFile, b: TimelineFile): number {
  return b.time - a.time || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0);
}

function byNameDescending(a: TimelineFile, b: TimelineFile): number {
  return a.name < b.name ? 1 : a.name > b.name ? -1 : 0;
}

/**
 * Assembles the timeline of an opened project: lists the files (with the registry's ids),
 * picks the newest, reads their chain links in bulk ({@link readTimelineInfos}, with the
 * latest verifications, read once: {@link timelineVerifications}), and groups them.
 * @returns the timeline; a file that cannot be read has no chain links. Never throws for a missing folder.
 */
export async function readTimeline(project: Project, options: TimelineOptions = {}): Promise<Timeline> {
  const listing = await listTimeline(
    project,
    project.registry.all().map((s) => s.id),
  );
  const sorted = [...listing.files].sort(options.newestBy === 'name' ? byNameDescending : byTimeDescending);
  const newest = options.newest === undefined ? sorted : sorted.slice(0, Math.max(0, options.newest));
  const info = new Map<string, TimelineEntryInfo>();
  // Verifications are read in bulk, once per timeline read (the bench has 10,000 handoffs).
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

/**
 * Opens a workspace folder ({@link openProject}) and assembles its timeline
 * ({@link readTimeline}).
 * @returns the project (its registry warnings in `project.warnings`) and the timeline, or
 *   the error of opening the folder (`project_root`, `handoff.directory`). Never throws.
 */
export async function openTimeline(
  options: ProjectOptions,
  timelineOptions: TimelineOptions = {},
): Promise<{ readonly ok: true; readonly project: Project; readonly timeline: Timeline } | { readonly ok: false; readonly error: HandoverError }> {
  const opened = await openProject(options);
  if (!opened.ok) return opened;
  return { ok: true, project: opened.project, timeline: await readTimeline(opened.project, timelineOptions) };
}
