/**
 * `request_full_history`: the session behind a handoff, read again whole from the transcripts it names, from the
 * previous handoff whose HEAD is its `base_commit` (else the transcript's start) to its `created`. Every text passes
 * the gate before it is counted or cut, so no cut leaves a secret's first characters behind.
 */
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { runJob } from '../project/jobError';
import { fieldError, jobError, partsError, type JobError } from '../../core/handoff/errors';
import type { ParsedHandoff } from '../../core/handoff/parse';
import { formatCount } from '../../core/handoff/limits';
import type { SessionSourceSummary } from '../../core/handoff/schema';
import { DEFAULT_HISTORY_MAX_TOKENS, MIN_HISTORY_MAX_TOKENS, renderFullHistory, type HistoryElided, type HistoryItem } from '../../core/receive/fullHistory';
import { sanitizeText, sanitizeTexts } from '../../core/safety/gate';
import { stripInvisible } from '../../core/safety/invisible';
import { SESSION_SOURCES, type SessionEvent, type SessionSource } from '../../core/session/events';
import { turnRole } from '../../evidence/session/collectSessionLog';
import { discover, reader } from '../../evidence/session/agentReaders';
import { detectTranscript } from '../../evidence/session/detect';
import type { FoundTranscript } from '../../evidence/session/discovery';
import { findHandoff, listHandoffFiles, readHandoffHead, readNewestHandoff } from '../../store/handoffs/handoffIndex';
import type { JobContext } from '../project/jobContext';
import { openProject } from '../project/project';
import { counterFor } from '../tokenizers/tokenizer';

export { DEFAULT_HISTORY_MAX_TOKENS, MIN_HISTORY_MAX_TOKENS } from '../../core/receive/fullHistory';

/** `handoff`: an id, a file name or `latest` (default: the newest handoff, never a result). */
export interface FullHistoryRequest {
  readonly handoff?: string;
  readonly maxTokens?: number;
}

/** `window.from` is null for the transcripts' start; `package_history_file` is set only when fit-to-budget cut something. */
export interface FullHistoryOk {
  readonly status: 'ok';
  readonly handoff_id: string;
  readonly handoff_file: string;
  readonly text: string;
  readonly tokens: number;
  readonly tokens_estimated: boolean;
  readonly max_tokens: number;
  readonly tokenizer: string;
  readonly window: { readonly from: string | null; readonly to: string };
  readonly total: { readonly turns: number; readonly commands: number };
  readonly elided: HistoryElided;
  readonly sources: string[];
  readonly redactions: Record<string, number>;
  readonly invisible_stripped: number;
  readonly package_history_file: string | null;
  readonly warnings: string[];
}

export type FullHistoryOutcome = FullHistoryOk | JobError;

const PREVIOUS_SCANNED = 200;

/** Never throws; errors name `max_tokens`, `handoff`, `session_sources` (no transcript found again) or `handoff.directory`. */
export async function fullHistory(req: FullHistoryRequest, env: JobContext): Promise<FullHistoryOutcome> {
  return runJob('reading the full history', () => run(req, env));
}

