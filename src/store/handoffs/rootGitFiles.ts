// The handoff root's git files (docs/DESIGN.md §5 "Git"): `.gitattributes` so add-only files merge with git's union
// driver, `.gitignore` so a write's locks and temporary files are never committed. Only missing lines are added.
import path from 'node:path';
import { ensureSanitized } from '../../core/safety/gate';
import { withFileLock } from '../fileLock';
import { withLeftoversSwept } from '../leftovers';
import { createExclusive, openRegularFile, replaceFileAtomic } from '../safeWrite';

/**
 * Union merge for briefing section files and single-file briefings (`briefings/<name>.md`), whose
 * union can interleave sections sharing lines. Status events need nothing: each is a new file.
 */
export const ROOT_GITATTRIBUTES = [
  "# Specialist Handoff: files only ever added to merge without a conflict (git's built-in union driver)",
  'briefings/*.md merge=union',
  'briefings/*/*.md merge=union',
];

export const ROOT_GITIGNORE = ['# Specialist Handoff: what stays local (locks and temporary files of a write in progress)', '.*.lock/', '.*.tmp'];

/** A bigger one is left alone. */
export const MAX_GIT_FILE_BYTES = 1024 * 1024;

/**
 * Adds the lines of `wanted` missing from `file` (created when absent), under its lock; a comment
 * line is added only together with a missing rule.
 * @returns an `ERROR: …` text when the file is not regular, too big or cannot be written
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

/** Never throws. */
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
 * Also sweeps the root of leftovers. `.gitignore` goes first: it hides the temporary file and lock
 * of every later write, `.gitattributes`' included. Never throws.
 * @returns one problem text per file that could not be written
 */
export async function ensureRootGitFiles(handoffRoot: string): Promise<string[]> {
  const ignore = path.join(handoffRoot, '.gitignore');
  const attributes = path.join(handoffRoot, '.gitattributes');
  return withLeftoversSwept(handoffRoot, async () => {
    const [hasIgnore, hasAttributes] = await Promise.all([hasAllLines(ignore, ROOT_GITIGNORE), hasAllLines(attributes, ROOT_GITATTRIBUTES)]);
    const problems = [hasIgnore ? undefined : await addMissingLinesLocked(ignore, ROOT_GITIGNORE)];
    problems.push(hasAttributes ? undefined : await addMissingLinesLocked(attributes, ROOT_GITATTRIBUTES));
    return problems.filter((p): p is string => p !== undefined);
  });
}
