// Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): `{timestamp, type, payload}` records of type
// `session_meta` (`cwd`), `turn_context`, `response_item` (messages, function calls and outputs, custom tool calls such
// as `apply_patch`), `event_msg` (user / agent messages, `exec_command_end`, `turn_aborted`, `plan_update`), `compacted`.
// Older rollouts have no envelope: a header `{id, timestamp, instructions, cwd?}`, `{record_type: "state"}` markers and
// bare response items. Turns come from `response_item` messages; the `event_msg` copies only when a file has none.
import { cleanTurnText, countBadRecord, outputTail, type SessionCommand, type SessionPlan, type TranscriptRead } from '../../../core/session/events';
import path from 'node:path';
import { firstRecordHead } from '../jsonLinesFormat';
import { forEachJsonLine } from '../lines';
import { PendingCalls, accumulator, obj, relativePath, str, textOf, transcriptRead, unreadable, type ReaderOptions } from './common';
import { codexUpdatePlan } from './planTools';

const SHELL_CALLS = new Set(['shell', 'exec_command', 'shell_command', 'container.exec', 'local_shell']);
const MAX_PENDING = 2000;

interface PendingCall {
  readonly command: string;
  readonly cwd: string | null;
  readonly time?: string;
  /** An `apply_patch` run through the shell tool: edits, not a command. */
  readonly patch?: { readonly files: readonly string[]; readonly dir: string | null };
}

/** Response items as older rollouts hold them: bare, without the envelope. */
const BARE_ITEM_TYPES: ReadonlySet<string> = new Set([
  'message',
  'function_call',
  'function_call_output',
  'local_shell_call',
  'local_shell_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'reasoning',
  'web_search_call',
]);

const ROLLOUT_TYPES: ReadonlySet<string> = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

/** `command` as an array or a string, or `cmd`. */
export function codexCommand(args: Record<string, unknown>): string | undefined {
  const c = args.command ?? args.cmd;
  if (Array.isArray(c)) {
    const parts = c.map(String);
    // ["bash", "-lc", "npm test"] → "npm test"
    if (parts.length === 3 && /(?:^|\/)(?:ba|z|da)?sh$/.test(parts[0]) && /^-\w*c$/.test(parts[1])) {
      return parts[2];
    }
    return parts.join(' ');
  }
  return typeof c === 'string' ? c : undefined;
}

/** From the output's JSON metadata, else an "Exit code: N" / "Process exited with code N" line. */
export function codexOutput(raw: unknown): { exit: number | null; text: string; durationMs: number | null } {
  let text = typeof raw === 'string' ? raw : textOf(raw);
  let exit: number | null = null;
  let durationMs: number | null = null;
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const j = JSON.parse(trimmed) as Record<string, unknown>;
      const meta = obj(j.metadata);
      if (meta && typeof meta.exit_code === 'number') exit = meta.exit_code;
      if (meta && typeof meta.duration_seconds === 'number') durationMs = Math.round(meta.duration_seconds * 1000);
      if (typeof j.output === 'string') text = j.output;
    } catch {
      // plain text that starts with "{"
    }
  }
  if (exit === null) {
    const m = /^(?:Exit code:|Process exited with code)\s*(-?\d+)/m.exec(text);
    if (m) exit = Number(m[1]);
  }
  return { exit, text, durationMs };
}

/** codex-rs `apply-patch`: `apply_patch` and its alias `applypatch`. */
const PATCH_PROGRAM = '(?:apply_patch|applypatch)';
const PATCH_ARGV0 = new RegExp(`^${PATCH_PROGRAM}$`);
/** `[cd DIR &&] apply_patch <<'EOF'` … `EOF`, the heredoc form the shell tool runs (codex-rs `maybe_parse_apply_patch`). */
const PATCH_HEREDOC = new RegExp(
  `^\\s*(?:cd\\s+('[^']*'|"[^"]*"|[^\\s&;]+)\\s*&&\\s*)?${PATCH_PROGRAM}\\s*<<-?\\s*(['"]?)([\\w-]+)\\2[ \\t]*\\r?\\n([\\s\\S]*?)\\r?\\n\\3\\s*$`,
);
const PATCH_ARGUMENT = new RegExp(`^\\s*${PATCH_PROGRAM}\\s+(['"])([\\s\\S]*)\\1\\s*$`);

/**
 * A shell call running `apply_patch` (older rollouts and the VS Code extension edit this way): `["apply_patch", PATCH]`,
 * `["bash", "-lc", "apply_patch <<'PATCH' … PATCH"]` (optionally after `cd DIR &&`), or one command string.
 */
