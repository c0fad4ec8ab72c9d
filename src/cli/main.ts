/**
 * `specialist-handoff`: the handoff engine in a terminal, for people, agents and CI.
 *
 *   specialist-handoff handover --specialist ID --topic T --summary S [--decision D]… [--next N]… [--blocker B]… [--json] [--cwd DIR]
 *   specialist-handoff specialists [--json] [--cwd DIR]
 *   specialist-handoff mcp [--cwd DIR]              (MCP server on stdio: src/mcp/server.ts)
 *   specialist-handoff hook [--specialist ID] [--topic TEXT]   (Claude Code hook: JSON on stdin)
 *
 * Exit codes: 0 success; 2 bad input (the `ERROR:` line on stderr); 1 the handoff could
 * not be written (disk, permissions) — and every failure of `hook`, which never exits 2
 * (Claude Code treats 2 as "block"). Arguments are parsed with Node's `util.parseArgs`.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DEFAULT_HOOK_SPECIALIST, MAX_HOOK_INPUT_BYTES, defaultHookTopic, describeHookEvent, hookHandoverReason, hookSummary, parseClaudeHookInput } from '../core/agents/claudeHook';
import { MAX_HOP_DEPTH } from '../core/handoff/compose';
import { describeSpecialist } from '../core/specialists/registry';
import { redactSecrets } from '../core/safety/redact';
import { formatCount } from '../core/handoff/render';
import type { HandoverOk, HandoverResult, TouchedFile } from '../core/handoff/schema';
import { parseTurn } from '../core/handoff/request';
import { collectEvidenceFor, handover, type HandoverEnvironment } from '../engine/handover';
import { loadRegistry } from '../engine/project';
import { exportAgents, exportAgentsExitCode, formatExportSummary } from '../engine/exportAgents';
import { buildPrompt } from '../engine/prompt';
import { recordResult } from '../engine/recordResult';
import { findRepositoryRoot } from '../evidence/git/collectGit';
import { resolveHandoffRoot } from '../store/pathGuard';
import { SESSION_STATE_FILE, cliSessionId, cliStateDir, rotateCliSessionId } from '../store/sessionLogState';
import type * as McpServerModule from '../mcp/server';

/** Exit code for success. */
export const EXIT_OK = 0;
/** Exit code when the handoff could not be written (I/O). */
export const EXIT_FAILURE = 1;
/** Exit code for bad input: unknown option, invalid value, unknown specialist. */
export const EXIT_BAD_INPUT = 2;

/** Where the CLI prints; injectable for tests. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Working directory used when `--cwd` is not given. */
  readonly cwd: string;
  /**
   * Reads standard input whole (`hook` reads Claude Code's JSON there), at most
   * `maxBytes` bytes; an `{error}` when it is a terminal, too large or unreadable.
   * Default: the process's standard input.
   */
  readonly readStdin?: (maxBytes: number) => Promise<string | { error: string }>;
}

const VERSION = '0.1.0';

