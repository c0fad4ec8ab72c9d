/**
 * The format of a JSON Lines transcript from its records, not from its first line alone: agents
 * write bookkeeping records first (Claude Code 2.x opens with `file-history-snapshot`, `summary`,
 * `queue-operation`, `last-prompt` …) and a first record can be far longer than any fixed head (a
 * pasted prompt, a Codex `session_meta` holding the instructions). Records are looked at in order
 * until one decides; each is classified from at most {@link RECORD_PREFIX_BYTES} of it — a longer
 * one by the keys and values written before the cut, read with stream-json's tokenizer — so
 * memory stays bounded whatever the record's length.
 */
import { TextDecoder } from 'node:util';
import type { Token } from 'stream-json/core/parser.js' with { 'resolution-mode': 'import' };
import { openRegularForReading } from './lines';

/** What classification knows of one record: its top-level keys and the scalars at depth 1 and 2 (`payload.cwd`), by dotted path. */
export interface RecordHead {
  readonly keys: ReadonlySet<string>;
  readonly values: ReadonlyMap<string, string | number | boolean | null>;
}

/** A JSON Lines format this extension reads. */
export type JsonLinesFormat = 'claude-code' | 'codex' | 'recorder' | 'copilot' | 'cline-metadata' | 'copilot-cli' | 'qwen' | 'droid';

/** Bytes of one record kept to classify it: 64 KiB. */
export const RECORD_PREFIX_BYTES = 64 * 1024;
/** Records looked at before a file is said to be in no format read here: 2,000. */
export const SNIFF_MAX_RECORDS = 2000;
/** Bytes of a file looked at, likewise: 32 MiB. */
export const SNIFF_MAX_BYTES = 32 * 1024 * 1024;

const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const CODEX_BARE_CALLS = new Set(['function_call', 'function_call_output', 'local_shell_call', 'custom_tool_call', 'custom_tool_call_output']);
/** Claude Code record types that carry `sessionId` or `uuid`. */
const CLAUDE_TYPES = new Set(['user', 'assistant', 'summary', 'system', 'queue-operation', 'last-prompt', 'file-history-snapshot', 'progress', 'result', 'attachment', 'custom-title', 'ai-title', 'tag', 'mode', 'permission-mode', 'worktree-state']);

/** A Copilot CLI event type: a dotted name (`session.start`, `assistant.turn_start`, `tool.execution_complete`). */
const COPILOT_CLI_TYPE = /^(?:session|user|assistant|tool|subagent|hook|skill|system|abort|pending_messages|external_tool|permission|elicitation|command)\.[a-z_.]+$/;

/**
 * Whether a record is Qwen Code's: a `tool_result` or a `system` record with its `systemPayload`,
 * or a user / assistant record whose message has the model API's roles without Claude Code's
 * `userType` and `isSidechain` keys (its `content` is Claude's, Qwen's is `parts`).
 */
function isQwenRecord(r: RecordHead, t: string | undefined): boolean {
  if (!r.keys.has('sessionId') || !(r.keys.has('uuid') || r.keys.has('parentUuid'))) return false;
  if (t === 'tool_result' || (t === 'system' && r.keys.has('systemPayload'))) return true;
  const role = r.values.get('message.role');
  if (role === 'model') return true;
  // Qwen's own sub-agent records carry `isSidechain` with their `agentId`; Claude Code's carry `userType` beside it.
  return (t === 'user' || t === 'assistant') && role === 'user' && !r.keys.has('userType') && (!r.keys.has('isSidechain') || r.keys.has('agentId')) && !r.values.has('message.content');
}

/**
 * The format one record decides, `bookkeeping` for a Claude Code record that holds no message (a
 * `file-history-snapshot` with its `messageId` / `snapshot`, a `summary` with its `leafUuid`):
 * Claude Code unless a later record says otherwise. Undefined when the record decides nothing.
 */
