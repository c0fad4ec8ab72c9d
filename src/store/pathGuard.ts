/**
 * The path guard (docs/DESIGN.md §7): every path the extension writes is resolved and checked
 * to be inside the handoff root, and the handoff root inside the workspace folder.
 * Refused: `..` segments, absolute paths, drive letters, NUL bytes, names reserved on
 * Windows, and folders that are symbolic links leading out of the workspace.
 */
import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { composeError, type ErrorParts } from '../core/handoff/errors';
import { fsCause, fsErrorCode, linkLoopProblem, loopingLink } from '../core/handoff/fsErrors';

/** Default handoff root, relative to the workspace folder (setting `handoff.directory`, docs/DESIGN.md §5). */
export const DEFAULT_HANDOFF_DIRECTORY = '.handoff';

/** The setting naming the handoff root, as errors name it. */
const HANDOFF_DIRECTORY_SETTING = 'handoff.directory';

/** The fix of an invalid handoff root, in the setting's words (a surface may word its own). */
const HANDOFF_DIRECTORY_FIX = 'set "handoff.directory" to a folder inside the workspace, such as .handoff';

/**
 * Outcome of a path check: the absolute path, or a message naming the problem and the fix
 * (with its parts when the check knows them: src/core/handoff/errors.ts).
 */