const USAGE = `specialist-handoff — hand an AI-coding session over to the next specialist

Usage:
  specialist-handoff handover --specialist ID --topic TOPIC [options]
  specialist-handoff prompt [--specialist ID] [--handoff REF] [--no-take] [--json] [--cwd DIR]
  specialist-handoff record-result --specialist ID [--handoff REF]… [--summary TEXT]
      [--met N|TEXT|all]… [--next TEXT]… [--blocker TEXT]… [--proceed-if-taken] [--json]
  specialist-handoff specialists [--json] [--cwd DIR]
  specialist-handoff mcp [--cwd DIR] [--dir FOLDER]
  specialist-handoff hook [--specialist ID] [--topic TEXT] [--cwd DIR] [--dir FOLDER]
  specialist-handoff export-agents [--target github|claude|all] [--force] [--json] [--cwd DIR] [--dir FOLDER]
  specialist-handoff --help | --version

handover options:
  -s, --specialist ID        who receives the work (see "specialist-handoff specialists")
  -t, --topic TEXT           what the work is about; becomes the file-name slug
      --summary TEXT         what happened so far
      --summary-file PATH    read the summary from a file ("-" for standard input)
      --decision TEXT        a decision made (repeatable; numbered D1, D2 …)
      --failed TEXT          an approach that was tried and failed (repeatable)
      --next TEXT            a next step (repeatable)
      --blocker TEXT         something that blocks the work (repeatable)
      --artifact TEXT        a relevant file or reference (repeatable)
      --turn "ROLE: TEXT"    a recent conversation turn, oldest first (repeatable)
      --return-condition T   when the specialist should hand back (default: the specialist's)
      --reason TEXT          why the work is handed over
      --reason-kind KIND     capability_boundary | specialization | escalation | load_balancing | end_of_session
      --from NAME            who hands over (default: developer)
      --max-tokens N         token budget of the handoff (default 3000)
      --recent-turns N       recent turns kept (default 5)
      --tokenizer NAME       o200k_base (default) | cl100k_base
      --dir FOLDER           handoff folder inside the workspace (default .handoff)
      --no-fit               keep everything even when over budget (a WARNING is printed)
      --parent REF           continue a chain: a handoff id, its file name, or "latest"
      --max-depth N          hops a chain may take before the hop guard stops it (default 3)
      --confirm-hop          hand over although the hop guard warns (too deep, or back to a
                             specialist already in the chain); the handoff records it
      --session-id ID        session id to record (default: a new UUID)
      --session-log WHERE    auto (default: find this workspace's Claude Code, Codex, Aider,
                             Cline/Roo, SpecStory and Copilot transcripts), none, or the path
                             of one transcript file (or Cline task folder)
      --json                 print the result object (or the error object) as JSON on stdout
      --cwd DIR              where to run (default: the current directory); the workspace
                             is its git repository's top level, or DIR itself outside git

--turn roles: user, assistant, system, tool ("ROLE: TEXT"); text without a role is the assistant's.

prompt: prints what the receiving agent needs to pick a handoff up — the specialist's
mandate, receive rules, run context, what changed since the handoff (staleness) and the
prior handoffs (30 KB). Default: the newest handoff (to --specialist when given); a pending
one is marked "accepted" by this session unless --no-take.

record-result: the receiving specialist hands back. Writes a result entry per handoff
answered (default: every open handoff to --specialist) with the status the policy gives:
complete only when every acceptance criterion is met (--met: its number as "prompt" lists
them, its text, or "all") and no test failed after the last passing run; blocked with
--blocker; else in progress. With no open handoff it writes a session note only.
--proceed-if-taken records even when another session took the handoff and never answered.

mcp: serves the Model Context Protocol on stdio for MCP clients (Claude Code, Codex CLI,
Cline/Roo, VS Code …), with the tools handover_to_specialist, list_specialists,
prior_handoffs and record_result. The project is the git repository of --cwd (default: the
current directory); a tool's project_root may name that folder only. Standard output
carries the protocol only; diagnostics go to standard error. Runs until the client closes
standard input.

hook: for Claude Code's SessionEnd and PreCompact hooks. Reads the hook's JSON from standard
input (session_id, transcript_path, cwd, hook_event_name, reason or trigger) and writes a
safety-net handoff from git and the session transcript, to --specialist (default
implementation_engineer) on --topic (default: the git branch, else "session <id>"). Outside
a git repository it writes nothing unless --cwd names the folder. Prints one line on
standard error; exits 0 when written or skipped and 1 on any error, never 2, so the hook
never blocks Claude Code.

export-agents: writes the specialists (built-in and .handoff/specialists) as VS Code custom
agents (.github/agents/<id>.agent.md, with handoffs: buttons to the specialists each one
usually hands to) and Claude Code subagents (.claude/agents/<id>.md), so those tools offer
them too; --target picks one folder (default: all). A file whose text differs from ours
(edited by someone) is kept and reported as skipped unless --force.

Exit codes: 0 written, 2 bad input (one ERROR: line on stderr), 1 could not write.`;

const OPTIONS = {
  specialist: { type: 'string', short: 's' },
  topic: { type: 'string', short: 't' },
  summary: { type: 'string' },
  decision: { type: 'string', multiple: true },
  failed: { type: 'string', multiple: true },
  next: { type: 'string', multiple: true },
  blocker: { type: 'string', multiple: true },
  artifact: { type: 'string', multiple: true },
  turn: { type: 'string', multiple: true },
  'return-condition': { type: 'string' },
  reason: { type: 'string' },
  'reason-kind': { type: 'string' },
  from: { type: 'string' },
  'max-tokens': { type: 'string' },
  'recent-turns': { type: 'string' },
  tokenizer: { type: 'string' },
  dir: { type: 'string' },
  'no-fit': { type: 'boolean' },
  parent: { type: 'string' },
  'max-depth': { type: 'string' },
  'confirm-hop': { type: 'boolean' },
  'session-id': { type: 'string' },
  'summary-file': { type: 'string' },
  handoff: { type: 'string', multiple: true },
  met: { type: 'string', multiple: true },
  'no-take': { type: 'boolean' },
  'proceed-if-taken': { type: 'boolean' },
  'session-log': { type: 'string' },
  target: { type: 'string' },
  force: { type: 'boolean' },
  json: { type: 'boolean' },
  cwd: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} satisfies ParseArgsConfig['options'];

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>['values'];

