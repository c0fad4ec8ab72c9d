/** The handoff timeline: our handoff files and two other tools', read by file name and grouped into chains of hops. */
import { parseFileTimestamp, parseHandoffFileName, strictUtc } from '../handoff/naming';

export { parseFileTimestamp } from '../handoff/naming';

/** `handoff`: our `<handoff.directory>/handoffs/`; `itervox`: `.itervox/handoff/`; `agent-zero`: Agent Zero's `.a0proj/handover/` briefings. */
export type TimelineSource = 'handoff' | 'itervox' | 'agent-zero';

/** In the order the timeline lists their folders. */
export const TIMELINE_SOURCES: readonly TimelineSource[] = Object.freeze(['handoff', 'itervox', 'agent-zero']);

/**
 * Described by its name alone. `key` is `${source}:${name}`, stable across reloads; `time` is ms since the epoch (an Agent
 * Zero name carries only a day: 00:00 UTC); `topic` only for Agent Zero; `partial`: the writer failed or was cancelled.
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

/** The widest set we accept: the itervox convention leaves profile names to the user. */
export const ITERVOX_PROFILE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** `<timestamp>_<profile>[.partial].md`; the timestamp is checked by {@link parseFileTimestamp}. */
const ITERVOX_NAME = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d{1,9})?Z)_([A-Za-z0-9_-]{1,64})(\.partial)?\.md$/;
/** `<stem>-<YYYY-MM-DD>.md` (Agent Zero briefing naming). */
const AGENT_ZERO_NAME = /^(.+)-(\d{4})-(\d{2})-(\d{2})\.md$/;
/** The longest known id (written with `-`) prefixing the stem wins; without one, the first dash-separated token is the specialist. */
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
 * `handoff`: `<ISO 8601 UTC, ':' → '-'>_<specialist>[.partial].md`; `itervox`: the same with a profile; `agent-zero`:
 * `<specialist with _ → ->-<topic>-<YYYY-MM-DD>.md`. Dates must be real (`2026-02-30` is refused, not rolled over).
 * @returns undefined for names that are not timeline files (temp files, READMEs, …)
 */
export function parseTimelineFileName(source: TimelineSource, name: string, path: string, knownSpecialists: readonly string[]): TimelineFile | undefined {
  const key = `${source}:${name}`;
  if (source === 'handoff') {
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

/** From a handoff file's frontmatter (`root_id` is the `correlation_id`; `hop` is 1-based); other tools' files have none. */
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

/** A total order, so results are deterministic. */
function compareFiles(a: TimelineFile, b: TimelineFile): number {
  return a.time - b.time || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/**
 * Nests files under the file whose `info.id` is their `parent_id`. Malformed data is tolerated: of several files claiming
 * one id the oldest wins, and a cycle is broken at its oldest file. Roots are ordered by their chain's latest (`newest`) or
 * first (`oldest`) time. No recursion: a chain may be thousands of hops deep.
 */
export function groupChains(files: readonly TimelineFile[], info: ReadonlyMap<string, ChainInfo>, order: 'newest' | 'oldest'): TimelineNode[] {
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

// Re-exported for callers that import the prior-handoffs block from here.
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

/** A page the tree renders at once, whatever the folder holds. */
export const TIMELINE_PAGE_SIZE = 200;
