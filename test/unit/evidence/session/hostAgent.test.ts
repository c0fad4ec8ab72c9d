/**
 * In a VS Code fork whose own agent is read (Cursor), the extension looks for that agent's store in the host's own
 * User folder (`globalStorageUri`'s parent's parent: a portable install or `--user-data-dir` keeps it elsewhere than
 * the usual place) and reads it before the other agents': where two transcripts tie, the host's plan is the session's.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { hostAgentSource } from '../../../../src/core/agents/hostAgent';
import { discover } from '../../../../src/evidence/session/agentReaders';
import { newestPlan, type PlanCandidate } from '../../../../src/evidence/session/plans';
import { writeClaudeSession } from '../../../helpers/claudeSession';
import { cursorChatFor, writeCursorUser } from '../../../helpers/cursorStateDb';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

describe("the host's own agent in a VS Code fork", () => {
  after(cleanupTempDirs);
  const t0 = Date.UTC(2026, 3, 1, 9, 0, 0);

  it("maps the fork's URI scheme to its agent; VS Code itself and unknown names to none", () => {
    assert.equal(hostAgentSource('cursor'), 'cursor');
    assert.equal(hostAgentSource('windsurf'), 'windsurf');
    assert.equal(hostAgentSource('antigravity'), 'antigravity');
    assert.equal(hostAgentSource('vscode'), undefined);
    assert.equal(hostAgentSource('vscode-insiders'), undefined);
    assert.equal(hostAgentSource('constructor'), undefined);
  });

  it("finds the host's chats in the host's own User folder, not the usual one, and lists them first", async function () {
    this.timeout(30_000);
    const ws = path.join(tempDir(), 'dates');
    const home = tempDir();
    // A portable Cursor: its User folder is nowhere near ~/.config/Cursor.
    const user = path.join(tempDir(), 'cursor-portable', 'data', 'user-data', 'User');
    const globalDb = writeCursorUser(user, [{ hash: 'a1b2c3', folder: ws, composers: [cursorChatFor(t0)] }]);
    const projectDir = path.join(home, '.claude', 'projects', ws.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(projectDir, { recursive: true });
    writeClaudeSession(projectDir, ws);
    const opts = {
      workspaceRoot: ws,
      home,
      sources: ['claude-code' as const, 'cursor' as const],
      locations: { 'claude-code': path.join(home, '.claude', 'projects') },
    };
    const without = await discover(opts);
    assert.deepEqual(
      without.map((f) => f.source),
      ['claude-code'],
      "outside the host, Cursor's usual folder under HOME holds nothing",
    );
    const inHost = await discover({ ...opts, host: { source: 'cursor', userDir: user } });
    assert.deepEqual(
      inHost.map((f) => [f.source, f.file]),
      [
        ['cursor', `${globalDb}#3f2a9c1e-7b4d-4e21-9a55-0c8d2e6b1f47`],
        ['claude-code', without[0].file],
      ],
    );
  });

  it("a tie between two agents' plans goes to the host's; otherwise the newer plan wins", () => {
    const plan = (source: PlanCandidate['source'], text: string, time: string): PlanCandidate => ({
      plan: { tool: 'TodoWrite', items: [{ text, status: 'pending' }], time },
      source,
      file: `/${source}.log`,
      mtimeMs: 0,
    });
    const at = '2026-04-01T09:00:00.000Z';
    const later = '2026-04-01T09:00:01.000Z';
    const items = (c: PlanCandidate[], preferred?: PlanCandidate['source']) => newestPlan(c, preferred)?.items.map((i) => i.text);
    assert.deepEqual(items([plan('cursor', 'host step', at), plan('claude-code', 'other step', at)], 'cursor'), ['host step']);
    assert.deepEqual(items([plan('claude-code', 'other step', at), plan('cursor', 'host step', at)], 'cursor'), ['host step']);
    assert.deepEqual(items([plan('cursor', 'host step', at), plan('claude-code', 'other step', later)], 'cursor'), ['other step']);
    assert.deepEqual(items([plan('cursor', 'first', at), plan('claude-code', 'second', at)]), ['second'], 'no host: the later candidate, as before');
  });
});
