/**
 * The files of the timeline on disk (docs/DESIGN.md §5 interop): this extension's
 * `<handoff root>/handoffs/`, itervox's `.itervox/handoff/` and Agent Zero's
 * `.a0proj/handover/`. Listing needs names only; chain links are read lazily from the
 * start of each file.
 */
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { BRIEFINGS_DIR, HANDOFFS_DIR } from '../../core/handoff/naming';
import { parseTimelineFileName, type ChainInfo, type TimelineFile, type TimelineSource } from '../../core/timeline/chains';
import { openRegularFile } from '../safeWrite';
import { listStatusFolders, readHeadText, readHeadsListed, withHeadStatusEvents, type StatusFolders } from './handoffHeads';
import { checkRealPathInside } from '../pathGuard';
import { parseHandoffHead, type HandoffHead } from '../../core/handoff/frontmatterHead';
import { errorText } from '../../core/handoff/errors';
import { fsCauseAt } from '../../core/handoff/fsErrors';
import type { TimelineVerification } from '../../core/receive/verification';

/** itervox's handoff folder, relative to the workspace (itervox handoff convention). */
export const ITERVOX_HANDOFF_DIR = path.join('.itervox', 'handoff');
/** Agent Zero's briefing folder, relative to the workspace (Agent Zero handover_to_specialist stage 3). */
export const AGENT_ZERO_HANDOFF_DIR = path.join('.a0proj', 'handover');

/** The folder each timeline source lives in, for a workspace and its handoff root. */
export function timelineFolders(workspaceRoot: string, handoffRoot: string): Record<TimelineSource, string> {
  return {
    handoff: path.join(handoffRoot, HANDOFFS_DIR),
    itervox: path.join(workspaceRoot, ITERVOX_HANDOFF_DIR),
    'agent-zero': path.join(workspaceRoot, AGENT_ZERO_HANDOFF_DIR),
  };
}

/**
 * The other tools' handoff folders of a workspace (itervox's `.itervox/handoff`, Agent
 * Zero's `.a0proj/handover`), absolute: they hold only handoff documents, so git evidence
 * excludes them like the handoff root (`alsoExclude` of collectGitEvidence).
 */
export function otherToolsHandoffFolders(workspaceRoot: string): string[] {
  return [path.join(workspaceRoot, ITERVOX_HANDOFF_DIR), path.join(workspaceRoot, AGENT_ZERO_HANDOFF_DIR)];
}

/**
 * Lists the timeline files of all sources by name only. Missing folders are empty; names
 * that are not timeline files are skipped. Copies of our own handoffs that "Hand over"
 * writes into the other tools' folders (`src/store/interop/mirrors.ts`) are listed once, as ours
 * ({@link withoutMirrors}).
 * @param knownSpecialists ids used to read Agent Zero briefing names
 * A folder whose real path leads out of the workspace (a symbolic link) is not read, with a warning.
 * @returns the files, oldest first by name within each source, and a warning per folder that could not be listed or was not read
 */
export async function listTimelineFiles(workspaceRoot: string, handoffRoot: string, knownSpecialists: readonly string[]): Promise<{ files: TimelineFile[]; warnings: string[] }> {
  const folders = timelineFolders(workspaceRoot, handoffRoot);
  const files: TimelineFile[] = [];
  const warnings: string[] = [];
  for (const source of Object.keys(folders) as TimelineSource[]) {
    const dir = folders[source];
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        warnings.push(`cannot list ${dir}: ${await fsCauseAt(err, dir, realpath)}`);
      }
      continue;
    }
    // A folder that is a link leading out of the workspace (a cloned `.itervox/handoff` →
    // another project's handoffs, or /etc) is not read: its files would be quoted in
    // prompts and prior_handoffs. The same rule as for the agent folders.
    if (names.length > 0) {
      const inside = await checkRealPathInside(workspaceRoot, dir, 'remove the link: only folders inside the workspace are read');
      if (!inside.ok) {
        warnings.push(`${path.relative(workspaceRoot, dir).split(path.sep).join('/')}: not read — ${errorText(inside)}`);
        continue;
      }
    }
    names.sort();
    for (const name of names) {
      const f = parseTimelineFileName(source, name, path.join(dir, name), knownSpecialists);
      if (f) files.push(f);
    }
  }
  return { files: await withoutMirrors(files, path.join(handoffRoot, BRIEFINGS_DIR)), warnings };
}

/** The handoff id a timeline file name carries: the name without `.partial` and `.md`. */
function nameId(name: string): string {
  return name.replace(/(\.partial)?\.md$/, '');
}

/** Largest Agent Zero briefing read to tell whether it only mirrors ours: 256 KiB (bigger ones are listed). */
export const MIRROR_CHECK_BYTES = 256 * 1024;

/**
 * Whether an Agent Zero briefing holds nothing but what "Hand over" appended to it: our
 * header (`# Briefing for …`), then only sections that link one of our handoffs
 * (`**Handoff:** [<id>](…)`, the last line of each section we write) whose id is in
 * `ourIds`. A section Agent Zero (or anyone) wrote, or one whose handoff is gone, makes it a
 * file of its own. Pure.
 */
