/**
 * File-system failures in words: what Node's error codes (`ENOENT`, `ELOOP`, `EACCES` …)
 * mean to the person who named the path. One place, so every message that names a path
 * that could not be read, listed or written says the same thing for the same cause — never
 * the raw code. Pure: the I/O is the caller's (a link loop's walk takes the caller's
 * `realpath`).
 */
import path from 'node:path';

/**
 * The kind of a file-system failure, for a surface to choose its fix: `missing` (no such
 * file or folder), `link-loop` (a symbolic link that leads back to itself), `dangling-link`
 * (a link to a target that does not exist), `denied` (permission denied), `not-folder` (a
 * file stands where a folder is needed), `other`.
 */
export type FsFailure = 'missing' | 'link-loop' | 'dangling-link' | 'denied' | 'not-folder' | 'other';

/** A file-system failure in words: its kind and the cause as a phrase (`permission denied`). */
export interface FsCause {
  readonly kind: FsFailure;
  /** The cause, to follow `<path>: ` or `cannot be read: ` — no error code, no path. */
  readonly words: string;
}

/** What a link loop is, said once for every message that meets one. */
export const LINK_LOOP_WORDS = 'a link loop (a symbolic link that points back to itself, directly or through other links)';

/** The error code of a Node file-system error, or undefined. */
export function fsErrorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The cause of a file-system error in words. Unknown codes keep Node's message without
 * its `CODE: ` prefix and without the path Node appends (the caller names the path).
 */
export function fsCause(err: unknown): FsCause {
  switch (fsErrorCode(err)) {
    case 'ENOENT':
      return { kind: 'missing', words: 'no such file or folder' };
    case 'ELOOP':
      return { kind: 'link-loop', words: LINK_LOOP_WORDS };
    case 'EACCES':
    case 'EPERM':
      return { kind: 'denied', words: 'permission denied' };
    case 'ENOTDIR':
      return { kind: 'not-folder', words: 'a file stands where a folder is needed on the way' };
    case 'EISDIR':
      return { kind: 'other', words: 'it is a folder, not a file' };
    case 'ENAMETOOLONG':
      return { kind: 'other', words: 'the path is too long' };
    case 'EMFILE':
    case 'ENFILE':
      return { kind: 'other', words: 'too many files are open in this process or system' };
    case 'EIO':
      return { kind: 'other', words: 'an input/output error of the disk' };
    default: {
      const message = (err as { message?: unknown } | null | undefined)?.message;
      const text = typeof message === 'string' ? message : String(err);
      // "EXDEV: cross-device link not permitted, link 'a' -> 'b'" → "cross-device link not permitted"
      return { kind: 'other', words: text.replace(/^[A-Z0-9_]+: /, '').replace(/, [a-z]+ '.*$/s, '') };
    }
  }
}

/**
 * The link whose resolution loops, on the way to `target` (itself or a folder above it):
 * the deepest path of `target`'s ancestors, `target` included, that still fails with ELOOP
 * while its parent resolves. `realpath` is the caller's (`fs.promises.realpath`).
 * @param target an absolute path whose resolution failed with ELOOP
 * @returns that link; `target` itself when no ancestor resolves
 */
export async function loopingLink(target: string, realpath: (p: string) => Promise<unknown>): Promise<string> {
  let loop = path.resolve(target);
  for (;;) {
    const parent = path.dirname(loop);
    if (parent === loop) return loop;
    try {
      await realpath(parent);
      return loop;
    } catch (err) {
      if (fsErrorCode(err) !== 'ELOOP') return loop;
      loop = parent;
    }
  }
}

/**
 * `<path> is a link loop (…)`, or `<path>: <link> is a link loop (…)` when the loop is a
 * folder above it: the sentence naming the link that loops.
 */
export function linkLoopProblem(target: string, link: string): string {
  return path.resolve(link) === path.resolve(target) ? `${target} is ${LINK_LOOP_WORDS}` : `${target}: ${link} is ${LINK_LOOP_WORDS}`;
}

/**
 * {@link fsCause}'s words for an operation on `target` that failed, with the link named when
 * it is a link loop (`<link> is a link loop (…)`, `it is a link loop (…)` when `target` is
 * the link itself): to follow `<target>: ` or `cannot be read: `.
 * @param realpath the caller's `fs.promises.realpath`, to find the link that loops
 */
export async function fsCauseAt(err: unknown, target: string, realpath: (p: string) => Promise<unknown>): Promise<string> {
  if (fsErrorCode(err) !== 'ELOOP') return fsCause(err).words;
  const link = await loopingLink(target, realpath);
  return link === path.resolve(target) ? `it is ${LINK_LOOP_WORDS}` : `${link} is ${LINK_LOOP_WORDS}`;
}
