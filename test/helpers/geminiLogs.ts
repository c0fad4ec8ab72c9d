/**
 * Gemini CLI log files written the way Gemini CLI writes them (google-gemini/gemini-cli):
 * - chat recordings as `services/chatRecordingService.ts` appends them: a metadata line, each
 *   message appended again, whole, when it changes (tool calls merged into the last `gemini`
 *   message, tokens added), `{$set: {lastUpdated}}` after each message;
 * - the legacy whole-file recording (`ConversationRecord`, `JSON.stringify(…, null, 2)`);
 * - `/chat save` checkpoints and `logs.json` as `core/logger.ts` writes them (pretty-printed);
 * - the shell tool's text in both of its shapes (`tools/shell.ts`).
 * Test data only: the tests build these files in temporary folders.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A `ToolCallRecord` (`chatRecordingTypes.ts`). */
export interface ToolCallRecord {
  id: string;
  name: string;
  args: Record<string, unknown>;
  result?: unknown[] | null;
  status: 'success' | 'error' | 'cancelled';
  timestamp: string;
  displayName?: string;
  description?: string;
  resultDisplay?: unknown;
  renderOutputAsMarkdown?: boolean;
}

/** A message record. */
export interface MessageRecord {
  id: string;
  timestamp: string;
  type: 'user' | 'gemini' | 'info' | 'error' | 'warning';
  content: unknown;
  toolCalls?: ToolCallRecord[];
  thoughts?: unknown[];
  tokens?: unknown;
  model?: string;
}

/** The shell tool's text since 2026: `Output:`, then only the fields that apply. */
export function shellText(output: string, exitCode: number, pgid = 4242): string {
  return [`Output: ${output || '(empty)'}`, ...(exitCode !== 0 ? [`Exit Code: ${exitCode}`] : []), `Process Group PGID: ${pgid}`].join('\n');
}

/** The shell tool's text up to 2025: every field on its line. */
export function legacyShellText(command: string, stdout: string, exitCode: number | null): string {
  return [
    `Command: ${command}`,
    'Directory: (root)',
    `Stdout: ${stdout || '(empty)'}`,
    'Stderr: (empty)',
    'Error: (none)',
    `Exit Code: ${exitCode ?? '(none)'}`,
    'Signal: (none)',
    'Background PIDs: (none)',
    'Process Group PGID: 777',
  ].join('\n');
}

/** A finished tool call as the scheduler records it: the function response holds the tool's text. */
export function toolCall(
  id: string,
  name: string,
  args: Record<string, unknown>,
  status: ToolCallRecord['status'],
  text: string,
  timestamp: string,
  display?: unknown,
): ToolCallRecord {
  const response = status === 'success' ? { output: text } : { error: text };
  return {
    id,
    name,
    args,
    result: [{ functionResponse: { id, name, response } }],
    status,
    timestamp,
    displayName: name === 'run_shell_command' ? 'Shell' : name,
    description: '',
    resultDisplay: display === undefined ? text : display,
    renderOutputAsMarkdown: false,
  };
}

/** Appends to a chat recording exactly as ChatRecordingService does. */
export class GeminiChatWriter {
  readonly messages: MessageRecord[] = [];
  private n = 0;

