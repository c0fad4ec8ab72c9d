// File-system failures in words, so every message about a path says the same thing for the same cause, never the raw code. Pure.
import path from 'node:path';

/** For a surface to choose its fix; `not-folder`: a file stands where a folder is needed. */
export type FsFailure = 'missing' | 'link-loop' | 'dangling-link' | 'denied' | 'not-folder' | 'other';

export interface FsCause {
  readonly kind: FsFailure;
  /** Follows `<path>: ` or `cannot be read: `; no error code, no path. */
  readonly words: string;
}

export const LINK_LOOP_WORDS = 'a link loop (a symbolic link that points back to itself, directly or through other links)';

export function fsErrorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Unknown codes keep Node's message without its `CODE: ` prefix and the path (the caller names the path). */
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

/** The deepest of `target` and its ancestors that still fails with ELOOP while its parent resolves; `target` when none resolves. */
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

/** Names the link that loops when it is a folder above `target`. */
export function linkLoopProblem(target: string, link: string): string {
  return path.resolve(link) === path.resolve(target) ? `${target} is ${LINK_LOOP_WORDS}` : `${target}: ${link} is ${LINK_LOOP_WORDS}`;
}

/** Names the link when it is a link loop; follows `<target>: ` or `cannot be read: `. */
export async function fsCauseAt(err: unknown, target: string, realpath: (p: string) => Promise<unknown>): Promise<string> {
  if (fsErrorCode(err) !== 'ELOOP') return fsCause(err).words;
  const link = await loopingLink(target, realpath);
  return link === path.resolve(target) ? `it is ${LINK_LOOP_WORDS}` : `${link} is ${LINK_LOOP_WORDS}`;
}
