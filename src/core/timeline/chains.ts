/**
 * The handoff timeline (docs/DESIGN.md §5, "Interop"): the handoff files of this extension and
 * of two other tools, read by file name, grouped into chains of hops, and concatenated
 * into the *Prior handoffs context* a receiving specialist reads first.
 *
 * Pure: no I/O. Listing the folders and reading the files is the store's job; this
 * module only parses names, nests chains and builds text.
 */
import { parseFileTimestamp, parseHandoffFileName, strictUtc } from '../handoff/naming';

export { parseFileTimestamp } from '../handoff/naming';

/**
 * Where a timeline file lives:
 * - `handoff`: this extension's `<handoff.directory>/handoffs/` (docs/DESIGN.md §5);
 * - `itervox`: itervox's `.itervox/handoff/` (itervox handoff convention);
 * - `agent-zero`: Agent Zero's `.a0proj/handover/` briefing files (Agent Zero
 *   `handover_to_specialist` briefing naming).
 */
export type TimelineSource = 'handoff' | 'itervox' | 'agent-zero';

/** Every timeline source, in the order the timeline lists their folders. */
export const TIMELINE_SOURCES: readonly TimelineSource[] = Object.freeze(['handoff', 'itervox', 'agent-zero']);

/**
 * One file of the timeline, as its name describes it (no file content is read).
 * - `key`: `${source}:${name}`, stable across reloads; the id of tree items and the key
 *   of {@link groupChains}'s info map.
 * - `name`: the file name (no folder), e.g. `2026-05-26T14-30-45.123Z_quality_reviewer.md`.
 * - `path`: whatever path the caller passed (absolute or workspace-relative), kept as is.
 * - `time`: creation time from the name, in milliseconds since the epoch (UTC). Agent
 *   Zero names carry only a day, so their time is that UTC day at 00:00.
 * - `specialist`: the specialist (our files), profile (itervox) or resolved specialist
 *   id (Agent Zero).
 * - `topic`: the topic slug (Agent Zero names only), else null.
 * - `partial`: the writer failed or was cancelled (`….partial.md`, docs/DESIGN.md §5 and the
 *   itervox convention); always false for Agent Zero briefings.
 */
export interface TimelineFile {
  readonly key: string;
  readonly source: TimelineSource;
  readonly name: string;
  readonly path: string;
  readonly time: number;
  readonly specialist: string;
  readonly topic: string | null;
  readonly partial: boolean;
}

/**
 * itervox profile names: 1–64 characters of `[A-Za-z0-9_-]` (itervox handoff
 * convention, which leaves profile names to the user; this is the widest set we accept).
 */
export const ITERVOX_PROFILE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** `<timestamp>_<profile>[.partial].md`; the timestamp is checked by {@link parseFileTimestamp}. */
const ITERVOX_NAME = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d{1,9})?Z)_([A-Za-z0-9_-]{1,64})(\.partial)?\.md$/;
/** `<stem>-<YYYY-MM-DD>.md` (Agent Zero briefing naming). */
const AGENT_ZERO_NAME = /^(.+)-(\d{4})-(\d{2})-(\d{2})\.md$/;
/**
 * Resolves the specialist and topic of an Agent Zero briefing stem
 * (`<specialist with _→->-<topic>`): the longest known id, written with `_` → `-`, that
 * prefixes the stem followed by `-` or the end wins and is returned in its own spelling
 * (`quality-reviewer-x` → `quality_reviewer`); ties go to the id listed first. Without a
 * known prefix, the first dash-separated token is the specialist.
 */
function resolveAgentZeroStem(stem: string, knownSpecialists: readonly string[]): { specialist: string; topic: string | null } | undefined {
  let best: string | undefined;
  let bestLength = -1;
  for (const id of knownSpecialists) {
    const dashed = id.replace(/_/g, '-');
    if (dashed.length > bestLength && dashed.length > 0 && (stem === dashed || stem.startsWith(`${dashed}-`))) {
      best = id;
      bestLength = dashed.length;
    }
  }
  if (best !== undefined) {
    const topic = stem.slice(bestLength + 1);
    return { specialist: best, topic: topic || null };
  }
  const dash = stem.indexOf('-');
  const specialist = dash < 0 ? stem : stem.slice(0, dash);
  const topic = dash < 0 ? '' : stem.slice(dash + 1);
  return specialist ? { specialist, topic: topic || null } : undefined;
}

