/** The CLI's session id and session-log offsets, kept in `$XDG_STATE_HOME/specialist-handoff/<workspace hash>/`, never in the repository. */
import path from 'node:path';
import { SESSION_STATE_FILE, cliSessionId, cliStateDir, rotateCliSessionId } from '../../store/sessionLogState';

export function cliSessionLogStatePath(workspaceRoot: string): string {
  return path.join(cliStateDir(workspaceRoot), SESSION_STATE_FILE);
}

/** Makes and saves a new id when there is none. Never throws. */
export async function currentCliSessionId(workspaceRoot: string): Promise<string> {
  return cliSessionId(cliStateDir(workspaceRoot));
}

/** Ends the CLI's current session for a workspace (after a handoff): saves and returns a new id. Never throws. */
export async function startNewCliSession(workspaceRoot: string): Promise<string> {
  return rotateCliSessionId(cliStateDir(workspaceRoot));
}
