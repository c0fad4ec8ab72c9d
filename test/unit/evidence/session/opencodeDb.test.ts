import assert from 'node:assert/strict';
import path from 'node:path';
import type { SessionCommand, SessionTurn, TranscriptRead } from '../../../../src/core/session/events';
import { findOpenCode } from '../../../../src/evidence/session/discoveryGeminiOpenCode';
import { readOpenCode } from '../../../../src/evidence/session/readers/opencode';
import { openCodeDbSessionsFor, writeOpenCodeDb } from '../../../helpers/opencodeStorage';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const commands = (r: TranscriptRead) => r.events.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran]);
const turns = (r: TranscriptRead) => r.events.filter((e): e is SessionTurn => e.kind === 'turn').map((t) => `${t.role}: ${t.text}`);

describe("OpenCode 1.2+ database (opencode.db written here with OpenCode's tables)", function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('found for the workspace and read on every Node', async () => {
    const ws = path.join(tempDir(), 'parser');
    const t0 = Date.UTC(2026, 2, 2, 10, 0, 0);
    const data = path.join(tempDir(), 'opencode');
    const db = path.join(data, 'opencode.db');
    writeOpenCodeDb(
      db,
      [
        { id: 'p1', worktree: ws },
        { id: 'p2', worktree: '/elsewhere' },
      ],
      openCodeDbSessionsFor(ws, t0),
    );
    const found = await findOpenCode(data, ws);
    assert.deepEqual(
      found.map((f) => path.basename(f.file)),
      ['opencode.db#ses_main00000001', 'opencode.db#ses_child0000001'],
    );
    const r = await readOpenCode(found[0].file, { workspaceRoot: ws });
    assert.deepEqual(commands(r), [
      ['npm test', 1, true],
      ['npm test', 0, true],
    ]);
    assert.deepEqual(turns(r), ['user: Make the parser tests pass.', 'assistant: All 7 tests pass.']);
    assert.deepEqual(commands(await readOpenCode(found[1].file, { workspaceRoot: ws })), [['npx vitest run src/tokens.test.ts', 0, true]]);
    assert.deepEqual(commands(await readOpenCode(found[0].file, { workspaceRoot: ws, sinceTime: r.last_time })), []);
  });
});
