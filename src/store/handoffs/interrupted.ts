/**
 * Handoffs whose writer was killed after their briefing section was written and before the
 * rename to `<id>.md` that completes them (docs/DESIGN.md §5 "Leftovers"). Everything of such a
 * handoff is written whole — the handoff under `<id>.partial.md`, its history, its section — so
 * the next writer completes it: the briefing section then no longer names a handoff that is only
 * partial. A writer renames its handoff while it holds its section's lock (`writeBriefingSection`),
 * so a section whose lock can be taken belongs to a writer that finished or is gone; a handoff a
 * person marked partial (a `partial` status event) stays partial.
 */
import { lstat, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { loadLockLibrary, lockOptions } from '../lockLibrary';
import { lockPathFor } from '../fileLock';
import { resolveInside } from '../pathGuard';
import { readHandoffHead } from './handoffIndex';

const PARTIAL = /^(.+)\.partial\.md$/;

async function isFile(file: string): Promise<boolean> {
  return lstat(file).then(
    (st) => st.isFile(),
    () => false,
  );
}

/**
 * Completes the interrupted handoffs of `handoffsDir` (the `handoffs/` folder of the handoff
 * root `root`): each `<id>.partial.md` whose briefing section is written, whose section lock is
 * free (or stale: its holder is gone) and that no person marked partial is renamed to `<id>.md`.
 * Best effort: never throws.
 * @returns the complete names given
 */
export async function completeInterruptedHandoffs(root: string, handoffsDir: string): Promise<string[]> {
  const partials = (await readdir(handoffsDir).catch(() => [] as string[])).filter((n) => PARTIAL.test(n));
  const completed: string[] = [];
  for (const name of partials) {
    const staged = path.join(handoffsDir, name);
    const final = path.join(handoffsDir, name.replace(PARTIAL, '$1.md'));
    try {
      const head = await readHandoffHead(staged);
      const briefing = head?.frontmatter.briefing_file;
      if (!head || !briefing || head.frontmatter.status === 'partial') continue;
      const section = resolveInside(root, ...briefing.split('/'));
      if (!section.ok || !(await isFile(section.path)) || (await isFile(final))) continue;
      const lib = await loadLockLibrary();
      // Once, without waiting: a live writer holds it until its own rename is done.
      const release = await lib.lock(section.path, lockOptions(lockPathFor(section.path), () => undefined)).catch(() => undefined);
      if (!release) continue;
      try {
        if ((await isFile(staged)) && !(await isFile(final))) {
          await rename(staged, final);
          completed.push(path.basename(final));
        }
      } finally {
        await release().catch(() => undefined);
      }
    } catch {
      // left partial: the next writer tries again
    }
  }
  return completed;
}
