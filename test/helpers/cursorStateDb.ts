/**
 * The Cursor IDE's chat store as open-source readers of real stores document it (SOURCES.md):
 * `User/globalStorage/state.vscdb` with `ItemTable` and `cursorDiskKV` (`key TEXT UNIQUE ON
 * CONFLICT REPLACE, value BLOB`), `composerData:<id>` (`_v` 10, `fullConversationHeadersOnly`)
 * and `bubbleId:<id>:<bubble>` (`_v` 3, `type` 1 user / 2 agent, `toolFormerData` with JSON-text
 * `rawArgs`, `params`, `result`); and `User/workspaceStorage/<hash>/` with `workspace.json`
 * (`folder`, a file URI) and a `state.vscdb` whose `ItemTable` `composer.composerData` lists the
 * workspace's chats (`allComposers`). Written with `node:sqlite` where this Node has it, else the
 * `sqlite3` program — the same SQL either way.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execSql } from './sqlite';

const SCHEMA = `CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
`;
const q = (v: string): string => `'${v.replace(/'/g, "''")}'`;

function writeDb(file: string, rows: Array<{ table: 'ItemTable' | 'cursorDiskKV'; key: string; value: unknown }>): void {
  const text = SCHEMA + rows.map((r) => `INSERT INTO ${r.table} (key, value) VALUES (${q(r.key)}, ${q(JSON.stringify(r.value))});`).join('\n');
  mkdirSync(path.dirname(file), { recursive: true });
  execSql(file, text);
}

export interface ToolFormerData {
  toolCallId?: string;
  name: string;
  status: string;
  rawArgs?: string;
  params?: string;
  result?: string;
  additionalData?: Record<string, unknown>;
}
export interface Bubble {
  type: 1 | 2;
  text?: string;
  createdAt?: string;
  toolFormerData?: ToolFormerData;
}
export interface Composer {
  id: string;
  createdAt: number;
  lastUpdatedAt: number;
  bubbles: Bubble[];
}

/** Writes Cursor's `User` folder: the chats in the global store, and for each workspace its storage entry naming them. */
export function writeCursorUser(userDir: string, workspaces: Array<{ hash: string; folder: string; composers: Composer[] }>): string {
  const global: Parameters<typeof writeDb>[1] = [];
  for (const ws of workspaces) {
    for (const c of ws.composers) {
      const headers = c.bubbles.map((b, i) => ({
        bubbleId: `${c.id.slice(0, 8)}-b${i}`,
        type: b.type,
        ...(b.type === 2 ? { serverBubbleId: `srv-${i}` } : {}),
      }));
      global.push({
        table: 'cursorDiskKV',
        key: `composerData:${c.id}`,
        value: {
          _v: 10,
          composerId: c.id,
          name: 'Chat',
          text: '',
          status: 'completed',
          createdAt: c.createdAt,
          lastUpdatedAt: c.lastUpdatedAt,
          fullConversationHeadersOnly: headers,
          conversationMap: {},
        },
      });
      c.bubbles.forEach((b, i) =>
        global.push({
          table: 'cursorDiskKV',
          key: `bubbleId:${c.id}:${headers[i].bubbleId}`,
          value: { _v: 3, bubbleId: headers[i].bubbleId, richText: '', ...b },
        }),
      );
    }
    const dir = path.join(userDir, 'workspaceStorage', ws.hash);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'workspace.json'), JSON.stringify({ folder: pathToFileURL(ws.folder).href }));
    writeDb(path.join(dir, 'state.vscdb'), [
      {
        table: 'ItemTable',
        key: 'composer.composerData',
        value: {
          allComposers: ws.composers.map((c) => ({
            type: 'head',
            composerId: c.id,
            createdAt: c.createdAt,
            lastUpdatedAt: c.lastUpdatedAt,
            unifiedMode: 'agent',
          })),
          selectedComposerIds: [],
        },
      },
    ]);
  }
  const globalDb = path.join(userDir, 'globalStorage', 'state.vscdb');
  writeDb(globalDb, global);
  return globalDb;
}

