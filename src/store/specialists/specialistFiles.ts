// Custom specialists from `<handoff root>/specialists/*.md` and agents discovered read-only in other tools' folders
// (docs/DESIGN.md §3). Precedence: built-in > custom > discovered. What they say is quoted in prompts, so it is cleaned.
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { AGENT_FOLDERS } from '../../core/specialists/agentFiles';
import { parseAgentFile, sameSpecialist } from '../../core/specialists/agentFileParse';
import { SPECIALISTS_DIR } from '../../core/handoff/naming';
import { redactTexts } from '../../core/safety/redact';
import { stripInvisible } from '../../core/safety/invisible';
import { BUILTIN_SPECIALISTS, parseCustomSpecialist, type Specialist } from '../../core/specialists/registry';
import { openRegularFile } from '../safeWrite';
import { checkRealPathInside } from '../pathGuard';
import { errorText } from '../../core/handoff/errors';
import { fsCauseAt } from '../../core/handoff/fsErrors';

export const MAX_SPECIALIST_FILE_BYTES = 256 * 1024;
/** Per folder. */
export const MAX_SPECIALIST_FILES = 200;

export interface CustomSpecialists {
  readonly specialists: Specialist[];
  readonly warnings: string[];
}

export interface LoadSpecialistsOptions {
  /** Default true. */
  readonly discover?: boolean;
}

/** Custom specialists first, then discovered agents, with one warning per file skipped. Never throws. */
export async function loadCustomSpecialists(handoffRoot: string, workspaceRoot: string, options: LoadSpecialistsOptions = {}): Promise<CustomSpecialists> {
  const own = await loadHandoffSpecialists(handoffRoot, workspaceRoot);
  if (options.discover === false) return own;
  const discovered = await discoverAgentSpecialists(workspaceRoot, [...BUILTIN_SPECIALISTS, ...own.specialists]);
  return { specialists: [...own.specialists, ...discovered.specialists], warnings: [...own.warnings, ...discovered.warnings] };
}

async function readSpecialistFile(file: string, rel: string): Promise<{ text: string } | { warning: string }> {
  try {
    const fh = await openRegularFile(file);
    if (!fh) {
      return { warning: `${rel}: skipped — not a regular file` };
    }
    try {
      const st = await fh.stat();
      if (st.size > MAX_SPECIALIST_FILE_BYTES) {
        return { warning: `${rel}: skipped — larger than ${MAX_SPECIALIST_FILE_BYTES / 1024} KiB` };
      }
      return { text: await fh.readFile('utf8') };
    } finally {
      await fh.close();
    }
  } catch (err) {
    return { warning: `${rel}: cannot be read (${await fsCauseAt(err, file, realpath)})` };
  }
}

