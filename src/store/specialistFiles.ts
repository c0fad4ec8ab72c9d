/**
 * Reads custom specialists from `<handoff root>/specialists/*.md` (DESIGN §3). Files
 * that do not parse are reported as warnings (naming the file and the fix), never fatal.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { SPECIALISTS_DIR } from '../core/naming';
import { parseCustomSpecialist, type Specialist } from '../core/specialists';
import { openRegularFile } from './handoffStore';

/** Largest custom specialist file read: 256 KiB. */
export const MAX_SPECIALIST_FILE_BYTES = 256 * 1024;
/** Most custom specialist files read from one folder: 200. */
export const MAX_SPECIALIST_FILES = 200;

/** Custom specialists found, and one warning per file that was skipped. */
export interface CustomSpecialists {
  readonly specialists: Specialist[];
  readonly warnings: string[];
}

/**
 * Loads the custom specialists of a handoff root.
 * @param handoffRoot absolute handoff root
 * @param workspaceRoot absolute workspace folder, for workspace-relative paths in messages
 */
export async function loadCustomSpecialists(handoffRoot: string, workspaceRoot: string): Promise<CustomSpecialists> {
  const dir = path.join(handoffRoot, SPECIALISTS_DIR);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.toLowerCase().endsWith('.md')).sort();
  } catch {
    return { specialists: [], warnings: [] };
  }
  const specialists: Specialist[] = [];
  const warnings: string[] = [];
  if (names.length > MAX_SPECIALIST_FILES) {
    warnings.push(`${path.relative(workspaceRoot, dir)}: only the first ${MAX_SPECIALIST_FILES} of ${names.length} specialist files were read`);
    names = names.slice(0, MAX_SPECIALIST_FILES);
  }
  const seen = new Set<string>();
  for (const name of names) {
    const file = path.join(dir, name);
    const rel = path.relative(workspaceRoot, file).split(path.sep).join('/');
    let text: string;
    try {
      const fh = await openRegularFile(file);
      if (!fh) {
        warnings.push(`${rel}: skipped — not a regular file`);
        continue;
      }
      try {
        const st = await fh.stat();
        if (st.size > MAX_SPECIALIST_FILE_BYTES) {
          warnings.push(`${rel}: skipped — larger than ${MAX_SPECIALIST_FILE_BYTES / 1024} KiB`);
          continue;
        }
        text = await fh.readFile('utf8');
      } finally {
        await fh.close();
      }
    } catch (err) {
      warnings.push(`${rel}: cannot be read (${(err as Error).message})`);
      continue;
    }
    const parsed = parseCustomSpecialist(name, text, rel);
    if (!parsed.ok) {
      warnings.push(parsed.message);
    } else if (seen.has(parsed.specialist.id)) {
      warnings.push(`${rel}: id "${parsed.specialist.id}" is defined twice — the first file wins`);
    } else {
      seen.add(parsed.specialist.id);
      specialists.push(parsed.specialist);
    }
  }
  return { specialists, warnings };
}
