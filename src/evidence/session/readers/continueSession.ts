// Continue sessions, the IDE extension's and the `cn` CLI's alike: `~/.continue/sessions/<sessionId>.json`
// (`$CONTINUE_GLOBAL_DIR/sessions`), the `Session` of continuedev/continue `core/index.d.ts` as `core/util/history.ts`
// writes it: `{sessionId, title, workspaceDirectory, history: ChatHistoryItem[]}`; `sessions.json` beside them lists
// `{sessionId, title, dateCreated, workspaceDirectory}`. Items hold no time.
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { cleanTurnText, countBadRecord, emptyStats, outputTail, type SessionAccumulator, type TranscriptRead } from '../../../core/session/events';
import { forEachJsonArrayItem, readJsonValueAt } from '../jsonStream';
import { accumulator, obj, relativePath, str, textOf, transcriptRead, unreadable, type ReaderOptions } from './common';
import { checklistPlan } from './planTools';

/** `ContextItem`: a tool's output is a list of them (`status` on the IDE's terminal items). */
const ContextItemSchema = z.looseObject({ content: z.string().optional(), name: z.string().optional(), status: z.string().optional() });

/** `ToolCallState`; `status` one of generating, generated, calling, errored, done, canceled. */
const ToolCallStateSchema = z.looseObject({
  toolCallId: z.string().optional(),
  toolCall: z.looseObject({ id: z.string().optional(), function: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }).optional() }),
  status: z.string().optional(),
  parsedArgs: z.unknown().optional(),
  output: z.union([z.array(z.unknown()), z.string()]).optional(),
});

/** `ChatHistoryItem`: `toolCallStates` (a single `toolCallState` in older versions) on assistant items. */
export const ContinueHistoryItemSchema = z.looseObject({
  message: z.looseObject({
    role: z.string(),
    content: z.unknown().optional(),
    toolCallId: z.string().optional(),
  }),
  toolCallStates: z.array(z.unknown()).optional(),
  toolCallState: z.unknown().optional(),
  conversationSummary: z.string().optional(),
});

type ToolCallState = z.infer<typeof ToolCallStateSchema>;

/** The IDE's `run_terminal_command` and the CLI's `Bash`. */
const SHELL_TOOLS = new Set(['run_terminal_command', 'Bash']);
/** Their `filepath` (IDE, CLI `Write`) or `file_path` (CLI `Edit`, `MultiEdit`). */
const EDIT_TOOLS = new Set(['edit_existing_file', 'single_find_and_replace', 'multi_edit', 'create_new_file', 'Edit', 'MultiEdit', 'Write']);
/** IDE: `Command failed with exit code N`; CLI: `Error (exit code N): …`. */
const EXIT = /\bexit code:?\s*(-?\d+)/i;

/** A workspace folder as Continue records it: a path, or a `file://` URI (the IDE). */
export function continueFolderPath(dir: string | undefined): string | undefined {
  if (!dir) return undefined;
  if (!dir.startsWith('file:')) return dir;
  // A Windows URI (`file:///c%3A/…`) read on another system: its drive path as written there.
  const drive = process.platform === 'win32' ? null : /^file:\/\/\/([A-Za-z](?::|%3A)\/.*)$/i.exec(dir);
  try {
    return drive ? decodeURIComponent(drive[1]) : fileURLToPath(dir);
  } catch {
    return undefined;
  }
}

function argsOf(state: ToolCallState): Record<string, unknown> {
  const parsed = obj(state.parsedArgs);
  if (parsed && Object.keys(parsed).length) return parsed;
  try {
    return obj(JSON.parse(state.toolCall.function?.arguments ?? '')) ?? {};
  } catch {
    return {};
  }
}

function outputOf(state: ToolCallState, toolMessage: string | undefined): { text: string; statusLine?: string } {
  if (typeof state.output === 'string') return { text: state.output };
  const items = (state.output ?? []).map((o) => ContextItemSchema.safeParse(o)).flatMap((p) => (p.success ? [p.data] : []));
  if (!items.length) return { text: toolMessage ?? '' };
  return { text: items.map((i) => i.content ?? '').join('\n'), statusLine: items.find((i) => i.status)?.status };
}

