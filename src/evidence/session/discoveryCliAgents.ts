// Which GitHub Copilot CLI, Qwen Code, Factory Droid, Amp and Goose sessions belong to the open workspace (docs/DESIGN.md §6);
// the layouts under the user's home are on each finder.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FoundTranscript } from './discovery';
import { openRegularForReading, parseJsonLine, readFirstLine } from './lines';
import { copilotCliCwd } from './readers/copilotCli';
import { droidSessionCwd } from './readers/droid';
import { ampThreadFolders } from './readers/amp';
import { gooseSessionCwd } from './readers/goose';
import { readJsonValueAt } from './jsonStream';
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

/** `threads/T-<uuid>.json`: the newest thread whose environment names the folder (`env.initial.trees[].uri`). */
export async function findAmp(threadsDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const files = (await list(threadsDir)).filter((e) => !e.dir && /^T-.+\.json$/.test(e.name)).map((e) => path.join(threadsDir, e.name));
  for (const { file, m } of await newestFirst(files)) {
    const env = await readJsonValueAt(file, ['env']).catch(() => undefined);
    if (ampThreadFolders(env).some((f) => samePath(f, workspaceRoot))) return [{ source: 'amp', file, mtimeMs: m }];
  }
  return [];
}

/** `sessions/<id>.jsonl` (Goose before its `sessions.db`): the newest whose metadata line names the folder (`working_dir`). */
export async function findGoose(sessionsDir: string, workspaceRoot: string): Promise<FoundTranscript[]> {
  const files = (await list(sessionsDir)).filter((e) => !e.dir && e.name.endsWith('.jsonl')).map((e) => path.join(sessionsDir, e.name));
  for (const { file, m } of await newestFirst(files)) {
    if (samePath(gooseSessionCwd(await firstRecord(file)), workspaceRoot)) return [{ source: 'goose', file, mtimeMs: m }];
  }
  return [];
}
