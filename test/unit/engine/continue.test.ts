import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { customAgentFor, findAgents, locateAgent, prepareContinue, prepareCursorLink } from '../../../src/engine/receive/continue';
import { exportAgents } from '../../../src/engine/agents/exportAgents';
import { readHandoffHead } from '../../../src/engine/handover/handoffFiles';
import { cli, repoWithWork } from '../../helpers/cli';
import { cleanupTempDirs, tempDir } from '../../helpers/repo';
import { writeRecordingAgent } from '../../helpers/recordingAgent';

describe('engine: continue', function () {
  this.timeout(20_000);
  after(cleanupTempDirs);

  it('finds agents on PATH in PATH order, skips non-executables and folders, and says where it looked', async () => {
    const first = tempDir();
    const second = tempDir();
    writeRecordingAgent(second, 'claude', path.join(second, 'rec.json'));
    writeRecordingAgent(first, 'codex', path.join(first, 'rec.json'));
    writeRecordingAgent(second, 'codex', path.join(second, 'rec.json'));
    writeFileSync(path.join(first, 'gemini'), '#!/bin/sh\n'); // not executable
    mkdirSync(path.join(first, 'aider')); // a folder, not a program
    const lookup = { pathEnv: ['relative/dir', first, second].join(':'), platform: 'linux' };
    const found = await findAgents(lookup);
    assert.deepEqual(found, [
      { id: 'claude', executable: path.join(second, 'claude'), via: 'PATH' },
      { id: 'codex', executable: path.join(first, 'codex'), via: 'PATH' },
    ]);
    const missing = await locateAgent('gemini', lookup);
    assert.ok(!missing.ok);
    assert.equal(missing.error.code, 'not_found');
    assert.equal(
      missing.error.message,
      'ERROR: Gemini CLI was not found: no executable "gemini" on PATH — install Gemini CLI, or set handoff.agents.gemini.path to the path of its executable',
    );
  });

  it('a setting names the executable: used when executable, an error naming the setting when not', async () => {
    const dir = tempDir();
    const exe = writeRecordingAgent(dir, 'my-claude', path.join(dir, 'rec.json'));
    const link = path.join(dir, 'claude-link');
    symlinkSync(exe, link);
    assert.deepEqual(await locateAgent('claude', { pathEnv: '', platform: 'linux', paths: { claude: link } }), {
      ok: true,
      agent: { id: 'claude', executable: link, via: 'setting' },
    });
    const relative = await locateAgent('claude', { pathEnv: '', platform: 'linux', paths: { claude: 'bin/claude' } });
    assert.ok(!relative.ok);
    assert.equal(relative.error.code, 'bad_setting');
    assert.match(
      relative.error.message,
      /^ERROR: handoff\.agents\.claude\.path "bin\/claude" is not an executable file \(the path must be absolute\) — set it to the absolute path of claude/,
    );
    writeFileSync(path.join(dir, 'plain'), 'x');
    chmodSync(path.join(dir, 'plain'), 0o644);
    assert.equal((await locateAgent('codex', { pathEnv: dir, platform: 'linux', paths: { codex: path.join(dir, 'plain') } })).ok, false);
  });

  it('on Windows only .exe and .com are started directly (a .cmd would go through cmd.exe)', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'claude.cmd'), '@echo off');
    writeFileSync(path.join(dir, 'codex.exe'), 'MZ');
    const lookup = { pathEnv: dir, platform: 'win32', pathExt: '.COM;.EXE;.BAT;.CMD' };
    assert.deepEqual(await findAgents(lookup), [{ id: 'codex', executable: path.join(dir, 'codex.exe'), via: 'PATH' }]);
  });

  it('prepares the command: the receiving prompt as the argument, the workspace folder as cwd; nothing marked when the agent is missing', async () => {
    const repo = repoWithWork();
    const written = await cli(['handover', '-s', 'quality_reviewer', '-t', 'Review auth', '--summary', 'Check $(whoami) and `id`', '--json'], repo);
    assert.equal(written.code, 0, written.err);
    const bin = tempDir();
    writeRecordingAgent(bin, 'claude', path.join(bin, 'rec.json'));
    const env = { workspaceRoot: repo, sessionLog: { mode: 'none' } };
    const missing = await prepareContinue({ agent: 'codex' }, env, { pathEnv: bin, platform: 'linux' });
    assert.equal(missing.status, 'error');
    const handoffFile = JSON.parse(written.out).handoff_file as string;
    assert.equal((await readHandoffHead(handoffFile))?.frontmatter.status, 'pending', 'a missing agent takes nothing');
    const ok = await prepareContinue({ agent: 'claude' }, env, { pathEnv: bin, platform: 'linux' });
    assert.equal(ok.status, 'ok', ok.status === 'error' ? ok.message : '');
    if (ok.status !== 'ok') return;
    assert.equal(ok.cwd, repo);
    assert.equal(realpathSync(ok.agent.executable), realpathSync(path.join(bin, 'claude')));
    assert.deepEqual(ok.argv, ['--', ok.prompt.prompt]);
    assert.equal(ok.prompt.specialist, 'quality_reviewer');
    assert.equal(ok.prompt.taken, true);
    assert.equal((await readHandoffHead(handoffFile))?.frontmatter.status, 'accepted');
    assert.match(ok.prompt.prompt, /Check \$\(whoami\) and `id`/);
  });

  it("finds Cursor by its cursor command and the new terminal agents by theirs; Cursor's link names the opener on PATH, or none", async () => {
    const bin = tempDir();
    for (const name of ['cursor', 'copilot', 'kiro-cli', 'goose']) writeRecordingAgent(bin, name, path.join(bin, `${name}.json`));
    const lookup = { pathEnv: bin, platform: 'linux' };
    assert.deepEqual(
      (await findAgents(lookup)).map((a) => [a.id, path.basename(a.executable)]),
      [
        ['cursor', 'cursor'],
        ['copilot-cli', 'copilot'],
        ['kiro', 'kiro-cli'],
        ['goose', 'goose'],
      ],
    );
    const repo = repoWithWork();
    assert.equal(
      (await cli(['handover', '-s', 'quality_reviewer', '-t', 'Cursor link', '--summary', 'Ampersands & pluses + hashes # and ?', '--json'], repo)).code,
      0,
    );
    const env = { workspaceRoot: repo, sessionLog: { mode: 'none' } };
    const noOpener = await prepareCursorLink({ take: false }, env, lookup);
    assert.equal(noOpener.status, 'ok');
    if (noOpener.status !== 'ok') return;
    assert.equal(noOpener.opener, null, 'no xdg-open on this PATH');
    assert.equal(noOpener.whole, true);
    assert.equal(new URL(noOpener.url).searchParams.get('text'), noOpener.prompt.prompt);
    writeRecordingAgent(bin, 'xdg-open', path.join(bin, 'xdg-open.json'));
    const withOpener = await prepareCursorLink({ take: false }, env, lookup);
    assert.ok(withOpener.status === 'ok' && withOpener.opener);
    assert.deepEqual(withOpener.opener, { executable: path.join(bin, 'xdg-open'), argv: [withOpener.url] });
    const mac = await prepareCursorLink({ take: false }, env, { pathEnv: bin, platform: 'darwin' });
    assert.ok(mac.status === 'ok' && mac.opener === null, 'macOS opens links with open, not on this PATH');
  });

  it("names the specialist's exported custom agent for Copilot Chat, and nothing before the export", async () => {
    const repo = repoWithWork();
    assert.equal(await customAgentFor(repo, 'quality_reviewer'), undefined);
    const exported = await exportAgents({ target: 'github' }, { workspaceRoot: repo });
    assert.equal(exported.status, 'ok');
    const agent = await customAgentFor(repo, 'quality_reviewer');
    assert.deepEqual(agent, { file: path.join(repo, '.github', 'agents', 'quality_reviewer.agent.md'), name: 'Quality reviewer' });
  });
});
