// Where each agent keeps its transcripts, and which belong to the open workspace. Every location can be overridden
// (`handoff.sessionLog.locations`); otherwise the agent's default folder is used.
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionSource } from '../../core/session/events';
import type { TranscriptFormat } from './detect';
import { openRegularForReading } from './lines';
import { clineTaskCwd } from './readers/cline';
import { codexSessionCwd } from './readers/codex';
import { readCopilotSession } from './readers/copilot';

/** Absolute; unset ones use {@link defaultLocations}. `kiro-sessions`: Kiro CLI's session store, beside its data folder (`kiro`). */
export type SessionLocations = Partial<Record<Exclude<SessionSource, 'recorder'> | 'kiro-sessions', string>>;

export interface FoundTranscript {
  readonly source: SessionSource;
  readonly file: string;
  readonly mtimeMs: number;
  /** Set when detected by content rather than discovered. */
  readonly format?: TranscriptFormat | SessionSource;
  /** A sub-agent's transcript: its user-role messages are the lead agent's prompts, never the user's requests. */
  readonly subagent?: boolean;
}

/** Newest first, to find the workspace's. */
export const MAX_CODEX_FILES_SCANNED = 300;
export const MAX_TASKS_SCANNED = 100;
/** Newest first, to skip empty ones. */
export const MAX_COPILOT_SESSIONS_SCANNED = 20;

/** `product`'s `User` folder (VS Code's `Code`, Cursor's `Cursor`). */
function vscodeUserDir(home: string, product = 'Code'): string {
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', product, 'User');
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), product, 'User');
  return path.join(process.env.XDG_CONFIG_HOME ?? path.join(home, '.config'), product, 'User');
}

/** The Cursor IDE's `User` folder, holding its own chat store (`globalStorage/state.vscdb`). */
export function cursorUserDir(home = homedir()): string {
  return vscodeUserDir(home, 'Cursor');
}

/** Each agent's default folder, honouring its own environment variables; Aider and SpecStory live in the workspace. */
export function defaultLocations(workspaceRoot: string, home = homedir()): Required<SessionLocations> {
  const user = vscodeUserDir(home);
  return {
    'claude-code': path.join(process.env.CLAUDE_CONFIG_DIR ?? path.join(home, '.claude'), 'projects'),
    codex: path.join(process.env.CODEX_HOME ?? path.join(home, '.codex'), 'sessions'),
    aider: workspaceRoot,
    cline: path.join(user, 'globalStorage', 'saoudrizwan.claude-dev', 'tasks'),
    roo: path.join(user, 'globalStorage', 'rooveterinaryinc.roo-cline', 'tasks'),
    kilo: path.join(user, 'globalStorage', 'kilocode.kilo-code', 'tasks'),
    specstory: path.join(workspaceRoot, '.specstory', 'history'),
    copilot: path.join(user, 'workspaceStorage'),
    gemini: path.join(process.env.GEMINI_CLI_HOME ?? home, '.gemini'),
    opencode: path.join(process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'opencode'),
    'copilot-cli': process.env.COPILOT_HOME ?? path.join(home, '.copilot'),
    qwen: process.env.QWEN_RUNTIME_DIR ?? path.join(home, '.qwen'),
    droid: path.join(home, '.factory', 'sessions'),
    continue: path.join(process.env.CONTINUE_GLOBAL_DIR ? path.resolve(process.env.CONTINUE_GLOBAL_DIR) : path.join(home, '.continue'), 'sessions'),
    cursor: path.join(home, '.cursor'),
    amp: path.join(process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'amp', 'threads'),
    goose:
      process.platform === 'win32'
        ? path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Block', 'goose', 'data', 'sessions')
        : path.join(process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'goose', 'sessions'),
    zed: zedThreadsDir(home),
    kiro: kiroCliDataDir(home),
    windsurf: path.join(process.env.XDG_STATE_HOME || path.join(home, '.local', 'state'), 'specialist-handoff'),
    antigravity: path.join(home, '.gemini'),
    'kiro-sessions': kiroSessionsDir(home),
  };
}

/** The path with `/`, `\`, `:` and `.` turned into `-`. */
export function claudeProjectDirName(workspaceRoot: string): string {
  return path.resolve(workspaceRoot).replace(/[\\/:.]/g, '-');
}

async function mtime(p: string): Promise<number | undefined> {
  try {
    return (await stat(p)).mtimeMs;
  } catch {
    return undefined;
  }
}

