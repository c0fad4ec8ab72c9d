/**
 * `specialist-handoff continue` as a real process: test executables named as each agent's CLI
 * (`claude`, `codex`, `copilot`, `qwen`, `opencode`, `amp`, `kiro-cli`, `droid`, `goose` …)
 * first on PATH record their argv, standard input and working folder; each must receive
 * exactly the receiving prompt, as one argument in the form its CLI documents, in the
 * workspace folder — and the command `--print` shows must do the same when a POSIX shell runs
 * it. Cursor: a test `xdg-open` receives Cursor's prompt link, which reads back the prompt.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { EXIT_BAD_INPUT, EXIT_OK } from '../../src/cli/main';
import { readHandoffHead } from '../../src/store/handoffs/handoffIndex';
import { TERMINAL_AGENTS, type TerminalAgentId } from '../../src/core/agents/continueAgents';
import { cli, CLI_FROM_SOURCE, repoWithWork } from '../helpers/cli';
import { cleanupTempDirs, tempDir } from '../helpers/repo';
import { readAgentRecord, writeRecordingAgent } from '../helpers/recordingAgent';

/** The two lines of a prompt that name the moment it was built (its run context). */
function withoutRunTime(prompt: string): string {
  return prompt.replace(/^- run\.timestamp: .*$/m, '- run.timestamp: T').replace(/^- run\.handoff_path: .*$/m, '- run.handoff_path: P');
}

