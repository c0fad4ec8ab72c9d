/**
 * Codex CLI rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, one JSON record per
 * line (`{timestamp, type, payload}`): `session_meta` (with the session's `cwd`),
 * `response_item` (messages, function calls and their outputs, custom tool calls such as
 * `apply_patch`), `event_msg` (user / agent messages, `exec_command_end`, `turn_aborted`).
 * Read as a stream from a byte offset.
 *
 * - Shell calls (`shell`, `exec_command`, `local_shell_call`, `shell_command`) become
 *   commands. The exit code comes from the output's metadata, an "Exit code: N" or
 *   "Process exited with code N" line, or an `exec_command_end` event; otherwise it is
 *   unknown. A call with no output before the turn was aborted, or at all, did not run.
 * - `apply_patch` adds, updates, deletes and moves become file edits.
 * - `update_plan` calls (and the `plan_update` event they emit) become plan snapshots (./planTools.ts).
 * - User and assistant messages become turns (the `response_item` copy; the duplicate
 *   `event_msg` copy is used only when a file has no response items), without injected
 *   environment context.
 */
import { cleanTurnText, countBadRecord, outputTail, type SessionCommand, type SessionPlan, type TranscriptRead } from '../../../core/session/events';
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
}

/** The record types of a rollout (`{timestamp, type, payload}`), each with a `payload` object. */
const ROLLOUT_TYPES: ReadonlySet<string> = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

/** The command line of a shell call's arguments: `command` as an array or a string, or `cmd`. */
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

/** Exit code and text of a function call output (JSON with metadata, or text with an exit line). */
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

/** Paths an `apply_patch` input touches: Add / Update / Delete File lines and Move to targets. */
export function patchPaths(patch: string): string[] {
  const paths: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:(?:Add|Update|Delete) File|Move to): (.+?)\s*$/gm)) {
    paths.push(m[1]);
  }
  return paths;
}

/** Reads one Codex rollout from `opts.fromOffset`. Never throws. */
export async function readCodex(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  const pending = new PendingCalls<PendingCall>();
  // Settled commands whose exit code is still unknown, for an `exec_command_end` that comes
  // after the output: only those can still change (every settled command was kept here before,
  // with its output, for the whole read: issue 19).
  const done = new PendingCalls<SessionCommand>();
  let cwd: string | null = null;
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
    const cmd: SessionCommand = { kind: 'command', command: call.command, cwd: call.cwd, exit_code: exit, ran: true, output_tail: outputTail(text), time: call.time, duration_ms: durationMs };
    // The newest call of an id is the one a later exit names; one with its exit known never changes.
    if (exit === null) done.set(id, cmd);
    else done.take(id);
    acc.add(cmd);
  };
  const abandon = () => {
    for (const call of pending.values()) {
      acc.add({ kind: 'command', command: call.command, cwd: call.cwd, exit_code: null, ran: false, time: call.time });
    }
    pending.clear();
  };

  try {
    const { endOffset, stats } = await forEachJsonLine(file, opts.fromOffset ?? 0, (d, info) => {
      const time = str(d.timestamp);
      const p = obj(d.payload);
      const type = str(d.type);
      if (!p || !type) {
        // A rollout record without its payload object is the wrong shape; other lines (older rollouts' `record_type`) are skipped.
        if (type && ROLLOUT_TYPES.has(type)) countBadRecord(info.stats, info.line, 'line');
        else info.stats.skipped++;
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
            const text = cleanTurnText(textOf(p.content));
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
            if (command) {
              pending.set(id, { command, cwd: str(args.workdir) ?? str(args.working_directory) ?? cwd, time });
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
      if (type !== 'compacted') info.stats.skipped++;
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

/** The `cwd` of a rollout's first `session_meta` record (its first line, of any length: the fields before its cut), or undefined. */
export async function codexSessionCwd(file: string): Promise<string | undefined> {
  const head = await firstRecordHead(file);
  const cwd = head?.values.get('type') === 'session_meta' ? head.values.get('payload.cwd') : undefined;
  return typeof cwd === 'string' ? cwd : undefined;
}
