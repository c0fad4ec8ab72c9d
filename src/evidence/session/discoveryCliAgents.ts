// Which GitHub Copilot CLI, Qwen Code, Factory Droid, Continue, Cursor, Amp, Goose, Kiro CLI, Windsurf and Antigravity sessions and Zed's agent threads belong to the open workspace (docs/DESIGN.md §6);
// the layouts under the user's home are on each finder.
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FoundTranscript } from './discovery';
import { forEachJsonLine, openRegularForReading, parseJsonLine, readFirstLine } from './lines';
import { AntigravityHistorySchema } from './readers/antigravitySchema';
import { ANTIGRAVITY_SUMMARIES_DB, antigravitySummaries } from './readers/antigravityDb';
import { copilotCliCwd } from './readers/copilotCli';
import { droidSessionCwd } from './readers/droid';
import { continueFolderPath } from './readers/continueSession';
import { ampThreadFolders } from './readers/amp';
import { gooseSessionCwd } from './readers/goose';
import { GOOSE_DB, gooseDbRef, gooseDbSessions } from './readers/gooseDb';
import { CURSOR_STATE_DB, cursorDbRef, cursorWorkspaceComposers, cursorWorkspaceFolder } from './readers/cursorDb';
import { hasSqlite } from './readers/sqliteFile';
import { ZED_DB, zedDbRef, zedDbThreads } from './readers/zedDb';
import { KIRO_DB, kiroDbConversations, kiroDbRef } from './readers/kiroCliDb';
import { kiroMetaFileOf, readKiroSessionMeta } from './readers/kiroSession';
import { CURSOR_CLI_STORE, cursorCliWorkspaceHash } from './readers/cursorCli';
import { readJsonValueAt } from './jsonStream';
import * as z from 'zod';
import { WINDSURF_LOG_FOLDER, windsurfLogDir } from '../../core/agents/windsurfHook';
import { findRepositoryRoot } from '../git/repository';
import { obj, str } from './readers/common';

/** Newest first, looking for one that ran in the workspace. */
export const MAX_CLI_SESSIONS_SCANNED = 300;
const FIRST_LINE_BYTES = 256 * 1024;

async function list(dir: string): Promise<Array<{ name: string; dir: boolean }>> {
  try {
    return (await readdir(dir, { withFileTypes: true })).map((d) => ({ name: d.name, dir: d.isDirectory() }));
  } catch {
    return [];
  }
}

