/**
 * Where the session-log state lives between handoffs (what was read of each transcript),
 * and its atomic load / save. The extension keeps it in its workspace storage; the CLI
 * in `$XDG_STATE_HOME/specialist-handoff/<workspace hash>/` (default `~/.local/state`).
 * Never in the repository.
 *
 * What it keeps (docs/DESIGN.md §6 "Session log"): per transcript the byte offset (or the
 * newest item's time), the size, a sha1 of the first 4 KiB — and the last few turns, because
 * a handoff made when nothing new was said repeats the previous handoff's recent turns
 * (`collectSessionLog.ts`). Those turns are stored only after the gate
 * (`src/core/safety/gate.ts`): invisible characters removed, secrets redacted, and the whole
 * file passes the gate again, so a state file never holds a secret a handoff would not.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { SessionLogStateSchema, emptySessionLogState, type SessionLogState } from '../core/session/events';
import { ensureSanitized, sanitizeText, sanitizeTexts, sanitizedJson } from '../core/safety/gate';
import { stripInvisible } from '../core/safety/invisible';
import { tempPathFor, withLeftoversSwept } from './leftovers';

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
 * The state as it may be stored: each remembered turn's and user request's text with invisible characters
 * removed and secrets redacted (`sanitizeTexts`, the gate), offsets and hashes unchanged.
 */
export async function sanitizeSessionLogState(state: SessionLogState): Promise<SessionLogState> {
  const entries = Object.entries(state.files);
  const texts = entries.flatMap(([, f]) => [...f.turns, ...(f.user_requests ?? [])].map((t) => stripInvisible(t.text).text));
  const safe = await sanitizeTexts(texts);
  let i = 0;
  const files: SessionLogState['files'] = {};
  for (const [key, f] of entries) {
    const turns = f.turns.map((t) => ({ ...t, text: safe.texts[i++] }));
    const requests = f.user_requests?.map((t) => ({ ...t, text: safe.texts[i++] }));
    files[(await sanitizeText(key, 'escape', safe.secrets)).text] = { ...f, turns, ...(requests ? { user_requests: requests } : {}) };
  }
  return { ...state, files };
}

/**
 * Replaces `file` with `content` through a temporary file and a rename in the same folder
 * (named and swept like every temporary file of the store, `leftovers.ts`, so one a killed
 * process left is removed by the next save). Not flushed to disk: the state only saves
 * reading a transcript again.
 * @throws the file system error; the temporary file is removed first
 */
async function replaceState(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = await tempPathFor(file);
  await withLeftoversSwept(path.dirname(file), async () => {
    try {
      await writeFile(tmp, content, { flag: 'wx' });
      await rename(tmp, file);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
  });
}

/**
 * Saves the state atomically (temporary file + rename in the same folder), after the gate:
 * its turns sanitized ({@link sanitizeSessionLogState}) and every string of it checked once
 * more (`sanitizedJson`).
 * @returns undefined, or the reason it could not be saved (the next handoff then reads everything again)
 */
export async function saveSessionLogState(file: string, state: SessionLogState): Promise<string | undefined> {
  try {
    const safe = await sanitizeSessionLogState(SessionLogStateSchema.parse(state));
    await replaceState(file, await sanitizedJson(safe));
    return undefined;
  } catch (err) {
    return `could not save the session-log state to ${file}: ${(err as Error).message}`;
  }
}

/** File, in the CLI's state folder, holding the id of the CLI's current session for a workspace. */
export const CLI_SESSION_FILE = 'session-id';

const SESSION_ID = /^[A-Za-z0-9._:-]{1,200}$/;

/**
 * The CLI's current session id for a workspace (kept in its state folder, so `prompt`,
 * `record-result` and `handover` run from one terminal session agree on who they are);
 * a new one is made and saved when there is none. Never throws: when it cannot be saved,
 * the new id is still returned (the next run makes another).
 */
export async function cliSessionId(stateDir: string): Promise<string> {
  try {
    const id = (await readFile(path.join(stateDir, CLI_SESSION_FILE), 'utf8')).trim();
    if (SESSION_ID.test(id)) return id;
  } catch {
    // none yet
  }
  return rotateCliSessionId(stateDir);
}

/** Starts a new CLI session (a handoff ends the current one): saves and returns a new id. Never throws. */
export async function rotateCliSessionId(stateDir: string): Promise<string> {
  const id = randomUUID();
  try {
    await replaceState(path.join(stateDir, CLI_SESSION_FILE), await ensureSanitized(`${id}\n`)); // a UUID: the gate finds nothing
  } catch {
    // the next run makes another
  }
  return id;
}