/** The code the tool recorded, never guessed: the IDE's "Command completed" is 0; the CLI names only a failing one. */
export function continueExitCode(statusLine: string | undefined, text: string): number | null {
  if (statusLine && /^Command completed\b/.test(statusLine)) return 0;
  const m = EXIT.exec(statusLine ?? '') ?? EXIT.exec(text.slice(0, 300));
  return m ? Number(m[1]) : null;
}

function addCall(acc: SessionAccumulator, state: ToolCallState, toolMessage: string | undefined, cwd: string | undefined, opts: ReaderOptions): void {
  const name = state.toolCall.function?.name;
  if (!name) return;
  const args = argsOf(state);
  // Canceled: refused by the user or a policy; generating / generated / calling: never finished.
  const ran = state.status === 'done' || state.status === 'errored';
  if (SHELL_TOOLS.has(name)) {
    const command = str(args.command);
    if (!command) return;
    const { text, statusLine } = outputOf(state, toolMessage);
    const exit = ran ? continueExitCode(statusLine, text) : null;
    const timedOut = statusLine !== undefined && /timed out/i.test(statusLine);
    acc.add({
      kind: 'command',
      command,
      cwd: cwd ?? null,
      exit_code: exit,
      ...(ran && exit === null && (state.status === 'errored' || timedOut) ? { failed: true } : {}),
      ran,
      output_tail: ran ? outputTail(text) : undefined,
    });
    return;
  }
  if (state.status !== 'done') return;
  if (EDIT_TOOLS.has(name)) {
    const p = continueFolderPath(str(args.filepath) ?? str(args.file_path));
    if (p) acc.add({ kind: 'file_edit', path: relativePath(p, opts.workspaceRoot ?? cwd), tool: name });
  } else if (name === 'Checklist') {
    const plan = checklistPlan(name, args.checklist);
    if (plan) acc.add(plan);
  }
}

function textOfContent(content: unknown): string {
  return typeof content === 'string' ? content : textOf(Array.isArray(content) ? content.filter((p) => obj(p)?.type !== 'imageUrl') : content);
}

/**
 * The whole document, streamed item by item (memory bounded by the largest item); a tool's result is its state's
 * `output`, else the `tool` message answering it. Never throws.
 */
export async function readContinue(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  const stats = emptyStats();
  let pending: ToolCallState[] = [];
  const answers = new Map<string, string>();
  const flush = (cwd: string | undefined) => {
    for (const s of pending) addCall(acc, s, answers.get(s.toolCallId ?? s.toolCall.id ?? ''), cwd, opts);
    pending = [];
    answers.clear();
  };
  try {
    const cwd = continueFolderPath(str(await readJsonValueAt(file, ['workspaceDirectory'])));
    try {
      await forEachJsonArrayItem(file, ['history'], (raw) => {
        stats.lines++;
        const parsed = ContinueHistoryItemSchema.safeParse(raw);
        if (!parsed.success) {
          countBadRecord(stats, stats.lines, 'item');
          return;
        }
        const item = parsed.data;
        const role = item.message.role;
        if (role === 'tool') {
          if (item.message.toolCallId) answers.set(item.message.toolCallId, textOfContent(item.message.content));
          return;
        }
        flush(cwd);
        if (item.conversationSummary?.trim()) acc.add({ kind: 'compaction', text: item.conversationSummary.trim() });
        if (role !== 'user' && role !== 'assistant') {
          if (role !== 'thinking' && role !== 'system') stats.skipped++;
          return;
        }
        const text = cleanTurnText(textOfContent(item.message.content));
        if (text) acc.add({ kind: 'turn', role, text });
        if (role !== 'assistant') return;
        const states = item.toolCallStates ?? (item.toolCallState !== undefined ? [item.toolCallState] : []);
        for (const s of states) {
          const state = ToolCallStateSchema.safeParse(s);
          if (state.success) pending.push(state.data);
          else stats.skipped++;
        }
      });
    } catch (err) {
      if (stats.lines === 0) throw err;
      stats.malformed++;
    }
    flush(cwd);
    return transcriptRead('continue', file, acc, stats, 0);
  } catch (err) {
    return unreadable('continue', file, err);
  }
}