function integer(value: string | undefined, flag: string): number | undefined | { error: string } {
  if (value === undefined) {
    return undefined;
  }
  if (!/^-?\d+$/.test(value.trim())) {
    return { error: `ERROR: --${flag} must be a whole number (got "${value}")` };
  }
  return Number(value);
}

/** Parses `--turn "user: text"` (see `parseTurn` in src/core/handoff/request.ts). */
export { parseTurn };

/** The workspace root: the git repository's top level of --cwd (like git itself), or --cwd outside a repository. */
async function resolveWorkspace(values: Values, io: CliIo): Promise<string | { error: string }> {
  const dir = path.resolve(io.cwd, values.cwd ?? '.');
  let real: string;
  try {
    real = realpathSync(dir);
    if (!statSync(real).isDirectory()) {
      return { error: `ERROR: --cwd is not a folder: ${dir}` };
    }
  } catch {
    return { error: `ERROR: --cwd folder does not exist: ${dir}` };
  }
  return (await findRepositoryRoot(real)) ?? real;
}

function statusCounts(files: readonly TouchedFile[]): string {
  const counts = new Map<string, number>();
  for (const f of files) {
    counts.set(f.status, (counts.get(f.status) ?? 0) + 1);
  }
  return [...counts.entries()].map(([k, v]) => `${k} ${v}`).join(', ');
}

/** The human-readable one-screen summary of a successful handoff. */
export function formatSummary(result: HandoverOk, cwd: string): string {
  const p = result.package;
  const rel = (f: string) => path.relative(cwd, f).split(path.sep).join('/') || f;
  const files = p.touched_files.length + p.touched_files_omitted;
  const counts = [statusCounts(p.touched_files), p.touched_files_omitted ? `${formatCount(p.touched_files_omitted)} not listed in the handoff` : ''].filter(Boolean).join(', ');
  const lines = [
    `Handed over to ${result.persona_marker} — topic "${p.topic_title}" (${p.topic})`,
    `  handoff   ${rel(result.handoff_file)}`,
    `  briefing  ${rel(result.briefing.path)} (${result.briefing.newly_created ? 'created' : 'appended'}, ${formatCount(result.briefing.size_bytes)} bytes)`,
  ];
  if (result.history_file) {
    lines.push(`  history   ${rel(result.history_file)} (what was cut to fit the budget)`);
  }
  lines.push(`  files     ${formatCount(files)} touched${files ? ` (${counts})` : ''}`);
  const where = p.branch ? ` on ${p.branch}` : p.detached ? ' on a detached HEAD' : '';
  lines.push(`  commits   ${p.commits.length + p.commits_omitted} ${p.base_commit ? 'since the last handoff' : 'recent'}${where}${p.head_commit ? ` at ${p.head_commit.slice(0, 10)}` : ''}`);
  lines.push(`  tokens    ${formatCount(p.estimated_tokens)}${p.tokens_estimated ? ' (estimate)' : ''} / ${formatCount(p.max_context_tokens)} (${p.tokenizer})`);
  if (p.upstream) {
    lines.push(`  upstream  ${p.upstream}: ${p.ahead ?? 0} ahead, ${p.behind ?? 0} behind`);
  }
  for (const d of p.dropped) {
    lines.push(`  cut       ${d.section.replace(/_/g, ' ')}: ${formatCount(d.count)} (${formatCount(d.tokens)} tokens)`);
  }
  lines.push(`Next: ${result.next_step}`);
  return lines.join('\n');
}

/** Says an error the CLI way: flag names instead of setting or field names; JSON too when asked. */
/** Control characters of what the user typed, shown escaped: an echoed ESC sequence must not drive the terminal. */
export function escapeControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function fail(io: CliIo, values: Partial<Values>, message: string, code: number, field?: string): number {
  const text = escapeControls(cliWording(message.split('\n')[0]));
  if (values.json) {
    io.stdout(JSON.stringify({ status: 'error', message: text, ...(field ? { field } : {}) }, null, 2));
  }
  io.stderr(text);
  return code;
}

