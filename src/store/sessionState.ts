/**
 * Where the session-log state lives between handoffs (what was read of each transcript),
 * and its atomic load / save. The extension keeps it in its workspace storage; the CLI
 * in `$XDG_STATE_HOME/specialist-handoff/<workspace hash>/` (default `~/.local/state`).
 * Never in the repository.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { SessionLogStateSchema, emptySessionLogState, type SessionLogState } from '../core/session';

/** File name of the state inside its folder. */
export const SESSION_STATE_FILE = 'session-log-state.json';

/** The CLI's state folder for a workspace: `$XDG_STATE_HOME/specialist-handoff/<sha1 of the path, 16 hex>`. */
export function cliStateDir(workspaceRoot: string, home = homedir()): string {
  const base = process.env.XDG_STATE_HOME || path.join(home, '.local', 'state');
  const id = createHash('sha1').update(path.resolve(workspaceRoot)).digest('hex').slice(0, 16);
  return path.join(base, 'specialist-handoff', id);
}

/** Loads the state; a missing or unreadable file is an empty state (everything read again). Never throws. */
export async function loadSessionLogState(file: string): Promise<SessionLogState> {
  try {
    const parsed = SessionLogStateSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : emptySessionLogState();
  } catch {
    return emptySessionLogState();
  }
}

/**
 * Saves the state atomically (temporary file + rename in the same folder).
 * @returns undefined, or the reason it could not be saved (the next handoff then reads everything again)
 */
export async function saveSessionLogState(file: string, state: SessionLogState): Promise<string | undefined> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(tmp, JSON.stringify(SessionLogStateSchema.parse(state)));
    await rename(tmp, file);
    return undefined;
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    return `could not save the session-log state to ${file}: ${(err as Error).message}`;
  }
}
