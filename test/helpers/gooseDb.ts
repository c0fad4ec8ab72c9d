/**
 * Goose's `sessions.db` written the way Goose writes it (block/goose `session/session_manager.rs`: its `CREATE TABLE
 * sessions` and `messages`, `add_message`'s columns, `content_json` the serde JSON of a `Message`'s content list), with
 * Node's `node:sqlite` when this Node has it, else the `sqlite3` program — the same SQL either way.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { execSql } from './sqlite';

const GOOSE_SCHEMA = `
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
INSERT INTO schema_version (version) VALUES (9);
CREATE TABLE sessions (
  id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '', user_set_name BOOLEAN DEFAULT FALSE,
  session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
  updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER,
  output_tokens INTEGER, accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER,
  schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT, provider_name TEXT, model_config_json TEXT, tenant_id TEXT, user_id TEXT
);
CREATE TABLE messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL,
  content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER,
  metadata_json TEXT
);
CREATE INDEX idx_messages_session ON messages(session_id);
CREATE INDEX idx_sessions_updated ON sessions(updated_at DESC);
`;

/** A `Message`: `created` in seconds, `content` its list (`text`, `toolRequest`, `toolResponse` …). */
export interface GooseDbMessage {
  readonly role: 'user' | 'assistant';
  readonly created: number;
  readonly content: readonly object[];
}

export interface GooseDbSessionDraft {
  readonly id: string;
  readonly workingDir: string;
  /** As Goose stores it: `datetime('now')` text (`2025-10-01 12:00:00`) or RFC 3339 from chrono. */
  readonly updatedAt: string;
  readonly messages: readonly GooseDbMessage[];
}

const q = (v: string | undefined): string => (v === undefined ? 'NULL' : `'${v.replace(/'/g, "''")}'`);

export function writeGooseDb(file: string, sessions: readonly GooseDbSessionDraft[]): void {
  const sql: string[] = [GOOSE_SCHEMA];
  for (const s of sessions) {
    sql.push(
      `INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, extension_data, updated_at) VALUES (${q(s.id)}, 'Session', FALSE, 'user', ${q(s.workingDir)}, '{}', ${q(s.updatedAt)});`,
    );
    s.messages.forEach((m, i) =>
      sql.push(
        `INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json) VALUES (${q(`msg_${s.id}_${i}`)}, ${q(s.id)}, ${q(m.role)}, ${q(JSON.stringify(m.content))}, ${m.created}, '{"userVisible":true,"agentVisible":true}');`,
      ),
    );
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const text = sql.join('\n');
  execSql(file, text);
}