async function list(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

function samePath(a: string | undefined, b: string): boolean {
  if (!a) return false;
  const norm = (p: string) => path.resolve(p).replace(/[\\/]+$/, '');
  return process.platform === 'win32' || process.platform === 'darwin' ? norm(a).toLowerCase() === norm(b).toLowerCase() : norm(a) === norm(b);
}

/** The newest session and its sub-agent transcripts. */
export async function findClaudeCode(projectsDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const dir = path.join(projectsDir, claudeProjectDirName(workspaceRoot));
  const files = (await list(dir)).filter((f) => f.endsWith('.jsonl'));
  let newest: FoundTranscript | undefined;
  for (const f of files) {
    const full = path.join(dir, f);
    const m = await mtime(full);
    if (m !== undefined && (!newest || m > newest.mtimeMs)) newest = { source: 'claude-code', file: full, mtimeMs: m };
  }
  if (!newest) return [];
  const subDir = path.join(dir, path.basename(newest.file, '.jsonl'), 'subagents');
  const subs: FoundTranscript[] = [];
  for (const f of (await list(subDir)).filter((x) => x.endsWith('.jsonl'))) {
    const full = path.join(subDir, f);
    subs.push({ source: 'claude-code', file: full, mtimeMs: (await mtime(full)) ?? 0, subagent: true });
  }
  return [newest, ...subs];
}

/** The newest rollout whose session `cwd` is the workspace (newest day folders first). */
export async function findCodex(sessionsDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  let scanned = 0;
  const desc = (xs: string[]) => xs.sort().reverse();
  for (const y of desc(await list(sessionsDir))) {
    for (const m of desc(await list(path.join(sessionsDir, y)))) {
      for (const d of desc(await list(path.join(sessionsDir, y, m)))) {
        const dayDir = path.join(sessionsDir, y, m, d);
        for (const f of desc((await list(dayDir)).filter((x) => x.startsWith('rollout-') && x.endsWith('.jsonl')))) {
          if (++scanned > MAX_CODEX_FILES_SCANNED) return [];
          const full = path.join(dayDir, f);
          if (samePath(await codexSessionCwd(full), workspaceRoot)) {
            return [{ source: 'codex', file: full, mtimeMs: (await mtime(full)) ?? 0 }];
          }
        }
      }
    }
  }
  return [];
}

/** The chat history (the location may name the file itself: `--chat-history-file` allows any name), else the input history. */
export async function findAider(location: string): Promise<FoundTranscript[]> {
  const named = await stat(location).catch(() => undefined);
  if (named?.isFile()) return [{ source: 'aider', file: location, mtimeMs: named.mtimeMs }];
  const dir = location.endsWith('.md') ? path.dirname(location) : location;
  for (const file of [location.endsWith('.md') ? location : path.join(dir, '.aider.chat.history.md'), path.join(dir, '.aider.input.history')]) {
    const m = await mtime(file);
    if (m !== undefined) return [{ source: 'aider', file, mtimeMs: m }];
  }
  return [];
}

/** The newest task folder that ran in the workspace. */
export async function findClineTasks(tasksDir: string, workspaceRoot: string, source: 'cline' | 'roo' | 'kilo'): Promise<FoundTranscript[]> {
  const tasks = (await list(tasksDir)).sort((a, b) => Number(b) - Number(a) || (a < b ? 1 : -1)).slice(0, MAX_TASKS_SCANNED);
  for (const t of tasks) {
    const dir = path.join(tasksDir, t);
    const ui = path.join(dir, 'ui_messages.json');
    const m = await mtime(ui);
    if (m !== undefined && samePath(await clineTaskCwd(dir), workspaceRoot)) {
      return [{ source, file: dir, mtimeMs: m }];
    }
  }
  return [];
}

export async function findSpecStory(historyDir: string): Promise<FoundTranscript[]> {
  let newest: FoundTranscript | undefined;
  for (const f of (await list(historyDir)).filter((x) => x.endsWith('.md'))) {
    const full = path.join(historyDir, f);
    const m = await mtime(full);
    if (m !== undefined && (!newest || m > newest.mtimeMs)) newest = { source: 'specstory', file: full, mtimeMs: m };
  }
  return newest ? [newest] : [];
}

/**
 * The newest session that holds something. `location` is a `chatSessions` folder, or VS Code's `workspaceStorage`,
 * searched for the entry whose `workspace.json` names the workspace.
 */
export async function findCopilot(location: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  let sessionsDir: string | undefined;
  if (path.basename(location) === 'chatSessions') {
    sessionsDir = location;
  } else {
    for (const h of await list(location)) {
      try {
        const fh = await openRegularForReading(path.join(location, h, 'workspace.json'));
        const ws = JSON.parse(await fh.readFile('utf8').finally(() => fh.close())) as { folder?: string };
        if (ws.folder && ws.folder.startsWith('file:') && samePath(fileURLToPath(ws.folder), workspaceRoot)) {
          sessionsDir = path.join(location, h, 'chatSessions');
          break;
        }
      } catch {
        // not a workspace folder
      }
    }
  }
  if (!sessionsDir) return [];
  const sessions: FoundTranscript[] = [];
  for (const f of (await list(sessionsDir)).filter((x) => x.endsWith('.json') || x.endsWith('.jsonl'))) {
    const full = path.join(sessionsDir, f);
    const m = await mtime(full);
    if (m !== undefined) sessions.push({ source: 'copilot', file: full, mtimeMs: m });
  }
  // VS Code writes an empty chat session at every start, which would hide the one the user worked in.
  // An unreadable one is kept, so its error is reported.
  sessions.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const found of sessions.slice(0, MAX_COPILOT_SESSIONS_SCANNED)) {
    const r = await readCopilotSession(found.file);
    if (r.error || r.events.length || r.stats.malformed) return [found];
  }
  return [];
}

/** Zed's `threads` folder under its data folder (zed-industries/zed `crates/paths`: `data_dir()`). */
export function zedThreadsDir(home = homedir()): string {
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Zed', 'threads');
  if (process.platform === 'win32') return path.join(process.env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'Zed', 'threads');
  return path.join(process.env.FLATPAK_XDG_DATA_HOME ?? process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'zed', 'threads');
}

/** Kiro CLI's data folder, holding `data.sqlite3` (aws/amazon-q-developer-cli `chat-cli/src/util/paths.rs`: `dirs::data_local_dir()/kiro-cli`). */
export function kiroCliDataDir(home = homedir()): string {
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'kiro-cli');
  if (process.platform === 'win32') return path.join(process.env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'kiro-cli');
  return path.join(process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'kiro-cli');
}

/** Kiro CLI's session store (aws/amazon-q-developer-cli `chat-cli-v2/src/util/paths.rs` `sessions_dir`). */
export function kiroSessionsDir(home = homedir()): string {
  return process.env.KIRO_TEST_SESSIONS_DIR || path.join(home, '.kiro', 'sessions', 'cli');
}