export function shellPatch(args: Record<string, unknown>): { patch: string; dir?: string } | undefined {
  const c = args.command ?? args.cmd;
  if (Array.isArray(c) && c.length === 2 && PATCH_ARGV0.test(String(c[0]))) return { patch: String(c[1]) };
  const script = codexCommand(args);
  if (!script || !script.includes('*** Begin Patch')) return undefined;
  const heredoc = PATCH_HEREDOC.exec(script);
  if (heredoc) return { patch: heredoc[4], ...(heredoc[1] ? { dir: heredoc[1].replace(/^(['"])(.*)\1$/, '$2') } : {}) };
  const quoted = PATCH_ARGUMENT.exec(script);
  return quoted ? { patch: quoted[2] } : undefined;
}

/** Add / Update / Delete File lines and Move to targets. */
export function patchPaths(patch: string): string[] {
  const paths: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:(?:Add|Update|Delete) File|Move to): (.+?)\s*$/gm)) {
    paths.push(m[1]);
  }
  return paths;
}

/** From `opts.fromOffset`. Never throws. */
export async function readCodex(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  const pending = new PendingCalls<PendingCall>();
  // Settled commands whose exit code is unknown, for an `exec_command_end` that comes after the output.
  const done = new PendingCalls<SessionCommand>();
  let cwd: string | null = null;
  let headerTime: string | undefined;
  let sawResponseMessages = false;
  const fallbackTurns: Array<{ role: 'user' | 'assistant'; text: string; time?: string }> = [];
  let plan: SessionPlan | undefined;
  const addPlan = (args: Record<string, unknown>, time: string | undefined) => {
    const next = codexUpdatePlan(args, plan, time);
    if (next) acc.add((plan = next));
  };

  const settle = (id: string, exit: number | null, text: string | undefined, durationMs: number | null) => {
    const call = pending.take(id);
    if (!call) return;
    if (call.patch) {
      // A patch run through the shell: its files are edits when it applied, never a command.
      if (exit !== null && exit !== 0) return;
      const dir = call.patch.dir;
      for (const f of call.patch.files) {
        const full = dir && path.isAbsolute(dir) ? path.resolve(dir, f) : f;
        acc.add({ kind: 'file_edit', path: relativePath(full, call.cwd ?? opts.workspaceRoot), tool: 'apply_patch', time: call.time });
      }
      return;
    }
    const cmd: SessionCommand = {
      kind: 'command',
      command: call.command,
      cwd: call.cwd,
      exit_code: exit,
      ran: true,
      output_tail: outputTail(text),
      time: call.time,
      duration_ms: durationMs,
    };
    // The newest call of an id is the one a later exit names; one with its exit known never changes.
    if (exit === null) done.set(id, cmd);
    else done.take(id);
    acc.add(cmd);
  };
  const abandon = () => {
    for (const call of pending.values()) {
      if (call.patch) continue;
      acc.add({ kind: 'command', command: call.command, cwd: call.cwd, exit_code: null, ran: false, time: call.time });
    }
    pending.clear();
  };

  try {
    const { endOffset, stats } = await forEachJsonLine(file, opts.fromOffset ?? 0, (d, info) => {
      let time = str(d.timestamp);
      let p = obj(d.payload);
      let type = str(d.type);
      if (!p && type && BARE_ITEM_TYPES.has(type)) {
        // An older rollout: the response item itself, timed by the header.
        p = d;
        type = 'response_item';
        time = time ?? headerTime;
      }
      if (!p || !type) {
        if (type && ROLLOUT_TYPES.has(type)) {
          // A rollout record without its payload object is the wrong shape.
          countBadRecord(info.stats, info.line, 'line');
        } else if (d.record_type !== undefined) {
          // The older rollouts' state marker: nothing to read.
        } else if (!type && info.line === 1 && (opts.fromOffset ?? 0) === 0 && str(d.id) && time) {
          // The older rollouts' header `{id, timestamp, instructions, cwd?, git?}`.
          cwd = str(d.cwd) ?? cwd;
          headerTime = time;
        } else {
          info.stats.skipped++;
        }
        return true;
      }
      if (type === 'session_meta' || type === 'turn_context') {
        cwd = str(p.cwd) ?? cwd;
        return true;
      }
      const ptype = str(p.type);
      if (type === 'response_item') {
        if (ptype === 'message') {
          const role = p.role === 'assistant' ? 'assistant' : p.role === 'user' ? 'user' : undefined;
          if (role) {
            // From now on the event_msg copies are never used: stop keeping them.
            if (!sawResponseMessages) fallbackTurns.length = 0;
            sawResponseMessages = true;
            const raw = textOf(p.content);
            // Rollouts without a cwd in their header name it in the injected environment context.
            if (!cwd && role === 'user') cwd = /<environment_context>[\s\S]*?<cwd>([^<]+)<\/cwd>/.exec(raw)?.[1]?.trim() ?? cwd;
            const text = cleanTurnText(raw);
            if (text) acc.add({ kind: 'turn', role, text, ...(time ? { time } : {}) });
          }
        } else if (ptype === 'function_call' || ptype === 'local_shell_call') {
          const name = str(p.name) ?? (ptype === 'local_shell_call' ? 'local_shell' : '');
          const id = str(p.call_id) ?? str(p.id);
          let args: Record<string, unknown> = obj(p.action) ?? {};
          if (typeof p.arguments === 'string') {
            try {
              args = (JSON.parse(p.arguments) as Record<string, unknown>) ?? {};
            } catch {
              args = {};
            }
          }
          if (name === 'update_plan') {
            addPlan(args, time);
          } else if (name === 'apply_patch') {
            for (const f of patchPaths(str(args.input) ?? str(args.patch) ?? '')) {
              acc.add({ kind: 'file_edit', path: relativePath(f, cwd ?? opts.workspaceRoot), tool: 'apply_patch', time });
            }
          } else if (SHELL_CALLS.has(name) && id) {
            const command = codexCommand(args);
            const sp = shellPatch(args);
            const callCwd = str(args.workdir) ?? str(args.working_directory) ?? cwd;
            if (command) {
              const patch = sp ? { files: patchPaths(sp.patch), dir: sp.dir ? (callCwd ? path.resolve(callCwd, sp.dir) : sp.dir) : callCwd } : undefined;
              pending.set(id, { command, cwd: callCwd, time, ...(patch ? { patch } : {}) });
              if (pending.size > MAX_PENDING) abandon();
            }
          }
        } else if (ptype === 'function_call_output' || ptype === 'local_shell_call_output') {
          const id = str(p.call_id);
          if (id) {
            const out = codexOutput(p.output);
            settle(id, out.exit, out.text, out.durationMs);
          }
        } else if (ptype === 'custom_tool_call' && p.name === 'apply_patch') {
          for (const f of patchPaths(str(p.input) ?? '')) {
            acc.add({ kind: 'file_edit', path: relativePath(f, cwd ?? opts.workspaceRoot), tool: 'apply_patch', time });
          }
        }
        return true;
      }
      if (type === 'event_msg') {
        if (ptype === 'exec_command_end') {
          const id = str(p.call_id);
          const exit = typeof p.exit_code === 'number' ? p.exit_code : null;
          const cmd = id ? done.get(id) : undefined;
          if (id && pending.get(id) !== undefined) {
            settle(id, exit, str(p.aggregated_output) ?? str(p.stdout), null);
          } else if (id && cmd && cmd.exit_code === null && exit !== null) {
            (cmd as { exit_code: number | null }).exit_code = exit;
            done.take(id);
          }
        } else if (ptype === 'turn_aborted') {
          abandon();
        } else if (ptype === 'plan_update') {
          // The event the update_plan call emits (persisted by some versions): the same snapshot.
          addPlan(p, time);
        } else if (ptype === 'user_message' || ptype === 'agent_message') {
          const text = cleanTurnText(str(p.message) ?? '');
          if (text && !sawResponseMessages) fallbackTurns.push({ role: ptype === 'user_message' ? 'user' : 'assistant', text, time });
        }
        return true;
      }
      // `{message, replacement_history?}`: a server compaction's summary is encrypted in `replacement_history`, not read.
      if (type === 'compacted') {
        acc.add({ kind: 'compaction', text: compactionSummary(str(p.message) ?? ''), ...(time ? { time } : {}) });
      } else {
        info.stats.skipped++;
      }
      return true;
    });
    abandon();
    if (!sawResponseMessages) {
      for (const t of fallbackTurns) acc.add({ kind: 'turn', role: t.role, text: t.text, ...(t.time ? { time: t.time } : {}) });
    }
    return transcriptRead('codex', file, acc, stats, endOffset);
  } catch (err) {
    return unreadable('codex', file, err);
  }
}

/** codex-rs `SUMMARY_PREFIX` ("Another language model started to solve this problem and produced a summary …"): not the summary. */
const SUMMARY_PREFIX_LINE = /^Another language model started to solve this problem and produced a summary\b[^\n]*(?:\n|$)/;

function compactionSummary(message: string): string {
  return message.replace(SUMMARY_PREFIX_LINE, '').trim();
}

/** A `session_meta` payload's `cwd`, or an older header's; the first record may be of any length. */
export async function codexSessionCwd(file: string): Promise<string | undefined> {
  const head = await firstRecordHead(file);
  const type = head?.values.get('type');
  const cwd = type === 'session_meta' ? head?.values.get('payload.cwd') : type === undefined && head?.keys.has('id') ? head.values.get('cwd') : undefined;
  return typeof cwd === 'string' ? cwd : undefined;
}