const FIELD_FLAGS: Array<[RegExp, string]> = [
  [/\bmax_context_tokens\b/g, '--max-tokens'],
  [/\binclude_recent_turns\b/g, '--recent-turns'],
  [/\breason_kind\b/g, '--reason-kind'],
  [/\breturn_condition\b/g, '--return-condition'],
  [/^ERROR: tokenizer\b/, 'ERROR: --tokenizer'],
  [/^ERROR: specialist\b/, 'ERROR: --specialist'],
  [/^ERROR: topic is required/, 'ERROR: --topic is required'],
  [/^ERROR: topic must\b/, 'ERROR: --topic must'],
  [/^ERROR: session_id\b/, 'ERROR: --session-id'],
  [/^ERROR: from\b/, 'ERROR: --from'],
  [/^ERROR: summary\b/, 'ERROR: --summary'],
  [/^ERROR: handover_reason\b/, 'ERROR: --reason'],
  [/^ERROR: parent must\b/, 'ERROR: --parent must'],
  [/\(hop_guard_confirmed\)/g, '(--confirm-hop)'],
  [/^ERROR: decisions\b/, 'ERROR: --decision'],
  [/^ERROR: next_steps\b/, 'ERROR: --next'],
  [/^ERROR: blockers\b/, 'ERROR: --blocker'],
  [/^ERROR: artifacts\b/, 'ERROR: --artifact'],
  [/^ERROR: failed_approaches\b/, 'ERROR: --failed'],
  [/^ERROR: recent_turns\b/, 'ERROR: --turn'],
  [/set "handoff\.directory" to a folder inside the workspace, such as \.handoff/g, 'pass --dir with a folder inside the workspace, such as .handoff'],
  [/^ERROR: handoff\.directory\b/, 'ERROR: --dir'],
];

/** Rewrites engine wording (field and setting names) into the CLI's flag names. */
export function cliWording(message: string): string {
  const flagged = FIELD_FLAGS.reduce((m, [re, flag]) => m.replace(re, flag), message);
  // "--decision.0 items must …" → "--decision #1 must …": the nth use of a repeatable flag, counted from 1.
  return flagged.replace(/^ERROR: (--[\w-]+)\.(\d+)(?: items)? /, (_, flag: string, n: string) => `ERROR: ${flag} #${Number(n) + 1} `);
}

async function runHandover(values: Values, io: CliIo): Promise<number> {
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') {
    return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  }
  const maxTokens = integer(values['max-tokens'], 'max-tokens');
  const recentTurns = integer(values['recent-turns'], 'recent-turns');
  const maxDepth = integer(values['max-depth'], 'max-depth');
  for (const v of [maxTokens, recentTurns, maxDepth]) {
    if (v && typeof v === 'object') {
      return fail(io, values, v.error, EXIT_BAD_INPUT);
    }
  }
  if (typeof maxDepth === 'number' && (maxDepth < 1 || maxDepth > MAX_HOP_DEPTH)) {
    return fail(io, values, `ERROR: --max-depth must be between 1 and ${MAX_HOP_DEPTH} hops (got ${maxDepth})`, EXIT_BAD_INPUT);
  }
  const summary = await readSummary(values, io);
  if (typeof summary === 'object') {
    return fail(io, values, summary.error, EXIT_BAD_INPUT, 'summary');
  }
  const request: Record<string, unknown> = {
    specialist: values.specialist,
    topic: values.topic,
    summary,
    decisions: values.decision ?? [],
    failed_approaches: values.failed ?? [],
    next_steps: values.next ?? [],
    blockers: values.blocker ?? [],
    artifacts: values.artifact ?? [],
    recent_turns: (values.turn ?? []).map(parseTurn),
    return_condition: values['return-condition'],
    handover_reason: values.reason ?? '',
    reason_kind: values['reason-kind'],
    from: values.from,
    max_context_tokens: maxTokens,
    include_recent_turns: recentTurns,
    tokenizer: values.tokenizer,
    fit_to_budget: !values['no-fit'],
    session_id: values['session-id'],
    parent: values.parent,
    hop_guard_confirmed: values['confirm-hop'] === true,
  };
  for (const k of Object.keys(request)) {
    if (request[k] === undefined) {
      delete request[k];
    }
  }
  const mode = sessionLogMode(values, io);
  if (typeof mode === 'object') {
    return fail(io, values, mode.error, EXIT_BAD_INPUT, 'session-log');
  }
  const stateDir = cliStateDir(cwd);
  const result: HandoverResult = await handover(request, {
    workspaceRoot: cwd,
    handoffDirectory: values.dir,
    ...(values['session-id'] === undefined ? { sessionId: await cliSessionId(stateDir) } : {}),
    ...(typeof maxDepth === 'number' ? { maxHandoverDepth: maxDepth } : {}),
    sessionLog: { mode, statePath: path.join(cliStateDir(cwd), SESSION_STATE_FILE) },
  });
  if (result.status === 'error') {
    return fail(io, values, result.message, result.field === 'io' || result.field === 'internal' ? EXIT_FAILURE : EXIT_BAD_INPUT, result.field);
  }
  // A handoff ends the CLI's session for this workspace; the next command starts another.
  await rotateCliSessionId(stateDir);
  if (values.json) {
    // The same words as on stderr: flags, not engine field names.
    io.stdout(JSON.stringify({ ...result, warnings: result.warnings.map(cliWording) }, null, 2));
  } else {
    io.stdout(formatSummary(result, cwd));
  }
  for (const w of result.warnings) {
    io.stderr(escapeControls(cliWording(w)));
  }
  return EXIT_OK;
}

