/**
 * "Continue in …" inside the real extension host. Recording executables named as each
 * terminal agent's CLI (`claude`, `codex`, `gemini`, `aider`, `copilot`, `qwen`, `opencode`,
 * `amp`, `kiro-cli`, `droid`, `goose`: test/helpers/recordingAgent.ts) are put first on the
 * extension host's PATH; continuing in each must start an integrated terminal whose process is
 * that executable, receiving exactly the receiving prompt as one argument in the form its CLI
 * documents, in the workspace folder. Cursor: with `cursor` on PATH, a recording `xdg-open`
 * receives Cursor's prompt link (the prompt, or when the link would be too long a pointer to
 * the prompt on the clipboard). Copilot Chat: a new chat holding the prompt where VS Code has
 * Copilot Chat (1.139 builds it in), else the prompt on the clipboard.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { CURSOR_LINK_MAX_CHARS, CURSOR_PROMPT_LINK, type TerminalAgentId } from '../../src/core/agents/continueAgents';
import type { HandoverResult } from '../../src/core/handoff/schema';
import { readHandoffHead } from '../../src/store/handoffs/handoffIndex';
import type { ContinueResult } from '../../src/vscode/continue/continueIn';
import { readAgentRecord, writeRecordingAgent, type AgentRecord } from '../helpers/recordingAgent';

function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test workspace folder is open');
  return folder.uri.fsPath;
}

async function waitFor<T>(what: string, ms: number, get: () => T | undefined): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Continue in … (extension host)', function () {
  this.timeout(60_000);
  let bin: string;
  let savedPath: string | undefined;
  let handoff: string;

  before(async () => {
    await vscode.extensions.getExtension('specialist-handoff.specialist-handoff')!.activate();
    bin = mkdtempSync(path.join(tmpdir(), 'agents-'));
    savedPath = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`;
    const result = (await vscode.commands.executeCommand('handoff.endSession', {
      specialist: 'quality_reviewer',
      topic: 'Continue check',
      summary: 'Shell syntax stays text: $(touch pwned) `touch pwned2`; echo "x" | tee y',
      next_steps: ['Review the diff'],
    })) as HandoverResult;
    assert.equal(result?.status, 'ok', result?.status === 'error' ? result.message : 'no result');
    if (result.status === 'ok') handoff = result.handoff_file;
  });

  after(() => {
    process.env.PATH = savedPath;
    rmSync(bin, { recursive: true, force: true });
  });

  /** Each terminal agent: its executable, the terminal's name prefix, and its argv for the prompt as its CLI documents. */
  const AGENTS: ReadonlyArray<readonly [TerminalAgentId, string, string, (p: string) => string[]]> = [
    ['claude', 'claude', 'Claude Code', (p) => ['--', p]],
    ['codex', 'codex', 'Codex CLI', (p) => ['--', p]],
    ['gemini', 'gemini', 'Gemini CLI', (p) => [`--prompt-interactive=${p}`]],
    ['aider', 'aider', 'Aider', (p) => [`--message=${p}`]],
    ['copilot-cli', 'copilot', 'GitHub Copilot CLI', (p) => [`--interactive=${p}`]],
    ['qwen', 'qwen', 'Qwen Code', (p) => [`--prompt-interactive=${p}`]],
    ['opencode', 'opencode', 'OpenCode', (p) => [`--prompt=${p}`]],
    ['amp', 'amp', 'Amp', (p) => [`--execute=${p}`]],
    ['kiro', 'kiro-cli', 'Kiro CLI', (p) => ['chat', '--', p]],
    ['droid', 'droid', 'Factory Droid', (p) => ['--', p]],
    ['goose', 'goose', 'Goose', (p) => ['run', '--interactive', `--text=${p}`]],
  ];

  for (const [agent, exeName, label, argvOf] of AGENTS) {
    it(`"Continue in ${label}" starts a terminal whose process, ${exeName} from PATH, receives exactly the prompt in the workspace folder`, async () => {
      const record = path.join(bin, `${exeName}.json`);
      const exe = writeRecordingAgent(bin, exeName, record);
      const opened = new Promise<vscode.Terminal>((resolve) => {
        const sub = vscode.window.onDidOpenTerminal((t) => {
          sub.dispose();
          resolve(t);
        });
      });
      try {
        const r = (await vscode.commands.executeCommand('handoff.continueIn', { agent, handoff })) as ContinueResult | undefined;
        assert.ok(r, 'the command continued');
        assert.equal(r.target, agent);
        assert.equal(r.executable, exe);
        const terminal = await opened;
        assert.equal(terminal.name, `${label}: [quality reviewer]`);
        assert.equal((terminal.creationOptions as vscode.TerminalOptions).shellPath, exe);
        const seen: AgentRecord = await waitFor(`${exeName} to record what it received`, 30_000, () => readAgentRecord(record));
        assert.deepEqual(seen.argv, argvOf(r.prompt));
        assert.match(r.prompt, new RegExp(`picking up handoff \`${path.basename(handoff, '.md').replace(/[.]/g, '\\.')}\``));
        assert.match(r.prompt, /Shell syntax stays text: \$\(touch pwned\) `touch pwned2`; echo "x" \| tee y/);
        assert.equal(seen.stdinIsTTY, true, 'the agent runs in the terminal');
        assert.equal(realpathSync(seen.cwd), realpathSync(workspaceRoot()));
        for (const f of ['pwned', 'pwned2', 'y']) assert.equal(existsSync(path.join(workspaceRoot(), f)), false, `no shell ran the prompt (${f})`);
        terminal.dispose();
      } finally {
        // Gone again: the last test needs an agent that is not there.
        rmSync(exe, { force: true });
      }
    });
  }

  it('"Continue in Cursor" hands Cursor\'s prompt link to xdg-open (the prompt, or a pointer to it on the clipboard when the link would be too long)', async () => {
    writeRecordingAgent(bin, 'cursor', path.join(bin, 'cursor.json'));
    const record = path.join(bin, 'xdg-open.json');
    writeRecordingAgent(bin, 'xdg-open', record);
    await vscode.env.clipboard.writeText('before');
    const r = (await vscode.commands.executeCommand('handoff.continueIn', { agent: 'cursor', handoff })) as ContinueResult | undefined;
    assert.ok(r && r.url, 'the command continued in Cursor');
    assert.equal(r.target, 'cursor');
    assert.equal(r.opener, path.join(bin, 'xdg-open'));
    const seen: AgentRecord = await waitFor('xdg-open to record the link', 30_000, () => readAgentRecord(record));
    assert.deepEqual(seen.argv, [r.url], 'the link is the one argument, as built');
    assert.equal(readAgentRecord(path.join(bin, 'cursor.json')), undefined, 'cursor itself is not started: the link opens it');
    const text = new URL(seen.argv[0]).searchParams.get('text');
    const fits = CURSOR_PROMPT_LINK.length + encodeURIComponent(r.prompt).length <= CURSOR_LINK_MAX_CHARS;
    console.log(`[continue] Cursor: prompt of ${r.prompt.length} characters, ${fits ? 'in the link' : 'on the clipboard, the link pointing to it'}`);
    if (fits) {
      assert.equal(text, r.prompt);
      assert.equal(r.fellBackToClipboard, undefined);
      assert.equal(await vscode.env.clipboard.readText(), 'before', 'nothing copied');
    } else {
      assert.match(
        text ?? '',
        /^Pick up handoff \S+ as \[quality reviewer\]: its receiving prompt \([\d,]+ characters, longer than a Cursor link holds\) is on the clipboard/,
      );
      assert.equal(r.fellBackToClipboard, true);
      assert.equal(await vscode.env.clipboard.readText(), r.prompt);
    }
    // A prompt whose link would pass 8,000 characters: on the clipboard, the link pointing to it.
    const long = (await vscode.commands.executeCommand('handoff.endSession', {
      specialist: 'quality_reviewer',
      topic: 'Continue long',
      summary: 'A long summary, sentence after sentence, # headings & pluses + and questions? '.repeat(120),
      next_steps: ['Review the diff'],
      max_context_tokens: 100_000,
    })) as HandoverResult;
    assert.equal(long?.status, 'ok', long?.status === 'error' ? long.message : 'no result');
    if (long.status !== 'ok') return;
    rmSync(record, { force: true });
    const pointed = (await vscode.commands.executeCommand('handoff.continueIn', { agent: 'cursor', handoff: long.handoff_file })) as ContinueResult | undefined;
    assert.ok(pointed?.url);
    assert.equal(pointed.fellBackToClipboard, true);
    assert.equal(await vscode.env.clipboard.readText(), pointed.prompt, 'the whole prompt is on the clipboard');
    const seenLong: AgentRecord = await waitFor('xdg-open to record the second link', 30_000, () => readAgentRecord(record));
    assert.match(
      new URL(seenLong.argv[0]).searchParams.get('text') ?? '',
      /^Pick up handoff \S+ as \[quality reviewer\]: its receiving prompt \([\d,]+ characters, longer than a Cursor link holds\) is on the clipboard — paste it here in place of this line, then send\.$/,
    );
    assert.equal(
      (await readHandoffHead(long.handoff_file))?.frontmatter.status,
      'pending',
      "the link fills Cursor's chat in without sending it: nobody took the handoff yet",
    );
    rmSync(path.join(bin, 'cursor'), { force: true });
    rmSync(path.join(bin, 'xdg-open'), { force: true });
  });

  it('"Continue in Copilot Chat" opens a new chat holding the prompt where Copilot Chat is, else copies the prompt and says so', async () => {
    const exported = await vscode.commands.executeCommand('handoff.exportAgents', { targets: ['github'] });
    assert.ok(exported, 'the specialists were exported as custom agents');
    await vscode.env.clipboard.writeText('before');
    const r = (await vscode.commands.executeCommand('handoff.continueIn', { agent: 'copilot', handoff })) as ContinueResult | undefined;
    assert.ok(r);
    assert.equal(r.target, 'copilot');
    // VS Code builds Copilot Chat in since custom agents came (1.106); before, only its marketplace extension brings it (not installed here).
    const hasChat = Number(vscode.version.split('.')[1]) >= 106 || !!vscode.extensions.getExtension('github.copilot-chat');
    console.log(`[continue] VS Code ${vscode.version}: Copilot Chat ${hasChat ? 'built in or installed: a new chat' : 'absent: the clipboard'}`);
    if (hasChat) {
      assert.equal(r.fellBackToClipboard, undefined);
      assert.equal(r.mode, 'Quality reviewer', "the chat opens in the specialist's custom agent");
      assert.equal(await vscode.env.clipboard.readText(), 'before', 'nothing copied');
    } else {
      assert.equal(r.fellBackToClipboard, true);
      assert.equal(await vscode.env.clipboard.readText(), r.prompt);
    }
    assert.match(r.prompt, /You are the Quality reviewer specialist/);
  });

  it('an agent that is not there is refused by name and nothing starts', async () => {
    let opened = 0;
    const sub = vscode.window.onDidOpenTerminal(() => opened++);
    const r = await vscode.commands.executeCommand('handoff.continueIn', { agent: 'gemini', handoff });
    sub.dispose();
    assert.equal(r, undefined);
    assert.equal(opened, 0);
  });
});
