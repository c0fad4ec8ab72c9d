/** What the extension's session recorder needs of the engine, so the formats and the git call stay behind this door. */
import path from 'node:path';
import { SESSION_STATE_FILE } from '../../store/sessionLogState';
import { handoffRootOf, type ProjectOptions } from './project';

export { readHeadCommit } from '../../evidence/git/repository';
export { recorderLine, type RecorderRecord } from '../../evidence/session/recorderLog';
export type { SessionLogEvidence } from '../../evidence/session/collectSessionLog';

export function sessionStatePath(storageDir: string): string {
  return path.join(storageDir, SESSION_STATE_FILE);
}

/** Leaves out files in the handoff root and any `.git` folder; only `.git` when `handoff.directory` is invalid. */
export function recorderIgnores(options: ProjectOptions): (fsPath: string) => boolean {
  const root = handoffRootOf(options);
  return (fsPath) => (root.ok && fsPath.startsWith(root.path + path.sep)) || fsPath.includes(`${path.sep}.git${path.sep}`);
}
