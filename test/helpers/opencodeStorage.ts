/**
 * OpenCode's JSON file storage written the way OpenCode writes it (anomalyco/opencode
 * `packages/opencode/src/storage/storage.ts`, shapes from `session/message-v2.ts`, `tool/bash.ts`):
 * `project/<id>.json`, `session/<projectID>/<sessionID>.json`, `message/<sessionID>/<messageID>.json`,
 * `part/<messageID>/<partID>.json`, ids with their kind's prefix, message ids ascending.
 * Test data only: the tests build these folders in temporary folders.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execSql } from './sqlite';

let counter = 0;
/** An OpenCode-like id: prefix, 12 hex digits that ascend, 14 base62 characters. */
export function ocId(prefix: 'ses' | 'msg' | 'prt'): string {
  counter++;
  return `${prefix}_${counter.toString(16).padStart(12, '0')}${'Ab3dE5gH7jK9mN'}`;
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

/** `project/<id>.json`. */
export function writeProject(storage: string, id: string, worktree: string, updated = 1772445600000): void {
  writeJson(path.join(storage, 'project', `${id}.json`), {
    id,
    worktree,
    vcs: id === 'global' ? undefined : 'git',
    time: { created: updated, updated },
    sandboxes: [],
  });
}

/** A part to write: its type and fields, without the ids. */
export type PartDraft = Record<string, unknown> & { type: string };

/** A message to write. */
export interface MessageDraft {
  role: 'user' | 'assistant';
  created: number;
  parts: PartDraft[];
  summary?: boolean;
}

/** A bash tool part that completed, with the exit code and output in its metadata. */
export function bashPart(command: string, exit: number, output: string, start: number): PartDraft {
  return {
    type: 'tool',
    callID: `toolu_${start}`,
    tool: 'bash',
    state: {
      status: 'completed',
      input: { command, description: 'Runs a command' },
      output,
      title: 'Runs a command',
      metadata: { output, exit, description: 'Runs a command' },
      time: { start, end: start + 900 },
    },
  };
}

/** A tool part that ended in an error (permission rejected, aborted). */
export function errorToolPart(tool: string, input: Record<string, unknown>, error: string, start: number): PartDraft {
  return { type: 'tool', callID: `toolu_${start}`, tool, state: { status: 'error', input, error, time: { start, end: start + 10 } } };
}

/** A completed file tool part (`edit`, `write`, `apply_patch` …). */
export function fileToolPart(tool: string, input: Record<string, unknown>, start: number): PartDraft {
  return {
    type: 'tool',
    callID: `toolu_${start}`,
    tool,
    state: { status: 'completed', input, output: '', title: tool, metadata: {}, time: { start, end: start + 50 } },
  };
}

/** Writes one session with its messages and parts; returns the session file. */
export function writeSession(
  storage: string,
  s: { projectID: string; directory: string; title?: string; parentID?: string; updated?: number; id?: string },
  messages: MessageDraft[],
): { file: string; id: string } {
  const id = s.id ?? ocId('ses');
  const created = messages[0]?.created ?? 1772445600000;
  const file = path.join(storage, 'session', s.projectID, `${id}.json`);
  writeJson(file, {
    id,
    slug: 'brave-otter',
    version: '1.0.150',
    projectID: s.projectID,
    directory: s.directory,
    ...(s.parentID ? { parentID: s.parentID } : {}),
    title: s.title ?? 'Session',
    time: { created, updated: s.updated ?? messages.at(-1)?.created ?? created },
  });
  for (const m of messages) {
    const msgID = ocId('msg');
    const base = { id: msgID, sessionID: id, role: m.role, time: { created: m.created, ...(m.role === 'assistant' ? { completed: m.created + 5000 } : {}) } };
    const extra =
      m.role === 'user'
        ? { agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet-4' } }
        : {
            parentID: 'msg_parent',
            modelID: 'claude-sonnet-4',
            providerID: 'anthropic',
            mode: 'build',
            path: { cwd: s.directory, root: s.directory },
            cost: 0.01,
            tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } },
            ...(m.summary ? { summary: true } : {}),
          };
    writeJson(path.join(storage, 'message', id, `${msgID}.json`), { ...base, ...extra });
    for (const p of m.parts) {
      const partID = ocId('prt');
      writeJson(path.join(storage, 'part', msgID, `${partID}.json`), { id: partID, sessionID: id, messageID: msgID, ...p });
    }
  }
  return { file, id };
}

/**
 * The tables of OpenCode 1.2+'s `opencode.db` that sessions live in, with the columns of
 * `packages/opencode/src/session/session.sql.ts` and `project/project.sql.ts`.
 */
