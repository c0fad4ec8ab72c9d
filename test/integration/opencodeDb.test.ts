/**
 * OpenCode 1.2+'s `opencode.db` in the real extension host. Its Node decides: VS Code 1.139
 * (Node 24) has `node:sqlite` and reads the database; VS Code 1.99 (Node 20) has not, and the
 * handoff's notes say why the database was not read and what fixes it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { collectSessionLog } from '../../src/evidence/session/collectSessionLog';
import { nodeSqlite } from '../../src/evidence/session/readers/opencodeDb';
import { openCodeDbSessionsFor, writeOpenCodeDb } from '../helpers/opencodeStorage';

describe('OpenCode opencode.db in the VS Code extension host', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("read with node:sqlite where the host has it (VS Code 1.139): the workspace's session, its sub-agent's, test runs once; elsewhere a note", async () => {
    const [major, minor] = vscode.version.split('.').map(Number);
    const sqlite = nodeSqlite();
    if (major > 1 || minor >= 139) assert.ok(sqlite, `VS Code ${vscode.version}'s extension host (Node ${process.version}) has node:sqlite`);
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
    if (!sqlite) {
      assert.deepEqual(first.tests_run, []);
      assert.equal(first.notes.length, 1);
      assert.match(
        first.notes[0],
        /opencode\.db cannot be read: this Node \(v\d[\d.]*\) has no node:sqlite; OpenCode 1\.2\+ sessions in opencode\.db are read with Node 22\.13 or later/,
      );
      return;
    }
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
