/**
 * `specialist-handoff hook --agent windsurf`, the CLI built as `npm run build` builds it (dist/cli.js), fed Cascade's
 * hook payloads on standard input in the shapes docs.windsurf.com/windsurf/cascade/hooks documents (the common fields
 * `agent_action_name`, `trajectory_id`, `execution_id`, `timestamp` and each event's `tool_info`), as Cascade runs a
 * hook: in the workspace root, with a temporary HOME. Then `handover` with no --session-log finds the log and its
 * handoff carries the request, the test run (its result the agent's claim: Cascade gives no exit code), the edit and
 * a command that ran. Bad input exits 0, prints nothing on standard output and writes nothing. The hooks the user pastes
 * are docs/CLI.md's `.windsurf/hooks.json`, taken from the document itself.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WINDSURF_RECORDED_EVENTS, windsurfLogDir } from '../../src/core/agents/windsurfHook';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { ROOT, buildDist } from '../helpers/dist';
import { repoWithWork } from '../helpers/cli';
import { cleanupTempDirs, tempDir } from '../helpers/repo';

/** The `.windsurf/hooks.json` of docs/CLI.md: its one JSON block with Cascade's `pre_user_prompt`. */
function documentedHooks(): Record<string, Array<{ command: string; show_output?: boolean }>> {
  const text = readFileSync(path.join(ROOT, 'docs', 'CLI.md'), 'utf8');
  const blocks = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]).filter((b) => b.includes('"pre_user_prompt"'));
  assert.equal(blocks.length, 1, 'one Cascade hooks block in docs/CLI.md');
  return (JSON.parse(blocks[0]) as { hooks: Record<string, Array<{ command: string; show_output?: boolean }>> }).hooks;
}