const OPENCODE_SCHEMA = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, icon_url text, icon_color text, time_created integer NOT NULL, time_updated integer NOT NULL, time_initialized integer, sandboxes text NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL REFERENCES project(id) ON DELETE CASCADE, workspace_id text, parent_id text, slug text NOT NULL, directory text NOT NULL, path text, title text NOT NULL, version text NOT NULL, share_url text, summary_additions integer, summary_deletions integer, summary_files integer, summary_diffs text, cost real DEFAULT 0 NOT NULL, tokens_input integer DEFAULT 0 NOT NULL, tokens_output integer DEFAULT 0 NOT NULL, tokens_reasoning integer DEFAULT 0 NOT NULL, tokens_cache_read integer DEFAULT 0 NOT NULL, tokens_cache_write integer DEFAULT 0 NOT NULL, revert text, permission text, goal text, agent text, model text, time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL REFERENCES session(id) ON DELETE CASCADE, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL REFERENCES message(id) ON DELETE CASCADE, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
PRAGMA journal_mode = WAL;
`;

const q = (v: unknown): string => (v === undefined || v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);

/**
 * Writes an `opencode.db` holding the given sessions (rows shaped as OpenCode 1.2+ stores them:
 * `data` is the message or part JSON without its ids), with Node's `node:sqlite` when this Node
 * has it, else the `sqlite3` program — the same SQL either way.
 */
export function writeOpenCodeDb(
  file: string,
  projects: Array<{ id: string; worktree: string }>,
  sessions: Array<{ id: string; projectID: string; directory: string; parentID?: string; updated: number; messages: MessageDraft[] }>,
): void {
  const sql: string[] = [OPENCODE_SCHEMA];
  for (const p of projects)
    sql.push(`INSERT INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES (${q(p.id)}, ${q(p.worktree)}, 'git', 1, 1, '[]');`);
  for (const s of sessions) {
    sql.push(
      `INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (${q(s.id)}, ${q(s.projectID)}, ${q(s.parentID)}, 'calm-heron', ${q(s.directory)}, 'Session', '1.17.3', ${s.messages[0]?.created ?? s.updated}, ${s.updated});`,
    );
    for (const m of s.messages) {
      const msgID = ocId('msg');
      const data =
        m.role === 'user'
          ? { role: 'user', time: { created: m.created }, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet-4' } }
          : {
              role: 'assistant',
              time: { created: m.created, completed: m.created + 5000 },
              parentID: 'msg_parent',
              modelID: 'claude-sonnet-4',
              providerID: 'anthropic',
              mode: 'build',
              path: { cwd: s.directory, root: s.directory },
              cost: 0,
              tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } },
              ...(m.summary ? { summary: true } : {}),
            };
      sql.push(
        `INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (${q(msgID)}, ${q(s.id)}, ${m.created}, ${m.created}, ${q(JSON.stringify(data))});`,
      );
      for (const p of m.parts)
        sql.push(
          `INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (${q(ocId('prt'))}, ${q(msgID)}, ${q(s.id)}, ${m.created}, ${m.created}, ${q(JSON.stringify(p))});`,
        );
    }
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const text = sql.join('\n');
  execSql(file, text);
}

/** The sessions of the opencode.db tests: in `ws`, a failing and a passing run, an edit, a sub-agent's run; one session elsewhere. */
export function openCodeDbSessionsFor(ws: string, t0: number): Parameters<typeof writeOpenCodeDb>[2] {
  return [
    {
      id: 'ses_main00000001',
      projectID: 'p1',
      directory: ws,
      updated: t0 + 5000,
      messages: [
        { role: 'user', created: t0, parts: [{ type: 'text', text: 'Make the parser tests pass.' }] },
        {
          role: 'assistant',
          created: t0 + 100,
          parts: [
            bashPart('npm test', 1, ' Tests  2 failed | 5 passed (7)', t0 + 200),
            fileToolPart('edit', { filePath: `${ws}/src/parser.ts`, oldString: 'a', newString: 'b' }, t0 + 300),
            bashPart('npm test', 0, ' Tests  7 passed (7)', t0 + 400),
            { type: 'text', text: 'All 7 tests pass.' },
          ],
        },
      ],
    },
    {
      id: 'ses_child0000001',
      projectID: 'p1',
      directory: ws,
      parentID: 'ses_main00000001',
      updated: t0 + 4000,
      messages: [{ role: 'assistant', created: t0 + 150, parts: [bashPart('npx vitest run src/tokens.test.ts', 0, ' Tests  3 passed (3)', t0 + 160)] }],
    },
    {
      id: 'ses_other0000001',
      projectID: 'p2',
      directory: '/elsewhere',
      updated: t0 + 9000,
      messages: [{ role: 'user', created: t0, parts: [{ type: 'text', text: 'elsewhere' }] }],
    },
  ];
}
