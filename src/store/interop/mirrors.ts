// Copies for the tools we interoperate with (docs/DESIGN.md §5 "Interop"), made after our files are written and
// only when the tool's folder exists: itervox gets the handoff as `.itervox/handoff/<id>.md`, Agent Zero the
// briefing section appended in `.a0proj/handover/`. A failure is only a `WARNING:`.
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

/** `auto`: write when the tool's folder exists. */
export type InteropMode = 'auto' | 'off';

/** Absent means `auto`. */
export interface InteropSettings {
  readonly itervox?: InteropMode;
  readonly agentZero?: InteropMode;
}

/** itervox's own `.gitignore` exceptions, as `itervox init` writes them; left alone when present. */
export const ITERVOX_GITIGNORE_EXCEPTIONS: readonly string[] = Object.freeze([
  '!.itervox/',
  '!.itervox/agents/',
  '!.itervox/agents/**',
  '!.itervox/handoff/',
  '!.itervox/handoff/**',
]);

/** `.itervox/*` right after `!.itervox/`, so only `agents/` and `handoff/` become committable; a later line wins, so it is appended whole. */
export const ITERVOX_GITIGNORE_BLOCK: readonly string[] = Object.freeze([
  '!.itervox/',
  '.itervox/*',
  '!.itervox/agents/',
  '!.itervox/agents/**',
  '!.itervox/handoff/',
  '!.itervox/handoff/**',
]);

export const GITIGNORE_COMMENT = '# itervox handoffs are committable (added by Specialist Handoff)';

/** A line ignoring `.itervox/` or its handoff folder: `.itervox`, `/.itervox/`, `**\/.itervox/`, `.itervox/*`, `.itervox/handoff/` … */
const IGNORES_ITERVOX = /^(?:\*\*\/|\/)?\.itervox(?:\/handoff)?(?:\/|\/\*|\/\*\*)?$/;

export const MAX_GITIGNORE_BYTES = 1024 * 1024;
export const MAX_MIRRORED_HANDOFF_BYTES = 10 * 1024 * 1024;

export type GitignorePatch =
  { readonly status: 'not-ignored' | 'complete' } | { readonly status: 'append'; readonly addition: string; readonly added: readonly string[] };

/**
 * Nothing when no line ignores `.itervox/`, or our block or itervox's exceptions follow the last one that does;
 * else our whole block in the file's line ending. Our block's `.itervox/*` does not count, so a rerun finds it complete.
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

/** Follows links: the path guard checks where they lead when writing. */
async function isFolder(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** Undefined when absent. @throws StoreError when not a regular file or too large */
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

/** One `O_APPEND` write, so existing bytes are never rewritten; returns the lines added. @throws StoreError naming the file and the cause */
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

/** The briefing section is rendered per folder, so its link to the handoff is relative to that folder. */
export interface MirrorRequest {
  readonly workspaceRoot: string;
  readonly settings?: InteropSettings;
  readonly handoffFile: string;
  /** `<specialist with _→->-<topic>-<YYYY-MM-DD>.md`, through the file-name gate. */
  readonly briefingName: Sanitized;
  readonly briefingHeader: Sanitized;
  readonly briefingSection: (briefingDir: string) => Promise<Sanitized>;
}

/** `mirrors`: absolute paths written outside the handoff root (`.gitignore` included when patched). */
export interface MirrorResult {
  readonly mirrors: string[];
  readonly warnings: string[];
}

/** `problem`: what failed after the copy was written (the copy is there). */
interface MirrorStep {
  readonly written: string[];
  readonly problem?: string;
}

/** @throws StoreError when the copy itself was not written; a `.gitignore` failure after it is the step's `problem` */
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
    throw new StoreError(
      `${rel} already exists and was kept — the handoff is in ${path.relative(req.workspaceRoot, req.handoffFile).split(path.sep).join('/')} only`,
    );
  }
  // The copy is on disk: a .gitignore that cannot be patched must not say the copy failed.
  try {
    if ((await patchGitignoreForItervox(req.workspaceRoot)).length > 0) {
      written.push(path.join(req.workspaceRoot, '.gitignore'));
    }
  } catch (err) {
    const why = errorText((err as Error)?.message ?? String(err));
    return {
      written,
      problem: `the itervox copy ${rel} was written, but .gitignore was not given the lines that make it committable (${ITERVOX_GITIGNORE_BLOCK.join(' ')}): ${why}`,
    };
  }
  return { written };
}

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

/** Call once the handoff and its briefing are written: a failed copy is only a warning. Never throws. */
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
