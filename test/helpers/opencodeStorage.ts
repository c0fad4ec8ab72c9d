/**
 * OpenCode's JSON file storage written the way OpenCode writes it (anomalyco/opencode
 * `packages/opencode/src/storage/storage.ts`, shapes from `session/message-v2.ts`, `tool/bash.ts`):
 * `project/<id>.json`, `session/<projectID>/<sessionID>.json`, `message/<sessionID>/<messageID>.json`,
 * `part/<messageID>/<partID>.json`, ids with their kind's prefix, message ids ascending.
 * Test data only: the tests build these folders in temporary folders.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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
  writeJson(path.join(storage, 'project', `${id}.json`), { id, worktree, vcs: id === 'global' ? undefined : 'git', time: { created: updated, updated }, sandboxes: [] });
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
    state: { status: 'completed', input: { command, description: 'Runs a command' }, output, title: 'Runs a command', metadata: { output, exit, description: 'Runs a command' }, time: { start, end: start + 900 } },
  };
}

/** A tool part that ended in an error (permission rejected, aborted). */
export function errorToolPart(tool: string, input: Record<string, unknown>, error: string, start: number): PartDraft {
  return { type: 'tool', callID: `toolu_${start}`, tool, state: { status: 'error', input, error, time: { start, end: start + 10 } } };
}

/** A completed file tool part (`edit`, `write`, `apply_patch` …). */
export function fileToolPart(tool: string, input: Record<string, unknown>, start: number): PartDraft {
  return { type: 'tool', callID: `toolu_${start}`, tool, state: { status: 'completed', input, output: '', title: tool, metadata: {}, time: { start, end: start + 50 } } };
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
        : { parentID: 'msg_parent', modelID: 'claude-sonnet-4', providerID: 'anthropic', mode: 'build', path: { cwd: s.directory, root: s.directory }, cost: 0.01, tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } }, ...(m.summary ? { summary: true } : {}) };
    writeJson(path.join(storage, 'message', id, `${msgID}.json`), { ...base, ...extra });
    for (const p of m.parts) {
      const partID = ocId('prt');
      writeJson(path.join(storage, 'part', msgID, `${partID}.json`), { id: partID, sessionID: id, messageID: msgID, ...p });
    }
  }
  return { file, id };
}
