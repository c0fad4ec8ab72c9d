/**
 * `specialist-handoff hook` (src/cli/main.ts, src/core/agents/claudeHook.ts): Claude Code's hook JSON
 * on standard input → a safety-net handoff from git and the transcript the hook names.
 * The real CLI is spawned from the sources with the JSON piped in, on real temporary git
 * repositories and a small Claude Code transcript (JSON lines); bad input is exit 1 with
 * one `ERROR:` line, never 2 (Claude Code would block on 2).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HOOK_INPUT_TIMEOUT_MS } from '../../src/cli/hook';
import { EXIT_FAILURE, EXIT_OK, runCli } from '../../src/cli/main';
import { defaultHookTopic, describeHookEvent, parseClaudeHookInput } from '../../src/core/agents/claudeHook';
import { parseHandoff, type ParsedHandoff } from '../../src/core/handoff/parse';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';
import { CLI_FROM_SOURCE } from '../helpers/cli';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const SESSION = '3f2a9c1b-0d4e-4b8a-9c61-5e7f00112233';

/** One Bash tool call and its result in Claude Code's transcript shape. */
function bash(id: string, command: string, failed: boolean, time: string): string[] {
  return [
    JSON.stringify({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] },
      timestamp: time,
    }),
    JSON.stringify({
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: failed ? 'Exit code 1\n1 failing' : '12 passing', is_error: failed }],
      },
      timestamp: time,
    }),
  ];
}

/** A small Claude Code session: a request, a failing then a passing test run, an answer. */
function writeTranscript(dir: string): string {
  const file = path.join(dir, `${SESSION}.jsonl`);
  const lines = [
    JSON.stringify({ type: 'user', message: { role: 'user', content: 'please fix the failing login test' }, timestamp: '2026-03-01T10:00:00Z' }),
    ...bash('t1', 'npm test', true, '2026-03-01T10:01:00Z'),
    ...bash('t2', 'npx mocha test/login.test.ts', false, '2026-03-01T10:05:00Z'),
    JSON.stringify({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'The token check is fixed; the login test passes.' }] },
      timestamp: '2026-03-01T10:06:00Z',
    }),
  ];
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function repoWithWork(): string {
  const dir = initRepo();
  write(dir, 'src/login.ts', 'export const ok = false;\n');
  commitAll(dir, 'login');
  write(dir, 'src/login.ts', 'export const ok = true;\n');
  write(dir, 'test/login.test.ts', 'it("logs in", () => {});\n');
  return dir;
}