const at = (t0: number, s: number) => new Date(t0 + s * 1000).toISOString();

/** The workspace's chat: a request, a failing test run, a plan, an edit, a refused command, a cancelled edit, a passing run. */
export function cursorChatFor(t0: number): Composer {
  return {
    id: '3f2a9c1e-7b4d-4e21-9a55-0c8d2e6b1f47',
    createdAt: t0,
    lastUpdatedAt: t0 + 60_000,
    bubbles: [
      { type: 1, text: 'The date parser test fails on leap years; fix it.', createdAt: at(t0, 1) },
      { type: 2, text: "I'll run the tests first.", createdAt: at(t0, 2) },
      {
        type: 2,
        text: '',
        createdAt: at(t0, 3),
        toolFormerData: {
          toolCallId: 'toolu_01',
          name: 'todo_write',
          status: 'completed',
          rawArgs: JSON.stringify({
            merge: false,
            todos: [
              { id: '1', content: 'Fix leap-year parsing', status: 'in_progress' },
              { id: '2', content: 'Run the tests', status: 'pending' },
            ],
          }),
        },
      },
      {
        type: 2,
        text: '',
        createdAt: at(t0, 4),
        toolFormerData: {
          toolCallId: 'toolu_02',
          name: 'run_terminal_command_v2',
          status: 'completed',
          rawArgs: JSON.stringify({ command: 'npm test', is_background: false }),
          params: JSON.stringify({ command: 'npm test', cwd: '' }),
          result: JSON.stringify({ output: '  4 passing\n  1 failing\n', exitCode: 1, rejected: false }),
          additionalData: { status: 'error' },
        },
      },
      {
        type: 2,
        text: '',
        createdAt: at(t0, 5),
        toolFormerData: {
          toolCallId: 'toolu_03',
          name: 'edit_file_v2',
          status: 'completed',
          params: JSON.stringify({ relativeWorkspacePath: 'src/date.ts', streamingContent: 'export const isLeap = …', noCodeblock: true }),
          result: JSON.stringify({ afterContentId: 'composer.content.abc' }),
        },
      },
      {
        type: 2,
        text: '',
        createdAt: at(t0, 6),
        toolFormerData: {
          toolCallId: 'toolu_04',
          name: 'run_terminal_command_v2',
          status: 'completed',
          rawArgs: JSON.stringify({ command: 'rm -rf dist' }),
          result: JSON.stringify({ rejected: true }),
          additionalData: { status: 'rejected' },
        },
      },
      {
        type: 2,
        text: '',
        createdAt: at(t0, 7),
        toolFormerData: {
          toolCallId: 'toolu_05',
          name: 'edit_file_v2',
          status: 'cancelled',
          params: JSON.stringify({ relativeWorkspacePath: 'src/other.ts' }),
        },
      },
      { type: 1, text: 'Skip the clean, just rerun the tests.', createdAt: at(t0, 8) },
      {
        type: 2,
        text: '',
        createdAt: at(t0, 9),
        toolFormerData: {
          toolCallId: 'toolu_06',
          name: 'run_terminal_command_v2',
          status: 'completed',
          rawArgs: JSON.stringify({ command: 'npm test' }),
          result: JSON.stringify({ output: '  5 passing\n', exitCode: 0, rejected: false }),
          additionalData: { status: 'success' },
        },
      },
      {
        type: 2,
        text: '',
        createdAt: at(t0, 10),
        toolFormerData: {
          name: 'todo_write',
          status: 'completed',
          rawArgs: JSON.stringify({
            merge: true,
            todos: [
              { id: '1', status: 'completed' },
              { id: '2', status: 'completed' },
            ],
          }),
        },
      },
      { type: 2, text: 'Leap years parse correctly now; all 5 tests pass.', createdAt: at(t0, 11) },
    ],
  };
}
