/**
 * Copies of a handoff in the folders of the tools we interoperate with (docs/DESIGN.md §5
 * "Interop"), written after our own files are safe:
 *
 * - **itervox** — when `.itervox/` exists: the handoff file, byte for byte, as
 *   `.itervox/handoff/<ISO 8601 UTC, ':' → '-'>_<profile>.md` (itervox's handoff naming;
 *   the profile is our specialist id, which itervox's profile names allow). The name is our
 *   handoff's own file name (`<id>.md`), so the timeline knows the copy and lists the
 *   handoff once (`listTimelineFiles`). When the root `.gitignore` ignores `.itervox/`,
 *   the lines that make its agents and handoffs committable are appended, once, and only
 *   those two folders: everything else in `.itervox/` stays ignored ({@link ITERVOX_GITIGNORE_BLOCK}).
 * - **Agent Zero** — when `.a0proj/` exists: the handoff's briefing section appended to
 *   `.a0proj/handover/<specialist with _→->-<topic>-<YYYY-MM-DD>.md` (Agent Zero's
 *   `handover_to_specialist` briefing naming, the same name as ours), append-only and
 *   locked across processes like our own briefing (`appendBriefing`).
 *
 * Each is governed by a setting (`handoff.interop.itervox`, `handoff.interop.agentZero`):
 * `auto` (write when the folder exists; the default) or `off`. A copy never overwrites a
 * file, and a failure is a `WARNING:` — never an error of the handoff, whose files are
 * already written.
 */
