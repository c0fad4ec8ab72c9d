/**
 * `specialist-handoff hook` answering a session start (src/cli/sessionStart.ts): the real CLI,
 * spawned from the sources with each agent's session-start input piped in, in real git
 * repositories with handoffs written by the CLI. The answer carries the newest pending
 * handoff's receiving prompt (the one `prompt --no-take` prints) within 10,000 characters, or
 * the short list when the prompt is longer; nothing under the handoff folder changes, so the
 * handoff stays pending until `prompt` takes it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { SESSION_START_CONTEXT_LIMIT, takeCommand } from '../../src/core/agents/sessionStart';
import { EXIT_FAILURE, EXIT_OK } from '../../src/cli/main';
import { cli, CLI_FROM_SOURCE, repoWithWork } from '../helpers/cli';
import { cleanupTempDirs, filesUnder, tempDir } from '../helpers/repo';

/** Runs the real CLI (`hook` + args) in `cwd` with `input` piped in. */
function hook(input: unknown, cwd: string, args: string[] = []) {
  const r = spawnSync(process.execPath, [...CLI_FROM_SOURCE, 'hook', ...args], {
    cwd,
    input: typeof input === 'string' ? input : JSON.stringify(input),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The additionalContext of a Claude-shaped answer. */
function contextOf(out: string): string {
  const json = JSON.parse(out) as { hookSpecificOutput?: { hookEventName: string; additionalContext: string } };
  assert.deepEqual(Object.keys(json), ['hookSpecificOutput'], out.slice(0, 200));
  assert.deepEqual(Object.keys(json.hookSpecificOutput!), ['hookEventName', 'additionalContext'], 'nothing Codex would refuse');
  assert.equal(json.hookSpecificOutput!.hookEventName, 'SessionStart');
  return json.hookSpecificOutput!.additionalContext;
}

/** A prompt without the lines of its run context that name the time it was built (the time, the next handoff's file). */
function withoutRunTime(text: string): string {
  return text.replace(/^- run\.(timestamp|handoff_path): .*$/gm, '- run.$1: <now>');
}

/** Hands over in `repo` with the CLI; returns the handoff's id. */
async function handOver(repo: string, specialist: string, topic: string, summary: string, more: string[] = []): Promise<string> {
  const r = await cli(['handover', '--specialist', specialist, '--topic', topic, '--summary', summary, '--json', ...more], repo);
  assert.equal(r.code, 0, r.err);
  return (JSON.parse(r.out) as { handoff_file: string }).handoff_file.split('/').pop()!.replace(/\.md$/, '');
}

describe('hook: a session start gets the pending handoffs', function () {
  this.timeout(120_000);
  after(cleanupTempDirs);

  it("Claude Code SessionStart (startup, resume, clear, compact): the newest pending handoff's prompt, nothing marked picked up", async () => {
    const repo = repoWithWork();
    const older = await handOver(repo, 'solution_architect', 'Storage layout', 'An older handoff.');
    const id = await handOver(repo, 'quality_reviewer', 'Auth refactor', 'The token check is rewritten; review it.', ['--parent', 'none']);
    const before = filesUnder(path.join(repo, '.handoff'));
    const expected = await cli(['prompt', '--handoff', id, '--no-take'], repo);
    assert.equal(expected.code, 0, expected.err);
    for (const source of ['startup', 'resume', 'clear', 'compact']) {
      const r = hook(
        {
          session_id: '3f2a9c1b-0d4e-4b8a-9c61-5e7f00112233',
          transcript_path: path.join(tempDir(), 's.jsonl'),
          cwd: repo,
          hook_event_name: 'SessionStart',
          source,
          model: 'claude-sonnet',
        },
        repo,
      );
      assert.equal(r.code, EXIT_OK, r.err);
      const context = contextOf(r.out);
      assert.ok(context.length <= SESSION_START_CONTEXT_LIMIT, `${context.length}`);
      const [heading, prompt] = context.split('\n---\n\n');
      assert.match(
        heading,
        new RegExp(
          `^# Specialist Handoff: a handoff waits to be picked up\\n\\ndeveloper → Quality reviewer \\[quality reviewer\\] · "Auth refactor" · less than a minute ago \\(handoff ${id}\\)\\. Its receiving prompt follows\\. It is not marked picked up: to take it, run \`specialist-handoff prompt --handoff ${id}\``,
        ),
      );
      assert.match(heading, /1 older handoff waits too \(files in \.handoff\/handoffs\/\)\.\n$/);
      assert.equal(withoutRunTime(prompt.trimEnd()), withoutRunTime(expected.out.trimEnd()), 'the prompt `prompt --no-take` prints');
      assert.ok(prompt.includes('The token check is rewritten; review it.'));
      assert.match(
        r.err,
        new RegExp(
          `^specialist-handoff hook: SessionStart \\(${source}\\): the receiving prompt of ${id} added \\([\\d,]+ characters\\); nothing marked picked up\\n$`,
        ),
      );
    }
    assert.deepEqual(filesUnder(path.join(repo, '.handoff')), before, 'nothing under .handoff changed: the handoff is still pending');
    // Taking it is the prompt command's: then the older one is the one a new session hears of.
    assert.equal((await cli(['prompt', '--handoff', id], repo)).code, 0);
    const next = hook({ session_id: 's2', transcript_path: '/t', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }, repo);
    assert.match(contextOf(next.out), new RegExp(`\\(handoff ${older}\\)\\. Its receiving prompt follows`));
    assert.equal((await cli(['prompt', '--handoff', older], repo)).code, 0);
    const none = hook({ session_id: 's3', transcript_path: '/t', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }, repo);
    assert.equal(none.code, EXIT_OK, none.err);
    assert.equal(none.out.trimEnd(), '{}');
    assert.match(none.err, /: no pending handoff in .+; nothing added\n$/);
  });

  it('a prompt longer than 10,000 characters: the short list of the pending handoffs, each with how to take it', async () => {
    const repo = repoWithWork();
    const first = await handOver(repo, 'implementation_engineer', 'Cache', 'A short one.');
    const long = 'The summary goes on for a while, sentence after sentence. '.repeat(260);
    const id = await handOver(repo, 'quality_reviewer', 'Long review', long, ['--parent', 'none', '--max-tokens', '100000']);
    const r = hook({ session_id: 's', transcript_path: '/t', cwd: path.join(repo), hook_event_name: 'SessionStart', source: 'startup' }, repo);
    assert.equal(r.code, EXIT_OK, r.err);
    const context = contextOf(r.out);
    assert.ok(context.length <= SESSION_START_CONTEXT_LIMIT);
    const lines = context.trimEnd().split('\n');
    assert.equal(lines[0], '# Specialist Handoff: 2 handoffs wait to be picked up');
    assert.match(
      lines[2],
      /^The newest one's receiving prompt \([\d,]+ characters\) is longer than a session start may add \(10,000\)\. None is marked picked up\./,
    );
    assert.equal(lines[4], `- developer → Quality reviewer [quality reviewer] · "Long review" · less than a minute ago — \`${takeCommand(id)}\``);
    assert.equal(lines[5], `- developer → Implementation engineer [implementation engineer] · "Cache" · less than a minute ago — \`${takeCommand(first)}\``);
    assert.match(r.err, /: 2 pending handoffs listed \([\d,]+ characters; the newest one's prompt did not fit\); nothing marked picked up\n$/);
  });

  it("Codex CLI, Gemini CLI and VS Code inputs get the same answer; VS Code without cwd is answered for the hook's folder", async () => {
    const repo = repoWithWork();
    const id = await handOver(repo, 'test_debug_engineer', 'Flaky test', 'The login test fails one run in five.');
    const inputs = [
      {
        session_id: '019d036d-c7fa-72d2-b6fd-78878bfe34e4',
        transcript_path: null,
        cwd: repo,
        hook_event_name: 'SessionStart',
        model: 'gpt-5-codex',
        permission_mode: 'default',
        source: 'startup',
      },
      { session_id: 'g1', transcript_path: '/g/chat.json', cwd: repo, hook_event_name: 'SessionStart', timestamp: '2026-12-01T12:00:00Z', source: 'resume' },
      { timestamp: '2026-12-01T12:00:00.000Z', hook_event_name: 'SessionStart', session_id: 'v1', source: 'new' },
    ];
    for (const input of inputs) {
      const r = hook(input, path.join(repo));
      assert.equal(r.code, EXIT_OK, r.err);
      assert.ok(contextOf(r.out).includes(`run \`${takeCommand(id)}\``), JSON.stringify(input));
    }
  });

  it('Cline TaskStart and TaskResume: contextModification; another task event, or an error, is still exit 0 so the task goes on', async () => {
    const repo = repoWithWork();
    const id = await handOver(repo, 'quality_reviewer', 'Review', 'Please review.');
    const base = { clineVersion: '3.36.0', timestamp: '1764590400000', taskId: 't1', workspaceRoots: [repo], userId: 'u1' };
    for (const hookName of ['TaskStart', 'TaskResume']) {
      const r = hook({ ...base, hookName }, tempDir());
      assert.equal(r.code, EXIT_OK, r.err);
      const json = JSON.parse(r.out) as { cancel: boolean; contextModification: string };
      assert.deepEqual(Object.keys(json), ['cancel', 'contextModification']);
      assert.equal(json.cancel, false);
      assert.ok(json.contextModification.includes(`(handoff ${id})`));
    }
    const done = hook({ ...base, hookName: 'TaskComplete' }, repo);
    assert.equal(done.code, EXIT_OK);
    assert.equal(done.out.trimEnd(), '{"cancel":false}');
    assert.match(done.err, /TaskComplete: nothing to add — the hook answers TaskStart and TaskResume/);
    const missing = hook({ ...base, hookName: 'TaskStart', workspaceRoots: [path.join(repo, 'gone')] }, repo);
    assert.equal(missing.code, EXIT_OK, 'Cline blocks the task on any other exit code');
    assert.equal(missing.out.trimEnd(), '{"cancel":false}');
    assert.match(missing.err, /^ERROR: .*folder does not exist: .*gone.* \(TaskStart; nothing was added or marked\)\n$/);
  });

  it("Claude Code's shape with a folder that is not there: exit 1 (Claude Code goes on), one ERROR line, nothing on standard output", () => {
    const repo = repoWithWork();
    const r = hook({ session_id: 's', transcript_path: '/t', cwd: path.join(repo, 'gone'), hook_event_name: 'SessionStart', source: 'startup' }, repo);
    assert.equal(r.code, EXIT_FAILURE);
    assert.equal(r.out, '');
    assert.match(r.err, /^ERROR: .*gone.* \(SessionStart \(startup\); nothing was added or marked\)\n$/);
    const relative = hook({ hook_event_name: 'SessionStart', cwd: 'not/absolute' }, repo);
    assert.equal(relative.code, EXIT_FAILURE);
    assert.match(relative.err, /^ERROR: the hook input's cwd must be an absolute path \(got "not\/absolute"\)/);
  });

  it("--cwd names the workspace over the input's folder; outside git the folder itself is the workspace", async () => {
    const repo = repoWithWork();
    const id = await handOver(repo, 'quality_reviewer', 'Elsewhere', 'From --cwd.');
    const r = hook({ hook_event_name: 'SessionStart', cwd: tempDir(), source: 'startup' }, repo, ['--cwd', repo]);
    assert.ok(contextOf(r.out).includes(id));
    const plain = tempDir();
    const empty = hook({ hook_event_name: 'SessionStart', cwd: plain, source: 'startup' }, plain);
    assert.equal(empty.out.trimEnd(), '{}');
  });
});