/** Runs the real CLI (`hook` + args) with `stdin` piped in. */
function hook(stdin: string, args: string[] = [], cwd = REPO_ROOT) {
  const r = spawnSync(process.execPath, [...CLI_FROM_SOURCE, 'hook', ...args], { cwd, input: stdin, encoding: 'utf8', env: process.env, timeout: 25_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function handoffs(repo: string): ParsedHandoff[] {
  const dir = path.join(repo, '.handoff', 'handoffs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((n) => {
      const p = parseHandoff(readFileSync(path.join(dir, n), 'utf8'));
      assert.ok(p.ok, n);
      return p.handoff;
    });
}

describe('Claude Code hook (specialist-handoff hook)', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('SessionEnd: writes a safety-net handoff to the implementation engineer from git and the transcript', () => {
    const repo = repoWithWork();
    const transcript = writeTranscript(tempDir());
    const input = {
      session_id: SESSION,
      transcript_path: transcript,
      cwd: repo,
      hook_event_name: 'SessionEnd',
      reason: 'prompt_input_exit',
      permission_mode: 'default',
    };
    const r = hook(JSON.stringify(input));
    assert.equal(r.code, EXIT_OK, r.err);
    assert.equal(r.out, '', 'stdout stays empty');
    const lines = r.err.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.err);
    assert.match(
      lines[0],
      /^specialist-handoff hook: SessionEnd \(reason: prompt_input_exit\): safety-net handoff to \[implementation engineer\] written: \.handoff\/handoffs\/\S+_implementation_engineer\.md \(2 files, 2 test runs, 2 turns\)$/,
    );

    const [h] = handoffs(repo);
    assert.ok(h, 'one handoff written');
    const fm = h.frontmatter;
    assert.equal(fm.specialist, 'implementation_engineer');
    assert.equal(fm.topic, 'main', 'the branch names the topic');
    assert.equal(fm.session_id, SESSION, "Claude Code's session id is recorded");
    assert.equal(fm.reason_kind, 'end_of_session');
    assert.equal(fm.from, 'claude-code');
    assert.equal(fm.tests_run_count, 2);
    assert.deepEqual(
      fm.session_sources?.map((s) => [s.source, s.file, s.test_runs, s.turns]),
      [['claude-code', path.basename(transcript), 2, 2]],
    );
    const summary = h.sections.get('Summary') ?? '';
    assert.match(summary, /^Written automatically by the Claude Code SessionEnd \(reason: prompt_input_exit\) hook when the session ended/);
    assert.ok(summary.includes(SESSION));
    const tests = h.sections.get('Tests run') ?? '';
    assert.match(tests, /failed `npm test` \(exit 1; source: claude-code\)/);
    assert.match(tests, /passed `npx mocha test\/login\.test\.ts`/);
    const turns = h.sections.get('Recent turns') ?? '';
    assert.ok(turns.includes('please fix the failing login test'));
    assert.ok(turns.includes('The token check is fixed; the login test passes.'));
    const touched = h.sections.get('Touched files') ?? '';
    assert.ok(touched.includes('`src/login.ts`') && touched.includes('`test/login.test.ts`'), touched);
  });

  it('PreCompact with --specialist and --topic, from a subfolder; a missing transcript leaves git only', () => {
    const repo = repoWithWork();
    mkdirSync(path.join(repo, 'src', 'deep'));
    const input = {
      session_id: SESSION,
      transcript_path: path.join(tempDir(), 'gone.jsonl'),
      cwd: path.join(repo, 'src', 'deep'),
      hook_event_name: 'PreCompact',
      trigger: 'auto',
      custom_instructions: '',
    };
    const r = hook(JSON.stringify(input), ['--specialist', 'quality_reviewer', '--topic', 'Login fix']);
    assert.equal(r.code, EXIT_OK, r.err);
    assert.match(
      r.err,
      /^specialist-handoff hook: PreCompact \(trigger: auto\): safety-net handoff to \[quality reviewer\] written: \.handoff\/handoffs\/\S+_quality_reviewer\.md \(2 files, 0 test runs, 0 turns, transcript not found: git only\)\n$/,
    );
    const [h] = handoffs(repo);
    assert.equal(h.frontmatter.specialist, 'quality_reviewer');
    assert.equal(h.frontmatter.topic, 'login-fix');
    assert.match(
      h.sections.get('Summary') ?? '',
      /PreCompact \(trigger: auto\) hook before the conversation was compacted .* git only \(the session transcript could not be read\)/,
    );
  });

  it('bad standard input: exit 1 with one ERROR line naming the problem, nothing written', async () => {
    const repo = repoWithWork();
    // With a line break in it, as `echo` sends it: the parser quotes the input, the message stays one line.
    const spawned = hook('this is not json\n');
    assert.equal(spawned.code, EXIT_FAILURE);
    assert.match(
      spawned.err,
      /^ERROR: the hook input on standard input is not JSON \(.+\) — run this from a Claude Code hook \(SessionEnd or PreCompact\), which pipes its JSON input in\n$/,
    );

    const good = { session_id: SESSION, transcript_path: '/nowhere.jsonl', cwd: repo, hook_event_name: 'SessionEnd', reason: 'clear' };
    const cases: Array<[string, RegExp, string[]?]> = [
      ['', /^ERROR: no hook input on standard input — /],
      ['[1, 2]', /^ERROR: the hook input must be a JSON object with session_id, transcript_path, cwd and hook_event_name — /],
      ['{}', /^ERROR: the hook input has no session_id — Claude Code sends session_id, transcript_path, cwd and hook_event_name; /],
      [JSON.stringify({ ...good, transcript_path: undefined }), /^ERROR: the hook input has no transcript_path — /],
      [JSON.stringify({ ...good, hook_event_name: 7 }), /^ERROR: the hook input's hook_event_name must be a string — /],
      [JSON.stringify({ ...good, cwd: 'relative/dir' }), /^ERROR: the hook input's cwd must be an absolute path — /],
      [JSON.stringify({ ...good, session_id: '../../etc' }), /^ERROR: the hook input's session_id must be 1–200 characters of letters, digits/],
      [JSON.stringify({ ...good, cwd: path.join(repo, 'missing') }), /^ERROR: the hook input's cwd folder does not exist: /],
      [
        JSON.stringify(good),
        /^ERROR: unknown specialist "implementation_enginer" — did you mean: implementation_engineer\? \(Claude Code SessionEnd \(reason: clear\) hook; nothing was written\)$/,
        ['--specialist', 'implementation_enginer'],
      ],
    ];
    for (const [stdin, expected, args] of cases) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(['hook', ...(args ?? [])], { stdout: (t) => out.push(t), stderr: (t) => err.push(t), cwd: repo, readStdin: async () => stdin });
      assert.equal(code, EXIT_FAILURE, `${stdin}: ${err.join('\n')}`);
      assert.equal(err.length, 1, err.join('\n'));
      assert.match(err[0], expected);
      assert.deepEqual(out, []);
    }
    for (const args of [['--bogus'], ['extra words']]) {
      const code = await runCli(['hook', ...args], {
        stdout: () => undefined,
        stderr: () => undefined,
        cwd: repo,
        readStdin: async () => JSON.stringify(good),
      });
      assert.equal(code, EXIT_FAILURE, `hook ${args.join(' ')}: exit 1, never 2`);
    }
    assert.deepEqual(handoffs(repo), [], 'nothing written');
  });

  it('a standard input that is never closed: exit 1 (never 2) once the input has not ended within 10 s, naming what arrived; nothing written', async function () {
    this.timeout(120_000);
    const repo = repoWithWork();
    const input = JSON.stringify({
      session_id: SESSION,
      transcript_path: writeTranscript(tempDir()),
      cwd: repo,
      hook_event_name: 'SessionEnd',
      reason: 'exit',
    });
    const fix =
      "Claude Code pipes the hook's JSON in and closes standard input; run this from a Claude Code hook, or pipe the JSON in: echo '{…}' | specialist-handoff hook (nothing was written)";
    // Nothing written to the pipe, then half the JSON: the writer keeps its end open in both.
    for (const [sent, line] of [
      ['', `ERROR: no hook input arrived on standard input within 10 s — ${fix}`],
      [input.slice(0, 40), `ERROR: the hook input on standard input did not end within 10 s (40 bytes arrived, the pipe was never closed) — ${fix}`],
    ] as const) {
      const started = Date.now();
      const child = spawn(process.execPath, [...CLI_FROM_SOURCE, 'hook'], { cwd: repo, stdio: ['pipe', 'pipe', 'pipe'], env: process.env });
      let err = '';
      child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
      if (sent) child.stdin?.write(sent);
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      const elapsed = Date.now() - started;
      child.stdin?.destroy();
      assert.equal(code, EXIT_FAILURE, err);
      assert.equal(err, `${line}\n`);
      assert.ok(elapsed >= HOOK_INPUT_TIMEOUT_MS, `waited the whole bound: ${elapsed} ms`);
      // The bound, plus the start of a CLI compiled from the sources by tsx on a busy machine.
      assert.ok(elapsed < HOOK_INPUT_TIMEOUT_MS + 30_000, `then gave up: ${elapsed} ms`);
      assert.deepEqual(handoffs(repo), [], 'nothing written');
      assert.equal(existsSync(path.join(repo, '.handoff')), false);
    }
    assert.equal(HOOK_INPUT_TIMEOUT_MS, 10_000);
  });

  it('reads an input that arrives after it started, on a non-blocking standard input too', async function () {
    if (process.platform === 'win32') this.skip(); // O_NONBLOCK on a pipe: POSIX
    const repo = repoWithWork();
    const transcript = writeTranscript(tempDir());
    const input = JSON.stringify({ session_id: SESSION, transcript_path: transcript, cwd: repo, hook_event_name: 'SessionEnd', reason: 'exit' });
    // Node makes a child's standard streams blocking when it spawns it; a preload that opens
    // process.stdin (libuv sets the pipe O_NONBLOCK) gives the hook a non-blocking descriptor 0,
    // and its input arrives only once the hook has started and waits for it.
    const dir = tempDir('handoff-nonblocking-');
    const preload = path.join(dir, 'nonblocking-stdin.js');
    writeFileSync(preload, 'void process.stdin; // opening the pipe makes it O_NONBLOCK\n');
    const child = spawn(process.execPath, ['--require', preload, ...CLI_FROM_SOURCE, 'hook'], {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: process.env,
    });
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    child.stdin?.end(input);
    assert.equal(await exited, EXIT_OK, err);
    assert.match(err, /^specialist-handoff hook: SessionEnd \(reason: exit\): safety-net handoff to \[implementation engineer\] written: /);
    assert.equal(handoffs(repo).length, 1);
  });

  it('names the event and the default topic in words', () => {
    assert.equal(describeHookEvent({ hook_event_name: 'SessionEnd', reason: 'logout' }), 'SessionEnd (reason: logout)');
    assert.equal(describeHookEvent({ hook_event_name: 'PreCompact', trigger: 'manual' }), 'PreCompact (trigger: manual)');
    assert.equal(describeHookEvent({ hook_event_name: 'Stop' }), 'Stop');
    assert.equal(defaultHookTopic('feature/login', SESSION), 'feature/login');
    assert.equal(defaultHookTopic(null, SESSION), 'session 3f2a9c1b');
    const parsed = parseClaudeHookInput(
      JSON.stringify({ session_id: SESSION, transcript_path: 't.jsonl', cwd: '/w', hook_event_name: 'SessionEnd', newer_field: { x: 1 } }),
    );
    assert.ok(parsed.ok, 'unknown fields of a newer Claude Code are accepted');
  });
});
