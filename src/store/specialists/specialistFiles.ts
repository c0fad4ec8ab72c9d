/**
 * Reads custom specialists from `<handoff root>/specialists/*.md` and discovers, read-only,
 * the agents of other tools: `.github/agents/*.agent.md`, `.github/chatmodes/*.chatmode.md`
 * and `.claude/agents/*.md` (docs/DESIGN.md §3). Precedence: built-in > `.handoff/specialists`
 * > discovered (in {@link AGENT_FOLDERS} order); an id already known is never redefined.
 * Files that do not parse are reported as warnings (naming the file and the fix), never fatal.
 * What the files say is quoted in handoffs and prompts, so it is cleaned first: invisible
 * characters removed, secrets redacted, each with a warning ({@link sanitizeSpecialist}).
 */
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

/** Largest custom specialist file read: 256 KiB. */
export const MAX_SPECIALIST_FILE_BYTES = 256 * 1024;
/** Most custom specialist files read from one folder: 200. */
export const MAX_SPECIALIST_FILES = 200;

/** Custom specialists found, and one warning per file that was skipped. */
export interface CustomSpecialists {
  readonly specialists: Specialist[];
  readonly warnings: string[];
}

/** Options of {@link loadCustomSpecialists}. */
export interface LoadSpecialistsOptions {
  /** Also discover the agents of other tools' folders (default true). */
  readonly discover?: boolean;
}

/**
 * Loads the custom specialists of a handoff root, then the agents discovered in the
 * workspace ({@link discoverAgentSpecialists}), in precedence order.
 * @param handoffRoot absolute handoff root
 * @param workspaceRoot absolute workspace folder, for workspace-relative paths in messages
 * @returns the specialists (custom first, then discovered) and one warning per file skipped. Never throws.
 */
export async function loadCustomSpecialists(handoffRoot: string, workspaceRoot: string, options: LoadSpecialistsOptions = {}): Promise<CustomSpecialists> {
  const own = await loadHandoffSpecialists(handoffRoot, workspaceRoot);
  if (options.discover === false) return own;
  const discovered = await discoverAgentSpecialists(workspaceRoot, [...BUILTIN_SPECIALISTS, ...own.specialists]);
  return { specialists: [...own.specialists, ...discovered.specialists], warnings: [...own.warnings, ...discovered.warnings] };
}

/** Reads one specialist file: its text, or a warning (not a regular file, too large, unreadable). */
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

/**
 * What a specialist file says, made safe to quote (docs/DESIGN.md §7): its mandate, return
 * condition and instructions reach handoffs, briefings, prompts and `list_specialists`, so
 * invisible characters (bidi, zero-width, tag and control characters) are removed and
 * secrets redacted, with a warning naming the file and the fix. The label is not touched:
 * files whose label is not visible text are refused by the parsers.
 */
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

/** Workspace-relative POSIX path, for messages and `Specialist.file`. */
function posixRelative(workspaceRoot: string, file: string): string {
  return path.relative(workspaceRoot, file).split(path.sep).join('/');
}

/** Where an already-known specialist comes from, for a message. */
function whereDefined(s: Specialist): string {
  return s.source === 'builtin' ? 'a built-in specialist' : `already defined in ${s.file ?? s.source}`;
}

/**
 * Discovers specialists, read-only, from the agent folders of other tools
 * ({@link AGENT_FOLDERS}: `.github/agents/*.agent.md`, `.github/chatmodes/*.chatmode.md`,
 * `.claude/agents/*.md`), mapped as `parseAgentFile` describes. At most
 * {@link MAX_SPECIALIST_FILES} files per folder and {@link MAX_SPECIALIST_FILE_BYTES} per file
 * are read; a folder that is a symbolic link leading out of the workspace is not read.
 *
 * A file whose id is already known (`known`, or an earlier discovered file) is skipped:
 * silently when it says the same (`sameSpecialist`: what `export-agents` writes for that
 * specialist), else with a warning naming the file and the fix.
 *
 * @param workspaceRoot absolute workspace folder
 * @param known specialists that take precedence (built-ins, then `.handoff/specialists`)
 * @returns the discovered specialists (`source` `github-agent` or `claude-agent`) and the warnings. Never throws.
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
          warnings.push(`${rel}: skipped — "${s.id}" is ${whereDefined(existing)}, and this file says otherwise (label, description, return condition or instructions); ${fix}`);
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

/** Loads `<handoff root>/specialists/*.md` (see {@link loadCustomSpecialists}). */
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
