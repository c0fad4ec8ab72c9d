import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  AGENT_IDS,
  agentCommand,
  ARGUMENT_LIMITS,
  CONTINUE_TARGETS,
  CURSOR_LINK_MAX_CHARS,
  CURSOR_PROMPT_LINK,
  cursorPromptLink,
  linkOpener,
  posixCommandLine,
  posixQuote,
  TARGET_LABELS,
  TERMINAL_AGENT_IDS,
  TERMINAL_AGENTS,
} from '../../../../src/core/agents/continueAgents';

/** Text a shell would act on if it ever read the prompt: expansions, separators, quotes, globs, newlines. */
const HOSTILE = `Read .handoff/handoffs/x.md and continue.\n$(touch pwned) \`id\` $HOME; rm -rf ~ && echo 'single' "double" \\back * ? [a] | > out\n-starts-with-dash\ttab ünïcödé 🧪`;

describe('continue: the agents and their argv', () => {
  it('offers Copilot Chat, Cursor, the terminal agents and Copy prompt, in that order', () => {
    assert.deepEqual(
      [...CONTINUE_TARGETS],
      ['copilot', 'cursor', 'claude', 'codex', 'gemini', 'aider', 'copilot-cli', 'qwen', 'opencode', 'amp', 'kiro', 'droid', 'goose', 'copy'],
    );
    assert.deepEqual(
      TERMINAL_AGENT_IDS.map((id) => [
        TERMINAL_AGENTS[id].label,
        TERMINAL_AGENTS[id].executable,
        TERMINAL_AGENTS[id].setting,
        TERMINAL_AGENTS[id].exitsAfterFirstMessage,
      ]),
      [
        ['Claude Code', 'claude', 'handoff.agents.claude.path', false],
        ['Codex CLI', 'codex', 'handoff.agents.codex.path', false],
        ['Gemini CLI', 'gemini', 'handoff.agents.gemini.path', false],
        ['Aider', 'aider', 'handoff.agents.aider.path', true],
        ['GitHub Copilot CLI', 'copilot', 'handoff.agents.copilotCli.path', false],
        ['Qwen Code', 'qwen', 'handoff.agents.qwen.path', false],
        ['OpenCode', 'opencode', 'handoff.agents.opencode.path', false],
        ['Amp', 'amp', 'handoff.agents.amp.path', true],
        ['Kiro CLI', 'kiro-cli', 'handoff.agents.kiro.path', false],
        ['Factory Droid', 'droid', 'handoff.agents.droid.path', false],
        ['Goose', 'goose', 'handoff.agents.goose.path', false],
      ],
    );
    assert.deepEqual([...AGENT_IDS], ['cursor', ...TERMINAL_AGENT_IDS]);
    assert.equal(TARGET_LABELS.cursor, 'Cursor');
  });

  it('builds the exact argv each CLI documents, the prompt one argument, untouched', () => {
    const expected: Record<string, string[]> = {
      claude: ['--', HOSTILE],
      codex: ['--', HOSTILE],
      gemini: [`--prompt-interactive=${HOSTILE}`],
      aider: [`--message=${HOSTILE}`],
      'copilot-cli': [`--interactive=${HOSTILE}`],
      qwen: [`--prompt-interactive=${HOSTILE}`],
      opencode: [`--prompt=${HOSTILE}`],
      amp: [`--execute=${HOSTILE}`],
      kiro: ['chat', '--', HOSTILE],
      droid: ['--', HOSTILE],
      goose: ['run', '--interactive', `--text=${HOSTILE}`],
    };
    assert.deepEqual(Object.keys(expected), [...TERMINAL_AGENT_IDS]);
    for (const id of TERMINAL_AGENT_IDS) {
      assert.deepEqual(agentCommand(id, HOSTILE, 'linux'), { argv: expected[id], stdin: null }, id);
    }
    // A prompt that looks like an option stays a prompt: after "--", or joined to its option by "=".
    assert.deepEqual(agentCommand('claude', '--dangerously-skip-permissions', 'linux'), { argv: ['--', '--dangerously-skip-permissions'], stdin: null });
    assert.deepEqual(agentCommand('aider', '--yes-always', 'linux'), { argv: ['--message=--yes-always'], stdin: null });
    assert.deepEqual(agentCommand('kiro', '--no-interactive', 'linux'), { argv: ['chat', '--', '--no-interactive'], stdin: null });
  });

  it("Cursor's prompt link carries the prompt URL-encoded, within 8,000 characters; longer, the pointer text", () => {
    const link = cursorPromptLink(HOSTILE, 'short');
    assert.ok(!('error' in link));
    assert.equal(link.whole, true);
    assert.ok(link.url.startsWith('cursor://anysphere.cursor-deeplink/prompt?text='));
    assert.equal(new URL(link.url).searchParams.get('text'), HOSTILE, 'a URL parser reads the prompt back, & + # ? and newlines included');
    assert.equal(decodeURIComponent(link.url.slice(CURSOR_PROMPT_LINK.length)), HOSTILE);
    // At the bound, and one character over.
    const room = CURSOR_LINK_MAX_CHARS - CURSOR_PROMPT_LINK.length;
    const fits = cursorPromptLink('x'.repeat(room), 'short');
    assert.ok(!('error' in fits) && fits.whole && fits.url.length === CURSOR_LINK_MAX_CHARS);
    const over = cursorPromptLink('x'.repeat(room + 1), 'Paste the prompt from the clipboard.');
    assert.ok(!('error' in over));
    assert.equal(over.whole, false);
    assert.equal(new URL(over.url).searchParams.get('text'), 'Paste the prompt from the clipboard.');
    assert.ok('error' in cursorPromptLink('x'.repeat(room + 1), 'y'.repeat(room + 1)));
  });

  it('the link opener of each platform: xdg-open, open, none on Windows', () => {
    assert.deepEqual(linkOpener('linux')?.executable, 'xdg-open');
    assert.deepEqual(linkOpener('freebsd')?.argv('cursor://x'), ['cursor://x']);
    assert.deepEqual(linkOpener('darwin')?.executable, 'open');
    assert.equal(linkOpener('win32'), undefined);
  });

  it('refuses a prompt longer than one argument may be, naming the sizes', () => {
    const limit = ARGUMENT_LIMITS.linux.bytes;
    assert.ok(!('error' in agentCommand('claude', 'x'.repeat(limit), 'linux')));
    const over = agentCommand('claude', 'x'.repeat(limit + 1), 'linux');
    assert.ok('error' in over);
    assert.match(over.error, /^the prompt is 131,072 bytes, more than the 131,071 bytes Claude Code can take as an argument on this system$/);
    // Bytes, not characters: 4-byte emoji count 4 each.
    assert.ok('error' in agentCommand('codex', '🧪'.repeat(Math.ceil(limit / 4) + 1), 'linux'));
    // Windows counts the whole command line in UTF-16 code units.
    assert.ok('error' in agentCommand('gemini', 'x'.repeat(32_000), 'win32'));
  });

  it('quotes for a POSIX shell so that sh reads back exactly the same argv', () => {
    assert.equal(posixQuote('claude'), 'claude');
    assert.equal(posixQuote('/usr/local/bin/codex'), '/usr/local/bin/codex');
    assert.equal(posixQuote(''), "''");
    assert.equal(posixQuote("it's"), `'it'\\''s'`);
    const argv = [...TERMINAL_AGENTS.aider.argv(HOSTILE), '', "'", "''", '\n'];
    // sh runs printf with the quoted words: each argument comes back NUL-terminated, byte for byte.
    const out = execFileSync('sh', ['-c', `${posixCommandLine('printf', ['%s\\0', ...argv])}`], { encoding: 'utf8' });
    assert.deepEqual(out.split('\0').slice(0, -1), argv);
  });

  it('prints the folder first: cd -- <cwd> && <command>', () => {
    assert.equal(posixCommandLine('/opt/bin/claude', ['--', 'Read it'], "/tmp/my repo's"), `cd -- '/tmp/my repo'\\''s' && /opt/bin/claude -- 'Read it'`);
  });
});
