import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, cpSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseHandoff } from '../../../../src/core/handoff/parse';
import { HandoverOkSchema } from '../../../../src/core/handoff/schema';
import { handover } from '../../../../src/engine/handover/handover';
import { claudeProjectDirName } from '../../../../src/evidence/session/discovery';
import { collectSessionLog } from '../../../../src/evidence/session/collectSessionLog';
import { loadSessionLogState, saveSessionLogState } from '../../../../src/store/sessionLogState';
import { runCli } from '../../../../src/cli/main';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../../helpers/repo';

const FIX = path.join(__dirname, '..', '..', '..', 'fixtures', 'session-logs');

function claudeLine(id: string, command: string, exit: 0 | 1, time: string): string {
  return [
    JSON.stringify({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] },
      timestamp: time,
    }),
    JSON.stringify({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: exit ? 'Exit code 1' : 'ok', is_error: exit === 1 }] },
      timestamp: time,
    }),
  ].join('\n');
}

describe('session log: discovery, incremental reads, handoffs', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it("finds each agent's transcript for the workspace in its default location", async () => {
    const home = tempDir();
    const ws = path.join(tempDir(), 'my.project');
    mkdirSync(ws);
    // Claude Code: ~/.claude/projects/<path with / and . as ->/<session>.jsonl, newest wins, plus sub-agents.
    const claudeDir = path.join(home, '.claude', 'projects', claudeProjectDirName(ws));
    mkdirSync(path.join(claudeDir, 'new', 'subagents'), { recursive: true });
    writeFileSync(path.join(claudeDir, 'old.jsonl'), claudeLine('o', 'npm test', 1, '2026-01-01T00:00:00Z'));
    utimesSync(path.join(claudeDir, 'old.jsonl'), new Date('2026-01-01'), new Date('2026-01-01'));
    writeFileSync(
      path.join(claudeDir, 'new.jsonl'),
      `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'newest session' }, timestamp: '2026-02-01T00:00:00Z' })}\n`,
    );
    writeFileSync(path.join(claudeDir, 'new', 'subagents', 'agent-1.jsonl'), `${claudeLine('s', 'pytest', 0, '2026-02-01T00:00:01Z')}\n`);
    // Codex: the rollout whose session_meta cwd is the workspace.
    const day = path.join(home, '.codex', 'sessions', '2026', '02', '03');
    mkdirSync(day, { recursive: true });
    writeFileSync(path.join(day, 'rollout-2026-02-03-a.jsonl'), `${JSON.stringify({ type: 'session_meta', payload: { cwd: '/elsewhere' } })}\n`);
    copyFileSync(path.join(FIX, 'codex.jsonl'), path.join(day, 'rollout-2026-02-03-b.jsonl'));
    writeFileSync(path.join(day, 'rollout-2026-02-03-b.jsonl'), readFileSync(path.join(day, 'rollout-2026-02-03-b.jsonl'), 'utf8').replace(/\/ws\/api/g, ws));
    // Aider and SpecStory: inside the workspace.
    copyFileSync(path.join(FIX, 'aider.chat.history.md'), path.join(ws, '.aider.chat.history.md'));
    mkdirSync(path.join(ws, '.specstory', 'history'), { recursive: true });
    copyFileSync(path.join(FIX, 'specstory.md'), path.join(ws, '.specstory', 'history', '2026-03-04_07-00Z-fix.md'));
    // Cline: a task folder whose first request names the workspace.
    const tasks = path.join(home, '.config', 'Code', 'User', 'globalStorage', 'saoudrizwan.claude-dev', 'tasks');
    cpSync(path.join(FIX, 'cline-task'), path.join(tasks, '1772600000000'), { recursive: true });
    writeFileSync(
      path.join(tasks, '1772600000000', 'api_conversation_history.json'),
      JSON.stringify([{ role: 'user', content: [{ type: 'text', text: `# Current Working Directory (${ws}) Files` }] }]),
    );
    // Copilot: the workspace storage folder whose workspace.json names the workspace.
    const storage = path.join(home, '.config', 'Code', 'User', 'workspaceStorage', 'abc123');
    mkdirSync(path.join(storage, 'chatSessions'), { recursive: true });
    writeFileSync(path.join(storage, 'workspace.json'), JSON.stringify({ folder: pathToFileURL(ws).href }));
    copyFileSync(path.join(FIX, 'copilot.json'), path.join(storage, 'chatSessions', 'cp1.json'));

    const saved = { XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR, CODEX_HOME: process.env.CODEX_HOME };
    delete process.env.XDG_CONFIG_HOME;
    delete process.env.CLAUDE_CONFIG_DIR;
    delete process.env.CODEX_HOME;
    try {
      const r = await collectSessionLog({ workspaceRoot: ws, home });
      const found = r.transcripts.map((t) => `${t.source}:${path.basename(t.file)}`).sort();
      assert.deepEqual(found, [
        'aider:.aider.chat.history.md',
        'claude-code:agent-1.jsonl',
        'claude-code:new.jsonl',
        'cline:1772600000000',
        'codex:rollout-2026-02-03-b.jsonl',
        'copilot:cp1.json',
        'specstory:2026-03-04_07-00Z-fix.md',
      ]);
      const sources = new Set(r.tests_run.map((t) => t.source));
      assert.deepEqual([...sources].sort(), ['aider', 'claude-code', 'cline', 'codex', 'copilot', 'specstory']);
      assert.ok(
        r.tests_run.some((t) => t.source === 'claude-code' && t.command === 'pytest' && t.result === 'passed'),
        "the sub-agent's test run is read",
      );
      const limited = await collectSessionLog({ workspaceRoot: ws, home, sources: ['codex'] });
      assert.deepEqual(
        limited.transcripts.map((t) => t.source),
        ['codex'],
      );
    } finally {
      Object.assign(process.env, saved);
    }
  });

  it('reads only what was appended since the previous handoff; a rewritten file is read again', async () => {
    const ws = tempDir();
    const log = path.join(tempDir(), 'session.jsonl');
    writeFileSync(log, `${claudeLine('a', 'npm test', 1, '2026-01-01T00:00:00Z')}\n`);
    const first = await collectSessionLog({ workspaceRoot: ws, mode: log });
    assert.deepEqual(
      first.tests_run.map((t) => t.result),
      ['failed'],
    );
    appendFileSync(log, `${claudeLine('b', 'npm test', 0, '2026-01-01T00:01:00Z')}\n`);
    const second = await collectSessionLog({ workspaceRoot: ws, mode: log, state: first.next_state });
    assert.deepEqual(
      second.tests_run.map((t) => t.result),
      ['passed'],
      'only the new run',
    );
    assert.ok(second.next_state.files[log].offset > first.next_state.files[log].offset);
    const third = await collectSessionLog({ workspaceRoot: ws, mode: log, state: second.next_state });
    assert.deepEqual(third.tests_run, [], 'nothing new');
    writeFileSync(log, `${claudeLine('c', 'pytest', 1, '2026-01-02T00:00:00Z')}\n`);
    const rewritten = await collectSessionLog({ workspaceRoot: ws, mode: log, state: third.next_state });
    assert.deepEqual(
      rewritten.tests_run.map((t) => [t.command, t.result]),
      [['pytest', 'failed']],
      'a rewritten file is read from the start',
    );
  });

  it('remembers the last turns when nothing new was said', async () => {
    const ws = tempDir();
    const log = path.join(tempDir(), 'session.jsonl');
    copyFileSync(path.join(FIX, 'claude-code.jsonl'), log);
    const first = await collectSessionLog({ workspaceRoot: ws, mode: log });
    const again = await collectSessionLog({ workspaceRoot: ws, mode: log, state: first.next_state });
    assert.deepEqual(again.recent_turns, first.recent_turns);
    assert.equal(again.tests_run.length, 0);
  });

  it('state is saved atomically and a broken state file means "read everything"', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'nested', 'state.json');
    assert.equal(await saveSessionLogState(file, { version: 1, files: { '/x': { offset: 5, size: 5, head: 'h', head_bytes: 5, turns: [] } } }), undefined);
    assert.deepEqual((await loadSessionLogState(file)).files['/x'].offset, 5);
    writeFileSync(file, '{broken');
    assert.deepEqual(await loadSessionLogState(file), { version: 1, files: {} });
  });

  it("a handoff lists the session log's test runs with their source, takes recent turns from it, and advances the state", async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'c');
    write(dir, 'a.txt', 'b\n');
    const log = path.join(tempDir(), 'rollout.jsonl');
    copyFileSync(path.join(FIX, 'codex.jsonl'), log);
    const statePath = path.join(tempDir(), 'state.json');
    const env = { workspaceRoot: dir, sessionLog: { mode: log, statePath } };
    const r = await handover({ specialist: 'test_debug_engineer', topic: 'pytest' }, env);
    assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
    const ok = HandoverOkSchema.parse(r);
    assert.deepEqual(
      ok.package.tests_run.map((t) => [t.command, t.result, t.exit_code, t.source]),
      [
        ['pytest -q', 'failed', 1, 'codex'],
        ['pytest -q', 'passed', 0, 'codex'],
      ],
    );
    assert.deepEqual(ok.package.tests_run[0].counts, { passed: 1, failed: 1 });
    assert.deepEqual(
      ok.package.recent_turns.map((t) => t.text),
      ['Fix the failing pytest.', 'Both tests pass now.'],
    );
    assert.equal(ok.package.session_sources[0].source, 'codex');
    const text = readFileSync(ok.handoff_file, 'utf8');
    // The folder each ran in (issue 18: verify re-runs it there); outside the workspace it stays absolute.
    assert.match(text, /❌ failed `pytest -q` \(exit 1; in `\/ws\/api`; 1 passed, 1 failed; source: codex\)/);
    assert.match(text, /✅ passed `pytest -q` \(exit 0; in `\/ws\/api`; 2 passed; source: codex\)/);
    assert.match(text, /_Session log read: codex `rollout\.jsonl` \(3 commands, 2 test runs, 2 turns, 2 edits\)\._/);
    const parsed = parseHandoff(text);
    assert.ok(parsed.ok && parsed.handoff.frontmatter.session_sources.length === 1);
    // The next handoff sees no new test runs, but keeps the remembered turns.
    const again = HandoverOkSchema.parse(await handover({ specialist: 'quality_reviewer', topic: 'pytest' }, env));
    assert.deepEqual(again.package.tests_run, []);
    assert.equal(again.package.recent_turns.length, 2);
  });

  it('the CLI reads --session-log PATH, and none turns it off', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'c');
    const out: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: () => undefined, cwd: dir };
    assert.equal(await runCli(['handover', '-s', 'hacker', '-t', 't', '--json', '--session-log', path.join(FIX, 'recorder.jsonl')], io), 0);
    const withLog = HandoverOkSchema.parse(JSON.parse(out.pop() ?? ''));
    assert.deepEqual(
      withLog.package.tests_run.map((t) => [t.result, t.source]),
      [
        ['failed', 'recorder'],
        ['passed', 'recorder'],
      ],
    );
    assert.equal(await runCli(['handover', '-s', 'hacker', '-t', 't', '--json', '--session-log', 'none'], io), 0);
    const without = HandoverOkSchema.parse(JSON.parse(out.pop() ?? ''));
    assert.deepEqual(without.package.tests_run, []);
    assert.deepEqual(without.package.session_sources, []);
  });
});
