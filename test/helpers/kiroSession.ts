/**
 * Kiro CLI's session store written the way it writes it (aws/amazon-q-developer-cli `crates/chat-cli-v2/src/agent/
 * session/mod.rs`, `crates/agent/src/agent/event_log.rs`, `agent_loop/types.rs`, `protocol.rs`): `<id>.json` as
 * `serde_json::to_string_pretty(SessionData)`, `<id>.jsonl` one `serde_json::to_string(LogEntry)` a line
 * (`{version: "v1", kind, data}`, content blocks `{kind: "text" | "toolUse" | "toolResult", data}` in camelCase,
 * `ToolCallResult` externally tagged, `"Cancelled"` a bare string), a typed prompt stamped in seconds.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

type Json = Record<string, unknown>;

let ids = 0;
const messageId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;

export const text = (s: string): Json => ({ kind: 'text', data: s });
export const toolUse = (id: string, name: string, input: Json): Json => ({ kind: 'toolUse', data: { toolUseId: id, name, input } });

/** `LogEntry::prompt`: `seconds` set for what the user typed (`send_prompt_impl`), unset for the CLI's own prompts. */
export function promptEntry(content: readonly Json[], seconds?: number): Json {
  return {
    version: 'v1',
    kind: 'Prompt',
    data: { message_id: messageId(), content, ...(seconds === undefined ? {} : { meta: { timestamp: seconds } }) },
  };
}

export function assistantEntry(words: string, ...uses: Json[]): Json {
  return { version: 'v1', kind: 'AssistantMessage', data: { message_id: messageId(), content: [text(words), ...uses] } };
}

export interface ToolOutcome {
  readonly id: string;
  /** The `toolResult` block's content and status, and the `results` map's `ToolCallResult`. */
  readonly content: readonly Json[];
  readonly status: 'success' | 'error';
  readonly result: unknown;
}

/** `ToolCallResult::Success` of `items` (`Json` / `Text`), as the CLI logs it. */
export function succeeded(id: string, content: readonly Json[]): ToolOutcome {
  const items = content.map((b) => (b.kind === 'json' ? { Json: b.data } : { Text: b.data }));
  return { id, content, status: 'success', result: { Success: { items } } };
}

/** `ToolCallResult::Error(Custom(message))`: denied, blocked by a hook, bad arguments. */
export function failed(id: string, message: string): ToolOutcome {
  return { id, content: [text(message)], status: 'error', result: { Error: { Custom: message } } };
}

/** `end_current_turn`: the user interrupted pending tool uses. */
export function cancelled(id: string): ToolOutcome {
  return { id, content: [text('Tool use was cancelled by the user')], status: 'error', result: 'Cancelled' };
}

/** `ToolResults`; `withResults: false` leaves the `results` map empty, as some writers do. */
export function toolResultsEntry(outcomes: readonly ToolOutcome[], withResults = true): Json {
  return {
    version: 'v1',
    kind: 'ToolResults',
    data: {
      message_id: messageId(),
      content: outcomes.map((o) => ({ kind: 'toolResult', data: { toolUseId: o.id, content: o.content, status: o.status } })),
      results: withResults ? Object.fromEntries(outcomes.map((o) => [o.id, { tool: null, result: o.result }])) : {},
    },
  };
}

/** `execute_cmd`'s result: `{exit_status: ExitStatus's Display, stdout, stderr}`. */
export const shellJson = (exitStatus: string, stdout = '', stderr = ''): Json => ({ kind: 'json', data: { exit_status: exitStatus, stdout, stderr } });

export function compactionEntry(summary: string): Json {
  return { version: 'v1', kind: 'Compaction', data: { summary, strategy: { message_pairs_to_exclude: 2 }, messages_snapshot: [] } };
}

export interface SessionFiles {
  readonly id: string;
  readonly cwd: string;
  readonly entries: readonly Json[];
  readonly updatedAt?: string;
  readonly exportedFromV1?: boolean;
  readonly parentSessionId?: string;
}

/** `<dir>/<id>.json` and `<dir>/<id>.jsonl`; returns the log's path. */
export function writeKiroSession(dir: string, s: SessionFiles): string {
  mkdirSync(dir, { recursive: true });
  const at = s.updatedAt ?? '2026-03-30T19:55:35.130832Z';
  const meta = {
    session_id: s.id,
    cwd: s.cwd,
    created_at: at,
    updated_at: at,
    title: null,
    ...(s.exportedFromV1 ? { exported_from_v1: true } : {}),
    ...(s.parentSessionId ? { parent_session_id: s.parentSessionId } : {}),
    session_state: {
      version: 'v1',
      conversation_metadata: { user_turn_metadatas: [], user_turn_start_request: null, last_request: null },
      rts_model_state: { conversation_id: s.id, model_info: null, context_usage_percentage: null },
      permissions: {
        filesystem: { allowed_read_paths: [], allowed_write_paths: [], denied_read_paths: [], denied_write_paths: [] },
        trusted_tools: [],
        denied_tools: [],
      },
      agent_name: null,
    },
  };
  writeFileSync(path.join(dir, `${s.id}.json`), JSON.stringify(meta, null, 2));
  const log = path.join(dir, `${s.id}.jsonl`);
  writeFileSync(log, s.entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
  return log;
}
