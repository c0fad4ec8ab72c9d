// Claude Code `~/.claude/projects/<workspace path, '/' and '.' → '-'>/<session>.jsonl` (sub-agents under
// `<session>/subagents/`): `user` / `assistant` records whose content holds text, `tool_use` and `tool_result` blocks.
// A Bash result with `is_error: false` means exit 0 (a non-zero exit is an error result, "Exit code N"). A compaction
// is a `system` `compact_boundary` record (`compactMetadata.trigger`) then a user-role `isCompactSummary` record.
import { cleanTurnText, countBadRecord, outputTail, type SessionCommand, type TranscriptRead } from '../../../core/session/events';
import { forEachJsonLine } from '../lines';
import { BashModeCommands } from './claudeBashMode';
import { PendingCalls, accumulator, obj, relativePath, str, textOf, transcriptRead, unreadable, type ReaderOptions } from './common';
import { ClaudeTaskList, claudeTodoWritePlan } from './planTools';

const EDIT_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
const SHELL_TOOLS = new Set(['Bash', 'BashOutput']);
/** `TodoWrite` replaces the whole list; the task tools of 2.1.16+ change one item each. */
const PLAN_TOOLS = new Set(['TodoWrite', 'TaskCreate', 'TaskUpdate']);
const QUIET_TYPES = new Set([
  'queue-operation',
  'attachment',
  'ai-title',
  'last-prompt',
  'summary',
  'system',
  'file-history-snapshot',
  'progress',
  'custom-title',
  'tag',
]);
const MAX_PENDING = 2000;
const REJECTED = /doesn't want to proceed|tool use was rejected|\[Request interrupted by user|user rejected|Permission to use \w+ (?:has been )?denied/i;

interface PendingUse {
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly time?: string;
  readonly cwd?: string;
  readonly sidechain?: boolean;
}

interface ToolResult {
  readonly isError: boolean;
  readonly text: string;
  readonly interrupted: boolean;
  readonly stdout?: string;
  readonly stderr?: string;
  readonly time?: string;
}