function run(args: string[], cwd: string, pathDirs: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [...CLI_FROM_SOURCE, ...args], {
    cwd,
    input: '',
    encoding: 'utf8',
    env: { ...process.env, PATH: [...pathDirs, process.env.PATH].join(':') },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('CLI continue', function () {
  this.timeout(60_000);
  after(cleanupTempDirs);

  /** A repository with a handoff whose summary is full of shell syntax, and a folder of recording agents. */
  async function setup(): Promise<{ repo: string; bin: string; prompt: string }> {
    const repo = repoWithWork();
    mkdirSync(path.join(repo, 'sub'));
    const summary = `Check $(touch pwned) and \`touch pwned2\`; don't "quote" me | tee x\n-- --help`;
    const h = await cli(['handover', '-s', 'quality_reviewer', '-t', 'Review it', '--summary', summary], repo);
    assert.equal(h.code, EXIT_OK, h.err);
    const p = await cli(['prompt', '--no-take'], repo);
    assert.equal(p.code, EXIT_OK, p.err);
    const bin = tempDir('agents-');
    return { repo, bin, prompt: p.out };
  }

  /** Each agent's argv for `prompt`, as its CLI documents (src/core/agents/continueAgents.ts). */
  const ARGV: Record<TerminalAgentId, (p: string) => string[]> = {
    claude: (p) => ['--', p],
    codex: (p) => ['--', p],
    gemini: (p) => [`--prompt-interactive=${p}`],
    aider: (p) => [`--message=${p}`],
    'copilot-cli': (p) => [`--interactive=${p}`],
    qwen: (p) => [`--prompt-interactive=${p}`],
    opencode: (p) => [`--prompt=${p}`],
    amp: (p) => [`--execute=${p}`],
    kiro: (p) => ['chat', '--', p],
    droid: (p) => ['--', p],
    goose: (p) => ['run', '--interactive', `--text=${p}`],
  };

  for (const agent of Object.keys(ARGV) as TerminalAgentId[]) {
    const exe = TERMINAL_AGENTS[agent].executable;
    it(`--agent ${agent} starts ${exe} from PATH with exactly the prompt as one argument, in the workspace folder`, async () => {
      const { repo, bin, prompt } = await setup();
      const record = path.join(bin, `${exe}.json`);
      writeRecordingAgent(bin, exe, record);
      // Run from a subfolder: the workspace is the repository's top level.
      const r = run(['continue', '--agent', agent], path.join(repo, 'sub'), [bin]);
      assert.equal(r.code, EXIT_OK, r.err);
      const seen = readAgentRecord(record);
      assert.ok(seen, `${exe} ran`);
      const expected = ARGV[agent](withoutRunTime(prompt));
      assert.deepEqual(seen.argv.map(withoutRunTime), expected);
      assert.match(seen.argv.at(-1)!, /Check \$\(touch pwned\) and `touch pwned2`; don't "quote" me \| tee x/);
      assert.equal(seen.stdin, '');
      assert.equal(realpathSync(seen.cwd), realpathSync(repo));
      for (const f of ['pwned', 'pwned2', 'x']) {
        assert.equal(spawnSync('test', ['-e', path.join(repo, f)]).status, 1, `no shell ran the prompt (${f})`);
      }
      assert.match(r.err, new RegExp(`Continuing .*_quality_reviewer in ${agent}`));
      // The handoff is now picked up.
      const again = await cli(['prompt', '--json', '--no-take'], repo);
      assert.match(again.out, /"taken": false/);
      // Issue 18: the prompt carries the handoff picked up without its frontmatter (so no status line of it); its status events say it was taken.
      const head = await readHandoffHead(JSON.parse(again.out).handoff_file);
      assert.equal(head?.frontmatter.status, 'accepted');
      assert.deepEqual(
        head?.frontmatter.status_history.map((c) => `${c.from} → ${c.to}`),
        ['pending → accepted'],
      );
    });
  }

  it("--agent cursor hands Cursor's prompt link to xdg-open, which reads back exactly the prompt; --print prints it; too long a prompt is refused", async () => {
    const { repo, bin, prompt } = await setup();
    const record = path.join(bin, 'xdg-open.json');
    writeRecordingAgent(bin, 'xdg-open', record);
    const printed = run(['continue', '--agent', 'cursor', '--print'], repo, [bin]);
    assert.equal(printed.code, EXIT_OK, printed.err);
    assert.equal(readAgentRecord(record), undefined, '--print opens nothing');
    const printedUrl = printed.out.trim();
    assert.equal(withoutRunTime(new URL(printedUrl).searchParams.get('text')!), withoutRunTime(prompt));
    const r = run(['continue', '--agent', 'cursor'], repo, [bin]);
    assert.equal(r.code, EXIT_OK, r.err);
    const seen = readAgentRecord(record);
    assert.ok(seen, 'xdg-open ran');
    assert.equal(seen.argv.length, 1);
    assert.ok(seen.argv[0].startsWith('cursor://anysphere.cursor-deeplink/prompt?text='), seen.argv[0].slice(0, 80));
    assert.equal(withoutRunTime(new URL(seen.argv[0]).searchParams.get('text')!), withoutRunTime(prompt), 'the link carries exactly the prompt');
    assert.match(r.err, /Continuing .*_quality_reviewer in Cursor: .*xdg-open opens its prompt link/);
    const head = await readHandoffHead(JSON.parse((await cli(['prompt', '--json', '--no-take'], repo)).out).handoff_file);
    assert.equal(head?.frontmatter.status, 'pending', "the link fills Cursor's chat in without sending it: nobody took the handoff yet");
    // A prompt longer than a link holds.
    const long = await cli(
      [
        'handover',
        '-s',
        'quality_reviewer',
        '-t',
        'Long one',
        '--max-tokens',
        '100000',
        '--summary',
        'A long summary, sentence after sentence. '.repeat(300),
        '--parent',
        'none',
      ],
      repo,
    );
    assert.equal(long.code, EXIT_OK, long.err);
    const refused = run(['continue', '--agent', 'cursor'], repo, [bin]);
    assert.equal(refused.code, EXIT_BAD_INPUT);
    assert.match(
      refused.err,
      /^ERROR: --agent cursor: the receiving prompt is [\d,]+ characters, more than a Cursor link holds — print it with specialist-handoff prompt --handoff \S+_quality_reviewer --no-take and paste it into Cursor's chat\n$/,
    );
  });

  it('--print prints the command quoted for a POSIX shell, and sh running it gives the agent the same argv', async () => {
    const { repo, bin, prompt } = await setup();
    const record = path.join(bin, 'codex.json');
    const exe = writeRecordingAgent(bin, 'codex', record);
    const r = run(['continue', '--agent', 'codex', '--print'], repo, [bin]);
    assert.equal(r.code, EXIT_OK, r.err);
    assert.equal(readAgentRecord(record), undefined, '--print starts nothing');
    const line = r.out.replace(/\n$/, '');
    assert.ok(line.startsWith(`cd -- ${repo} && ${exe} -- '`), line.slice(0, 200));
    const sh = spawnSync('sh', ['-c', line], { cwd: tempDir(), input: '', encoding: 'utf8' });
    assert.equal(sh.status, 0, sh.stderr);
    const seen = readAgentRecord(record);
    assert.ok(seen);
    assert.equal(withoutRunTime(seen.argv[1]), withoutRunTime(prompt));
    assert.equal(realpathSync(seen.cwd), realpathSync(repo));
    assert.doesNotMatch((await cli(['prompt', '--no-take'], repo)).out, /status: accepted/, '--print marks nothing accepted');
  });

  it('bad input: one ERROR line naming the flag and the fix, exit 2, nothing started', async () => {
    const { repo, bin } = await setup();
    const empty = tempDir('no-agents-');
    const cases: Array<[string[], string, RegExp]> = [
      [
        ['continue'],
        repo,
        /^ERROR: --agent is required — pass --agent claude\|codex\|gemini\|aider\|copilot-cli\|qwen\|opencode\|amp\|kiro\|droid\|goose\|cursor$/,
      ],
      [
        ['continue', '--agent', 'copilot'],
        repo,
        /^ERROR: --agent "copilot" is not an agent this command starts — pass one of claude, codex, gemini, aider, copilot-cli, qwen, opencode, amp, kiro, droid, goose, cursor$/,
      ],
      [
        ['continue', '--agent', 'gemini'],
        repo,
        /^ERROR: --agent gemini: was not found: no executable "gemini" on PATH — install it, put it on PATH, or set SPECIALIST_HANDOFF_GEMINI to the path of its executable$/,
      ],
      [
        ['continue', '--agent', 'claude', '--handoff', 'nosuch'],
        repo,
        /^ERROR: --handoff: handoff "nosuch" not found in .* — pass a handoff id, its file name, or "latest"$/,
      ],
      [['continue', '--agent', 'claude', '--handoff', 'a', '--handoff', 'b'], repo, /^ERROR: --handoff given more than once/],
      [['continue', '--agent', 'claude'], repoWithWork(), /^ERROR: there is no handoff yet to pick up — name a specialist \(--specialist\)/],
    ];
    writeRecordingAgent(bin, 'claude', path.join(bin, 'claude.json'));
    // In this process (each case fails before anything starts), with the agents' folder on PATH.
    const savedPath = process.env.PATH;
    process.env.PATH = [empty, bin, savedPath].join(':');
    try {
      for (const [args, cwd, expected] of cases) {
        const r = await cli(args, cwd);
        assert.equal(r.code, EXIT_BAD_INPUT, `${args.join(' ')}: ${r.err}`);
        assert.equal(r.err.trim().split('\n').length, 1, r.err);
        assert.match(r.err.trim(), expected);
      }
    } finally {
      process.env.PATH = savedPath;
    }
    assert.equal(readAgentRecord(path.join(bin, 'claude.json')), undefined);
    // As a real process too: PATH without codex.
    const missing = run(['continue', '--agent', 'codex'], repo, [empty]);
    assert.equal(missing.code, EXIT_BAD_INPUT);
    assert.match(missing.err, /^ERROR: --agent codex: was not found/);
    const viaVariable = spawnSync(process.execPath, [...CLI_FROM_SOURCE, 'continue', '--agent', 'codex', '--print'], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, SPECIALIST_HANDOFF_CODEX: 'codex' },
    });
    assert.equal(viaVariable.status, EXIT_BAD_INPUT);
    assert.match(
      viaVariable.stderr,
      /^ERROR: SPECIALIST_HANDOFF_CODEX "codex" is not an executable file \(the path must be absolute\) — set it to the absolute path/,
    );
    rmSync(bin, { recursive: true, force: true });
  });
});
