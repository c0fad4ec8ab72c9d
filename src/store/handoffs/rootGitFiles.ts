/**
 * The two git files of the handoff root (docs/DESIGN.md §5 "Git"): `.gitattributes`, so the
 * files that are only ever added to merge with git's built-in union driver (no merge driver
 * to install), and `.gitignore`, so what a write leaves for a moment (lock folders,
 * temporary files) is never committed. Written when a handoff, result or status event is
 * written; only missing lines are added, after what is there, so a user's own lines stay
 * as they are. Their patterns are relative to the handoff root, so a renamed root
 * (`handoff.directory`) keeps them right.
 */
import path from 'node:path';
import { ensureSanitized } from '../../core/safety/gate';
import { withFileLock } from '../fileLock';
import { withLeftoversSwept } from '../leftovers';
import { createExclusive, openRegularFile, replaceFileAtomic } from '../safeWrite';

/**
 * `.gitattributes` of the handoff root: union merge for the briefings — the section files of
 * a briefing folder (`briefings/<name>/<id>.md`, added once, so union only matters if two
 * branches ever wrote the same one) and the single-file briefings of the older layout
 * (`briefings/<name>.md`, appended to by older versions; union keeps both sides' lines,
 * though it can interleave sections that share lines, which is why new sections are files
 * of their own). Status events (`status/<id>/*.json`) need nothing: each is a new file.
 */
export const ROOT_GITATTRIBUTES = [
  '# Specialist Handoff: files only ever added to merge without a conflict (git\'s built-in union driver)',
  'briefings/*.md merge=union',
  'briefings/*/*.md merge=union',
];

/** `.gitignore` of the handoff root: what a write leaves for milliseconds (`fileLock.ts` lock folders, the temporary files named by `leftovers.ts`). */
export const ROOT_GITIGNORE = ['# Specialist Handoff: what stays local (locks and temporary files of a write in progress)', '.*.lock/', '.*.tmp'];

/** Largest `.gitattributes` / `.gitignore` read to add lines: 1 MiB (a bigger one is left alone). */
export const MAX_GIT_FILE_BYTES = 1024 * 1024;

/**
 * Adds the lines of `wanted` missing from `file` (created when absent), under the file's
 * lock. Lines already there (compared trimmed) are not repeated; a comment line is added
 * only together with a rule that is missing.
 * @returns a problem (`ERROR: …` text) when the file is not a regular file, too big or cannot be written; undefined when done
 */
export async function addMissingLines(file: string, wanted: readonly string[]): Promise<string | undefined> {
  // The common case, every line there already: read without the lock, write nothing.
  if (await hasAllLines(file, wanted)) return undefined;
  return addMissingLinesLocked(file, wanted);
}

async function addMissingLinesLocked(file: string, wanted: readonly string[]): Promise<string | undefined> {
  try {
    return await withFileLock(file, async (assertHeld) => {
      const fh = await openRegularFile(file);
      let text: string | undefined;
      if (fh) {
        try {
          if ((await fh.stat()).size > MAX_GIT_FILE_BYTES) return `ERROR: ${file} is over 1 MiB; its lines were not checked`;
          text = await fh.readFile('utf8');
        } finally {
          await fh.close().catch(() => undefined);
        }
      }
      const have = new Set((text ?? '').split(/\r?\n/).map((l) => l.trim()));
      const rules = wanted.filter((l) => !l.startsWith('#') && !have.has(l));
      if (rules.length === 0) return undefined;
      const comment = wanted.filter((l) => l.startsWith('#') && !have.has(l));
      const lines = [...comment, ...rules].join('\n');
      assertHeld();
      if (text === undefined) {
        if (await createExclusive(file, await ensureSanitized(`${lines}\n`))) return undefined;
        return `ERROR: ${file} is not a regular file (a link or a special file); its lines were not added`;
      }
      const sep = text === '' || text.endsWith('\n') ? '' : '\n';
      await replaceFileAtomic(file, await ensureSanitized(`${text}${sep}${text === '' ? '' : '\n'}${lines}\n`));
      return undefined;
    });
  } catch (err) {
    return (err as Error).message;
  }
}

/** Whether the regular file `file` (at most {@link MAX_GIT_FILE_BYTES}) has every rule line of `wanted`. Never throws. */
async function hasAllLines(file: string, wanted: readonly string[]): Promise<boolean> {
  const fh = await openRegularFile(file).catch(() => undefined);
  if (!fh) return false;
  try {
    if ((await fh.stat()).size > MAX_GIT_FILE_BYTES) return false;
    const have = new Set((await fh.readFile('utf8')).split(/\r?\n/).map((l) => l.trim()));
    return wanted.every((l) => l.startsWith('#') || have.has(l));
  } catch {
    return false;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/**
 * Makes sure the handoff root `handoffRoot` has its `.gitignore` and `.gitattributes` lines
 * ({@link ROOT_GITIGNORE}, {@link ROOT_GITATTRIBUTES}), and sweeps the root of what
 * interrupted writers left meanwhile (`withLeftoversSwept`, `leftovers.ts`). `.gitignore` is written first:
 * it hides the temporary file and lock of every later write, `.gitattributes`' among them.
 * Never throws.
 * @returns one problem text per file that could not be written (none when all is well)
 */
export async function ensureRootGitFiles(handoffRoot: string): Promise<string[]> {
  const ignore = path.join(handoffRoot, '.gitignore');
  const attributes = path.join(handoffRoot, '.gitattributes');
  return withLeftoversSwept(handoffRoot, async () => {
    // Both read side by side (the common case: nothing to write).
    const [hasIgnore, hasAttributes] = await Promise.all([hasAllLines(ignore, ROOT_GITIGNORE), hasAllLines(attributes, ROOT_GITATTRIBUTES)]);
    const problems = [hasIgnore ? undefined : await addMissingLinesLocked(ignore, ROOT_GITIGNORE)];
    problems.push(hasAttributes ? undefined : await addMissingLinesLocked(attributes, ROOT_GITATTRIBUTES));
    return problems.filter((p): p is string => p !== undefined);
  });
}
