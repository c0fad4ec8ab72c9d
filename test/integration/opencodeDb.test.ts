/**
 * OpenCode 1.2+'s `opencode.db` in the real extension host: VS Code 1.139 (Node 24) reads it with
 * `node:sqlite`, VS Code 1.99 (Node 20) with the bundled node-sqlite3-wasm.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { collectSessionLog } from '../../src/evidence/session/collectSessionLog';
import { openCodeDbSessionsFor, writeOpenCodeDb } from '../helpers/opencodeStorage';

describe('OpenCode opencode.db in the VS Code extension host', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("read in every host (node:sqlite in VS Code 1.139, node-sqlite3-wasm in 1.99): the workspace's session, its sub-agent's, test runs once", async () => {
    const [major, minor] = vscode.version.split('.').map(Number);
    const builtin = typeof (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.('node:sqlite') === 'object';
    if (major > 1 || minor >= 139) assert.ok(builtin, `VS Code ${vscode.version}'s extension host (Node ${process.version}) has node:sqlite`);
    const root = mkdtempSync(path.join(tmpdir(), 'handoff-opencode-'));
    dirs.push(root);
    const ws = path.join(root, 'parser');
    const data = path.join(root, 'opencode');
    const t0 = Date.UTC(2026, 2, 2, 10, 0, 0);
    writeOpenCodeDb(
      path.join(data, 'opencode.db'),
      [
        { id: 'p1', worktree: ws },
        { id: 'p2', worktree: '/elsewhere' },
      ],
      openCodeDbSessionsFor(ws, t0),
    );
    const opts = { workspaceRoot: ws, sources: ['opencode' as const], locations: { opencode: data } };
    const first = await collectSessionLog(opts);
    assert.deepEqual(
      first.transcripts.map((t) => path.basename(t.file)),
      ['opencode.db#ses_main00000001', 'opencode.db#ses_child0000001'],
    );
    assert.deepEqual(
      first.tests_run.map((t) => [t.command, t.result, t.exit_code, t.source]),
      [
        ['npx vitest run src/tokens.test.ts', 'passed', 0, 'opencode'],
        ['npm test', 'failed', 1, 'opencode'],
        ['npm test', 'passed', 0, 'opencode'],
      ],
    );
    assert.deepEqual(
      first.file_edits.map((e) => e.path),
      ['src/parser.ts'],
    );
    assert.deepEqual(first.notes, []);
    const again = await collectSessionLog({ ...opts, state: first.next_state });
    assert.deepEqual(again.tests_run, [], 'nothing new the second time');
  });
});