  constructor(
    readonly file: string,
    readonly sessionId: string,
    readonly projectHash: string,
    startTime: string,
    kind?: 'main' | 'subagent',
  ) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.append({ sessionId, projectHash, startTime, lastUpdated: startTime, ...(kind ? { kind } : {}) });
  }

  append(record: unknown): void {
    appendFileSync(this.file, `${JSON.stringify(record)}\n`);
  }

  /** `pushMessage` (appends the whole message); `recordMessage` also appends `{$set: {lastUpdated}}`. */
  private push(m: MessageRecord, touch = false): void {
    this.append(m);
    const i = this.messages.findIndex((x) => x.id === m.id);
    if (i >= 0) this.messages[i] = m;
    else this.messages.push(m);
    if (touch) this.append({ $set: { lastUpdated: m.timestamp } });
  }

  /** `recordMessage` of a user prompt (`[{text}]`). */
  user(text: string, timestamp: string): MessageRecord {
    const m: MessageRecord = { id: `msg-${++this.n}`, timestamp, type: 'user', content: [{ text }] };
    this.push(m, true);
    return m;
  }

  /** `recordMessage` of a model reply. */
  gemini(text: string, timestamp: string): MessageRecord {
    const m: MessageRecord = { id: `msg-${++this.n}`, timestamp, type: 'gemini', content: text, thoughts: [], tokens: null, model: 'gemini-2.5-pro' };
    this.push(m, true);
    return m;
  }

  /** `recordMessage` of an info / error / warning line. */
  notice(type: 'info' | 'error' | 'warning', text: string, timestamp: string): void {
    this.push({ id: `msg-${++this.n}`, timestamp, type, content: text }, true);
  }

  /** `recordToolCalls`: merged into the last `gemini` message (appended again whole), else a new one. */
  toolCalls(calls: ToolCallRecord[], timestamp: string): void {
    const last = this.messages.at(-1);
    if (last && last.type === 'gemini') {
      const merged = [...(last.toolCalls ?? [])];
      for (const c of calls) {
        const i = merged.findIndex((x) => x.id === c.id);
        if (i >= 0) merged[i] = { ...merged[i], ...c };
        else merged.push(c);
      }
      this.push({ ...last, toolCalls: merged });
    } else {
      this.push({ id: `msg-${++this.n}`, timestamp, type: 'gemini', content: '', toolCalls: calls, thoughts: [], model: 'gemini-2.5-pro' });
    }
  }

  /** `recordMessageTokens`: the last message appended again with its tokens. */
  tokens(): void {
    const last = this.messages.at(-1);
    if (last) this.push({ ...last, tokens: { input: 100, output: 20, cached: 0, thoughts: 0, tool: 0, total: 120 } });
  }

  /**
   * Compression (`chatCompressionService.ts`) then `updateMessagesFromHistory`: the history becomes
   * the summary turn in the user's role, the model's "Got it." reply (two new messages) and the
   * newest `keep` messages under their ids, written in one `$set`; the lines before stay.
   */
  compress(summary: string, keep: number, timestamp: string): void {
    const kept = this.messages.slice(this.messages.length - keep);
    const snapshot: MessageRecord = { id: `msg-${++this.n}`, timestamp, type: 'user', content: [{ text: summary }] };
    const reply: MessageRecord = { id: `msg-${++this.n}`, timestamp, type: 'gemini', content: [{ text: 'Got it. Thanks for the additional context!' }] };
    this.messages.splice(0, this.messages.length, snapshot, reply, ...kept);
    this.append({ $set: { messages: this.messages, lastUpdated: timestamp } });
  }

  /** `updateMessagesFromHistory`: every message again in one `$set`. */
  setAllMessages(lastUpdated: string): void {
    this.append({ $set: { messages: this.messages, lastUpdated } });
  }
}

/** Writes the legacy whole-file recording `{sessionId, projectHash, startTime, lastUpdated, messages}`. */
export function writeLegacyChat(file: string, sessionId: string, projectHash: string, messages: MessageRecord[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const record = { sessionId, projectHash, startTime: messages[0]?.timestamp ?? '', lastUpdated: messages.at(-1)?.timestamp ?? '', messages };
  writeFileSync(file, JSON.stringify(record, null, 2));
}

/** The start-up context Gemini CLI puts first in the history (`utils/environmentContext.ts`). */
export function startupContext(workspace: string): string {
  return `<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\nToday's date is Monday, March 2, 2026 (formatted according to the user's locale).\nMy operating system is: linux\n- **Workspace Directories:**\n  - ${workspace}\n</session_context>`;
}

/** Writes a `/chat save` checkpoint `{history, authType}` (or the older bare array). */
export function writeCheckpoint(file: string, history: unknown[], bare = false): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(bare ? history : { history, authType: 'oauth-personal' }, null, 2));
}

/** Writes `logs.json`: `[{sessionId, messageId, type, message, timestamp}]`. */
export function writeLogsJson(file: string, entries: Array<{ sessionId: string; message: string; timestamp: string }>): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const ids = new Map<string, number>();
  const out = entries.map((e) => {
    const messageId = ids.get(e.sessionId) ?? 0;
    ids.set(e.sessionId, messageId + 1);
    return { sessionId: e.sessionId, messageId, type: 'user', message: e.message, timestamp: e.timestamp };
  });
  writeFileSync(file, JSON.stringify(out, null, 2));
}
