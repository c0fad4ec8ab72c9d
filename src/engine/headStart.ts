/**
 * The engine's part of the CLI's head start (src/cli/bin.ts, issue 19): work a command will
 * need, started before the CLI loads the rest of its modules. Imports only the git layer, so
 * that starting it costs no module evaluation beyond git's own.
 */
import { prefetchRepository } from '../evidence/git/repository';

/**
 * Starts finding the workspace of the folder `dir` now: the `git rev-parse` that
 * `workspaceFolderOf` (./project.ts) asks, whose answer the next `workspaceFolderOf` of the same
 * folder takes (src/evidence/git/repository.ts `prefetchRepository`). A folder that does not
 * exist starts nothing; never throws.
 * @param dir a folder, absolute or relative to the process's working folder
 */
export function startFindingWorkspace(dir: string): void {
  prefetchRepository(dir);
}
