/**
 * What the extension's recorded session needs of the engine: the recorder file's line
 * format (`recorderLine`, `RecorderRecord`: one JSON record per line, docs/DESIGN.md §6
 * "Session log"), HEAD of the workspace (`readHeadCommit`, the session's base commit),
 * where the session-log read offsets are kept, and which saved files the recorder leaves
 * out. The VS Code side (src/vscode/session/) owns the recording itself; the formats and
 * the git call stay behind this door (docs/ARCHITECTURE.md, "The front door").
 */
import path from 'node:path';
import { SESSION_STATE_FILE } from '../../store/sessionLogState';
import { handoffRootOf, type ProjectOptions } from './project';

export { readHeadCommit } from '../../evidence/git/repository';
export { recorderLine, type RecorderRecord } from '../../evidence/session/recorderLog';
export type { SessionLogEvidence } from '../../evidence/session/collectSessionLog';

/**
 * The file that keeps the session-log read offsets between handoffs, in `storageDir`
 * (the extension's workspace storage): `<storageDir>/session-log-state.json`.
 */
export function sessionStatePath(storageDir: string): string {
  return path.join(storageDir, SESSION_STATE_FILE);
}

/**
 * Which saved files the session recorder leaves out: files in the handoff root (the
 * handoffs it writes itself) and in any `.git` folder.
 * @returns a test on absolute file paths; when the `handoff.directory` setting is invalid
 *   only `.git` folders are left out
 */
export function recorderIgnores(options: ProjectOptions): (fsPath: string) => boolean {
  const root = handoffRootOf(options);
  return (fsPath) => (root.ok && fsPath.startsWith(root.path + path.sep)) || fsPath.includes(`${path.sep}.git${path.sep}`);
}