/** `--session-log`: auto (default), none (any case), or the path of an existing transcript (file or Cline task folder). */
function sessionLogMode(values: Values, io: CliIo): string | { error: string } {
  const raw = values['session-log'] ?? 'auto';
  const word = raw.trim().toLowerCase();
  if (word === 'auto' || word === 'none') {
    return word;
  }
  const file = path.resolve(io.cwd, raw);
  try {
    statSync(file);
  } catch {
    return { error: `ERROR: --session-log ${raw}: no such file or folder — pass the path of a transcript, "auto" or "none"` };
  }
  return file;
}

/** The summary: --summary, or --summary-file (a path, or "-" for standard input); not both. */
async function readSummary(values: Values, io: CliIo): Promise<string | { error: string }> {
  const file = values['summary-file'];
  if (file === undefined) {
    return values.summary ?? '';
  }
  if (values.summary !== undefined) {
    return { error: 'ERROR: --summary and --summary-file both given — pass one' };
  }
  try {
    if (file === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    }
    const target = path.resolve(io.cwd, file);
    if (statSync(target).size > 8 * 1024 * 1024) {
      return { error: `ERROR: --summary-file ${file} is larger than 8 MiB — a summary is at most 200,000 characters` };
    }
    return readFileSync(target, 'utf8');
  } catch (err) {
    return { error: `ERROR: --summary-file ${file} cannot be read: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}` };
  }
}

/** Environment for the receiving-side commands (prompt, record-result). */
async function cliEnvironment(cwd: string, values: Values, mode: string): Promise<HandoverEnvironment> {
  const stateDir = cliStateDir(cwd);
  return {
    workspaceRoot: cwd,
    handoffDirectory: values.dir,
    sessionId: values['session-id'] ?? (await cliSessionId(stateDir)),
    sessionLog: { mode, statePath: path.join(stateDir, SESSION_STATE_FILE) },
  };
}

async function runPrompt(values: Values, io: CliIo): Promise<number> {
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') {
    return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  }
  if ((values.handoff?.length ?? 0) > 1) {
    return fail(io, values, 'ERROR: --handoff given more than once — prompt picks up one handoff', EXIT_BAD_INPUT, 'handoff');
  }
  const result = await buildPrompt({ specialist: values.specialist, handoff: values.handoff?.[0], take: !values['no-take'] }, await cliEnvironment(cwd, values, 'none'));
  if (result.status === 'error') {
    return fail(io, values, result.message, result.field === 'internal' ? EXIT_FAILURE : EXIT_BAD_INPUT, result.field);
  }
  io.stdout(values.json ? JSON.stringify(result, null, 2) : result.prompt);
  result.warnings.forEach((w) => io.stderr(escapeControls(cliWording(w))));
  return EXIT_OK;
}

async function runRecordResult(values: Values, io: CliIo): Promise<number> {
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') {
    return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  }
  const summary = await readSummary(values, io);
  if (typeof summary === 'object') {
    return fail(io, values, summary.error, EXIT_BAD_INPUT, 'summary');
  }
  const mode = sessionLogMode(values, io);
  if (typeof mode === 'object') {
    return fail(io, values, mode.error, EXIT_BAD_INPUT, 'session-log');
  }
  const met = values.met ?? [];
  const request = {
    specialist: values.specialist,
    handoffs: values.handoff ?? [],
    summary,
    criteria_met: met.some((m) => m.trim().toLowerCase() === 'all') ? 'all' : met,
    next_steps: values.next ?? [],
    blockers: values.blocker ?? [],
    proceed_if_taken: values['proceed-if-taken'] === true,
    ...(values.tokenizer ? { tokenizer: values.tokenizer } : {}),
  };
  const result = await recordResult(request, await cliEnvironment(cwd, values, mode));
  if (result.status === 'error') {
    return fail(io, values, result.message, result.field === 'io' || result.field === 'internal' ? EXIT_FAILURE : EXIT_BAD_INPUT, result.field);
  }
  if (values.json) {
    io.stdout(JSON.stringify(result, null, 2));
  } else {
    io.stdout([...result.summary, ...result.entries.map((e) => `result: ${path.relative(cwd, e.result_file)}`), ...(result.note_file ? [`note: ${path.relative(cwd, result.note_file)}`] : [])].join('\n'));
  }
  result.warnings.forEach((w) => io.stderr(escapeControls(cliWording(w))));
  return result.failures.length && !result.entries.length && !result.note_file ? EXIT_FAILURE : EXIT_OK;
}

