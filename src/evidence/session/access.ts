/**
 * Whether a transcript the user named (the CLI's `--session-log PATH`) can be opened at all:
 * a name that does not exist, leads into a link loop or may not be read is bad input, said
 * before anything is read or written. What it holds is the readers' business (./detect.ts).
 */
import { constants as fsConstants } from 'node:fs';
import { open, opendir, realpath, stat } from 'node:fs/promises';
import { fsCause, fsCauseAt, type FsFailure } from '../../core/handoff/fsErrors';

/** Why a named transcript cannot be opened: the kind (for the surface's fix) and the cause in words, without the path. */
export interface TranscriptAccessProblem {
  readonly kind: FsFailure;
  /** `no such file or folder`, `permission denied`, `it is a link loop (…)`, `/x/logs is a link loop (…)` … */
  readonly problem: string;
}

/**
 * Checks that a transcript named explicitly can be opened: a file is opened for reading
 * (non-blocking, so a FIFO never blocks, and closed unread), a folder (a Cline task folder)
 * opened for listing. A FIFO or a device opens: the reader refuses it with its own note.
 * @param file absolute path; an OpenCode database session (`…/opencode.db#ses_…`) is checked as its database file
 * @returns the problem, or undefined when it opens. Never throws.
 */
export async function transcriptAccess(file: string): Promise<TranscriptAccessProblem | undefined> {
  const target = file.replace(/(opencode\.db)#ses_[\w-]+$/, '$1');
  try {
    if ((await stat(target)).isDirectory()) {
      await (await opendir(target)).close();
    } else {
      await (await open(target, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)).close();
    }
    return undefined;
  } catch (err) {
    return { kind: fsCause(err).kind, problem: await fsCauseAt(err, target, realpath) };
  }
}
