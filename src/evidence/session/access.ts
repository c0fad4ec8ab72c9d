// Whether a transcript the user named (`--session-log PATH`) can be opened at all, said before anything is read or written.
import { constants as fsConstants } from 'node:fs';
import { open, opendir, realpath, stat } from 'node:fs/promises';
import { fsCause, fsCauseAt, type FsFailure } from '../../core/handoff/fsErrors';

/** `problem` is the cause in words, without the path; `kind` picks the surface's fix. */
export interface TranscriptAccessProblem {
  readonly kind: FsFailure;
  readonly problem: string;
}

/**
 * Opens a file non-blocking and closes it unread, or lists a folder; a FIFO or device opens (the reader refuses it).
 * An OpenCode database session (`…/opencode.db#ses_…`) is checked as its database file. Never throws.
 */
export async function transcriptAccess(file: string): Promise<TranscriptAccessProblem | undefined> {
  const target = file.replace(/(opencode\.db)#ses_[\w-]+$/, '$1').replace(/(sessions\.db)#[\w.-]+$/, '$1');
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