async function mtime(p: string): Promise<number | undefined> {
  try {
    const st = await stat(p);
    return st.isFile() ? st.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

function samePath(a: string | undefined, b: string): boolean {
  if (!a) return false;
  const norm = (p: string) => path.resolve(p).replace(/[\\/]+$/, '');
  return process.platform === 'win32' || process.platform === 'darwin' ? norm(a).toLowerCase() === norm(b).toLowerCase() : norm(a) === norm(b);
}

async function newestFirst(files: string[]): Promise<Array<{ file: string; m: number }>> {
  const out: Array<{ file: string; m: number }> = [];
  for (const file of files) {
    const m = await mtime(file);
    if (m !== undefined) out.push({ file, m });
  }
  return out.sort((a, b) => b.m - a.m).slice(0, MAX_CLI_SESSIONS_SCANNED);
}

async function firstRecord(file: string): Promise<Record<string, unknown> | undefined> {
  return parseJsonLine((await readFirstLine(file, FIRST_LINE_BYTES)) ?? '');
}

/**
 * `session-state/<session>/events.jsonl` (or `session-state/<session>.jsonl`) whose first event, `session.start`, names
 * the folder (`data.context.cwd`, `gitRoot`). The older `history-session-state/*.json` name none: read only when given.
 */
export async function findCopilotCli(copilotDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const stateDir = path.join(copilotDir, 'session-state');
  const files: string[] = [];
  for (const e of await list(stateDir)) {
    if (e.dir) files.push(path.join(stateDir, e.name, 'events.jsonl'));
    else if (e.name.endsWith('.jsonl')) files.push(path.join(stateDir, e.name));
  }
  for (const { file, m } of await newestFirst(files)) {
    const first = await firstRecord(file);
    const context = obj(obj(first?.data)?.context);
    const folders = [
      copilotCliCwd(first),
      str(context?.gitRoot),
      ...(path.basename(file) === 'events.jsonl' ? await workspaceYamlFolders(path.dirname(file)) : []),
    ];
    if (folders.some((f) => samePath(f, workspaceRoot))) return [{ source: 'copilot-cli', file, mtimeMs: m }];
  }
  return [];
}

/** Top-level scalar keys `cwd` and `git_root` of the session folder's `workspace.yaml`. */
async function workspaceYamlFolders(sessionDir: string): Promise<string[]> {
  let text: string;
  try {
    const fh = await openRegularForReading(path.join(sessionDir, 'workspace.yaml'));
    text = await fh.readFile('utf8').finally(() => fh.close());
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const m of text.slice(0, 64 * 1024).matchAll(/^(?:cwd|git_root):[ \t]*(.+?)[ \t]*$/gm)) out.push(m[1].replace(/^(['"])(.*)\1$/, '$2'));
  return out;
}

/** Qwen's `sanitizeCwd`: every character but letters and digits turned into `-` (lower-cased first on Windows). */
export function qwenProjectDirName(workspaceRoot: string): string {
  const root = path.resolve(workspaceRoot);
  return (process.platform === 'win32' ? root.toLowerCase() : root).replace(/[^a-zA-Z0-9]/g, '-');
}

/** `projects/<project>/chats/<session>.jsonl`: the newest chat. */
export async function findQwen(qwenDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const chats = path.join(qwenDir, 'projects', qwenProjectDirName(workspaceRoot), 'chats');
  const files = (await list(chats)).filter((e) => !e.dir && e.name.endsWith('.jsonl')).map((e) => path.join(chats, e.name));
  const newest = (await newestFirst(files))[0];
  return newest ? [{ source: 'qwen', file: newest.file, mtimeMs: newest.m }] : [];
}

/** `<project>/<session>.jsonl` or straight under `sessions/`; the `session_start` header names the folder (`cwd`). */
export async function findDroid(sessionsDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const files: string[] = [];
  for (const e of await list(sessionsDir)) {
    if (!e.dir) {
      if (e.name.endsWith('.jsonl')) files.push(path.join(sessionsDir, e.name));
      continue;
    }
    const sub = path.join(sessionsDir, e.name);
    for (const f of await list(sub)) if (!f.dir && f.name.endsWith('.jsonl')) files.push(path.join(sub, f.name));
  }
  for (const { file, m } of await newestFirst(files)) {
    if (samePath(droidSessionCwd(await firstRecord(file)), workspaceRoot)) return [{ source: 'droid', file, mtimeMs: m }];
  }
  return [];
}

/** continuedev/continue `BaseSessionMetadata`, the entries of `sessions.json`. */
const ContinueIndexSchema = z.array(z.looseObject({ sessionId: z.string(), workspaceDirectory: z.string().optional() }));

/** The ids `sessions.json` lists for the folder; undefined when there is no readable index. */
async function continueIndexIds(sessionsDir: string, workspaceRoot: string): Promise<Set<string> | undefined> {
  let text: string;
  try {
    const fh = await openRegularForReading(path.join(sessionsDir, 'sessions.json'));
    text = await fh.readFile('utf8').finally(() => fh.close());
  } catch {
    return undefined;
  }
  let parsed: ReturnType<typeof ContinueIndexSchema.safeParse>;
  try {
    parsed = ContinueIndexSchema.safeParse(JSON.parse(text));
  } catch {
    return undefined;
  }
  if (!parsed.success) return undefined;
  return new Set(parsed.data.filter((e) => samePath(continueFolderPath(e.workspaceDirectory), workspaceRoot)).map((e) => e.sessionId));
}

/**
 * `<sessionId>.json`: the newest session whose `workspaceDirectory` (a path, or the IDE's `file://` URI) is the
 * folder, among those `sessions.json` lists for it, or among all when the index is missing or unreadable.
 */
export async function findContinue(sessionsDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const ids = await continueIndexIds(sessionsDir, workspaceRoot);
  const files = (await list(sessionsDir))
    .filter((e) => !e.dir && e.name.endsWith('.json') && e.name !== 'sessions.json' && (!ids || ids.has(e.name.slice(0, -'.json'.length))))
    .map((e) => path.join(sessionsDir, e.name));
  for (const { file, m } of await newestFirst(files)) {
    const dir = await readJsonValueAt(file, ['workspaceDirectory']).catch(() => undefined);
    if (samePath(continueFolderPath(str(dir)), workspaceRoot)) return [{ source: 'continue', file, mtimeMs: m }];
  }
  return [];
}

/** `threads/T-<uuid>.json`: the newest thread whose environment names the folder (`env.initial.trees[].uri`). */
export async function findAmp(threadsDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const files = (await list(threadsDir)).filter((e) => !e.dir && /^T-.+\.json$/.test(e.name)).map((e) => path.join(threadsDir, e.name));
  for (const { file, m } of await newestFirst(files)) {
    const env = await readJsonValueAt(file, ['env']).catch(() => undefined);
    if (ampThreadFolders(env).some((f) => samePath(f, workspaceRoot))) return [{ source: 'amp', file, mtimeMs: m }];
  }
  return [];
}

/**
 * Cursor's folder for a workspace under `projects/`: the absolute path with every run of characters other than ASCII
 * letters and digits turned into one `-`, none at either end (`/Users/me/my_app` → `Users-me-my-app`); on Windows
 * the drive letter lower-cased as VS Code's file paths have it (`C:\Work\app` → `c-Work-app`).
 */
export function cursorProjectKey(workspaceRoot: string): string {
  const root = (/^[A-Za-z]:[\\/]/.test(workspaceRoot) ? workspaceRoot : path.resolve(workspaceRoot)).replace(
    /^([A-Za-z]):/,
    (_, d: string) => `${d.toLowerCase()}:`,
  );
  return root.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/** `projects/<key>/agent-transcripts/<id>/<id>.jsonl` (or `<id>.jsonl` straight under it): the newest, with its `subagents/*.jsonl`. */
async function findCursorTranscripts(cursorDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const transcripts = path.join(cursorDir, 'projects', cursorProjectKey(workspaceRoot), 'agent-transcripts');
  const files: string[] = [];
  for (const e of await list(transcripts)) {
    if (e.dir) files.push(path.join(transcripts, e.name, `${e.name}.jsonl`));
    else if (e.name.endsWith('.jsonl')) files.push(path.join(transcripts, e.name));
  }
  const newest = (await newestFirst(files))[0];
  if (!newest) return [];
  const subDir = path.join(path.dirname(newest.file), 'subagents');
  const subs = path.basename(path.dirname(newest.file)) === path.basename(newest.file, '.jsonl') ? await list(subDir) : [];
  const subFiles = await newestFirst(subs.filter((e) => !e.dir && e.name.endsWith('.jsonl')).map((e) => path.join(subDir, e.name)));
  return [
    { source: 'cursor', file: newest.file, mtimeMs: newest.m },
    ...subFiles.map(({ file, m }) => ({ source: 'cursor' as const, file, mtimeMs: m, subagent: true })),
  ];
}

/**
 * The Cursor IDE's newest chat for the workspace in its own store: the `workspaceStorage/<hash>` whose `workspace.json`
 * names the folder lists its chats (`state.vscdb`), held in `globalStorage/state.vscdb`. Without SQLite the
 * global database itself, so that its read says why.
 */
export async function findCursorIde(userDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const globalDb = path.join(userDir, 'globalStorage', CURSOR_STATE_DB);
  const globalTime = await mtime(globalDb);
  if (globalTime === undefined) return [];
  const storage = path.join(userDir, 'workspaceStorage');
  for (const e of await list(storage)) {
    if (!e.dir) continue;
    const folder = cursorWorkspaceFolder(await readJsonValueAt(path.join(storage, e.name, 'workspace.json'), ['folder']).catch(() => undefined));
    const wsDb = path.join(storage, e.name, CURSOR_STATE_DB);
    if (!samePath(folder, workspaceRoot) || (await mtime(wsDb)) === undefined) continue;
    if (!hasSqlite()) return [{ source: 'cursor', file: globalDb, mtimeMs: globalTime }];
    const newest = cursorWorkspaceComposers(wsDb)[0];
    return newest ? [{ source: 'cursor', file: cursorDbRef(globalDb, newest.id), mtimeMs: newest.updated }] : [];
  }
  return [];
}

/**
 * The Cursor Agent CLI's newest chat for the workspace: `chats/<md5 of its path>/<chat id>/store.db`, by the time of
 * the database or its write-ahead log, whichever is later (a running chat writes the log).
 */
export async function findCursorCli(cursorDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const chats = path.join(cursorDir, 'chats', cursorCliWorkspaceHash(workspaceRoot));
  let newest: FoundTranscript | undefined;
  for (const e of await list(chats)) {
    if (!e.dir) continue;
    const file = path.join(chats, e.name, CURSOR_CLI_STORE);
    const m = await mtime(file);
    if (m === undefined) continue;
    const t = Math.max(m, (await mtime(`${file}-wal`)) ?? 0);
    if (!newest || t > newest.mtimeMs) newest = { source: 'cursor', file, mtimeMs: t };
  }
  return newest ? [newest] : [];
}

/**
 * Cursor's agent transcripts, the CLI's chat store and the IDE's own store hold the same agent's chats: the newest
 * one for the workspace is read. `location` is Cursor's folder (`~/.cursor`) or the IDE's `User` folder; `userDir`
 * the IDE's, searched beside.
 */
export async function findCursor(location: string, workspaceRoot: string, userDir?: string): Promise<FoundTranscript[]> {
  if ((await stat(path.join(location, 'globalStorage')).catch(() => undefined))?.isDirectory()) return findCursorIde(location, workspaceRoot);
  const candidates = [
    await findCursorTranscripts(location, workspaceRoot),
    await findCursorCli(location, workspaceRoot),
    userDir ? await findCursorIde(userDir, workspaceRoot).catch(() => []) : [],
  ].filter((c) => c.length);
  return candidates.sort((a, b) => b[0].mtimeMs - a[0].mtimeMs)[0] ?? [];
}

/**
 * The newest session whose folder is the workspace, from `sessions/sessions.db` (`working_dir`, `updated_at`) and the
 * `sessions/<id>.jsonl` of Goose before it (their metadata line's `working_dir`). Without SQLite the database
 * itself is returned too, so that its read says why.
 */
export async function findGoose(sessionsDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const dbFile = path.join(sessionsDir, GOOSE_DB);
  const candidates: FoundTranscript[] = [];
  const unread: FoundTranscript[] = [];
  const dbTime = (await stat(dbFile).catch(() => undefined))?.mtimeMs;
  if (dbTime !== undefined) {
    try {
      const s = gooseDbSessions(dbFile).find((x) => samePath(x.workingDir, workspaceRoot));
      if (s) candidates.push({ source: 'goose', file: gooseDbRef(dbFile, s.id), mtimeMs: s.updated || dbTime });
    } catch {
      if (!hasSqlite()) unread.push({ source: 'goose', file: dbFile, mtimeMs: dbTime });
    }
  }
  const files = (await list(sessionsDir)).filter((e) => !e.dir && e.name.endsWith('.jsonl')).map((e) => path.join(sessionsDir, e.name));
  for (const { file, m } of await newestFirst(files)) {
    if (samePath(gooseSessionCwd(await firstRecord(file)), workspaceRoot)) {
      candidates.push({ source: 'goose', file, mtimeMs: m });
      break;
    }
  }
  const newest = candidates.sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
  return [...unread, ...(newest ? [newest] : [])];
}

/**
 * `threads/threads.db` of Zed: the newest thread made in the workspace folder (`folder_paths`, or the project snapshot's
 * worktrees in builds before it). Without SQLite the database itself is returned, so that its read says why.
 */
export async function findZed(threadsDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const dbFile = path.join(threadsDir, ZED_DB);
  const dbTime = (await stat(dbFile).catch(() => undefined))?.mtimeMs;
  if (dbTime === undefined) return [];
  try {
    const t = zedDbThreads(dbFile).find((x) => x.folders.some((f) => samePath(f, workspaceRoot)));
    return t ? [{ source: 'zed', file: zedDbRef(dbFile, t.id), mtimeMs: t.updated || dbTime }] : [];
  } catch {
    return hasSqlite() ? [] : [{ source: 'zed', file: dbFile, mtimeMs: dbTime }];
  }
}

/**
 * Kiro CLI's session store: the newest non-empty `<id>.jsonl` whose `<id>.json` names the workspace (`cwd`), a
 * sub-agent's session (`parent_session_id`) left out. Every start opens a session, so the newest is often empty.
 */
export async function findKiroSessions(sessionsDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const logs = (await list(sessionsDir)).filter((e) => !e.dir && e.name.endsWith('.jsonl')).map((e) => path.join(sessionsDir, e.name));
  for (const { file, m } of await newestFirst(logs)) {
    if (!(await stat(file).catch(() => undefined))?.size) continue;
    const meta = await readKiroSessionMeta(kiroMetaFileOf(file));
    if (meta && !meta.parent_session_id && samePath(meta.cwd, workspaceRoot)) return [{ source: 'kiro', format: 'kiro-session', file, mtimeMs: m }];
  }
  return [];
}

/** Kiro CLI's two stores hold the same agent's conversations: the newest of the workspace's is read. */
export async function findKiro(dataDir: string, workspaceRoot: string, sessionsDir?: string): Promise<FoundTranscript[]> {
  const candidates = [await findKiroDb(dataDir, workspaceRoot), sessionsDir ? await findKiroSessions(sessionsDir, workspaceRoot) : []].filter((c) => c.length);
  return candidates.sort((a, b) => b[b.length - 1].mtimeMs - a[a.length - 1].mtimeMs)[0] ?? [];
}

/**
 * `data.sqlite3` of Kiro CLI: the newest conversation kept for the workspace folder (its `key`). Without SQLite
 * the database itself is returned, so that its read says why.
 */
export async function findKiroDb(dataDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const dbFile = path.join(dataDir, KIRO_DB);
  const dbTime = (await stat(dbFile).catch(() => undefined))?.mtimeMs;
  if (dbTime === undefined) return [];
  try {
    const c = kiroDbConversations(dbFile).find((x) => samePath(x.cwd, workspaceRoot));
    return c ? [{ source: 'kiro', file: kiroDbRef(dbFile, c.id), mtimeMs: c.updated || dbTime }] : [];
  } catch {
    return hasSqlite() ? [] : [{ source: 'kiro', file: dbFile, mtimeMs: dbTime }];
  }
}

/** The folders under `~/.gemini` where Antigravity's builds keep their data (the IDE, its newer build, the `agy` CLI). */
export const ANTIGRAVITY_APP_DIRS = ['antigravity', 'antigravity-ide', 'antigravity-cli'];
const MAX_HISTORY_LINES = 100_000;

/** Ids of the conversations `history.jsonl` says were started in the folder, last first. */
async function antigravityHistoryIds(appDir: string, workspaceRoot: string): Promise<string[]> {
  const ids: string[] = [];
  try {
    await forEachJsonLine(path.join(appDir, 'history.jsonl'), 0, (r, info) => {
      if (info.line > MAX_HISTORY_LINES) return;
      const h = AntigravityHistorySchema.safeParse(r);
      if (h.success && samePath(h.data.workspace, workspaceRoot) && !ids.includes(h.data.conversationId)) ids.push(h.data.conversationId);
    });
  } catch {
    return [];
  }
  return ids.reverse();
}

/** Ids the data folder's `conversation_summaries.db` ties to the folder; `unread` when it is there but cannot be read. */
function antigravitySummaryIds(appDir: string, workspaceRoot: string): { ids: string[]; unread?: string } {
  const dbFile = path.join(appDir, ANTIGRAVITY_SUMMARIES_DB);
  try {
    return { ids: antigravitySummaries(dbFile).flatMap((c) => (c.folders.some((f) => samePath(f, workspaceRoot)) ? [c.id] : [])) };
  } catch {
    return hasSqlite() ? { ids: [] } : { ids: [], unread: dbFile };
  }
}

/**
 * The newest of the workspace's Cascade hook logs, `<state>/<workspace id>/windsurf/<trajectory>.jsonl`, which
 * `specialist-handoff hook --agent windsurf` appends (Windsurf's own conversation stores are encrypted).
 */
export async function findWindsurf(stateBase: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const tried = new Set<string>();
  const inFolder = async (root: string | undefined): Promise<FoundTranscript[]> => {
    if (!root || tried.has(path.resolve(root))) return [];
    tried.add(path.resolve(root));
    const dir = windsurfLogDir(stateBase, root);
    const files = (await list(dir)).filter((e) => !e.dir && e.name.endsWith('.jsonl') && !e.name.startsWith('.')).map((e) => path.join(dir, e.name));
    const newest = (await newestFirst(files))[0];
    return newest ? [{ source: 'windsurf', file: newest.file, mtimeMs: newest.m }] : [];
  };
  // The hook keys a log by the real path of the repository's top (or of the folder, outside git); the workspace may
  // be named through a link, or be a folder inside that repository. Git runs only when the cheaper keys find nothing
  // and some workspace has a log: every handover looks here, and most users never install the hook.
  const byName = await inFolder(workspaceRoot);
  if (byName.length) return byName;
  const real = await realpath(workspaceRoot).catch(() => undefined);
  const byRealPath = await inFolder(real);
  if (byRealPath.length || !(await anyWindsurfLogFolder(stateBase))) return byRealPath;
  return inFolder(await findRepositoryRoot(real ?? workspaceRoot));
}

/** Whether any workspace's state folder under `stateBase` holds a Cascade hook log folder. */
async function anyWindsurfLogFolder(stateBase: string): Promise<boolean> {
  const workspaces = (await list(stateBase)).filter((e) => e.dir);
  const found = await Promise.all(workspaces.map(async (e) => (await list(path.join(stateBase, e.name))).some((f) => f.dir && f.name === WINDSURF_LOG_FOLDER)));
  return found.includes(true);
}

/**
 * Google Antigravity: the newest conversation tied to the workspace folder by a data folder's `conversation_summaries.db`
 * (`workspace_uris`, newer builds) or `history.jsonl` (`{conversationId, workspace}`, the `agy` CLI), read from
 * `brain/<id>/.system_generated/logs/transcript.jsonl`, else from its brain folder's artifacts. Older IDE builds name a
 * conversation's folder only in their protobuf or encrypted stores: those are not discovered (give the brain folder). Without
 * SQLite an existing summaries database is returned, so that its read says why.
 */
export async function findAntigravity(geminiDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const appDirs = (await stat(path.join(geminiDir, 'brain')).catch(() => undefined))?.isDirectory()
    ? [geminiDir]
    : ANTIGRAVITY_APP_DIRS.map((d) => path.join(geminiDir, d));
  const found: FoundTranscript[] = [];
  const unread: FoundTranscript[] = [];
  for (const appDir of appDirs) {
    const summaries = antigravitySummaryIds(appDir, workspaceRoot);
    const dbTime = summaries.unread ? await mtime(summaries.unread) : undefined;
    if (summaries.unread && dbTime !== undefined) unread.push({ source: 'antigravity', file: summaries.unread, mtimeMs: dbTime });
    for (const id of new Set([...summaries.ids, ...(await antigravityHistoryIds(appDir, workspaceRoot))])) {
      if (!/^[\w-]+$/.test(id)) continue;
      const brain = path.join(appDir, 'brain', id);
      const transcript = path.join(brain, '.system_generated', 'logs', 'transcript.jsonl');
      const t = await mtime(transcript);
      const m = t ?? (await mtime(path.join(brain, 'task.md')));
      if (m !== undefined) found.push({ source: 'antigravity', file: t !== undefined ? transcript : brain, mtimeMs: m });
    }
  }
  const newest = found.sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
  return [...unread, ...(newest ? [newest] : [])];
}
