// The session-log state between handoffs (docs/DESIGN.md §6), outside the repository: the extension's workspace
// storage, or the CLI's XDG state folder. It keeps the last few turns too, so it is stored only after the gate.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { workspaceStateId } from '../core/agents/windsurfHook';
import { SessionLogStateSchema, emptySessionLogState, type SessionLogState } from '../core/session/events';
import { ensureSanitized, sanitizeText, sanitizeTexts, sanitizedJson } from '../core/safety/gate';
import { stripInvisible } from '../core/safety/invisible';
import { tempPathFor, withLeftoversSwept } from './leftovers';

export const SESSION_STATE_FILE = 'session-log-state.json';

/** `$XDG_STATE_HOME/specialist-handoff`, default `~/.local/state/specialist-handoff`. */
export function cliStateBase(home = homedir()): string {
  return path.join(process.env.XDG_STATE_HOME || path.join(home, '.local', 'state'), 'specialist-handoff');
}

/** `$XDG_STATE_HOME/specialist-handoff/<sha1 of the path, 16 hex>`, default `~/.local/state`. */
export function cliStateDir(workspaceRoot: string, home = homedir()): string {
  return path.join(cliStateBase(home), workspaceStateId(workspaceRoot));
}

/** A missing or unreadable file is an empty state (everything read again). Never throws. */
export async function loadSessionLogState(file: string): Promise<SessionLogState> {
  try {
    const parsed = SessionLogStateSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : emptySessionLogState();
  } catch {
    return emptySessionLogState();
  }
}

/** Invisible characters removed and secrets redacted from remembered texts; offsets and hashes unchanged. */
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

/** Named and swept like every temporary file of the store. Not flushed: losing it only means reading a transcript again. */
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

/** After the gate, every string checked once more. Returns why it could not be saved (the next handoff then rereads all). */
export async function saveSessionLogState(file: string, state: SessionLogState): Promise<string | undefined> {
  try {
    const safe = await sanitizeSessionLogState(SessionLogStateSchema.parse(state));
    await replaceState(file, await sanitizedJson(safe));
    return undefined;
  } catch (err) {
    return `could not save the session-log state to ${file}: ${(err as Error).message}`;
  }
}

/** Holds the CLI's current session id, so `prompt`, `record-result` and `handover` from one terminal agree. */
export const CLI_SESSION_FILE = 'session-id';

const SESSION_ID = /^[A-Za-z0-9._:-]{1,200}$/;

/** Makes and saves a new id when there is none. Never throws: an id that cannot be saved is still returned. */
export async function cliSessionId(stateDir: string): Promise<string> {
  try {
    const id = (await readFile(path.join(stateDir, CLI_SESSION_FILE), 'utf8')).trim();
    if (SESSION_ID.test(id)) return id;
  } catch {
    // none yet
  }
  return rotateCliSessionId(stateDir);
}

/** A handoff ends the current CLI session. Never throws. */
export async function rotateCliSessionId(stateDir: string): Promise<string> {
  const id = randomUUID();
  try {
    await replaceState(path.join(stateDir, CLI_SESSION_FILE), await ensureSanitized(`${id}\n`)); // a UUID: the gate finds nothing
  } catch {
    // the next run makes another
  }
  return id;
}