/**
 * The workspace of --cwd ({@link resolveWorkspace}) and its handoff root (--dir), or the
 * exit code after the `ERROR:` naming the bad flag was printed.
 */
async function workspaceAndRoot(values: Values, io: CliIo): Promise<{ cwd: string; root: string } | number> {
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') {
    return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  }
  const root = resolveHandoffRoot(cwd, values.dir);
  if (!root.ok) {
    return fail(io, values, root.message, EXIT_BAD_INPUT, 'handoff.directory');
  }
  return { cwd, root: root.path };
}

async function runSpecialists(values: Values, io: CliIo): Promise<number> {
  const ws = await workspaceAndRoot(values, io);
  if (typeof ws === 'number') return ws;
  const { cwd, root } = ws;
  const { registry, warnings } = await loadRegistry(root, cwd);
  const all = registry.all();
  if (values.json) {
    io.stdout(
      JSON.stringify(
        all.map(describeSpecialist),
        null,
        2,
      ),
    );
  } else {
    const width = Math.max(...all.map((s) => s.id.length));
    for (const s of all) {
      io.stdout(`${s.id.padEnd(width)}  ${s.personaMarker}${s.source !== 'builtin' ? ` (${s.source}: ${s.file})` : ''}\n${' '.repeat(width + 2)}${s.mandate}`);
    }
  }
  for (const w of warnings) {
    io.stderr(`WARNING: ${w}`);
  }
  return EXIT_OK;
}

const VALUE_OPTIONS = new Set(
  Object.entries(OPTIONS)
    .filter(([, o]) => o.type === 'string')
    .flatMap(([name, o]) => [`--${name}`, ...('short' in o ? [`-${o.short}`] : [])]),
);

/** `--max-tokens -5` → `--max-tokens=-5`, so a negative number reaches validation instead of being read as an option. */
export function joinNegativeNumbers(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = argv[i + 1];
    if (VALUE_OPTIONS.has(a) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else {
      out.push(a);
    }
  }
  return out;
}

/**
 * Runs the CLI with `argv` (without `node` and the script path).
 * @returns the exit code; never throws (unexpected failures print `ERROR:` and return 1)
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  const args = joinNegativeNumbers(argv);
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    const message = (err as Error).message;
    const ambiguous = /Option '(?:-\w, )?(--[\w-]+)[^']*' argument is ambiguous/.exec(message);
    const first = ambiguous
      ? `${ambiguous[1]} needs a value; to pass one that starts with "-", write ${ambiguous[1]}=-value`
      : (message.split('\n')[0] ?? '').replace(/\. To specify a positional argument.*$/, '').replace(/\.$/, '');
    // `hook` never exits 2 (Claude Code blocks on 2), not even for a mistyped option.
    const code = args.find((a) => !a.startsWith('-')) === 'hook' ? EXIT_FAILURE : EXIT_BAD_INPUT;
    return fail(io, { json: args.includes('--json') }, `ERROR: ${first} — run "specialist-handoff --help" for the options`, code);
  }
  const { values, positionals } = parsed;
  if (values.version) {
    io.stdout(VERSION);
    return EXIT_OK;
  }
  const command = positionals[0];
  if (values.help || command === 'help') {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  if (!command) {
    io.stdout(USAGE);
    return fail(io, values, `ERROR: no command given — use ${COMMAND_LIST} (usage above)`, EXIT_BAD_INPUT);
  }
  if (positionals.length > 1) {
    return fail(io, values, `ERROR: unexpected argument "${positionals[1]}" — quote text that contains spaces, e.g. --summary "two words"`, command === 'hook' ? EXIT_FAILURE : EXIT_BAD_INPUT);
  }
  try {
    switch (command) {
      case 'handover':
        return await runHandover(values, io);
      case 'specialists':
        return await runSpecialists(values, io);
      case 'prompt':
        return await runPrompt(values, io);
      case 'record-result':
        return await runRecordResult(values, io);
      case 'mcp':
        return await runMcp(values, io);
      case 'hook':
        return await runHook(values, io);
      case 'export-agents':
        return await runExportAgents(values, io);
      default:
        return fail(io, values, `ERROR: unknown command "${command}" — use ${COMMAND_LIST}`, EXIT_BAD_INPUT);
    }
  } catch (err) {
    return fail(io, values, `ERROR: ${(err as Error)?.message ?? String(err)}`, EXIT_FAILURE, 'internal');
  }
}

/** The commands, as error messages list them. */
const COMMAND_LIST = '"handover", "prompt", "record-result", "specialists", "mcp", "hook" or "export-agents"';

