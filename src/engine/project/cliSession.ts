/**
 * The terminal's session for a workspace, as the CLI, its MCP server and the Claude Code
 * hook keep it: the session id `prompt`, `record-result` and `handover` share until a
 * handoff ends the session, and where the session-log read offsets are kept between
 * handoffs — both in `$XDG_STATE_HOME/specialist-handoff/<workspace hash>/` (default
 * `~/.local/state`), never in the repository (docs/DESIGN.md §6, "Session log").
 */
import path from 'node:path';
import { SESSION_STATE_FILE, cliSessionId, cliStateDir, rotateCliSessionId } from '../../store/sessionLogState';

/** The file holding the session-log read offsets of the CLI for a workspace (absolute). */
export function cliSessionLogStatePath(workspaceRoot: string): string {
  return path.join(cliStateDir(workspaceRoot), SESSION_STATE_FILE);
}

/**
 * The CLI's current session id for a workspace; a new one is made and saved when there is
 * none. Never throws (an id that cannot be saved is still returned).
 */
export async function currentCliSessionId(workspaceRoot: string): Promise<string> {
  return cliSessionId(cliStateDir(workspaceRoot));
}

/** Ends the CLI's current session for a workspace (after a handoff): saves and returns a new id. Never throws. */
export async function startNewCliSession(workspaceRoot: string): Promise<string> {
  return rotateCliSessionId(cliStateDir(workspaceRoot));
}
