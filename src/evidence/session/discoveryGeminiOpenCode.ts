// Which Gemini CLI and OpenCode transcripts belong to the open workspace (docs/DESIGN.md §6). Both keep their logs
// per project under the user's home; the layouts are on findGemini and findOpenCode.
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { emptyStats } from '../../core/session/events';
import type { FoundTranscript } from './discovery';
import { parseJsonLine, readFirstLine } from './lines';
import { readStorageJson } from './readers/opencode';
import { hasSqlite } from './readers/sqliteFile';
import { OPENCODE_DB, openCodeDbRef, openCodeDbSessions } from './readers/opencodeDb';
import { obj, str } from './readers/common';

/** Folders of `~/.gemini/tmp` examined for a `.project_root` naming the workspace. */
export const MAX_GEMINI_PROJECTS_SCANNED = 500;
/** Per project, newest first. */
export const MAX_OPENCODE_SESSIONS_SCANNED = 500;

/** sha256 (hex) of the project root path (gemini-cli `getProjectHash`). */
export function geminiProjectHash(projectRoot: string): string {
  return createHash('sha256').update(projectRoot).digest('hex');
}

async function list(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

async function mtime(p: string): Promise<number | undefined> {
  try {
    return (await stat(p)).mtimeMs;
  } catch {
    return undefined;
  }
}

function norm(p: string): string {
  const r = path.resolve(p).replace(/[\\/]+$/, '');
  return process.platform === 'win32' || process.platform === 'darwin' ? r.toLowerCase() : r;
}

function within(p: string | undefined, root: string): boolean {
  if (!p) return false;
  const rel = path.relative(norm(root), norm(p));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

async function newest(dir: string, match: (name: string) => boolean): Promise<FoundTranscript | undefined> {
  let best: FoundTranscript | undefined;
  for (const f of (await list(dir)).filter(match)) {
    const full = path.join(dir, f);
    const m = await mtime(full);
    if (m !== undefined && (!best || m > best.mtimeMs)) best = { source: 'gemini', file: full, mtimeMs: m };
  }
  return best;
}

/** By hash, by the slug `projects.json` (`{projects: {<root>: <slug>}}`) maps the root to, or by a `.project_root` naming it. */
async function geminiProjectDirs(geminiDir: string, workspaceRoot: string): Promise<string[]> {
  const tmp = path.join(geminiDir, 'tmp');
  const root = path.resolve(workspaceRoot);
  const dirs = new Set<string>([path.join(tmp, geminiProjectHash(root))]);
  const registry = obj(obj(await readStorageJson(path.join(geminiDir, 'projects.json'), emptyStats()))?.projects);
  for (const [p, slug] of Object.entries(registry ?? {})) {
    if (typeof slug === 'string' && slug && !slug.includes('/') && !slug.includes('\\') && norm(p) === norm(root)) dirs.add(path.join(tmp, slug));
  }
  for (const d of (await list(tmp)).slice(0, MAX_GEMINI_PROJECTS_SCANNED)) {
    const owner = (await readFirstLine(path.join(tmp, d, '.project_root'), 64 * 1024))?.trim();
    if (owner && norm(owner) === norm(root)) dirs.add(path.join(tmp, d));
  }
  return [...dirs];
}

/**
 * Under `~/.gemini/tmp/<project>/`: the newest chat recording `chats/session-*.json[l]` with its sub-agents'
 * (`chats/<sessionId>/*.jsonl`), else the newest `/chat save` checkpoint, else `logs.json` (the user's prompts).
 */
export async function findGemini(geminiDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const dirs = await geminiProjectDirs(geminiDir, workspaceRoot);
  const pick = async (sub: string, match: (n: string) => boolean): Promise<FoundTranscript | undefined> => {
    let best: FoundTranscript | undefined;
    for (const d of dirs) {
      const n = await newest(path.join(d, sub), match);
      if (n && (!best || n.mtimeMs > best.mtimeMs)) best = n;
    }
    return best;
  };
  const chat = await pick('chats', (n) => /^session-.*\.jsonl?$/.test(n));
  if (chat) {
    const sessionId = str(parseJsonLine((await readFirstLine(chat.file)) ?? '')?.sessionId);
    const subDir = sessionId && /^[\w.-]+$/.test(sessionId) ? path.join(path.dirname(chat.file), sessionId) : undefined;
    const subs: FoundTranscript[] = [];
    for (const f of subDir ? (await list(subDir)).filter((x) => x.endsWith('.jsonl')).sort() : []) {
      const full = path.join(subDir as string, f);
      subs.push({ source: 'gemini', file: full, mtimeMs: (await mtime(full)) ?? 0, subagent: true });
    }
    return [chat, ...subs];
  }
  const found = (await pick('', (n) => /^checkpoint-.+\.json$/.test(n))) ?? (await pick('', (n) => n === 'logs.json'));
  return found ? [found] : [];
}

/**
 * The newest top-level session whose `directory` is in the workspace, with its sub-agent sessions (`parentID`), from
 * `opencode.db` and the JSON `storage/session/<projectID>/<sessionID>.json` (migrated sessions come from the database).
 * Without SQLite the database itself is returned, so that its read says why.
 */
export async function findOpenCode(dataDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const inStorage = path.basename(dataDir) === 'storage';
  const storageDir = inStorage ? dataDir : path.join(dataDir, 'storage');
  const dbFile = path.join(inStorage ? path.dirname(dataDir) : dataDir, OPENCODE_DB);
  const sessions = new Map<string, FoundTranscript & { id: string; parent?: string; updated: number }>();
  const dbTime = await mtime(dbFile);
  const unread: FoundTranscript[] = [];
  if (dbTime !== undefined) {
    try {
      if (!hasSqlite()) throw new Error('no SQLite');
      for (const s of openCodeDbSessions(dbFile)) {
        if (within(s.directory, workspaceRoot))
          sessions.set(s.id, { source: 'opencode', file: openCodeDbRef(dbFile, s.id), mtimeMs: s.updated, id: s.id, parent: s.parentID, updated: s.updated });
      }
    } catch {
      unread.push({ source: 'opencode', file: dbFile, mtimeMs: dbTime });
    }
  }
  for (const s of await jsonStorageSessions(storageDir, workspaceRoot)) {
    if (!sessions.has(s.id)) sessions.set(s.id, s);
  }
  const all = [...sessions.values()];
  const main = all.filter((s) => !s.parent).sort((a, b) => b.updated - a.updated)[0];
  if (!main) return unread;
  const children = all.filter((s) => s.parent === main.id);
  return [
    ...unread,
    { source: main.source, file: main.file, mtimeMs: main.mtimeMs },
    ...children.map(({ source, file, mtimeMs }) => ({ source, file, mtimeMs, subagent: true })),
  ];
}

/** Projects whose `worktree` (or a sandbox) holds the workspace, and `global`. */
async function jsonStorageSessions(
  storageDir: string,
  workspaceRoot: string,
): Promise<Array<FoundTranscript & { id: string; parent?: string; updated: number }>> {
  const projects = new Set<string>(['global']);
  for (const f of (await list(path.join(storageDir, 'project'))).filter((x) => x.endsWith('.json'))) {
    const p = await readStorageJson(path.join(storageDir, 'project', f), emptyStats());
    const sandboxes = Array.isArray(p?.sandboxes) ? p.sandboxes : [];
    if (p && (within(workspaceRoot, str(p.worktree) ?? '\0') || sandboxes.some((s) => typeof s === 'string' && within(workspaceRoot, s)))) {
      projects.add(path.basename(f, '.json'));
    }
  }
  const sessions: Array<FoundTranscript & { id: string; parent?: string; updated: number }> = [];
  for (const projectID of projects) {
    const dir = path.join(storageDir, 'session', projectID);
    const files: Array<{ file: string; m: number }> = [];
    for (const f of (await list(dir)).filter((x) => x.endsWith('.json'))) {
      const m = await mtime(path.join(dir, f));
      if (m !== undefined) files.push({ file: path.join(dir, f), m });
    }
    files.sort((a, b) => b.m - a.m);
    for (const { file, m } of files.slice(0, MAX_OPENCODE_SESSIONS_SCANNED)) {
      const s = await readStorageJson(file, emptyStats());
      if (!s || !within(str(s.directory), workspaceRoot)) continue;
      const updated = obj(s.time)?.updated;
      sessions.push({
        source: 'opencode',
        file,
        mtimeMs: m,
        updated: typeof updated === 'number' ? updated : m,
        id: str(s.id) ?? path.basename(file, '.json'),
        parent: str(s.parentID),
      });
    }
  }
  return sessions;
}
