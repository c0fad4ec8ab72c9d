// The timeline's files on disk (docs/DESIGN.md §5 interop): ours, itervox's and Agent Zero's handoff folders.
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

export const ITERVOX_HANDOFF_DIR = path.join('.itervox', 'handoff');
export const AGENT_ZERO_HANDOFF_DIR = path.join('.a0proj', 'handover');

export function timelineFolders(workspaceRoot: string, handoffRoot: string): Record<TimelineSource, string> {
  return {
    handoff: path.join(handoffRoot, HANDOFFS_DIR),
    itervox: path.join(workspaceRoot, ITERVOX_HANDOFF_DIR),
    'agent-zero': path.join(workspaceRoot, AGENT_ZERO_HANDOFF_DIR),
  };
}

/** They hold only handoff documents, so git evidence excludes them like the handoff root. */
export function otherToolsHandoffFolders(workspaceRoot: string): string[] {
  return [path.join(workspaceRoot, ITERVOX_HANDOFF_DIR), path.join(workspaceRoot, AGENT_ZERO_HANDOFF_DIR)];
}

/** By name only, oldest first per source; our handoffs' copies in other tools' folders are listed once, as ours. */
export async function listTimelineFiles(
  workspaceRoot: string,
  handoffRoot: string,
  knownSpecialists: readonly string[],
): Promise<{ files: TimelineFile[]; warnings: string[] }> {
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
    // A link leading out of the workspace (a cloned `.itervox/handoff` → /etc) is not read: its files would be quoted in prompts.
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

function nameId(name: string): string {
  return name.replace(/(\.partial)?\.md$/, '');
}

/** Bigger Agent Zero briefings are listed rather than read as mirrors. */
export const MIRROR_CHECK_BYTES = 256 * 1024;

/** Only our `# Briefing for …` header, then sections each ending in `**Handoff:** [<id>](…)` with `id` in `ourIds`. */
export function onlyMirrorsOurHandoffs(text: string, ourIds: ReadonlySet<string>): boolean {
  const t = text.replace(/\r\n/g, '\n');
  if (!t.startsWith('# Briefing for ')) return false;
  const sections = t.split(/^## /m).slice(1);
  return sections.every((section) => {
    const link = /^\*\*Handoff:\*\* \[([^\]\n]+)\]\(/m.exec(section);
    return link !== null && ourIds.has(link[1]);
  });
}

/** Drops itervox files named after one of ours and Agent Zero briefings that {@link onlyMirrorsOurHandoffs}. */
async function withoutMirrors(files: TimelineFile[], briefingsDir: string): Promise<TimelineFile[]> {
  const ours = new Set(files.filter((f) => f.source === 'handoff').map((f) => nameId(f.name)));
  if (ours.size === 0) return files;
  let briefings: Set<string> | undefined;
  const kept: TimelineFile[] = [];
  for (const f of files) {
    if (f.source === 'itervox' && ours.has(nameId(f.name))) continue;
    if (f.source === 'agent-zero') {
      briefings ??= new Set(await readdir(briefingsDir).catch(() => [] as string[]));
      // Ours is the folder briefings/<name>/ (one file per section), or a single file briefings/<name>.md.
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

/** `status_at`: the `at` of the latest status change (the timeline's "waiting too long"). */
export type TimelineEntryInfo = ChainInfo & { readonly kind: 'handoff' | 'result'; readonly verification?: TimelineVerification; readonly status_at?: string };

function chainInfoOf(head: HandoffHead): TimelineEntryInfo {
  const at = head.status_history.at(-1)?.at;
  return {
    id: head.id,
    root_id: head.root_id,
    parent_id: head.parent_id,
    status: head.status,
    topic: head.topic_title || head.topic,
    hop: head.hop,
    kind: head.kind,
    ...(at ? { status_at: at } : {}),
  };
}

/** For our handoffs and results, or any file carrying our frontmatter; many files: {@link readChainInfos}. Never throws. */
export async function readChainInfo(file: TimelineFile): Promise<TimelineEntryInfo | undefined> {
  return chainInfoWith(file, undefined);
}

/** `status` undefined: this file's folder is looked into. */
async function chainInfoWith(file: TimelineFile, status: StatusFolders | undefined): Promise<TimelineEntryInfo | undefined> {
  const text = await readHeadText(file.path);
  if (text === undefined || !text.startsWith('---')) return undefined;
  let head = parseHandoffHead(text);
  if (!head) return undefined;
  if (file.source === 'handoff') head = await withHeadStatusEvents(file.path, head, status).catch(() => head!);
  return chainInfoOf(head);
}

/** Shares one status listing; undefined entries have no chain links. Never throws. */
export async function readChainInfos(files: readonly TimelineFile[], handoffRoot: string, listed?: StatusFolders): Promise<(TimelineEntryInfo | undefined)[]> {
  const status = listed ?? (await listStatusFolders(handoffRoot));
  // As chainInfoWith: only texts that start with a fence are parsed, only our handoffs get their events.
  const heads = await readHeadsListed(
    files.map((f) => f.path),
    status,
    { parse: (_, text) => text.startsWith('---'), events: (k) => files[k].source === 'handoff' },
  );
  return heads.map((h) => h && chainInfoOf(h));
}