export type PathCheck = { ok: true; path: string } | { ok: false; message: string; parts?: ErrorParts };

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARS = /[\u0000-\u001f<>:"|?*]/;

/**
 * Checks one file or folder name (a single path segment) for use on Windows, macOS and
 * Linux: not empty, not `.` or `..`, no separators, no `<>:"|?*` or control characters,
 * no trailing dot or space, not a reserved Windows device name, at most 255 characters.
 *
 * @returns undefined when the name is safe, else the reason.
 */
export function unsafeNameReason(name: string): string | undefined {
  if (!name || name === '.' || name === '..') {
    return 'is empty or a relative-path marker';
  }
  if (name.includes('/') || name.includes('\\')) {
    return 'contains a path separator';
  }
  if (FORBIDDEN_CHARS.test(name)) {
    return 'contains a character not allowed in file names (control characters or <>:"|?*)';
  }
  if (/[. ]$/.test(name)) {
    return 'ends with a dot or a space';
  }
  if (WINDOWS_RESERVED.test(name)) {
    return 'is a device name reserved on Windows';
  }
  if (Buffer.byteLength(name, 'utf8') > 255) {
    return 'is longer than 255 bytes';
  }
  return undefined;
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!!rel && !rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Resolves the handoff root from the workspace folder and the `handoff.directory`
 * setting (a relative folder such as `.handoff` or `docs/handoffs`).
 *
 * @returns `{ok:false}` when the setting is absolute, has a drive letter, a NUL byte,
 *   an unsafe segment, or leads outside the workspace folder; the message names the
 *   setting and an example of a valid value.
 */
export function resolveHandoffRoot(workspaceRoot: string, directory: string | undefined): PathCheck {
  const dir = (directory ?? '').trim() || DEFAULT_HANDOFF_DIRECTORY;
  const refuse = (problem: string): PathCheck => {
    const parts: ErrorParts = { path: [HANDOFF_DIRECTORY_SETTING], subject: HANDOFF_DIRECTORY_SETTING, problem, fix: HANDOFF_DIRECTORY_FIX, setting: HANDOFF_DIRECTORY_SETTING };
    return { ok: false, message: composeError(parts), parts };
  };
  if (dir.includes('\0')) {
    return refuse('contains a NUL byte');
  }
  if (/^[a-zA-Z]:/.test(dir)) {
    return refuse(`"${dir}" starts with a drive letter`);
  }
  if (path.isAbsolute(dir) || path.win32.isAbsolute(dir)) {
    return refuse(`"${dir}" is an absolute path`);
  }
  if (/^~([\\/]|$)/.test(dir)) {
    return refuse(`"${dir}" starts with "~", which is not expanded here`);
  }
  const segments = dir.split(/[\\/]+/).filter((s) => s && s !== '.');
  const root = path.resolve(workspaceRoot, ...segments);
  const ws = path.resolve(workspaceRoot);
  if (!isInside(ws, root)) {
    return refuse(`"${dir}" leads outside the workspace`);
  }
  if (root === ws) {
    return refuse(`"${dir}" names the workspace folder itself`);
  }
  for (const seg of segments) {
    const reason = seg === '..' ? undefined : unsafeNameReason(seg);
    if (reason) {
      return refuse(`"${dir}": segment "${seg}" ${reason}`);
    }
  }
  // Git's own folder: writing there corrupts the repository (e.g. .git/refs/heads).
  const rel = path.relative(ws, root).split(path.sep);
  if (rel.some((seg) => seg.toLowerCase() === '.git')) {
    return refuse(`"${dir}" is inside .git, git's own folder`);
  }
  return { ok: true, path: root };
}

/**
 * Joins plain name segments under `root` and checks the result stays inside it.
 * @param segments folder and file names, each checked with {@link unsafeNameReason}
 */
export function resolveInside(root: string, ...segments: string[]): PathCheck {
  for (const seg of segments) {
    const reason = unsafeNameReason(seg);
    if (reason) {
      return { ok: false, message: `ERROR: refusing to write "${seg.slice(0, 80)}": the name ${reason}` };
    }
  }
  const target = path.resolve(root, ...segments);
  if (!isInside(root, target)) {
    return { ok: false, message: `ERROR: refusing to write outside the handoff folder: ${target}` };
  }
  return { ok: true, path: target };
}

/**
 * Checks that `target` (which may not exist yet) really lies inside `workspaceRoot` once
 * symbolic links are followed: the deepest existing ancestor of `target` is resolved
 * with `realpath` and compared with the real workspace folder. Catches a `.handoff`
 * (or any folder under it) that is a symlink leading out of the workspace, and refuses, naming
 * the link, a link loop (ELOOP: the link that loops) and a link to a target that does not
 * exist (writing through it would fail half-way).
 * @param fix what the user should do when a link leads out or a file is in the way; the
 *   default speaks of the handoff folder (`handoff.directory`) — other folders (agent
 *   folders, itervox's and Agent Zero's) pass their own
 */
export async function checkRealPathInside(workspaceRoot: string, target: string, fix?: string): Promise<PathCheck> {
  // With the default fix the message names the setting; its parts say so, so a surface names its own (the CLI's --dir).
  const refuse = (subject: string | undefined, problem: string, defaultFix: string): PathCheck => {
    const parts: ErrorParts = { ...(subject ? { subject } : {}), problem, fix: fix ?? defaultFix, ...(fix === undefined ? { setting: HANDOFF_DIRECTORY_SETTING } : {}) };
    return { ok: false, message: composeError(parts), parts };
  };
  let realRoot: string;
  try {
    realRoot = await realpath(workspaceRoot);
  } catch (err) {
    const why = fsErrorCode(err) === 'ELOOP' ? linkLoopProblem(workspaceRoot, await loopingLink(workspaceRoot, realpath)) : `${workspaceRoot} cannot be read: ${fsCause(err).words}`;
    return { ok: false, message: `ERROR: workspace folder ${why}` };
  }
  let probe = path.resolve(target);
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await realpath(probe);
      const full = path.join(real, ...rest.reverse());
      if (!isInside(realRoot, full)) {
        return refuse(target, `resolves to ${full}, outside the workspace (a symbolic link leads out)`, `remove the link or point "${HANDOFF_DIRECTORY_SETTING}" at a real folder inside the workspace`);
      }
      // A link into the repository's own data (.git/refs, .git/hooks …) would corrupt it.
      if (path.relative(realRoot, full).split(path.sep).some((seg) => seg.toLowerCase() === '.git')) {
        return {
          ok: false,
          message: `ERROR: ${target} resolves to ${full}, inside a .git folder (a symbolic link leads there) — handoffs must never be written into git's own data; remove the link`,
        };
      }
      return { ok: true, path: target };
    } catch (err) {
      const code = fsErrorCode(err);
      if (code === 'ENOTDIR') {
        return refuse(undefined, `a file stands where a folder is needed on the way to ${target} (${probe})`, `move it away or point "${HANDOFF_DIRECTORY_SETTING}" elsewhere`);
      }
      if (code === 'ELOOP') {
        return refuse(undefined, linkLoopProblem(target, await loopingLink(probe, realpath)), `remove the link or point it at a real folder, or set "${HANDOFF_DIRECTORY_SETTING}" to another folder inside the workspace`);
      }
      if (code !== 'ENOENT') {
        return { ok: false, message: `ERROR: cannot check ${probe}: ${fsCause(err).words}` };
      }
      // A link whose target does not exist: writing through it would fail half-way (mkdir finds the link, stat finds nothing).
      const dangling = await danglingLinkTarget(probe);
      if (dangling !== undefined) {
        return refuse(undefined, `${probe} is a link to a missing target: ${dangling} does not exist`, `remove the link or create ${dangling}, or set "${HANDOFF_DIRECTORY_SETTING}" to another folder inside the workspace`);
      }
      const parent = path.dirname(probe);
      if (parent === probe) {
        return { ok: false, message: `ERROR: no existing folder above ${target}` };
      }
      rest.push(path.basename(probe));
      probe = parent;
    }
  }
}

/** The absolute target of `p` when `p` is a symbolic link (to a target that may not exist); undefined when it is not a link. */
async function danglingLinkTarget(p: string): Promise<string | undefined> {
  try {
    if (!(await lstat(p)).isSymbolicLink()) return undefined;
    return path.resolve(path.dirname(p), await readlink(p));
  } catch {
    return undefined;
  }
}