/** What it says reaches handoffs and prompts: invisible characters removed, secrets redacted, with a warning (docs/DESIGN.md §7). */
async function sanitizeSpecialist(s: Specialist, warnings: string[]): Promise<Specialist> {
  const stripped = [s.mandate, s.returnCondition, s.instructions ?? ''].map((t) => stripInvisible(t));
  const redacted = await redactTexts(stripped.map((r) => r.text));
  const invisible = stripped.reduce((n, r) => n + r.removed, 0);
  const redactions = (t: string) => t.match(/\[REDACTED:/g)?.length ?? 0;
  const secrets = redacted.texts.reduce((n, t, i) => n + redactions(t) - redactions(stripped[i].text), 0);
  const where = s.file ?? s.id;
  // No counts: the mandate is often the body's first paragraph, so one secret in the file can be found twice.
  if (secrets > 0) {
    warnings.push(`${where}: secrets were redacted from what it says (it reaches handoffs, briefings and prompts) — remove them from the file`);
  }
  if (invisible > 0) {
    warnings.push(`${where}: invisible characters (bidi, zero-width, tag or control) were removed from what it says — retype that text in the file`);
  }
  for (const note of redacted.notes) warnings.push(`${where}: ${note}`);
  if (secrets === 0 && invisible === 0) return s;
  const [mandate, returnCondition, instructions] = redacted.texts;
  return { ...s, mandate, returnCondition, instructions: s.instructions === undefined ? undefined : instructions };
}

function posixRelative(workspaceRoot: string, file: string): string {
  return path.relative(workspaceRoot, file).split(path.sep).join('/');
}

function whereDefined(s: Specialist): string {
  return s.source === 'builtin' ? 'a built-in specialist' : `already defined in ${s.file ?? s.source}`;
}

/**
 * A folder linking out of the workspace is not read. A file whose id is already known is skipped: silently when it
 * says the same (what `export-agents` writes), else with a warning.
 */
export async function discoverAgentSpecialists(workspaceRoot: string, known: readonly Specialist[]): Promise<CustomSpecialists> {
  const byId = new Map(known.map((s) => [s.id, s]));
  const specialists: Specialist[] = [];
  const warnings: string[] = [];
  for (const folder of AGENT_FOLDERS) {
    const dir = path.join(workspaceRoot, ...folder.dir.split('/'));
    let names: string[];
    try {
      names = (await readdir(dir)).filter((n) => n.toLowerCase().endsWith(folder.suffix) && !n.startsWith('.')).sort();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') warnings.push(`${folder.dir}: cannot be listed (${await fsCauseAt(err, dir, realpath)})`);
      continue;
    }
    if (names.length === 0) continue;
    const inside = await checkRealPathInside(workspaceRoot, dir, 'remove the link: only folders inside the workspace are read');
    if (!inside.ok) {
      warnings.push(`${folder.dir}: not read — ${errorText(inside)}`);
      continue;
    }
    if (names.length > MAX_SPECIALIST_FILES) {
      warnings.push(`${folder.dir}: only the first ${MAX_SPECIALIST_FILES} of ${names.length} agent files were read`);
      names = names.slice(0, MAX_SPECIALIST_FILES);
    }
    for (const name of names) {
      const file = path.join(dir, name);
      const rel = posixRelative(workspaceRoot, file);
      const read = await readSpecialistFile(file, rel);
      if ('warning' in read) {
        warnings.push(read.warning);
        continue;
      }
      const parsed = parseAgentFile(folder.format, name, read.text, rel, [...byId.values()]);
      if (!parsed.ok) {
        warnings.push(parsed.message);
        continue;
      }
      const sanitizing: string[] = [];
      const s = await sanitizeSpecialist(parsed.agent.specialist, sanitizing);
      const existing = byId.get(s.id);
      if (existing) {
        if (!sameSpecialist(existing, s)) {
          const fix =
            existing.source === 'builtin' || existing.source === 'custom'
              ? `rename the file to give it an id of its own, or replace it with ours: specialist-handoff export-agents --force`
              : `rename one of the two files to give it an id of its own`;
          warnings.push(
            `${rel}: skipped — "${s.id}" is ${whereDefined(existing)}, and this file says otherwise (label, description, return condition or instructions); ${fix}`,
          );
        }
        continue;
      }
      warnings.push(...parsed.agent.notes, ...sanitizing);
      byId.set(s.id, s);
      specialists.push(s);
    }
  }
  return { specialists, warnings };
}

async function loadHandoffSpecialists(handoffRoot: string, workspaceRoot: string): Promise<CustomSpecialists> {
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
    const read = await readSpecialistFile(file, rel);
    if ('warning' in read) {
      warnings.push(read.warning);
      continue;
    }
    const parsed = parseCustomSpecialist(name, read.text, rel);
    if (!parsed.ok) {
      warnings.push(parsed.message);
    } else if (seen.has(parsed.specialist.id)) {
      warnings.push(`${rel}: id "${parsed.specialist.id}" is defined twice — the first file wins`);
    } else {
      seen.add(parsed.specialist.id);
      specialists.push(await sanitizeSpecialist(parsed.specialist, warnings));
    }
  }
  return { specialists, warnings };
}
