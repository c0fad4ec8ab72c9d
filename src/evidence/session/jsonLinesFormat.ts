// The format of a JSON Lines transcript from its records in order, not its first line: agents write bookkeeping
// records first, and a first record can be far longer than any fixed head. Each record is classified from at most
// RECORD_PREFIX_BYTES (a longer one by the keys and values before the cut), so memory stays bounded.
import { TextDecoder } from 'node:util';
import type { Token } from 'stream-json/core/parser.js' with { 'resolution-mode': 'import' };
import { WINDSURF_EVENTS } from '../../core/agents/windsurfHook';
import { openRegularForReading } from './lines';
import { ANTIGRAVITY_STEP_SOURCES } from './readers/antigravitySchema';

function isAntigravityStepHead(source: unknown, type: string | undefined): boolean {
  return typeof source === 'string' && ANTIGRAVITY_STEP_SOURCES.has(source) && type !== undefined && /^[A-Z][A-Z_]*$/.test(type);
}

/** Top-level keys, and scalars at depth 1 and 2 by dotted path (`payload.cwd`). */
export interface RecordHead {
  readonly keys: ReadonlySet<string>;
  readonly values: ReadonlyMap<string, string | number | boolean | null>;
}

export type JsonLinesFormat =
  | 'claude-code'
  | 'codex'
  | 'recorder'
  | 'copilot'
  | 'cline-metadata'
  | 'copilot-cli'
  | 'qwen'
  | 'droid'
  | 'cursor'
  | 'goose'
  | 'windsurf'
  | 'antigravity'
  | 'kiro-session';

export const RECORD_PREFIX_BYTES = 64 * 1024;
/** Records, then bytes, looked at before a file is said to be in no format read here. */
export const SNIFF_MAX_RECORDS = 2000;
export const SNIFF_MAX_BYTES = 32 * 1024 * 1024;

const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const CODEX_BARE_CALLS = new Set(['function_call', 'function_call_output', 'local_shell_call', 'custom_tool_call', 'custom_tool_call_output']);
/** Claude Code record types that carry `sessionId` or `uuid`. */
const CLAUDE_TYPES = new Set([
  'user',
  'assistant',
  'summary',
  'system',
  'queue-operation',
  'last-prompt',
  'file-history-snapshot',
  'progress',
  'result',
  'attachment',
  'custom-title',
  'ai-title',
  'tag',
  'mode',
  'permission-mode',
  'worktree-state',
]);

/** Kiro CLI's session log: `LogEntryV1`'s variants (aws/amazon-q-developer-cli `crates/agent/src/agent/event_log.rs`). */
export const KIRO_LOG_KINDS: ReadonlySet<string> = new Set(['Prompt', 'AssistantMessage', 'ToolResults', 'Compaction', 'ResetTo', 'CancelledPrompt', 'Clear']);

/** A Kiro CLI log record by its fields: `version: "v1"` and one of the log's kinds, nothing else beside `data`. */
export function isKiroLogRecord(r: RecordHead): boolean {
  const kind = r.values.get('kind');
  return r.values.get('version') === 'v1' && typeof kind === 'string' && KIRO_LOG_KINDS.has(kind) && r.keys.size <= 3;
}

/** Keys Claude Code and Qwen Code put on every message record. */
const CLAUDE_IDS = ['uuid', 'parentUuid', 'sessionId'];

/** A dotted name: `session.start`, `assistant.turn_start`, `tool.execution_complete`. */
const COPILOT_CLI_TYPE =
  /^(?:session|user|assistant|tool|subagent|hook|skill|system|abort|pending_messages|external_tool|permission|elicitation|command)\.[a-z_.]+$/;

/** Qwen Code: `tool_result`, `system` with `systemPayload`, or a user / assistant record without Claude Code's `userType` (Qwen's message has `parts`, not `content`). */
function isQwenRecord(r: RecordHead, t: string | undefined): boolean {
  if (!r.keys.has('sessionId') || !(r.keys.has('uuid') || r.keys.has('parentUuid'))) return false;
  if (t === 'tool_result' || (t === 'system' && r.keys.has('systemPayload'))) return true;
  const role = r.values.get('message.role');
  if (role === 'model') return true;
  // Qwen's own sub-agent records carry `isSidechain` with their `agentId`; Claude Code's carry `userType` beside it.
  return (
    (t === 'user' || t === 'assistant') &&
    role === 'user' &&
    !r.keys.has('userType') &&
    (!r.keys.has('isSidechain') || r.keys.has('agentId')) &&
    !r.values.has('message.content')
  );
}