/**
 * Reads what a timeline file's name says.
 *
 * - `handoff`: `<ISO 8601 UTC, ':' → '-', milliseconds optional>_<specialist>[.partial].md`
 *   (docs/DESIGN.md §5, via {@link parseHandoffFileName}); the specialist must match the
 *   specialist id pattern `^[a-z0-9][a-z0-9_-]{0,63}$` (docs/DESIGN.md §3).
 * - `itervox`: the same timestamp, then `_<profile>[.partial].md` with the profile
 *   matching {@link ITERVOX_PROFILE_PATTERN} (itervox handoff convention).
 * - `agent-zero`: `<specialist with _→->-<topic slug>-<YYYY-MM-DD>.md` (Agent Zero
 *   briefing naming); the specialist is the longest id of `knownSpecialists` (with
 *   `_` → `-`) prefixing the name, else the first dash-separated token; `time` is that
 *   UTC day at 00:00; `topic` is the part between specialist and day (null if empty).
 *
 * Timestamps and days must name a real instant (`2026-02-30` is refused, not rolled over).
 *
 * @param source which folder the file was listed in
 * @param name the bare file name
 * @param path the file's path, returned unchanged in `path`
 * @param knownSpecialists specialist ids (snake_case) used to split Agent Zero names
 * @returns undefined for names that are not timeline files (temp files, READMEs, …)
 */
export function parseTimelineFileName(
  source: TimelineSource,
  name: string,
  path: string,
  knownSpecialists: readonly string[],
): TimelineFile | undefined {
  const key = `${source}:${name}`;
  if (source === 'handoff') {
    // The name's timestamp is checked strictly there (no rolled-over dates).
    const parsed = parseHandoffFileName(name);
    if (!parsed) {
      return undefined;
    }
    return { key, source, name, path, time: parsed.time, specialist: parsed.specialist, topic: null, partial: parsed.partial };
  }
  if (source === 'itervox') {
    const m = ITERVOX_NAME.exec(name);
    const time = m ? parseFileTimestamp(m[1]) : undefined;
    if (!m || time === undefined) {
      return undefined;
    }
    return { key, source, name, path, time, specialist: m[2], topic: null, partial: m[3] !== undefined };
  }
  const m = AGENT_ZERO_NAME.exec(name);
  if (!m || /[\\/]/.test(m[1])) {
    return undefined;
  }
  const time = strictUtc(Number(m[2]), Number(m[3]), Number(m[4]));
  const who = resolveAgentZeroStem(m[1], knownSpecialists);
  if (time === undefined || !who) {
    return undefined;
  }
  return { key, source, name, path, time, specialist: who.specialist, topic: who.topic, partial: false };
}

/**
 * The chain links a handoff file declares in its frontmatter (docs/DESIGN.md §4): its own `id`,
 * the chain's `root_id` (= `correlation_id`), the `parent_id` it answers or continues
 * (null for the first hop), its `status`, `topic` and `hop` number (1-based; null when
 * the file does not say). Files of other tools have no such links.
 */
export interface ChainInfo {
  readonly id: string;
  readonly root_id: string;
  readonly parent_id: string | null;
  readonly status: string;
  readonly topic: string | null;
  readonly hop: number | null;
}

/** A timeline file placed in its chain: its chain links (if read) and the hops that answer it. */
export interface TimelineNode {
  readonly file: TimelineFile;
  readonly info: ChainInfo | undefined;
  readonly children: TimelineNode[];
}