export function formatOfRecord(r: RecordHead): JsonLinesFormat | 'bookkeeping' | undefined {
  const type = r.values.get('type');
  const t = typeof type === 'string' ? type : undefined;
  if (r.values.get('v') === 1 && t === 'session_start') return 'recorder';
  if (t && CODEX_TYPES.has(t) && r.keys.has('payload')) return 'codex';
  // Codex rollouts without envelopes: the state marker after their header, bare function calls.
  if (r.values.get('record_type') === 'state' || (t && CODEX_BARE_CALLS.has(t) && r.keys.has('call_id'))) return 'codex';
  if (r.values.get('kind') === 0 && r.keys.has('v')) return 'copilot';
  if (r.keys.has('requests') && (r.keys.has('requesterUsername') || r.keys.has('version') || r.keys.has('sessionId'))) return 'copilot';
  if (r.keys.has('files_in_context')) return 'cline-metadata';
  // Copilot CLI events: `{type: "session.start" | "user.message" | "tool.execution_complete" | …, data, id, timestamp, parentId}`.
  if (t && COPILOT_CLI_TYPE.test(t) && r.keys.has('data') && !r.keys.has('payload')) return 'copilot-cli';
  // Factory Droid: its `session_start` header `{id, title, cwd, …}` decides (Pi's sessions, unread here, have `{type: "message", message}` records too).
  if (t === 'session_start' && r.keys.has('id') && !r.keys.has('payload')) return 'droid';
  // Qwen Code chat records carry Claude Code's `uuid` / `parentUuid` / `sessionId`, but their message is model-API Content (`role: "model"`, `parts`).
  if (isQwenRecord(r, t)) return 'qwen';
  if (r.keys.has('parentUuid') || ((t === 'user' || t === 'assistant') && r.keys.has('message'))) return 'claude-code';
  if (t && CLAUDE_TYPES.has(t) && (r.keys.has('sessionId') || r.keys.has('uuid'))) return 'claude-code';
  if ((t === 'file-history-snapshot' && (r.keys.has('messageId') || r.keys.has('snapshot'))) || (t === 'summary' && r.keys.has('leafUuid'))) return 'bookkeeping';
  return undefined;
}

/** The {@link RecordHead} of a parsed record. */
export function recordHeadOf(o: Record<string, unknown>): RecordHead {
  const values = new Map<string, string | number | boolean | null>();
  for (const [k, v] of Object.entries(o)) {
    if (v === null || typeof v !== 'object') values.set(k, v as string | number | boolean | null);
    else if (!Array.isArray(v)) for (const [k2, v2] of Object.entries(v)) if (v2 === null || typeof v2 !== 'object') values.set(`${k}.${k2}`, v2 as string | number | boolean | null);
  }
  return { keys: new Set(Object.keys(o)), values };
}

/**
 * The {@link RecordHead} of the start of a record cut short (its keys and scalars before the cut),
 * read with stream-json's tokenizer; undefined when the text is not the start of a JSON object.
 */
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
    // The bare tokenizer, called once on the text: the tokens it could read, the cut lexeme left pending.
    const out = jsonParser()(prefix);
    const tokens: readonly Token[] = typeof out === 'object' && out !== null && Array.isArray((out as { values?: unknown }).values) ? (out as { values: Token[] }).values : [];
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

/**
 * The format of JSON Lines text that is complete (a file's head): its lines in order until a
 * record decides. A line that is not a JSON object ends the search (not JSON Lines), except the
 * last line, which the head may have cut.
 */
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
 * The format of a JSON Lines file from its records (see the module comment): read in chunks from
 * the start, each record classified from its first {@link RECORD_PREFIX_BYTES}, until one decides
 * or {@link SNIFF_MAX_RECORDS} records or {@link SNIFF_MAX_BYTES} were looked at.
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
  /** Classifies one line (its kept start): a verdict, 'stop' when the file is not JSON Lines, undefined to go on. */
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

/**
 * The {@link RecordHead} of a file's first record, read from at most {@link RECORD_PREFIX_BYTES}
 * of it, so a first record of any length gives the fields written before its cut. Undefined when
 * the file cannot be read or does not start with a JSON object.
 */
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
