/**
 * A long list of paths rolled up into folders with counts, so that every changed path is still
 * accounted for when the list itself does not fit the budget: `src/components/ — 37 files
 * (M 30, A 7)` rather than "… and N more". Pure.
 */

/** A path and its one-letter git status (`M`, `A`, `?` …). */
export interface StatusPath {
  readonly path: string;
  readonly status: string;
}

/** One entry of a rolled-up list: a path on its own (`count` 1), or a folder (ending in `/`) with how many paths it holds, by status. */
export interface RolledUp {
  readonly path: string;
  readonly count: number;
  /** Paths by status, in first-seen order (`{ M: 30, A: 7 }`). */
  readonly statuses: Readonly<Record<string, number>>;
}

/** The folder of `path` at `depth` levels (`src/a/b.ts` at 1 → `src/`), or undefined when the path has no folder that deep. */
function folderAt(path: string, depth: number): string | undefined {
  const parts = path.split('/');
  return parts.length - 1 >= depth ? `${parts.slice(0, depth).join('/')}/` : undefined;
}

/**
 * Rolls `paths` up into at most `maxEntries` entries where possible: paths are grouped by their
 * folders at the deepest level that gives no more than `maxEntries` entries (a path in a folder
 * less deep stays on its own); paths at the top level beyond that are grouped as `./`. Entries
 * keep the order in which their first path came.
 */
export function rollUpPaths(paths: readonly StatusPath[], maxEntries: number): RolledUp[] {
  const single = paths.map((p) => ({ path: p.path, count: 1, statuses: { [p.status]: 1 } }));
  if (paths.length <= maxEntries) return single;
  const maxDepth = Math.max(0, ...paths.map((p) => p.path.split('/').length - 1));
  for (let depth = maxDepth; depth >= 1; depth--) {
    const grouped = group(paths, (p) => folderAt(p.path, depth) ?? p.path);
    if (grouped.length <= maxEntries) return grouped;
  }
  // Even the top-level folders are too many: the top level's own files as one entry too.
  const top = group(paths, (p) => folderAt(p.path, 1) ?? './');
  return top;
}

/** Groups by `keyOf`; a group of one path is that path itself. */
function group(paths: readonly StatusPath[], keyOf: (p: StatusPath) => string): RolledUp[] {
  const byKey = new Map<string, { path: string; first: string; count: number; statuses: Record<string, number> }>();
  for (const p of paths) {
    const key = keyOf(p);
    const entry = byKey.get(key) ?? byKey.set(key, { path: key, first: p.path, count: 0, statuses: {} }).get(key)!;
    entry.count++;
    entry.statuses[p.status] = (entry.statuses[p.status] ?? 0) + 1;
  }
  return [...byKey.values()].map((e) => ({ path: e.count === 1 ? e.first : e.path, count: e.count, statuses: e.statuses }));
}
