/**
 * The engine's full history (src/engine/timeline/history.ts, issue 18) where a handoff's session cannot
 * be read again: written without a session log, its transcript named only by file name and
 * not where the session log setting looks, its transcript deleted — each an error value with
 * the field and a fix, never a throw; found again through the setting (a path); and a
 * handoff written right after another, whose window is empty, warns where the session is. The
 * transcript is written in Claude Code's format (test/helpers/claudeSession.ts).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { handover } from '../../../src/engine/handover/handover';
import { fullHistory } from '../../../src/engine/timeline/history';
import { writeClaudeSession } from '../../helpers/claudeSession';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../helpers/repo';

describe('engine: fullHistory when the session cannot be read again (issue 18)', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  function repo(): string {
    const ws = initRepo(tempDir('handoff-history-engine-'));
    write(ws, 'src/cart.ts', 'export const total = 0;\n');
    commitAll(ws, 'cart');
    write(ws, 'src/cart.ts', 'export const total = 1;\n');
    return ws;
  }

  it('a handoff written without a session log names no transcript: not_found on session_sources', async () => {
    const ws = repo();
    const h = await handover({ specialist: 'quality_reviewer', topic: 'cart' }, { workspaceRoot: ws, sessionLog: { mode: 'none' } });
    assert.equal(h.status, 'ok');
    const r = await fullHistory({}, { workspaceRoot: ws, sessionLog: { mode: 'none' } });
    assert.equal(r.status, 'error');
    if (r.status !== 'error') return;
    assert.equal(r.field, 'session_sources');
    assert.equal(r.code, 'not_found');
    assert.match(r.message, /names no transcript/);
  });

  it('a transcript named by file name is found through the session log setting, and its loss is an error naming it', async () => {
    const ws = repo();
    const file = writeClaudeSession(tempDir('handoff-history-log-'), ws);
    const h = await handover({ specialist: 'quality_reviewer', topic: 'cart' }, { workspaceRoot: ws, sessionLog: { mode: file } });
    assert.equal(h.status, 'ok');
    const found = await fullHistory({ handoff: 'latest' }, { workspaceRoot: ws, sessionLog: { mode: file } });
    assert.equal(found.status, 'ok', found.status === 'error' ? found.message : '');
    if (found.status !== 'ok') return;
    assert.equal(found.total.commands, 2, 'npm run build and npm test');
    assert.ok(found.total.turns >= 4, `${found.total.turns} turns`);
    assert.match(found.text, /^### Command 1 · exit 2 · \S+ · claude-code\n\n```sh\n\$ npm run build\n```/m);
    assert.match(found.text, /^### Command 2 · exit 0 · \S+ · claude-code\n\n```sh\n\$ npm test\n```/m);
    const elsewhere = await fullHistory({}, { workspaceRoot: ws, sessionLog: { mode: 'auto' } });
    assert.equal(elsewhere.status, 'error');
    if (elsewhere.status === 'error') {
      assert.equal(elsewhere.field, 'session_sources');
      assert.match(
        elsewhere.message,
        /^ERROR: the transcripts of handoff \S+ \(7d2a4c1e-5b6f-4e8a-9c3d-1f2e3a4b5c6d\.jsonl\) cannot be found or read again: transcript 7d2a4c1e-5b6f-4e8a-9c3d-1f2e3a4b5c6d\.jsonl \(claude-code\) of the handoff was not found again — name the transcript with the session log setting/,
      );
    }
    rmSync(file);
    const gone = await fullHistory({}, { workspaceRoot: ws, sessionLog: { mode: file } });
    assert.equal(gone.status === 'error' && gone.field, 'session_sources');
    const bad = await fullHistory({ maxTokens: 50_001 }, { workspaceRoot: ws });
    assert.equal(bad.status === 'error' && bad.field, 'max_tokens');
  });

  it('handed over again with nothing done in between: an empty window, and a warning naming the handoff before it', async () => {
    const ws = repo();
    const file = writeClaudeSession(tempDir('handoff-history-log-'), ws);
    const env = { workspaceRoot: ws, sessionLog: { mode: file } };
    const first = await handover({ specialist: 'quality_reviewer', topic: 'cart' }, env);
    const second = await handover({ specialist: 'quality_reviewer', topic: 'cart again' }, env);
    assert.ok(first.status === 'ok' && second.status === 'ok');
    const r = await fullHistory({}, env);
    assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
    if (r.status !== 'ok' || first.status !== 'ok' || second.status !== 'ok') return;
    assert.equal(r.handoff_id, second.package.id);
    assert.deepEqual([r.window.from, r.total], [first.package.created, { turns: 0, commands: 0 }]);
    assert.deepEqual(r.warnings, [
      `WARNING: the transcripts hold no turn or command between handoff ${first.package.id} (${first.package.created}) and this one — the session before it is the history of ${first.package.id} (CLI: history --handoff ${first.package.id})`,
    ]);
    const before = await fullHistory({ handoff: first.package.id }, env);
    assert.ok(before.status === 'ok' && before.total.commands === 2 && before.warnings.length === 0);
  });
});