/** From `opts.fromOffset`. Never throws. */
export async function readClaudeCode(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  const tasks = new ClaudeTaskList(opts.plan);
  const pending = new PendingCalls<PendingUse>();
  const early = new PendingCalls<ToolResult>();
  const bashMode = new BashModeCommands((c) => acc.add(c));
  // A compact_boundary waiting for its summary record (the next user record marked isCompactSummary).
  let boundary: { readonly trigger?: 'manual' | 'auto'; readonly time?: string } | undefined;
  const compacted = (text: string, time: string | undefined): void => {
    const at = boundary?.time ?? time;
    acc.add({ kind: 'compaction', text, ...(boundary?.trigger ? { trigger: boundary.trigger } : {}), ...(at ? { time: at } : {}) });
    boundary = undefined;
  };

  const finish = (use: PendingUse, r: ToolResult | undefined): void => {
    const base = use.cwd ?? opts.workspaceRoot;
    if (PLAN_TOOLS.has(use.name)) {
      // A sub-agent's calls (sidechain lines) are not the session's plan; a refused call changes nothing.
      if (use.sidechain || (r && (r.isError || REJECTED.test(r.text)))) return;
      const plan = use.name === 'TodoWrite' ? claudeTodoWritePlan(use.input, use.time) : tasks.apply(use.name, use.input, r?.text, use.time);
      if (plan && use.name === 'TodoWrite') tasks.reset(plan);
      if (plan) acc.add(plan);
    } else if (SHELL_TOOLS.has(use.name)) {
      const command = str(use.input.command);
      if (!command) return;
      const rejected = !r || r.interrupted || REJECTED.test(r.text);
      const exit = r && !rejected ? (r.isError ? numberFromExit(r.text) : 0) : null;
      const output = r ? [r.stdout, r.stderr].filter(Boolean).join('\n') || r.text : undefined;
      const cmd: SessionCommand = {
        kind: 'command',
        command,
        cwd: use.cwd ?? null,
        exit_code: exit,
        failed: !!r && !rejected && r.isError,
        ran: !rejected,
        output_tail: outputTail(output),
        time: use.time,
      };
      acc.add(cmd);
    } else if (EDIT_TOOLS.has(use.name) && r && !r.isError && !REJECTED.test(r.text)) {
      const p = str(use.input.file_path) ?? str(use.input.notebook_path);
      if (p) acc.add({ kind: 'file_edit', path: relativePath(p, base ?? undefined), tool: use.name, time: use.time });
    }
  };

  try {
    const { endOffset, stats } = await forEachJsonLine(file, opts.fromOffset ?? 0, (d, info) => {
      const type = str(d.type);
      const time = str(d.timestamp);
      const cwd = str(d.cwd);
      if (type === 'system' && d.subtype === 'compact_boundary' && d.isSidechain !== true) {
        if (boundary) compacted('', undefined);
        const trigger = obj(d.compactMetadata)?.trigger;
        boundary = { ...(trigger === 'manual' || trigger === 'auto' ? { trigger } : {}), ...(time ? { time } : {}) };
        return true;
      }
      if (type !== 'user' && type !== 'assistant') {
        if (!type || !QUIET_TYPES.has(type)) info.stats.skipped++;
        return true;
      }
      const message = obj(d.message);
      if (!message) {
        // A user or assistant record without its message: the wrong shape, not a record type to skip.
        countBadRecord(info.stats, info.line, 'line');
        return true;
      }
      const role = type === 'assistant' ? 'assistant' : 'user';
      const content = message.content;
      const texts: string[] = [];
      if (typeof content === 'string') {
        texts.push(content);
        if (role === 'user' && d.isSidechain !== true) bashMode.line(content, time, cwd);
      } else if (Array.isArray(content)) {
        const lineResult = obj(d.toolUseResult);
        for (const block of content) {
          const b = obj(block);
          if (!b) continue;
          if (b.type === 'text' && typeof b.text === 'string') {
            texts.push(b.text);
          } else if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string') {
            const use: PendingUse = { name: b.name, input: obj(b.input) ?? {}, time, cwd, sidechain: d.isSidechain === true };
            const r = early.take(b.id);
            if (r) {
              finish(use, r);
            } else {
              pending.set(b.id, use);
              if (pending.size > MAX_PENDING) finish(pending.shift() as PendingUse, undefined);
            }
          } else if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') {
            const r: ToolResult = {
              isError: b.is_error === true,
              text: textOf(b.content),
              interrupted: lineResult?.interrupted === true,
              stdout: str(lineResult?.stdout),
              stderr: str(lineResult?.stderr),
              time,
            };
            const use = pending.take(b.tool_use_id);
            if (use) {
              finish(use, r);
            } else if (early.size < MAX_PENDING) {
              early.set(b.tool_use_id, r);
            }
          }
        }
      }
      if (d.isCompactSummary === true && d.isSidechain !== true) {
        // Written in the user's role, it is the agent's summary of the conversation so far.
        compacted(cleanTurnText(texts.join('\n\n')) ?? '', time);
        // `isApiErrorMessage`: the CLI's own notice in the assistant's place (login, credit, API errors).
      } else if (texts.length && d.isMeta !== true && d.isSidechain !== true && d.isApiErrorMessage !== true) {
        const text = cleanTurnText(texts.join('\n\n'));
        if (text) acc.add({ kind: 'turn', role, text, ...(time ? { time } : {}) });
      }
      return true;
    });
    // A boundary whose summary record is not (yet) in the file: the compaction, without its summary.
    if (boundary) compacted('', undefined);
    // Tool uses that never got a result: no evidence they ran.
    for (const use of pending.values()) finish(use, undefined);
    bashMode.flush();
    return transcriptRead('claude-code', file, acc, stats, endOffset);
  } catch (err) {
    return unreadable('claude-code', file, err);
  }
}

/** Null when the error result gives no exit code. */
function numberFromExit(text: string): number | null {
  const m = /\bexit(?:ed with)? code:? (\d+)/i.exec(text);
  return m ? Number(m[1]) : null;
}
