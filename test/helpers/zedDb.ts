/**
 * Zed's `threads.db` written the way Zed writes it (zed-industries/zed `crates/agent/src/db.rs`: its `CREATE TABLE
 * threads` and the columns its later `ALTER TABLE`s add, `save_thread_sync`'s row, `data` the serde JSON of a `DbThread`
 * with `version`, zstd-compressed), with Node's `node:sqlite` and `zlib.zstdCompressSync` when this Node has them, else
 * the `sqlite3` and `zstd` programs — the same bytes either way.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execSql } from './sqlite';

const ZED_SCHEMA = `
CREATE TABLE IF NOT EXISTS threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL, data_type TEXT NOT NULL, data BLOB NOT NULL);
ALTER TABLE threads ADD COLUMN parent_id TEXT;
ALTER TABLE threads ADD COLUMN folder_paths TEXT;
ALTER TABLE threads ADD COLUMN folder_paths_order TEXT;
ALTER TABLE threads ADD COLUMN created_at TEXT;
`;
/** Zed's first table, before `parent_id`, `folder_paths` and `created_at`. */
const ZED_SCHEMA_FIRST = `CREATE TABLE IF NOT EXISTS threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL, data_type TEXT NOT NULL, data BLOB NOT NULL);`;

/** `crate::Message` as serde writes it: `{"User": …}`, `{"Agent": …}` or `"Resume"`. */
export type ZedMessage = { User: { id: string; content: object[] } } | { Agent: { content: object[]; tool_results: Record<string, object> } } | 'Resume';

export interface ZedThreadDraft {
  readonly id: string;
  readonly title: string;
  /** RFC 3339, as `to_rfc3339()` writes it. */
  readonly updatedAt: string;
  /** The workspace folders (`folder_paths`); none for a row of Zed's first table (then the snapshot names them). */
  readonly folders: readonly string[];
  readonly messages: readonly ZedMessage[];
  /** Default 'zstd', what Zed writes; 'json' is what older builds wrote. */
  readonly dataType?: 'zstd' | 'json';
}

export const zedUser = (text: string, id = `u-${text.length}`): ZedMessage => ({ User: { id, content: [{ Text: text }] } });
/** An agent message: text, then tool uses each answered in `tool_results` (`[name, input, result text, is_error]`). */
export function zedAgent(text: string, tools: ReadonlyArray<readonly [string, object, string, boolean?]> = []): ZedMessage {
  const content: object[] = text ? [{ Text: text }] : [];
  const tool_results: Record<string, object> = {};
  tools.forEach(([name, input, out, isError], i) => {
    const id = `toolu_${name}_${i}_${out.length}`;
    content.push({ ToolUse: { id, name, raw_input: JSON.stringify(input), input, is_input_complete: true, thought_signature: null } });
    tool_results[id] = { tool_use_id: id, tool_name: name, is_error: isError === true, content: { Text: out }, output: out };
  });
  return { Agent: { content, tool_results } };
}

function zstd(bytes: Buffer): Buffer {
  const compress = (zlib as { zstdCompressSync?: (b: Buffer) => Buffer }).zstdCompressSync;
  return compress ? compress(bytes) : execFileSync('zstd', ['-q', '-3', '-c'], { input: bytes });
}

const q = (v: string | undefined): string => (v === undefined ? 'NULL' : `'${v.replace(/'/g, "''")}'`);

/**
 * Creates the database, or saves the threads into it as Zed does (a thread saved again is updated in place).
 * `firstTable`: Zed's first `threads` table (no `folder_paths`), the folders in `initial_project_snapshot`.
 */
export function writeZedDb(file: string, threads: readonly ZedThreadDraft[], firstTable = false): void {
  const sql: string[] = existsSync(file) ? [] : [firstTable ? ZED_SCHEMA_FIRST : ZED_SCHEMA];
  for (const t of threads) {
    const json = JSON.stringify({
      title: t.title,
      messages: t.messages,
      updated_at: t.updatedAt,
      detailed_summary: null,
      initial_project_snapshot: { worktree_snapshots: t.folders.map((f) => ({ worktree_path: f, git_state: null })), timestamp: t.updatedAt },
      cumulative_token_usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      request_token_usage: {},
      model: { provider: 'zed.dev', model: 'claude-sonnet-4' },
      profile: 'write',
      imported: false,
      version: '0.3.0',
    });
    const dataType = t.dataType ?? 'zstd';
    const data = dataType === 'zstd' ? zstd(Buffer.from(json, 'utf8')) : Buffer.from(json, 'utf8');
    const blob = `X'${data.toString('hex')}'`;
    sql.push(
      firstTable
        ? `INSERT INTO threads (id, summary, updated_at, data_type, data) VALUES (${q(t.id)}, ${q(t.title)}, ${q(t.updatedAt)}, ${q(dataType)}, ${blob});`
        : `INSERT INTO threads (id, parent_id, folder_paths, folder_paths_order, summary, updated_at, data_type, data, created_at) VALUES (${q(t.id)}, NULL, ${t.folders.length ? q([...t.folders].sort().join('\n')) : 'NULL'}, ${t.folders.length ? q(t.folders.map((_, i) => i).join(',')) : 'NULL'}, ${q(t.title)}, ${q(t.updatedAt)}, ${q(dataType)}, ${blob}, ${q(t.updatedAt)}) ON CONFLICT(id) DO UPDATE SET summary = excluded.summary, updated_at = excluded.updated_at, data_type = excluded.data_type, data = excluded.data;`,
    );
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const text = sql.join('\n');
  execSql(file, text);
}