export function onlyMirrorsOurHandoffs(text: string, ourIds: ReadonlySet<string>): boolean {
  const t = text.replace(/\r\n/g, '\n');
  if (!t.startsWith('# Briefing for ')) return false;
  const sections = t.split(/^## /m).slice(1);
  return sections.every((section) => {
    const link = /^\*\*Handoff:\*\* \[([^\]\n]+)\]\(/m.exec(section);
    return link !== null && ourIds.has(link[1]);
  });
}

/**
 * Leaves out of a listing the copies of our own handoffs, so a handoff shows (and enters
 * the prior-handoffs context) once:
 * - an itervox file whose name is one of our handoffs' (`<id>.md`, or `<id>.partial.md`
 *   once ours was marked partial) — the byte-for-byte copy `.itervox/handoff/<id>.md`;
 * - an Agent Zero briefing that has a namesake in our `briefings/` folder (a briefing
 *   folder, or a single file of the older layout) and holds only
 *   sections of our listed handoffs ({@link onlyMirrorsOurHandoffs}; the one case where a
 *   file is read, at most {@link MIRROR_CHECK_BYTES}).
 * Everything else another tool wrote is kept.
 */
async function withoutMirrors(files: TimelineFile[], briefingsDir: string): Promise<TimelineFile[]> {
  const ours = new Set(files.filter((f) => f.source === 'handoff').map((f) => nameId(f.name)));
  if (ours.size === 0) return files;
  let briefings: Set<string> | undefined;
  const kept: TimelineFile[] = [];
  for (const f of files) {
    if (f.source === 'itervox' && ours.has(nameId(f.name))) continue;
    if (f.source === 'agent-zero') {
      briefings ??= new Set(await readdir(briefingsDir).catch(() => [] as string[]));
      // Ours is the folder briefings/<name>/ (one file per section), or briefings/<name>.md written before it.
      if ((briefings.has(f.name) || briefings.has(f.name.replace(/\.md$/, ''))) && (await readMirrorCandidate(f.path, ours))) continue;
    }
    kept.push(f);
  }
  return kept;
}

async function readMirrorCandidate(file: string, ours: ReadonlySet<string>): Promise<boolean> {
  const fh = await openRegularFile(file);
  if (!fh) return false;
  try {
    if ((await fh.stat()).size > MIRROR_CHECK_BYTES) return false;
    return onlyMirrorsOurHandoffs(await fh.readFile('utf8'), ours);
  } catch {
    return false;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/**
 * Chain links of a timeline entry, and whether it hands work over or back; `verification`:
 * the latest verification of our handoff (when it was checked, its counts and its
 * line), absent when it has none or was not looked up (`readTimeline` fills it from one bulk read);
 * `status_at`: when it took its status (the `at` of the latest status change, events applied;
 * absent when it has none; the timeline's "waiting too long").
 */
export type TimelineEntryInfo = ChainInfo & { readonly kind: 'handoff' | 'result'; readonly verification?: TimelineVerification; readonly status_at?: string };

/**
 * The chain links of a head (the timeline's topic: `topic_title`, else the slug), and since
 * when it has its status.
 */
function chainInfoOf(head: HandoffHead): TimelineEntryInfo {
  const at = head.status_history.at(-1)?.at; // since when it has its status (the timeline's "waiting too long")
  return { id: head.id, root_id: head.root_id, parent_id: head.parent_id, status: head.status, topic: head.topic_title || head.topic, hop: head.hop, kind: head.kind, ...(at ? { status_at: at } : {}) };
}

/**
 * Reads the chain links of a timeline file from its frontmatter: our handoffs and
 * results, or any other file that carries our frontmatter. Files without one (itervox,
 * Agent Zero) have none. Reads the file's start only up to the frontmatter's closing `---`
 * (`readHeadText`, at most 256 KiB) and takes the head fields with the fast reader of
 * src/core/handoff/frontmatterHead.ts (the `yaml` library for what it does not recognise);
 * a file whose head fields are missing or invalid has none. Our handoffs' status is their
 * frontmatter plus their status events (looked up for this file alone; many files:
 * {@link readChainInfos}). Never throws.
 */
export async function readChainInfo(file: TimelineFile): Promise<TimelineEntryInfo | undefined> {
  return chainInfoWith(file, undefined);
}

/** {@link readChainInfo} with a listing of the handoff root's `status/` ({@link listStatusFolders}; undefined: this file's folder is looked into). */
async function chainInfoWith(file: TimelineFile, status: StatusFolders | undefined): Promise<TimelineEntryInfo | undefined> {
  const text = await readHeadText(file.path);
  if (text === undefined || !text.startsWith('---')) return undefined;
  let head = parseHandoffHead(text);
  if (!head) return undefined;
  if (file.source === 'handoff') head = await withHeadStatusEvents(file.path, head, status).catch(() => head!);
  return chainInfoOf(head);
}

/**
 * Reads the chain links of many timeline files ({@link readChainInfo}) of one handoff root:
 * one listing of `<handoff root>/status/` for all of them (`status`, when the caller listed
 * it already for this timeline read: {@link listStatusFolders}), the heads read by
 * `readHeadsListed` (synchronous reads in runs of at most 4 ms, the thread pool for a slow disk).
 * @returns one entry per file, in the order given (undefined: no chain links). Never throws.
 */
export async function readChainInfos(files: readonly TimelineFile[], handoffRoot: string, listed?: StatusFolders): Promise<(TimelineEntryInfo | undefined)[]> {
  const status = listed ?? (await listStatusFolders(handoffRoot));
  // As chainInfoWith, file by file: only texts that start with a fence are parsed, only our handoffs get their events.
  const heads = await readHeadsListed(
    files.map((f) => f.path),
    status,
    { parse: (_, text) => text.startsWith('---'), events: (k) => files[k].source === 'handoff' },
  );
  return heads.map((h) => h && chainInfoOf(h));
}