/**
 * `export-agents`: the specialists written to the agent folders of VS Code and Claude Code
 * (src/engine/exportAgents.ts). Prints the summary (or the result object with --json);
 * exit 0 done, 1 a file could not be written, 2 bad input.
 */
async function runExportAgents(values: Values, io: CliIo): Promise<number> {
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') {
    return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  }
  const result = await exportAgents({ target: values.target, force: values.force }, { workspaceRoot: cwd, handoffDirectory: values.dir });
  const code = exportAgentsExitCode(result);
  if (result.status === 'error') {
    return fail(io, values, cliWording(result.message), code, result.field);
  }
  if (values.json) {
    io.stdout(JSON.stringify(result, null, 2));
  } else {
    io.stdout(formatExportSummary(result));
  }
  for (const w of result.warnings) {
    io.stderr(w.startsWith('WARNING:') ? w : `WARNING: ${w}`);
  }
  return code;
}

/**
 * `mcp`: serves MCP on stdio (src/mcp/server.ts) for the workspace of --cwd until the
 * client closes standard input; a call's `project_root` may name that workspace only. The
 * server module (and the MCP SDK, about 100 ms to load) is loaded only here. Tool calls use the CLI's environment: its session id and
 * session-log state, the session log found automatically; a handoff starts a new CLI
 * session, as `handover` does. Console output is sent to stderr while serving: stdout is
 * the protocol.
 */
async function runMcp(values: Values, io: CliIo): Promise<number> {
  // The handoff root is checked up front, so a bad --dir fails before the server starts.
  const ws = await workspaceAndRoot(values, io);
  if (typeof ws === 'number') return ws;
  const { cwd } = ws;
  // Loaded lazily so the other commands never pay for the SDK; esbuild bundles it all the same.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mcp = require('../mcp/server') as typeof McpServerModule;
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  try {
    io.stderr(`specialist-handoff ${VERSION}: MCP server on stdio for ${cwd}`);
    await mcp.serveStdio({
      version: VERSION,
      defaultRoot: cwd,
      // The server serves one project: a call's project_root must name it. Without this an
      // agent (or text injected into one) could write handoffs into /, /etc or another
      // repository, through a link or by naming it.
      allowedRoots: [cwd],
      environment: (project) => cliEnvironment(project, values, 'auto'),
      onHandover: async (project) => {
        await rotateCliSessionId(cliStateDir(project));
      },
      log: (line) => io.stderr(`specialist-handoff mcp: ${escapeControls(line)}`),
    });
  } finally {
    Object.assign(console, saved);
  }
  return EXIT_OK;
}

