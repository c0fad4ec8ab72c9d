// Briefings on disk (docs/DESIGN.md §5): `briefings/<specialist with '_' → '-'>-<topic>-<day>/<handoff id>.md`, one file
// per handoff (header, then section), read in name order: git's union merge would interleave two sides' sections in
// one file. A single-file briefing `briefings/<name>.md` is read first.
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { BRIEFINGS_DIR } from '../../core/handoff/naming';
import { resolveInside } from '../pathGuard';
import { StoreError, openRegularFile } from '../safeWrite';

export const MAX_BRIEFING_READ_BYTES = 10 * 1024 * 1024;
/** The newest. */
export const MAX_BRIEFING_SECTIONS = 2000;

/** `legacy`: the single-file briefing. @throws StoreError when a name does not pass the path guard */
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

/** Never throws. */
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

/** The single file if any, then the section files, each after the first from its section on. Undefined when empty. Never throws. */
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
