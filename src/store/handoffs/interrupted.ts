// Completes handoffs whose writer was killed between writing the briefing section and the rename to `<id>.md`
// (docs/DESIGN.md §5). The writer renames under the section's lock, so a free lock means it finished or is gone.
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

/** Unless a person marked it partial. Never throws; returns the names given. */
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
      const release = await lib
        .lock(
          section.path,
          lockOptions(lockPathFor(section.path), () => undefined),
        )
        .catch(() => undefined);
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
