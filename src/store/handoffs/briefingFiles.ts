/**
 * Where a briefing lives and how it is read back (docs/DESIGN.md §5 "Briefings"): one
 * folder per specialist, topic and day, `briefings/<specialist with '_' → '-'>-<topic>-<day>/`,
 * holding one file per handoff, `<handoff id>.md` (the briefing's header, then that
 * handoff's section). Read in name order (time order), the files make the briefing. Each
 * branch adds files of its own, so `git merge` and `git rebase` never have to combine
 * two sides' sections inside one file — git's union merge would interleave them (it
 * splits a conflict at identical lines such as `**Next steps:**`, see
 * test/component/gitMerge.test.ts). A briefing written before this layout,
 * `briefings/<name>.md`, is read first, as it was.
 */
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { BRIEFINGS_DIR } from '../../core/handoff/naming';
import { resolveInside } from '../pathGuard';
import { StoreError, openRegularFile } from '../safeWrite';

/** Largest briefing file read back: 10 MiB. */
export const MAX_BRIEFING_READ_BYTES = 10 * 1024 * 1024;
/** Most section files read for one briefing: 2,000 (the newest). */
export const MAX_BRIEFING_SECTIONS = 2000;

/**
 * The briefing of `briefingName` (`<specialist>-<topic>-<day>.md`) in `briefingsDir`: its
 * folder, the file of one handoff's section in it, and the single file of the older layout.
 * @throws StoreError when a name does not pass the path guard
 */
export function briefingPaths(briefingsDir: string, briefingName: string, handoffId: string): { folder: string; section: string; legacy: string } {
  const stem = briefingName.replace(/\.md$/, '');
  const folder = resolveInside(briefingsDir, stem);
  const section = resolveInside(briefingsDir, stem, `${handoffId}.md`);
  const legacy = resolveInside(briefingsDir, `${stem}.md`);
  if (!folder.ok) throw new StoreError(folder.message);
  if (!section.ok) throw new StoreError(section.message);
  if (!legacy.ok) throw new StoreError(legacy.message);
  return { folder: folder.path, section: section.path, legacy: legacy.path };
}

/** Whether a briefing has anything yet: its folder holds a section file, or the older single file exists. Never throws. */
export async function briefingExists(paths: { folder: string; legacy: string }): Promise<boolean> {
  const inFolder = await readdir(paths.folder).catch(() => [] as string[]);
  if (inFolder.some((n) => n.endsWith('.md') && !n.startsWith('.'))) return true;
  return lstat(paths.legacy).then(
    () => true,
    () => false,
  );
}

async function readText(file: string): Promise<string | undefined> {
  const fh = await openRegularFile(file).catch(() => undefined);
  if (!fh) return undefined;
  try {
    if ((await fh.stat()).size > MAX_BRIEFING_READ_BYTES) return undefined;
    return await fh.readFile('utf8');
  } catch {
    return undefined;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/**
 * The whole briefing as one Markdown text: the older single file (when there is one), then
 * the folder's section files in name order — the first one whole (header and section),
 * the others from their section on (the header of each file is the same). Files that are
 * not regular files, or too big, are skipped. Never throws.
 * @param briefingFile a section file (`briefings/<name>/<id>.md`) or an older single file (`briefings/<name>.md`), absolute
 * @returns the text, or undefined when there is nothing to read
 */
export async function readBriefing(briefingFile: string): Promise<string | undefined> {
  const parent = path.dirname(briefingFile);
  // briefings/<name>/<id>.md: the folder is its parent; briefings/<name>.md: the folder is its namesake.
  const inFolder = path.basename(path.dirname(parent)) === BRIEFINGS_DIR;
  const folder = inFolder ? parent : briefingFile.replace(/\.md$/, '');
  const legacy = `${folder}.md`;
  let text = (await readText(legacy)) ?? '';
  {
    const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.md') && !n.startsWith('.')).sort();
    for (const name of names.slice(-MAX_BRIEFING_SECTIONS)) {
      const t = await readText(path.join(folder, name));
      if (t === undefined) continue;
      if (!text) {
        text = t;
        continue;
      }
      const at = t.indexOf('\n## ');
      text += at >= 0 ? t.slice(at) : `\n${t}`;
    }
  }
  return text || undefined;
}