/** `bookkeeping`: a Claude Code record without a message (`file-history-snapshot`, `summary`), Claude Code unless a later record says otherwise. */
export function formatOfRecord(r: RecordHead): JsonLinesFormat | 'bookkeeping' | undefined {
  const type = r.values.get('type');
  const t = typeof type === 'string' ? type : undefined;
  // Kiro CLI's session log: `{version: "v1", kind: "Prompt" | "AssistantMessage" | …, data}`, no `type`.
  if (!t && isKiroLogRecord(r)) return 'kiro-session';
  if (r.values.get('v') === 1 && t === 'session_start') return 'recorder';
  if (t && CODEX_TYPES.has(t) && r.keys.has('payload')) return 'codex';
  // Codex rollouts without envelopes: the state marker after their header, bare function calls.
  if (r.values.get('record_type') === 'state' || (t && CODEX_BARE_CALLS.has(t) && r.keys.has('call_id'))) return 'codex';
  if (r.values.get('kind') === 0 && r.keys.has('v')) return 'copilot';
  if (r.keys.has('requests') && (r.keys.has('requesterUsername') || r.keys.has('version') || r.keys.has('sessionId'))) return 'copilot';
  if (r.keys.has('files_in_context')) return 'cline-metadata';
  // Copilot CLI events: `{type: "session.start" | "user.message" | …, data, id, timestamp, parentId}`.
  if (t && COPILOT_CLI_TYPE.test(t) && r.keys.has('data') && !r.keys.has('payload')) return 'copilot-cli';
  // Factory Droid's `session_start` header `{id, title, cwd, …}` decides (Pi's sessions, not read here, have `{type: "message"}` records too).
  if (t === 'session_start' && r.keys.has('id') && !r.keys.has('payload')) return 'droid';
  // Windsurf's Cascade hook payloads `{agent_action_name, trajectory_id, execution_id, timestamp, tool_info}`, one per line.
  if (
    !t &&
    typeof r.values.get('agent_action_name') === 'string' &&
    WINDSURF_EVENTS.has(r.values.get('agent_action_name') as string) &&
    r.keys.has('tool_info')
  )
    return 'windsurf';
  // Goose: a first line of session metadata (`working_dir` with its counters), then untyped messages `{role, created, content}`.
  if (!t && r.keys.has('working_dir') && (r.keys.has('message_count') || r.keys.has('description') || r.keys.has('total_tokens'))) return 'goose';
  if (!t && r.keys.has('role') && r.keys.has('created') && r.keys.has('content') && !r.keys.has('sessionId')) return 'goose';
  // Antigravity's transcript steps: `{step_index, source: USER_EXPLICIT | MODEL | SYSTEM, type: USER_INPUT | …}`.
  if (typeof r.values.get('step_index') === 'number' && isAntigravityStepHead(r.values.get('source'), t)) return 'antigravity';
  // Qwen Code records carry Claude Code's `uuid` / `parentUuid` / `sessionId` around model-API Content (`role: "model"`, `parts`).
  if (isQwenRecord(r, t)) return 'qwen';
  // Cursor's agent transcripts: `{role, message}` with no `type` and none of Claude Code's ids; `{type: "turn_ended", status}` between turns.
  if (
    t === undefined &&
    (r.values.get('role') === 'user' || r.values.get('role') === 'assistant') &&
    r.keys.has('message') &&
    !CLAUDE_IDS.some((k) => r.keys.has(k))
  )
    return 'cursor';
  if (t === 'turn_ended' && r.keys.has('status') && r.keys.size <= 3) return 'cursor';
  if (r.keys.has('parentUuid') || ((t === 'user' || t === 'assistant') && r.keys.has('message'))) return 'claude-code';
  if (t && CLAUDE_TYPES.has(t) && (r.keys.has('sessionId') || r.keys.has('uuid'))) return 'claude-code';
  if ((t === 'file-history-snapshot' && (r.keys.has('messageId') || r.keys.has('snapshot'))) || (t === 'summary' && r.keys.has('leafUuid')))
    return 'bookkeeping';
  return undefined;
}

export function recordHeadOf(o: Record<string, unknown>): RecordHead {
  const values = new Map<string, string | number | boolean | null>();
  for (const [k, v] of Object.entries(o)) {
    if (v === null || typeof v !== 'object') values.set(k, v as string | number | boolean | null);
    else if (!Array.isArray(v))
      for (const [k2, v2] of Object.entries(v)) if (v2 === null || typeof v2 !== 'object') values.set(`${k}.${k2}`, v2 as string | number | boolean | null);
  }
  return { keys: new Set(Object.keys(o)), values };
}

/** Keys and scalars before the cut, via stream-json's tokenizer; undefined when not the start of a JSON object. */
export async function recordHeadOfPrefix(prefix: string): Promise<RecordHead | undefined> {
  const { jsonParser } = await import('stream-json/core/parser.js');
  const keys = new Set<string>();
  const values = new Map<string, string | number | boolean | null>();
  const path: Array<string | undefined> = [];
  let key: string | undefined;
  let started = false;
  const put = (v: string | number | boolean | null) => {
    if (path.length >= 1 && path.length <= 2 && key !== undefined) values.set([...path.slice(1), key].filter((p) => p !== undefined).join('.'), v);
    key = undefined;
  };
  try {
    // The bare tokenizer, called once: the tokens it could read, the cut lexeme left pending.
    const out = jsonParser()(prefix);
    const tokens: readonly Token[] =
      typeof out === 'object' && out !== null && Array.isArray((out as { values?: unknown }).values) ? (out as { values: Token[] }).values : [];
    for (const tok of tokens) {
      if (!started) {
        if (tok.name !== 'startObject') return undefined;
        started = true;
      }
      switch (tok.name) {
        case 'startObject':
        case 'startArray':
          if (path.length === 1 && key !== undefined) keys.add(key);
          path.push(key);
          key = undefined;
          break;
        case 'endObject':
        case 'endArray':
          path.pop();
          break;
        case 'keyValue':
          key = tok.value;
          if (path.length === 1) keys.add(key);
          break;
        case 'stringValue':
          put(tok.value);
          break;
        case 'numberValue':
          put(Number(tok.value));
          break;
        case 'nullValue':
          put(null);
          break;
        case 'trueValue':
          put(true);
          break;
        case 'falseValue':
          put(false);
          break;
      }
    }
  } catch {
    // Not JSON from here on: what was read before stands (nothing, when it was not an object).
  }
  return started ? { keys, values } : undefined;
}

