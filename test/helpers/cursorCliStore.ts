/**
 * The Cursor Agent CLI's chat store as open-source readers of real stores document it (SOURCES.md):
 * `~/.cursor/chats/<md5 of the workspace path>/<chat id>/store.db` with `meta (key, value)` whose row
 * `0` is hex-encoded JSON (`agentId`, `name`, `createdAt`, `latestRootBlobId`) and `blobs (id, data)`,
 * `id` the SHA-256 of `data`: messages as JSON, the root protobuf (field 1: each message blob's 32-byte
 * id in order; field 9: the workspace URI). Written with `node:sqlite` where this Node has it, else the
 * `sqlite3` program — the same SQL either way.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execSql } from './sqlite';

const sha = (b: Buffer) => createHash('sha256').update(b).digest();
const varint = (n: number): Buffer => {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
};
const field = (n: number, payload: Buffer) => Buffer.concat([varint((n << 3) | 2), varint(payload.length), payload]);

/** Writes `<chatDir>/store.db` (replacing it) holding `messages` in order, listed in the root's field `listField`; returns its path. */
export function writeCursorCliStore(chatDir: string, workspace: string, createdAt: number, messages: object[], listField = 1): string {
  const file = path.join(chatDir, 'store.db');
  mkdirSync(chatDir, { recursive: true });
  rmSync(file, { force: true });
  const rows: Array<[string, Buffer]> = [];
  const ids: Buffer[] = [];
  for (const m of messages) {
    const data = Buffer.from(JSON.stringify(m));
    ids.push(sha(data));
    rows.push([sha(data).toString('hex'), data]);
  }
  const root = Buffer.concat([...ids.map((id) => field(listField, id)), field(9, Buffer.from(pathToFileURL(workspace).href))]);
  rows.push([sha(root).toString('hex'), root]);
  const meta = { agentId: path.basename(chatDir), latestRootBlobId: sha(root).toString('hex'), name: 'Fix the tests', mode: 'default', createdAt };
  const sql = [
    'CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB);',
    'CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);',
    ...rows.map(([id, data]) => `INSERT INTO blobs (id, data) VALUES ('${id}', X'${data.toString('hex')}');`),
    `INSERT INTO meta (key, value) VALUES ('0', '${Buffer.from(JSON.stringify(meta)).toString('hex')}');`,
  ].join('\n');
  execSql(file, sql);
  return file;
}

/** A chat in the documented shapes: a context-only user message, the request, a failing then a passing test run, an edit and a todo list. */
export function cursorCliChat(): object[] {
  const call = (toolCallId: string, toolName: string, args: object) => ({ type: 'tool-call', toolCallId, toolName, args });
  const result = (toolCallId: string, toolName: string, text: string) => ({
    role: 'tool',
    id: toolCallId,
    content: [{ type: 'tool-result', toolName, toolCallId, result: text, isError: false }],
  });
  return [
    { role: 'system', content: 'You are an AI coding assistant, powered by a model.' },
    { role: 'user', content: '<user_info>OS Version: linux</user_info>' },
    { role: 'user', content: [{ type: 'text', text: '<user_query>\nThe date parser fails on leap years; fix it.\n</user_query>' }] },
    {
      id: '1',
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Run the tests first.' },
        { type: 'text', text: "I'll run the tests first." },
        call('toolu_1', 'TodoWrite', {
          merge: false,
          todos: [
            { id: '1', content: 'Fix leap-year parsing', status: 'in_progress' },
            { id: '2', content: 'Run the tests', status: 'pending' },
          ],
        }),
        call('toolu_2', 'Shell', { command: 'npm test', working_directory: '' }),
      ],
    },
    result('toolu_1', 'TodoWrite', 'ok'),
    result('toolu_2', 'Shell', 'Tests: 1 failed, 4 passed, 5 total'),
    {
      id: '1',
      role: 'assistant',
      content: [call('toolu_3', 'StrReplace', { path: 'src/date.ts', old_string: 'a', new_string: 'b' }), call('toolu_4', 'Shell', { command: 'npm test' })],
    },
    result('toolu_3', 'StrReplace', 'The file src/date.ts has been updated.'),
    result('toolu_4', 'Shell', 'Tests: 5 passed, 5 total'),
    {
      id: '1',
      role: 'assistant',
      content: [
        call('toolu_5', 'TodoWrite', {
          merge: true,
          todos: [
            { id: '1', status: 'completed' },
            { id: '2', status: 'completed' },
          ],
        }),
        { type: 'text', text: 'Leap years parse correctly now; all 5 tests pass.' },
      ],
    },
  ];
}