/** Orders files by time, then by key, in one direction; a total order so results are deterministic. */
function compareFiles(a: TimelineFile, b: TimelineFile): number {
  return a.time - b.time || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/**
 * Nests timeline files into chains of hops (docs/DESIGN.md §4: `parent_id` links).
 *
 * Each file goes under the file whose `info.id` equals its `info.parent_id`. A file is
 * a root when it has no info, no `parent_id`, names itself, or names an id no file has.
 * Malformed data is tolerated: when several files claim the same id, the oldest (then
 * the smallest key) is the one children attach to; a cycle of parent links is broken at
 * its oldest file, which becomes a root. Every input entry appears exactly once.
 *
 * Order: for `'newest'`, roots by the latest time anywhere in their chain, newest
 * first, and children by their own time, newest first; for `'oldest'`, roots by the
 * first time in their chain, oldest first, and children oldest first. Ties are broken
 * by key in the same direction.
 *
 * Runs in O(n log n) time and O(n) memory, without recursion (a chain may be
 * thousands of hops deep).
 *
 * @param files the timeline files, any order
 * @param info chain links by {@link TimelineFile.key}
 * @param order `'newest'` or `'oldest'` first
 */
export function groupChains(
  files: readonly TimelineFile[],
  info: ReadonlyMap<string, ChainInfo>,
  order: 'newest' | 'oldest',
): TimelineNode[] {
  const n = files.length;
  const infos = files.map((f) => info.get(f.key));

  // id → index of the file children attach to (oldest claimant wins).
  const byId = new Map<string, number>();
  infos.forEach((fi, i) => {
    if (!fi) {
      return;
    }
    const prev = byId.get(fi.id);
    if (prev === undefined || compareFiles(files[i], files[prev]) < 0) {
      byId.set(fi.id, i);
    }
  });

  const parent = new Int32Array(n).fill(-1);
  infos.forEach((fi, i) => {
    const p = fi && fi.parent_id !== null ? byId.get(fi.parent_id) : undefined;
    if (p !== undefined && p !== i) {
      parent[i] = p;
    }
  });

  // Break cycles: walk up from every unvisited file; meeting the current walk again is a cycle.
  const state = new Uint8Array(n); // 0 unvisited, 1 on the current walk, 2 done
  for (let start = 0; start < n; start++) {
    const walk: number[] = [];
    let j = start;
    while (j !== -1 && state[j] === 0) {
      state[j] = 1;
      walk.push(j);
      j = parent[j];
    }
    if (j !== -1 && state[j] === 1) {
      const cycle = walk.slice(walk.lastIndexOf(j));
      const oldest = cycle.reduce((a, b) => (compareFiles(files[b], files[a]) < 0 ? b : a));
      parent[oldest] = -1;
    }
    for (const k of walk) {
      state[k] = 2;
    }
  }

  const nodes: TimelineNode[] = files.map((file, i) => ({ file, info: infos[i], children: [] }));
  const roots: number[] = [];
  const childIdx: number[][] = files.map(() => []);
  for (let i = 0; i < n; i++) {
    if (parent[i] === -1) {
      roots.push(i);
    } else {
      childIdx[parent[i]].push(i);
    }
  }

  // Chain first / latest times: breadth-first from the roots, then fold bottom-up.
  const first = Float64Array.from(files, (f) => f.time);
  const latest = Float64Array.from(files, (f) => f.time);
  const bfs = [...roots];
  for (let q = 0; q < bfs.length; q++) {
    for (const c of childIdx[bfs[q]]) {
      bfs.push(c);
    }
  }
  for (let q = bfs.length - 1; q >= 0; q--) {
    const i = bfs[q];
    const p = parent[i];
    if (p !== -1) {
      first[p] = Math.min(first[p], first[i]);
      latest[p] = Math.max(latest[p], latest[i]);
    }
  }

  const dir = order === 'newest' ? -1 : 1;
  const byTime = (a: number, b: number): number => dir * compareFiles(files[a], files[b]);
  for (let i = 0; i < n; i++) {
    if (childIdx[i].length) {
      childIdx[i].sort(byTime);
      for (const c of childIdx[i]) {
        nodes[i].children.push(nodes[c]);
      }
    }
  }
  const chainTime = order === 'newest' ? latest : first;
  roots.sort((a, b) => dir * (chainTime[a] - chainTime[b]) || byTime(a, b));
  return roots.map((i) => nodes[i]);
}

// The prior-handoffs block lives in priorHandoffs.ts; re-exported here, where it was first defined.
export {
  NO_PRIOR_HANDOFFS,
  PARTIAL_LABEL,
  PRIOR_HANDOFFS_BUDGET_BYTES,
  PRIOR_HANDOFFS_HEADING,
  cutUtf8,
  droppedMarker,
  priorHandoffsBlock,
  utf8Length,
  type PriorHandoffsBlock,
  type PriorHandoffsFile,
} from './priorHandoffs';

/** Chains the timeline tree shows before "Show more": 200 (a page it renders at once, whatever the folder holds). */
export const TIMELINE_PAGE_SIZE = 200;