/** For complete text (a file's head): a line that is not a JSON object ends the search, except the last, which may be cut. */
export function formatOfJsonLinesText(text: string): JsonLinesFormat | undefined {
  const lines = text.split('\n');
  let bookkeeping = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      break;
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) break;
    const f = formatOfRecord(recordHeadOf(v as Record<string, unknown>));
    if (f === 'bookkeeping') bookkeeping = true;
    else if (f) return f;
  }
  return bookkeeping ? 'claude-code' : undefined;
}

/**
 * Reads on from the start until a record decides or the record / byte limit is reached.
 * @returns undefined when no record decides, or a line is not the start of a JSON object
 * @throws the open error (missing file, not a regular file)
 */
export async function sniffJsonLines(file: string): Promise<JsonLinesFormat | undefined> {
  const fh = await openRegularForReading(file);
  const chunk = Buffer.alloc(256 * 1024);
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let parts: Buffer[] = [];
  let kept = 0;
  let cut = false;
  let records = 0;
  let position = 0;
  let bookkeeping = false;
  const classify = async (): Promise<JsonLinesFormat | 'stop' | undefined> => {
    const text = decoder.decode(Buffer.concat(parts)).trim();
    parts = [];
    kept = 0;
    const wasCut = cut;
    cut = false;
    if (!text) return undefined;
    records++;
    let head: RecordHead | undefined;
    if (!wasCut) {
      try {
        const v: unknown = JSON.parse(text);
        head = v && typeof v === 'object' && !Array.isArray(v) ? recordHeadOf(v as Record<string, unknown>) : undefined;
      } catch {
        head = undefined;
      }
    } else {
      head = await recordHeadOfPrefix(text);
    }
    if (!head) return 'stop';
    const f = formatOfRecord(head);
    if (f === 'bookkeeping') {
      bookkeeping = true;
      return undefined;
    }
    return f;
  };
  try {
    while (position < SNIFF_MAX_BYTES && records < SNIFF_MAX_RECORDS) {
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let from = 0;
      const buf = chunk.subarray(0, bytesRead);
      for (let nl = buf.indexOf(10, from); ; nl = buf.indexOf(10, from)) {
        const end = nl < 0 ? buf.length : nl;
        const room = RECORD_PREFIX_BYTES - kept;
        if (end - from > room) cut = true;
        if (room > 0) {
          const piece = Buffer.from(buf.subarray(from, Math.min(end, from + room)));
          parts.push(piece);
          kept += piece.length;
        }
        if (nl < 0) break;
        const v = await classify();
        if (v === 'stop') return bookkeeping ? 'claude-code' : undefined;
        if (v) return v;
        from = nl + 1;
      }
    }
    if (kept > 0 && records < SNIFF_MAX_RECORDS) {
      // The last line, without its newline (still being written, or cut at the byte limit).
      cut = cut || position >= SNIFF_MAX_BYTES;
      const v = await classify();
      if (v && v !== 'stop') return v;
    }
    return bookkeeping ? 'claude-code' : undefined;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** From at most {@link RECORD_PREFIX_BYTES}, so any first record gives the fields before its cut; undefined when unreadable or not an object. */
export async function firstRecordHead(file: string): Promise<RecordHead | undefined> {
  let fh;
  try {
    fh = await openRegularForReading(file);
    const buf = Buffer.alloc(RECORD_PREFIX_BYTES);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const nl = buf.subarray(0, bytesRead).indexOf(10);
    return await recordHeadOfPrefix(new TextDecoder('utf-8', { fatal: false }).decode(buf.subarray(0, nl < 0 ? bytesRead : nl)));
  } catch {
    return undefined;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** A JSON document's head (pretty-printed or not) from its first `bytes`: undefined when unreadable or not an object. */
export async function documentHead(file: string, bytes = RECORD_PREFIX_BYTES): Promise<RecordHead | undefined> {
  let fh;
  try {
    fh = await openRegularForReading(file);
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return await recordHeadOfPrefix(
      new TextDecoder('utf-8', { fatal: false })
        .decode(buf.subarray(0, bytesRead))
        .replace(/^\uFEFF/, '')
        .trimStart(),
    );
  } catch {
    return undefined;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}
