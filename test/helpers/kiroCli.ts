/**
 * Kiro CLI's conversations written the way it writes them (aws/amazon-q-developer-cli `crates/chat-cli`, the Kiro CLI
 * 1.28 source): `ConversationState` as serde JSON (`cli/chat/conversation.rs`, `message.rs`: externally tagged enums,
 * snake_case fields, a typed prompt stamped with its local time, tool results in the next entry's user message,
 * `execute_bash`'s JSON result with `exit_status` as a string, a cancelled call's "Tool use was cancelled by the user"),
 * and `data.sqlite3` with its migrations' tables (`database/sqlite_migrations/000`, `007`, `008`), through
 * test/helpers/sqlite.ts.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { execSql } from './sqlite';

type Json = Record<string, unknown>;

const env = (cwd: string) => ({ env_state: { operating_system: 'linux', current_working_directory: cwd, environment_variables: [] } });
const meta = (ms: number) => ({
  request_id: `req-${ms}`,
  context_usage_percentage: null,
  message_id: `msg-${ms}`,
  request_start_timestamp_ms: ms,
  stream_end_timestamp_ms: ms + 900,
  time_to_first_chunk: { secs: 0, nanos: 5000 },
  time_between_chunks: [],
});

/** `{"Prompt": …}`: what the user typed (stamped), or the CLI's own prompt (unstamped). */
export const prompt = (text: string): Json => ({ Prompt: { prompt: text } });
/** `{"ToolUseResults": …}`, each `[id, status, blocks]` with blocks `{Json: …}` / `{Text: …}`. */
export const results = (...rs: ReadonlyArray<readonly [string, 'Success' | 'Error', readonly Json[]]>): Json => ({
  ToolUseResults: { tool_use_results: rs.map(([id, status, content]) => ({ tool_use_id: id, content, status })) },
});
/** `new_cancelled_tool_uses`: the user typed `text` (or interrupted, the CLI's words) instead of letting the calls run. */
export const cancelledUses = (text: string | null, ...ids: string[]): Json => ({
  CancelledToolUses: {
    prompt: text,
    tool_use_results: ids.map((id) => ({ tool_use_id: id, content: [{ Text: 'Tool use was cancelled by the user' }], status: 'Error' })),
  },
});
/** `execute_bash`'s result block. */
export const shellJson = (exit: number, stdout = '', stderr = ''): Json => ({ Json: { exit_status: String(exit), stdout, stderr } });
export const toolUse = (id: string, name: string, args: Json): Json => ({ id, name, orig_name: name, args, orig_args: args });
export const response = (text: string): Json => ({ Response: { message_id: `r-${text.length}`, content: text } });
export const usesTools = (text: string, ...uses: Json[]): Json => ({ ToolUse: { message_id: `t-${uses.length}`, content: text, tool_uses: uses } });

/** One `HistoryEntry` in `cwd`; `stampMs` null for what the CLI sends unstamped (tool results, its own prompts). */
export function entry(cwd: string, content: Json, stampMs: number | null, assistant: Json, requestMs: number): Json {
  return {
    user: {
      additional_context: '',
      env_context: env(cwd),
      content,
      timestamp: stampMs === null ? null : new Date(stampMs).toISOString().replace('Z', '+00:00'),
      images: null,
    },
    assistant,
    request_metadata: meta(requestMs),
  };
}

/** The `ConversationState` JSON as `/save` writes it (`serde_json::to_string_pretty`). */
export function kiroState(conversationId: string, history: readonly Json[], summary?: string): string {
  return JSON.stringify(
    {
      conversation_id: conversationId,
      next_message: null,
      history,
      valid_history_range: [0, history.length],
      transcript: [],
      tools: {},
      context_manager: null,
      context_message_length: null,
      latest_summary: summary === undefined ? null : [summary, meta(1_700_000_000_000)],
      model_info: null,
      file_line_tracker: {},
      checkpoint_manager: null,
      mcp_enabled: true,
    },
    null,
    2,
  );
}

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;

const MIGRATIONS = `
CREATE TABLE IF NOT EXISTS migrations (id INTEGER PRIMARY KEY, version INTEGER NOT NULL, migration_time INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS history (id INTEGER PRIMARY KEY, command TEXT, shell TEXT, pid INTEGER, session_id TEXT, cwd TEXT, time INTEGER, in_ssh INTEGER, in_docker INTEGER, hostname TEXT, exit_code INTEGER);
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value BLOB);
CREATE TABLE IF NOT EXISTS auth_kv (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS conversations (key TEXT PRIMARY KEY, value TEXT);
`;
const V2 = `
CREATE TABLE IF NOT EXISTS conversations_v2 (key TEXT NOT NULL, conversation_id TEXT NOT NULL, value TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (key, conversation_id));
CREATE INDEX IF NOT EXISTS idx_conversations_v2_key_updated ON conversations_v2(key, updated_at DESC);
CREATE INDEX IF NOT EXISTS idx_conversations_v2_updated_at ON conversations_v2(updated_at DESC);
`;

export interface KiroRow {
  readonly cwd: string;
  readonly id: string;
  readonly state: string;
  /** Milliseconds since the epoch. */
  readonly updated: number;
}

/** `data.sqlite3` with every migration up to `008` (`conversations_v2`), or with `legacy` up to `007` (`conversations`). */
export function writeKiroDb(file: string, rows: readonly KiroRow[], opts: { legacy?: boolean } = {}): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const last = opts.legacy ? 7 : 8;
  const versions = Array.from({ length: last + 1 }, (_, v) => `INSERT INTO migrations (version, migration_time) VALUES (${v}, 1700000000);`).join('\n');
  const inserts = rows
    .map((r) =>
      opts.legacy
        ? `INSERT INTO conversations (key, value) VALUES (${sqlText(r.cwd)}, ${sqlText(r.state)});`
        : `INSERT INTO conversations_v2 (key, conversation_id, value, created_at, updated_at) VALUES (${sqlText(r.cwd)}, ${sqlText(r.id)}, ${sqlText(r.state)}, ${r.updated}, ${r.updated});`,
    )
    .join('\n');
  execSql(file, `${MIGRATIONS}${opts.legacy ? '' : V2}${versions}\n${inserts}`);
}
