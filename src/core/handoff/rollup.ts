// Rolls a long path list up into folders with counts (`src/components/ — 37 files (M 30, A 7)`), so every changed path is still accounted for. Pure.

export interface StatusPath {
  readonly path: string;
  readonly status: string;
}

/** A path alone (`count` 1), or a folder ending in `/`. */
export interface RolledUp {
  readonly path: string;
  readonly count: number;
  readonly statuses: Readonly<Record<string, number>>;
}

function folderAt(path: string, depth: number): string | undefined {
  const parts = path.split('/');
  return parts.length - 1 >= depth ? `${parts.slice(0, depth).join('/')}/` : undefined;
}

/** Groups by folders at the deepest level giving at most `maxEntries` entries, else the top level's own files as `./`; first-seen order. */
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