async function run(req: FullHistoryRequest, env: JobContext): Promise<FullHistoryOutcome> {
  const maxTokens = req.maxTokens ?? DEFAULT_HISTORY_MAX_TOKENS;
  if (!Number.isInteger(maxTokens) || maxTokens < MIN_HISTORY_MAX_TOKENS || maxTokens > DEFAULT_HISTORY_MAX_TOKENS) {
    const range = `${formatCount(MIN_HISTORY_MAX_TOKENS)} to ${formatCount(DEFAULT_HISTORY_MAX_TOKENS)}`;
    return fieldError(
      'max_tokens',
      `must be a whole number from ${range} (got ${String(maxTokens)})`,
      `leave it out for ${formatCount(DEFAULT_HISTORY_MAX_TOKENS)}`,
      'bad_request',
    );
  }
  const opened = await openProject(env);
  if (!opened.ok) return opened.error;
  const dir = opened.project.handoffsDir;
  const picked = await pickHandoff(dir, req.handoff);
  if ('status' in picked) return picked;
  const fm = picked.parsed.frontmatter;
  const warnings: string[] = [];
  if (!fm.session_sources.length) {
    return partsError(
      'session_sources',
      {
        subject: `handoff ${fm.id}`,
        problem: 'names no transcript (session_sources is empty: it was written without a session log), so there is no session to read again',
        fix: 'read the handoff itself; hand over with the session log on (--session-log auto) to have one next time',
      },
      'not_found',
    );
  }
  const located = await locateTranscripts(fm.session_sources, env);
  warnings.push(...located.warnings);
  const previous = await previousHandoff(dir, picked.file, fm.base_commit);
  const from = previous?.created ?? null;
  const items: HistoryItem[] = [];
  const sources: string[] = [];
  for (const t of located.found) {
    const r = await reader(t.found)(t.found.file, { keepAll: true, workspaceRoot: env.workspaceRoot });
    if (r.error) {
      warnings.push(`WARNING: transcript ${t.name} could not be read again: ${r.error}`);
      continue;
    }
    sources.push(t.name);
    items.push(...window(r.events, from, fm.created, t.found.source));
  }
  if (!sources.length) {
    const why = warnings.map((w) => w.replace(/^WARNING: /, '').replace(/ — .*$/, '')).join('; ');
    return partsError(
      'session_sources',
      {
        subject: `the transcripts of handoff ${fm.id} (${fm.session_sources.map((s) => s.file).join(', ')})`,
        problem: `cannot be found or read again${why ? `: ${why}` : ''}`,
        fix: 'name the transcript with the session log setting (CLI --session-log PATH), or read the handoff itself',
      },
      'not_found',
    );
  }
  // Session order across transcripts: by time, file order kept among equal times.
  const ordered = items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => (a.item.time ?? '').localeCompare(b.item.time ?? '') || a.i - b.i)
    .map((x) => x.item);
  const clean = await gateItems(ordered);
  const counter = counterFor(fm.tokenizer);
  const rendered = renderFullHistory(
    { handoff_id: fm.id, from, to: fm.created, sources, items: clean.items, package_history_file: fm.history_file },
    { maxTokens, counter },
  );
  if (previous && rendered.total.turns + rendered.total.commands === 0) {
    // Handed over again with nothing done in between: the session is behind the handoff before.
    warnings.push(
      `WARNING: the transcripts hold no turn or command between handoff ${previous.id} (${previous.created}) and this one — the session before it is the history of ${previous.id} (CLI: history --handoff ${previous.id})`,
    );
  }
  const gated = await sanitizeText(rendered.text, 'strip', clean.secrets);
  return {
    status: 'ok',
    handoff_id: fm.id,
    handoff_file: picked.file,
    text: gated.text,
    tokens: gated.text === rendered.text ? rendered.tokens : counter.count(gated.text).tokens,
    tokens_estimated: rendered.estimated,
    max_tokens: maxTokens,
    tokenizer: fm.tokenizer,
    window: { from, to: fm.created },
    total: rendered.total,
    elided: rendered.elided,
    sources,
    redactions: clean.found,
    invisible_stripped: clean.invisible,
    package_history_file: fm.history_file,
    warnings: [...warnings, ...clean.notes.map((n) => `WARNING: ${n}`)],
  };
}

async function pickHandoff(dir: string, ref: string | undefined): Promise<{ file: string; parsed: ParsedHandoff } | JobError> {
  if (ref && ref !== 'latest') {
    const found = await findHandoff(dir, ref, 'handoff');
    return found.ok ? { file: found.file, parsed: found.handoff } : jobError(found.message, 'handoff', { code: 'not_found' });
  }
  const newest = await readNewestHandoff(dir, undefined, PREVIOUS_SCANNED);
  if (newest) return { file: newest.file, parsed: newest.handoff };
  return jobError(`there is no handoff in ${dir} yet — hand over first, or name a handoff`, 'handoff', {
    code: 'not_found',
    subject: `there is no handoff in ${dir}`,
    problem: 'yet',
    fix: 'hand over first, or name a handoff',
  });
}

/** Where the session behind this handoff began: the previous file whose HEAD is `baseCommit`. */
async function previousHandoff(dir: string, file: string, baseCommit: string | null): Promise<{ id: string; created: string } | undefined> {
  if (!baseCommit) return undefined;
  const files = await listHandoffFiles(dir);
  const at = files.findIndex((f) => f.path === file);
  for (const f of files
    .slice(0, at < 0 ? files.length : at)
    .reverse()
    .slice(0, PREVIOUS_SCANNED)) {
    const h = await readHandoffHead(f.path);
    if (h && h.frontmatter.head_commit === baseCommit) return { id: h.frontmatter.id, created: h.frontmatter.created };
  }
  return undefined;
}

interface Located {
  readonly name: string;
  readonly found: FoundTranscript;
}

async function exists(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined)) !== undefined;
}

/**
 * `~/…` under home, absolute as is, relative under the workspace; a bare file name (outside both) among the transcripts
 * the session log setting finds now. Read with the reader its content shows, else the named source's.
 */