describe('Windsurf Cascade hooks: the built CLI records them and the handoff reads them', function () {
  this.timeout(180_000);
  let cliJs: string;
  before(async () => {
    cliJs = path.join((await buildDist()).dist, 'cli.js');
  });
  after(cleanupTempDirs);

  const envOf = (home: string): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: home,
    USERPROFILE: home,
    XDG_STATE_HOME: path.join(home, 'state'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_DATA_HOME: path.join(home, 'data'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  });
  const run = (cwd: string, home: string, args: string[], input?: string) =>
    spawnSync(process.execPath, [cliJs, ...args], { cwd, env: envOf(home), input, encoding: 'utf8', timeout: 100_000 });
  const hooks = documentedHooks();
  /** Runs the command docs/CLI.md sets on the payload's event, `specialist-handoff` being the built dist/cli.js. */
  const hook = (cwd: string, home: string, payload: string) => {
    let event: unknown;
    try {
      event = (JSON.parse(payload) as { agent_action_name?: unknown }).agent_action_name;
    } catch {
      event = undefined;
    }
    const command = (typeof event === 'string' && hooks[event]?.[0]?.command) || hooks.post_run_command[0].command;
    const [bin, ...args] = command.split(' ');
    assert.equal(bin, 'specialist-handoff');
    return run(cwd, home, args, payload);
  };

  it('docs/CLI.md sets the one command on exactly the events the hook keeps, none a blocking pre-hook but the prompt', () => {
    assert.deepEqual(Object.keys(hooks), [...WINDSURF_RECORDED_EVENTS]);
    for (const entries of Object.values(hooks))
      assert.deepEqual(
        entries.map((e) => e.command),
        ['specialist-handoff hook --agent windsurf'],
      );
  });

  it('appends each payload as one JSON line, redacted, and the handoff carries request, test run, edit and command', () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-windsurf-home-'));
    const common = (n: number) => ({ trajectory_id: 'c0ffee00-1111-4222-8333-444455556666', execution_id: 'exec-1', timestamp: `2026-01-14T12:00:0${n}Z` });
    const token = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;
    const payloads = [
      { agent_action_name: 'pre_user_prompt', ...common(0), tool_info: { user_prompt: `fix a.txt and run the tests; the CI token is ${token}` } },
      {
        agent_action_name: 'post_write_code',
        ...common(1),
        tool_info: { file_path: path.join(ws, 'a.txt'), edits: [{ old_string: 'a\n', new_string: 'a\nb\n' }] },
      },
      { agent_action_name: 'post_run_command', ...common(2), tool_info: { command_line: 'npm test', cwd: ws } },
      { agent_action_name: 'post_run_command', ...common(3), tool_info: { command_line: 'mkdir -p build', cwd: ws } },
      {
        agent_action_name: 'post_cascade_response',
        ...common(4),
        tool_info: {
          response: '### Planner Response\n\nI will edit a.txt.\n\n*Edited file `a.txt`*\n\n### Planner Response\n\nI fixed a.txt and all tests pass.',
        },
      },
    ];
    for (const p of payloads) {
      const r = hook(ws, home, JSON.stringify(p));
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, '', 'nothing on standard output');
      assert.equal(r.stderr, '', 'nothing to say on standard error');
    }
    const dir = windsurfLogDir(path.join(home, 'state', 'specialist-handoff'), ws);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.jsonl')),
      ['c0ffee00-1111-4222-8333-444455556666.jsonl'],
    );
    const text = readFileSync(path.join(dir, 'c0ffee00-1111-4222-8333-444455556666.jsonl'), 'utf8');
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { agent_action_name: string; tool_info: Record<string, unknown> });
    assert.deepEqual(
      lines.map((l) => l.agent_action_name),
      payloads.map((p) => p.agent_action_name),
    );
    assert.ok(!text.includes(token), 'the token is not stored raw');
    assert.match(String(lines[0].tool_info.user_prompt), /^fix a\.txt and run the tests; the CI token is \[REDACTED:[a-z-]+\]$/);
    assert.deepEqual(lines[2].tool_info, { command_line: 'npm test', cwd: ws });

    const h = run(ws, home, ['handover', '-s', 'hacker', '-t', 'tests', '--json']);
    assert.equal(h.status, 0, h.stderr);
    const pkg = HandoverOkSchema.parse(JSON.parse(h.stdout)).package;
    assert.deepEqual(
      pkg.session_sources.map((s) => [s.source, path.basename(s.file), s.commands, s.test_runs, s.edits, s.turns]),
      [['windsurf', 'c0ffee00-1111-4222-8333-444455556666.jsonl', 2, 1, 1, 2]],
    );
    assert.deepEqual(
      pkg.user_requests.map((r) => [r.source, r.text]),
      [['windsurf', 'fix a.txt and run the tests; the CI token is [REDACTED:github-token]']],
    );
    assert.deepEqual(
      pkg.tests_run.map((t) => [t.source, t.command, t.exit_code, t.result, t.basis]),
      [['windsurf', 'npm test', null, 'passed', 'claim']],
    );
    assert.deepEqual(
      pkg.commands_run.map((c) => [c.command, c.exit_code]),
      [['mkdir -p build', null]],
    );
    assert.deepEqual(
      pkg.recent_turns.map((t) => [t.role, t.text]),
      [
        ['user', 'fix a.txt and run the tests; the CI token is [REDACTED:github-token]'],
        ['assistant', 'I fixed a.txt and all tests pass.'],
      ],
    );
  });

  it("bad input, another agent's payload or an event it does not keep: exit 0, nothing on standard output, nothing written", () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-windsurf-bad-'));
    const cases: Array<[string, RegExp]> = [
      ['', /no hook input on standard input/],
      ['this is not json', /is not JSON/],
      ['[1, 2]', /no Cascade hook payload/],
      [JSON.stringify({ session_id: 's', hook_event_name: 'SessionEnd', cwd: ws, transcript_path: '/x' }), /no Cascade hook payload/],
      [
        JSON.stringify({ agent_action_name: 'post_run_command', trajectory_id: 't', tool_info: { cwd: ws } }),
        /post_run_command payload's tool_info\.command_line/,
      ],
      [JSON.stringify({ agent_action_name: 'pre_user_prompt', tool_info: { user_prompt: 'hi' } }), /trajectory_id/],
      [JSON.stringify({ agent_action_name: 'pre_run_command', trajectory_id: 't', tool_info: { command_line: 'rm -rf /' } }), /pre_run_command: not recorded/],
    ];
    for (const [input, said] of cases) {
      const r = hook(ws, home, input);
      assert.equal(r.status, 0, `${input}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, said);
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, 'one line');
    }
    assert.equal(existsSync(path.join(home, 'state')), false, 'nothing written');
    // A state folder that cannot be made (a file stands there): said, exit 0 all the same.
    writeFileSync(path.join(home, 'state'), 'not a folder');
    const blocked = hook(ws, home, JSON.stringify({ agent_action_name: 'pre_user_prompt', trajectory_id: 't', tool_info: { user_prompt: 'hi' } }));
    assert.equal(blocked.status, 0);
    assert.equal(blocked.stdout, '');
    assert.match(blocked.stderr, /^specialist-handoff hook --agent windsurf: .*a file stands where a folder is needed.* \(nothing recorded\)\n$/);
    const other = run(ws, home, ['hook', '--agent', 'cursor'], '{}');
    assert.equal(other.status, 1, 'never 2, which blocks a pre-hook');
    assert.match(other.stderr, /--agent cursor is not a hook this command records — use --agent windsurf/);
  });
});