import { constants as fsConstants } from 'node:fs';
import { lstat, open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { parseTimelineFileName } from '../../core/timeline/chains';
import { StoreError, createExclusive, describeFsError, ensureDir, openRegularFile } from '../safeWrite';
import { appendBriefing } from '../handoffs/handoffStore';
import { resolveInside } from '../pathGuard';
import { AGENT_ZERO_HANDOFF_DIR, ITERVOX_HANDOFF_DIR } from '../handoffs/timelineFiles';
import { errorText } from '../../core/handoff/errors';
import { ensureSanitized, sanitizeFileName, type Sanitized } from '../../core/safety/gate';

/** `auto`: write into the tool's folder when it exists (default); `off`: never. */
export type InteropMode = 'auto' | 'off';

/** The interop settings (`handoff.interop.itervox`, `handoff.interop.agentZero`); absent means `auto`. */
export interface InteropSettings {
  readonly itervox?: InteropMode;
  readonly agentZero?: InteropMode;
}

/**
 * itervox's own `.gitignore` exceptions (itervox handoff convention, "Git policy"): the
 * folder re-included, then its agent profiles and handoffs. `itervox init` writes them;
 * when they already follow the last line that ignores the folder, we leave them as they are.
 */
export const ITERVOX_GITIGNORE_EXCEPTIONS: readonly string[] = Object.freeze(['!.itervox/', '!.itervox/agents/', '!.itervox/agents/**', '!.itervox/handoff/', '!.itervox/handoff/**']);

/**
 * The block we append: itervox's exceptions with `.itervox/*` right after `!.itervox/`, so
 * only `agents/` and `handoff/` become committable — `!.itervox/` alone would un-ignore
 * everything in the folder (itervox's runtime state and logs too). The order is the rule:
 * a later line wins in `.gitignore`, so the block is always appended whole, never in part.
 */
export const ITERVOX_GITIGNORE_BLOCK: readonly string[] = Object.freeze(['!.itervox/', '.itervox/*', '!.itervox/agents/', '!.itervox/agents/**', '!.itervox/handoff/', '!.itervox/handoff/**']);

/** The comment written above the appended block, so a reader of `.gitignore` knows why it is there. */
export const GITIGNORE_COMMENT = '# itervox handoffs are committable (added by Specialist Handoff)';

/**
 * A `.gitignore` line (trailing blanks removed) that ignores `.itervox/` or its handoff
 * folder: `.itervox`, `/.itervox/`, `**\/.itervox/`, `.itervox/*`, `.itervox/**`,
 * `.itervox/handoff/` …
 */
const IGNORES_ITERVOX = /^(?:\*\*\/|\/)?\.itervox(?:\/handoff)?(?:\/|\/\*|\/\*\*)?$/;

/** Largest `.gitignore` read: 1 MiB. */
export const MAX_GITIGNORE_BYTES = 1024 * 1024;
/** Largest handoff copied to itervox: 10 MiB (a handoff is a few KiB). */
export const MAX_MIRRORED_HANDOFF_BYTES = 10 * 1024 * 1024;

/** What {@link itervoxGitignorePatch} decided: nothing to do, or the text to append and the lines it adds. */
export type GitignorePatch = { readonly status: 'not-ignored' | 'complete' } | { readonly status: 'append'; readonly addition: string; readonly added: readonly string[] };

/**
 * Decides what to append to a root `.gitignore` so itervox's handoff folder is committable.
 * Nothing when no line ignores `.itervox/` (`not-ignored`), or when, after the last line
 * that ignores it, our block ({@link ITERVOX_GITIGNORE_BLOCK}) or itervox's own exceptions
 * ({@link ITERVOX_GITIGNORE_EXCEPTIONS}) are all there (`complete`). Otherwise the whole
 * block, under {@link GITIGNORE_COMMENT}, with the file's line ending (CRLF kept), preceded
 * by a line break when the file does not end with one. Other lines are never touched. The
 * `.itervox/*` line of a block of ours is not taken for a line that ignores the folder, so
 * a second run finds the block complete.
 *
 * @param text the whole `.gitignore`
 */
export function itervoxGitignorePatch(text: string): GitignorePatch {
  const lines = text.split(/\r?\n/).map((l) => l.replace(/[ \t]+$/, ''));
  const blockStarts: number[] = [];
  const inBlock = new Set<number>();
  for (let i = 0; i + ITERVOX_GITIGNORE_BLOCK.length <= lines.length; i++) {
    if (ITERVOX_GITIGNORE_BLOCK.every((b, k) => lines[i + k].trim() === b)) {
      blockStarts.push(i);
      ITERVOX_GITIGNORE_BLOCK.forEach((_, k) => inBlock.add(i + k));
    }
  }
  let last = -1;
  lines.forEach((line, i) => {
    if (!inBlock.has(i) && IGNORES_ITERVOX.test(line)) last = i;
  });
  if (last < 0) return { status: 'not-ignored' };
  const after = new Set(lines.slice(last + 1).map((l) => l.trim()));
  if (blockStarts.some((b) => b > last) || ITERVOX_GITIGNORE_EXCEPTIONS.every((e) => after.has(e))) return { status: 'complete' };
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lead = text.length > 0 && !text.endsWith('\n') ? eol : '';
  const added = [...ITERVOX_GITIGNORE_BLOCK];
  return { status: 'append', addition: `${lead}${[GITIGNORE_COMMENT, ...added].join(eol)}${eol}`, added };
}

/** Whether `p` is a folder (following links: the path guard checks where they lead when writing). */
async function isFolder(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** Reads a regular file of at most `max` bytes; undefined when absent. @throws StoreError when it is not a regular file or too large */
async function readSmall(file: string, max: number, rel: string): Promise<string | undefined> {
  try {
    const st = await lstat(file);
    if (!st.isFile()) throw new StoreError(`${rel} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'} — left as it is`);
    if (st.size > max) throw new StoreError(`${rel} is larger than ${max / 1024 / 1024} MiB — left as it is`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const fh = await openRegularFile(file);
  if (!fh) throw new StoreError(`${rel} cannot be opened as a regular file — left as it is`);
  try {
    return await fh.readFile('utf8');
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/**
 * Appends the missing itervox exceptions to `<workspace>/.gitignore` ({@link itervoxGitignorePatch})
 * with one `O_APPEND` write: existing bytes are never rewritten. No `.gitignore`, or one that
 * does not ignore `.itervox/`, is left alone.
 *
 * @returns the exceptions added (empty when nothing changed)
 * @throws StoreError naming the file and the cause (a link, too large, unwritable)
 */
export async function patchGitignoreForItervox(workspaceRoot: string): Promise<readonly string[]> {
  const file = path.join(workspaceRoot, '.gitignore');
  const text = await readSmall(file, MAX_GITIGNORE_BYTES, '.gitignore');
  if (text === undefined) return [];
  const patch = itervoxGitignorePatch(text);
  if (patch.status !== 'append') return [];
  let fh: FileHandle | undefined;
  try {
    fh = await open(file, fsConstants.O_WRONLY | fsConstants.O_APPEND | (fsConstants.O_NOFOLLOW ?? 0) | fsConstants.O_NONBLOCK);
    await fh.write(patch.addition, null, 'utf8');
    await fh.sync();
  } catch (err) {
    throw new StoreError(describeFsError(err, file));
  } finally {
    await fh?.close().catch(() => undefined);
  }
  return patch.added;
}

/**
 * A written handoff, as the copies need it: the complete handoff file, the briefing's
 * file name, header and section (rendered for a briefing in a given folder, so its link
 * to the handoff is relative to that folder).
 */
export interface MirrorRequest {
  /** Absolute workspace folder. */
  readonly workspaceRoot: string;
  /** The interop settings; absent: both `auto`. */
  readonly settings?: InteropSettings;
  /** Absolute path of the complete handoff file `<handoff root>/handoffs/<id>.md`. */
  readonly handoffFile: string;
  /** The briefing file name, `<specialist with _→->-<topic>-<YYYY-MM-DD>.md`, through the file-name gate. */
  readonly briefingName: Sanitized;
  /** The briefing's header, written when the file is created (through the gate, `src/core/safety/gate.ts`). */
  readonly briefingHeader: Sanitized;
  /** The handoff's briefing section for a briefing in the absolute folder `briefingDir`, through the gate. */
  readonly briefingSection: (briefingDir: string) => Promise<Sanitized>;
}

/**
 * What the copies did: `mirrors` — absolute paths of the files outside the handoff root
 * written or appended to (the itervox copy, the Agent Zero briefing, `.gitignore` when
 * exceptions were appended); `warnings` — one `WARNING:` per copy that failed.
 */
export interface MirrorResult {
  readonly mirrors: string[];
  readonly warnings: string[];
}

/** What one copy did: the paths written, and a problem that came after them (the copy is there; `.gitignore` is not patched). */
interface MirrorStep {
  readonly written: string[];
  readonly problem?: string;
}

/**
 * Copies the handoff file to `.itervox/handoff/<id>.md`, then patches `.gitignore`.
 * @returns the paths written (none when `.itervox/` does not exist), and why `.gitignore`
 *   was not patched when that failed after the copy was written
 * @throws StoreError when the copy itself was not written
 */
async function mirrorItervox(req: MirrorRequest): Promise<MirrorStep> {
  if (!(await isFolder(path.join(req.workspaceRoot, '.itervox')))) return { written: [] };
  const name = path.basename(req.handoffFile);
  if (!parseTimelineFileName('itervox', name, name, [])) {
    throw new StoreError(`${name} is not an itervox handoff name (<timestamp>_<profile>.md)`);
  }
  const dir = path.join(req.workspaceRoot, ITERVOX_HANDOFF_DIR);
  const target = resolveInside(dir, name);
  if (!target.ok) throw new StoreError(target.message);
  const rel = path.relative(req.workspaceRoot, target.path).split(path.sep).join('/');
  const read = await readSmall(req.handoffFile, MAX_MIRRORED_HANDOFF_BYTES, path.basename(req.handoffFile));
  if (read === undefined) throw new StoreError(`${req.handoffFile} is gone`);
  // Byte for byte what we wrote, which passed the gate; read back, it passes it again.
  const content = await ensureSanitized(read);
  await ensureDir(req.workspaceRoot, dir, 'make .itervox/handoff a real folder inside the workspace (remove the link or the file in the way)');
  const written: string[] = [];
  if (await createExclusive(target.path, content)) {
    written.push(target.path);
  } else if ((await readSmall(target.path, MAX_MIRRORED_HANDOFF_BYTES, rel).catch(() => undefined)) !== content) {
    throw new StoreError(`${rel} already exists and was kept — the handoff is in ${path.relative(req.workspaceRoot, req.handoffFile).split(path.sep).join('/')} only`);
  }
  // The copy is on disk now: a .gitignore that cannot be patched (a link, a FIFO, too
  // large, read-only) must not make the result say the copy was not written.
  try {
    if ((await patchGitignoreForItervox(req.workspaceRoot)).length > 0) {
      written.push(path.join(req.workspaceRoot, '.gitignore'));
    }
  } catch (err) {
    const why = errorText((err as Error)?.message ?? String(err));
    return { written, problem: `the itervox copy ${rel} was written, but .gitignore was not given the lines that make it committable (${ITERVOX_GITIGNORE_BLOCK.join(' ')}): ${why}` };
  }
  return { written };
}

/** Appends the briefing section to `.a0proj/handover/<briefing name>`. @returns its path, or none when `.a0proj/` does not exist */
async function mirrorAgentZero(req: MirrorRequest): Promise<MirrorStep> {
  if (!(await isFolder(path.join(req.workspaceRoot, '.a0proj')))) return { written: [] };
  const dir = path.join(req.workspaceRoot, AGENT_ZERO_HANDOFF_DIR);
  const target = resolveInside(dir, await sanitizeFileName(req.briefingName));
  if (!target.ok) throw new StoreError(target.message);
  // Checked here first so a link or a file in the way is named with this folder's fix.
  await ensureDir(req.workspaceRoot, dir, 'make .a0proj/handover a real folder inside the workspace (remove the link or the file in the way)');
  await appendBriefing(req.workspaceRoot, target.path, req.briefingHeader, await req.briefingSection(dir));
  return { written: [target.path] };
}

/**
 * Writes the copies the settings allow (itervox, then Agent Zero), each only when its
 * tool's folder exists in the workspace. Call it once the handoff and its briefing are
 * written: a copy that fails is a warning, and our own files stay as they are.
 *
 * @returns the files written and the warnings; never throws
 */
export async function writeInteropMirrors(req: MirrorRequest): Promise<MirrorResult> {
  const mirrors: string[] = [];
  const warnings: string[] = [];
  const steps: Array<[InteropMode | undefined, string, string, (r: MirrorRequest) => Promise<MirrorStep>]> = [
    [req.settings?.itervox, 'its itervox copy (.itervox/handoff/)', 'handoff.interop.itervox', mirrorItervox],
    [req.settings?.agentZero, 'its Agent Zero briefing (.a0proj/handover/)', 'handoff.interop.agentZero', mirrorAgentZero],
  ];
  for (const [mode, what, setting, run] of steps) {
    if (mode === 'off') continue;
    try {
      const step = await run(req);
      mirrors.push(...step.written);
      if (step.problem) warnings.push(`WARNING: the handoff was written, and ${step.problem} (to stop these copies, set "${setting}" to "off")`);
    } catch (err) {
      const message = errorText((err as Error)?.message ?? String(err));
      warnings.push(`WARNING: the handoff was written, but not ${what}: ${message} (to stop these copies, set "${setting}" to "off")`);
    }
  }
  return { mirrors, warnings };
}