export async function locateTranscripts(named: readonly SessionSourceSummary[], env: JobContext): Promise<{ found: Located[]; warnings: string[] }> {
  const found: Located[] = [];
  const warnings: string[] = [];
  let candidates: FoundTranscript[] | undefined;
  const discovered = async (): Promise<FoundTranscript[]> => {
    if (candidates) return candidates;
    const cfg = env.sessionLog;
    const mode = cfg?.mode ?? 'auto';
    candidates = [];
    if (mode !== 'none' && mode !== 'auto') {
      const d = await detectTranscript(mode);
      if (d) candidates.push({ source: d.source, format: d.format, file: d.file, mtimeMs: 0 });
    } else if (mode === 'auto') {
      candidates.push(
        ...(await discover({ workspaceRoot: env.workspaceRoot, sources: cfg?.sources, locations: cfg?.locations, home: cfg?.home, host: cfg?.host })),
      );
    }
    if (cfg?.recorderFile) candidates.push({ source: 'recorder', file: cfg.recorderFile, mtimeMs: 0 });
    return candidates;
  };
  const homes = [homedir(), ...(env.sessionLog?.home ? [env.sessionLog.home] : [])];
  for (const s of named) {
    const source = (SESSION_SOURCES as readonly string[]).includes(s.source) ? (s.source as SessionSource) : undefined;
    let file: string | undefined;
    if (s.file.startsWith('~/')) {
      for (const h of homes) if (!file && (await exists(path.join(h, s.file.slice(2))))) file = path.join(h, s.file.slice(2));
    } else if (path.isAbsolute(s.file)) {
      file = (await exists(s.file)) ? s.file : undefined;
    } else if (s.file.includes('/') || (await exists(path.join(env.workspaceRoot, s.file)))) {
      file = (await exists(path.join(env.workspaceRoot, s.file))) ? path.join(env.workspaceRoot, s.file) : undefined;
    }
    let t: FoundTranscript | undefined;
    if (!file) {
      t = (await discovered()).find((c) => path.basename(c.file) === path.basename(s.file) && (!source || c.source === source));
    } else if (source === 'recorder') {
      t = { source, file, mtimeMs: 0 };
    } else {
      const d = await detectTranscript(file);
      t = d ? { source: d.source, format: d.format, file: d.file, mtimeMs: 0 } : source ? { source, file, mtimeMs: 0 } : undefined;
    }
    if (t) found.push({ name: s.file, found: t });
    else
      warnings.push(
        `WARNING: transcript ${s.file} (${s.source}) of the handoff was not found again — name it with the session log setting (CLI --session-log PATH)`,
      );
  }
  return { found, warnings };
}

/** The turns and commands of a transcript between `from` (exclusive; null: its start) and `to` (inclusive), each untimed event at the time of the one before it. */
function window(events: readonly SessionEvent[], from: string | null, to: string, source: string): HistoryItem[] {
  const lo = from ? Date.parse(from) : -Infinity;
  const hi = Date.parse(to);
  const out: HistoryItem[] = [];
  let last: number | undefined;
  for (const e of events) {
    const t = e.time ? Date.parse(e.time) : NaN;
    if (!Number.isNaN(t)) last = t;
    const at = last ?? -Infinity;
    if (!(at > lo) || (!Number.isNaN(hi) && at > hi)) continue;
    if (e.kind === 'turn') {
      out.push({ kind: 'turn', role: turnRole(e), text: e.text, ...(e.time ? { time: e.time } : {}), source });
    } else if (e.kind === 'compaction') {
      // The agent's words where it compacted the conversation: shown as the agent's tool's, never the user's.
      const what = `[The agent compacted the conversation here${e.trigger ? ` (${e.trigger})` : ''}${e.text ? '; its summary:]' : '; the transcript keeps no summary of it.]'}`;
      out.push({ kind: 'turn', role: 'system', text: e.text ? `${what}\n\n${e.text}` : what, ...(e.time ? { time: e.time } : {}), source });
    } else if (e.kind === 'command') {
      out.push({
        kind: 'command',
        command: e.command,
        cwd: e.cwd ?? null,
        exit_code: e.exit_code,
        ...(e.failed ? { failed: true } : {}),
        ran: e.ran,
        ...(e.output_tail ? { output: e.output_tail } : {}),
        ...(e.time ? { time: e.time } : {}),
        source,
      });
    }
  }
  return out;
}

/** Invisible characters go first so none can split a secret; gated before the cap, so it counts and cuts redacted text only. */
async function gateItems(
  items: readonly HistoryItem[],
): Promise<{ items: HistoryItem[]; found: Record<string, number>; invisible: number; notes: string[]; secrets: Map<string, string> }> {
  const texts: string[] = [];
  let invisible = 0;
  const put = (t: string) => {
    const s = stripInvisible(t);
    invisible += s.removed;
    texts.push(s.text);
  };
  for (const it of items) {
    if (it.kind === 'turn') put(it.text);
    else {
      put(it.command);
      put(it.output ?? '');
      put(it.cwd ?? '');
    }
  }
  const r = await sanitizeTexts(texts, 'strip');
  let i = 0;
  const next = () => r.texts[i++] as string;
  const out = items.map((it): HistoryItem => {
    if (it.kind === 'turn') return { ...it, text: next() };
    const command = next();
    const output = next();
    const cwd = next();
    return { ...it, command, ...(it.output ? { output } : {}), cwd: it.cwd ? cwd : null };
  });
  return { items: out, found: r.found, invisible: invisible + r.invisible, notes: r.notes, secrets: r.secrets };
}
