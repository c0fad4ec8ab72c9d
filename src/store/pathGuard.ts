// Every path the extension writes must stay inside the handoff root, and the root inside the workspace (docs/DESIGN.md §7).
import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { composeError, type ErrorParts } from '../core/handoff/errors';
import { fsCause, fsErrorCode, linkLoopProblem, loopingLink } from '../core/handoff/fsErrors';

/** Relative to the workspace folder; setting `handoff.directory`. */
export const DEFAULT_HANDOFF_DIRECTORY = '.handoff';

const HANDOFF_DIRECTORY_SETTING = 'handoff.directory';

/** In the setting's words; a surface may word its own. */
const HANDOFF_DIRECTORY_FIX = 'set "handoff.directory" to a folder inside the workspace, such as .handoff';

export type PathCheck = { ok: true; path: string } | { ok: false; message: string; parts?: ErrorParts };

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARS = /[\u0000-\u001f<>:"|?*]/;

/** Safe on Windows, macOS and Linux; returns the reason when not. */
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

/** The message names the setting when the directory is absolute, unsafe or outside the workspace. */
export function resolveHandoffRoot(workspaceRoot: string, directory: string | undefined): PathCheck {
  const dir = (directory ?? '').trim() || DEFAULT_HANDOFF_DIRECTORY;
  const refuse = (problem: string): PathCheck => {
    const parts: ErrorParts = {
      path: [HANDOFF_DIRECTORY_SETTING],
      subject: HANDOFF_DIRECTORY_SETTING,
      problem,
      fix: HANDOFF_DIRECTORY_FIX,
      setting: HANDOFF_DIRECTORY_SETTING,
    };
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
  // Writing into git's own folder corrupts the repository.
  const rel = path.relative(ws, root).split(path.sep);
  if (rel.some((seg) => seg.toLowerCase() === '.git')) {
    return refuse(`"${dir}" is inside .git, git's own folder`);
  }
  return { ok: true, path: root };
}

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
 * Follows symbolic links via `realpath` of the deepest existing ancestor; also refuses link loops,
 * dangling links and links into `.git`.
 * @param fix the fix to name; the default speaks of `handoff.directory`
 */
export async function checkRealPathInside(workspaceRoot: string, target: string, fix?: string): Promise<PathCheck> {
  // With the default fix the parts name the setting, so a surface can name its own (the CLI's --dir).
  const refuse = (subject: string | undefined, problem: string, defaultFix: string): PathCheck => {
    const parts: ErrorParts = {
      ...(subject ? { subject } : {}),
      problem,
      fix: fix ?? defaultFix,
      ...(fix === undefined ? { setting: HANDOFF_DIRECTORY_SETTING } : {}),
    };
    return { ok: false, message: composeError(parts), parts };
  };
  let realRoot: string;
  try {
    realRoot = await realpath(workspaceRoot);
  } catch (err) {
    const why =
      fsErrorCode(err) === 'ELOOP'
        ? linkLoopProblem(workspaceRoot, await loopingLink(workspaceRoot, realpath))
        : `${workspaceRoot} cannot be read: ${fsCause(err).words}`;
    return { ok: false, message: `ERROR: workspace folder ${why}` };
  }
  let probe = path.resolve(target);
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await realpath(probe);
      const full = path.join(real, ...rest.reverse());
      if (!isInside(realRoot, full)) {
        return refuse(
          target,
          `resolves to ${full}, outside the workspace (a symbolic link leads out)`,
          `remove the link or point "${HANDOFF_DIRECTORY_SETTING}" at a real folder inside the workspace`,
        );
      }
      // A link into .git (refs, hooks …) would corrupt the repository.
      if (
        path
          .relative(realRoot, full)
          .split(path.sep)
          .some((seg) => seg.toLowerCase() === '.git')
      ) {
        return {
          ok: false,
          message: `ERROR: ${target} resolves to ${full}, inside a .git folder (a symbolic link leads there) — handoffs must never be written into git's own data; remove the link`,
        };
      }
      return { ok: true, path: target };
    } catch (err) {
      const code = fsErrorCode(err);
      if (code === 'ENOTDIR') {
        return refuse(
          undefined,
          `a file stands where a folder is needed on the way to ${target} (${probe})`,
          `move it away or point "${HANDOFF_DIRECTORY_SETTING}" elsewhere`,
        );
      }
      if (code === 'ELOOP') {
        return refuse(
          undefined,
          linkLoopProblem(target, await loopingLink(probe, realpath)),
          `remove the link or point it at a real folder, or set "${HANDOFF_DIRECTORY_SETTING}" to another folder inside the workspace`,
        );
      }
      if (code !== 'ENOENT') {
        return { ok: false, message: `ERROR: cannot check ${probe}: ${fsCause(err).words}` };
      }
      // A dangling link: mkdir finds the link, stat finds nothing.
      const dangling = await danglingLinkTarget(probe);
      if (dangling !== undefined) {
        return refuse(
          undefined,
          `${probe} is a link to a missing target: ${dangling} does not exist`,
          `remove the link or create ${dangling}, or set "${HANDOFF_DIRECTORY_SETTING}" to another folder inside the workspace`,
        );
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

/** Undefined when `p` is not a symbolic link. */
async function danglingLinkTarget(p: string): Promise<string | undefined> {
  try {
    if (!(await lstat(p)).isSymbolicLink()) return undefined;
    return path.resolve(path.dirname(p), await readlink(p));
  } catch {
    return undefined;
  }
}
