import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { agentCommand, ARGUMENT_LIMITS, CONTINUE_TARGETS, posixCommandLine, posixQuote, TERMINAL_AGENT_IDS, TERMINAL_AGENTS } from '../../../../src/core/agents/continueAgents';

/** Text a shell would act on if it ever read the prompt: expansions, separators, quotes, globs, newlines. */
const HOSTILE = `Read .handoff/handoffs/x.md and continue.\n$(touch pwned) \`id\` $HOME; rm -rf ~ && echo 'single' "double" \\back * ? [a] | > out\n-starts-with-dash\ttab ünïcödé 🧪`;

describe('continue: the agents and their argv', () => {
  it('offers Copilot Chat, the four terminal agents and Copy prompt, in that order', () => {
    assert.deepEqual([...CONTINUE_TARGETS], ['copilot', 'claude', 'codex', 'gemini', 'aider', 'copy']);
    assert.deepEqual(TERMINAL_AGENT_IDS.map((id) => [TERMINAL_AGENTS[id].label, TERMINAL_AGENTS[id].executable, TERMINAL_AGENTS[id].setting]), [
      ['Claude Code', 'claude', 'handoff.agents.claude.path'],
      ['Codex CLI', 'codex', 'handoff.agents.codex.path'],
      ['Gemini CLI', 'gemini', 'handoff.agents.gemini.path'],
      ['Aider', 'aider', 'handoff.agents.aider.path'],
    ]);
  });

  it('builds the exact argv each CLI documents, the prompt one argument, untouched', () => {
    const expected: Record<string, string[]> = {
      claude: ['--', HOSTILE],
      codex: ['--', HOSTILE],
      gemini: [`--prompt-interactive=${HOSTILE}`],
      aider: [`--message=${HOSTILE}`],
    };
    for (const id of TERMINAL_AGENT_IDS) {
      assert.deepEqual(agentCommand(id, HOSTILE, 'linux'), { argv: expected[id], stdin: null }, id);
    }
    // A prompt that looks like an option stays a prompt: after "--", or joined to its option by "=".
    assert.deepEqual(agentCommand('claude', '--dangerously-skip-permissions', 'linux'), { argv: ['--', '--dangerously-skip-permissions'], stdin: null });
    assert.deepEqual(agentCommand('aider', '--yes-always', 'linux'), { argv: ['--message=--yes-always'], stdin: null });
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