/** Reads the process's standard input whole, refusing a terminal (nothing would ever arrive) and more than `maxBytes`. */
async function readProcessStdin(maxBytes: number): Promise<string | { error: string }> {
  if (process.stdin.isTTY) {
    return { error: 'ERROR: the hook input must be piped to standard input (it is a terminal) — run this from a Claude Code hook, or pipe the JSON in: echo \'{…}\' | specialist-handoff hook' };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of process.stdin) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buf.length;
      if (size > maxBytes) {
        return { error: `ERROR: the hook input on standard input is larger than ${formatCount(maxBytes)} bytes — pipe in the hook's JSON only` };
      }
      chunks.push(buf);
    }
  } catch (err) {
    return { error: `ERROR: standard input cannot be read: ${(err as Error).message}` };
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `hook`: a safety-net handoff from a Claude Code hook (SessionEnd, PreCompact). Reads
 * the hook's JSON from standard input, takes the workspace from its `cwd` (or --cwd), the
 * session log from its `transcript_path` (git only when that file is missing) and records
 * Claude Code's `session_id`. Specialist: --specialist, default implementation_engineer;
 * topic: --topic, default the branch or `session <short id>`. Outside a git repository it
 * writes nothing (exit 0) unless --cwd names the folder. One line on stderr; exit 0
 * written or skipped, 1 on every error (never 2: Claude Code would block on it).
 */
async function runHook(values: Values, io: CliIo): Promise<number> {
  const raw = await (io.readStdin ?? readProcessStdin)(MAX_HOOK_INPUT_BYTES);
  if (typeof raw !== 'string') {
    return fail(io, values, raw.error, EXIT_FAILURE, 'stdin');
  }
  const parsed = parseClaudeHookInput(raw);
  if (!parsed.ok) {
    return fail(io, values, parsed.message, EXIT_FAILURE, 'stdin');
  }
  const input = parsed.input;
  // The event in words for the stderr line, without a secret a reason might carry (DESIGN §7).
  const event = (await redactSecrets(describeHookEvent(input))).text;
  const cwd = await resolveWorkspace({ ...values, cwd: values.cwd ?? input.cwd }, io);
  if (typeof cwd !== 'string') {
    return fail(io, values, cwd.error.replace(/^ERROR: --cwd/, values.cwd ? 'ERROR: --cwd' : "ERROR: the hook input's cwd"), EXIT_FAILURE, 'cwd');
  }
  // A hook set up for every project (~/.claude/settings.json) also runs in sessions outside
  // any repository — the home folder, /tmp, / — and must not leave a .handoff folder there.
  // Only an explicit --cwd writes outside git.
  if (values.cwd === undefined && !(await findRepositoryRoot(cwd))) {
    io.stderr(escapeControls(`specialist-handoff hook: ${event}: nothing written — ${cwd} is not in a git repository (the safety net writes only into git projects; pass --cwd ${cwd} to write one there anyway)`));
    return EXIT_OK;
  }
  const transcript = path.resolve(input.cwd, input.transcript_path);
  let transcriptFound: boolean;
  try {
    transcriptFound = statSync(transcript).isFile();
  } catch {
    transcriptFound = false;
  }
  const env: HandoverEnvironment = {
    workspaceRoot: cwd,
    handoffDirectory: values.dir,
    sessionId: input.session_id,
    sessionLog: { mode: transcriptFound ? transcript : 'none', statePath: path.join(cliStateDir(cwd), SESSION_STATE_FILE) },
  };
  // Without --topic the branch names it: collect git once and hand the evidence on.
  const evidence = values.topic === undefined ? await collectEvidenceFor(env) : undefined;
  const request = {
    specialist: values.specialist ?? DEFAULT_HOOK_SPECIALIST,
    topic: values.topic ?? defaultHookTopic(evidence?.branch ?? null, input.session_id),
    summary: hookSummary(input, transcriptFound),
    handover_reason: hookHandoverReason(input),
    reason_kind: 'end_of_session',
    from: 'claude-code',
    session_id: input.session_id,
  };
  const result = await handover(request, evidence ? { ...env, evidence } : env);
  if (result.status === 'error') {
    return fail(io, values, `${result.message} (Claude Code ${event} hook; nothing was written)`, EXIT_FAILURE, result.field);
  }
  const p = result.package;
  const files = p.touched_files.length + p.touched_files_omitted;
  const notes = [
    `${formatCount(files)} file${files === 1 ? '' : 's'}`,
    `${formatCount(p.tests_run.length)} test run${p.tests_run.length === 1 ? '' : 's'}`,
    `${formatCount(p.recent_turns.length)} turn${p.recent_turns.length === 1 ? '' : 's'}`,
    ...(transcriptFound ? [] : ['transcript not found: git only']),
    ...(result.warnings.length ? [`${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}`] : []),
  ];
  const rel = path.relative(cwd, result.handoff_file).split(path.sep).join('/');
  io.stderr(escapeControls(`specialist-handoff hook: ${event}: safety-net handoff to ${result.persona_marker} written: ${rel} (${notes.join(', ')})`));
  return EXIT_OK;
}

if (require.main === module) {
  // A closed pipe (`specialist-handoff specialists | head`) ends the output quietly; any
  // other stdout failure (a full disk behind a redirect) is one ERROR line and exit 1.
  const onStdoutError = (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') {
      process.stderr.write(`ERROR: could not write the output: ${err.message}\n`);
    }
    process.exit(err.code === 'EPIPE' ? EXIT_OK : EXIT_FAILURE);
  };
  process.stdout.on('error', onStdoutError);
  void runCli(process.argv.slice(2), {
    stdout: (t) => {
      process.stdout.write(`${t}\n`);
    },
    stderr: (t) => {
      process.stderr.write(`${t}\n`);
    },
    cwd: process.cwd(),
  }).then((code) => {
    process.exitCode = process.exitCode || code;
  });
}
