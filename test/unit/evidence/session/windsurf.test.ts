/**
 * Windsurf Cascade hook logs, read by content whatever the file's name. The payloads are in the shapes Cascade sends
 * (docs.windsurf.com/windsurf/cascade/hooks: `agent_action_name`, `trajectory_id`, `execution_id`, `timestamp`,
 * `tool_info`) and as the real log of heywood8/rosetta shows them (`docs/hooks/windsurf-logs.txt`, see
 * test/fixtures/real/SOURCES.md: a `model_name` field, timestamps with a zone offset, the response's
 * `### Planner Response` sections and `*User accepted the command …*` lines, a refused command's `pre_run_command`
 * with no `post_run_command`). Then the payload check and bounds of the hook, its append, and discovery.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_WINDSURF_EDITS, MAX_WINDSURF_TEXT_CHARS, checkWindsurfPayload, windsurfLogDir, windsurfLogName } from '../../../../src/core/agents/windsurfHook';
import type { SessionCommand, SessionEvent, SessionFileEdit, SessionTurn } from '../../../../src/core/session/events';
import { readByContent } from '../../../../src/evidence/session/agentReaders';
import { findWindsurf } from '../../../../src/evidence/session/discoveryCliAgents';
import { readWindsurf, windsurfClosingWords } from '../../../../src/evidence/session/readers/windsurf';
import { appendHookLogLine } from '../../../../src/store/hookLog';
import { cleanupTempDirs, initRepo, tempDir, write as writeFile } from '../../../helpers/repo';

const WS = '/Users/user/Sources/demo';
/** Writes `rel` under `root`; its path. */
const write = (root: string, rel: string, content: string): string => {
  writeFile(root, rel, content);
  return path.join(root, rel);
};
const jsonl = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
let n = 0;
/** A payload with Cascade's common fields, as the real log has them. */
const p = (agent_action_name: string, tool_info: object) => ({
  agent_action_name,
  trajectory_id: '64944513-a64d-410b-af09-426251271f8b',
  timestamp: `2026-06-29T18:10:${String(10 + ++n).padStart(2, '0')}.653398-04:00`,
  execution_id: '0b8ee740-32eb-4415-a31b-6da673e21988',
  model_name: 'SWE-1.6 Slow',
  tool_info,
});
const commands = (ev: SessionEvent[]) =>
  ev.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran, c.claimed ?? null]);
const edits = (ev: SessionEvent[]) => ev.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => [e.path, e.tool]);
const turns = (ev: SessionEvent[]) => ev.filter((e): e is SessionTurn => e.kind === 'turn').map((t) => [t.role, t.text]);

describe('Windsurf Cascade hook logs', () => {
  let dir: string;
  before(() => (dir = tempDir('handoff-windsurf-')));
  after(cleanupTempDirs);

  it('read by content under any name: the request verbatim, commands run with no exit code, the edit, the closing words', async () => {
    const file = write(
      dir,
      'cascade hooks.log',
      jsonl([
        p('pre_user_prompt', { user_prompt: 'Create docs/probe.txt, then run the tests' }),
        p('pre_run_command', { command_line: 'echo probe', cwd: WS }),
        p('pre_read_code', { file_path: `${WS}/README.md` }),
        p('post_read_code', { file_path: `${WS}/README.md` }),
        p('post_run_command', { command_line: 'echo probe', cwd: WS }),
        p('pre_write_code', { edits: [{ old_string: '', new_string: 'probe' }], file_path: `${WS}/docs/probe.txt` }),
        p('post_write_code', { edits: [{ old_string: '', new_string: 'probe' }], file_path: `${WS}/docs/probe.txt` }),
        p('post_run_command', { command_line: 'mkdir -p build', cwd: WS }),
        p('post_run_command', { command_line: 'pytest -q', cwd: WS }),
        p('post_cascade_response', {
          response:
            '### Planner Response\n\nI will create the file.\n\n*User accepted the command `echo probe`*\n\n*Edited relevant file*\n\n### Planner Response\n\n- (Always On) Triggered Rule: style.md\n\nCreated docs/probe.txt; 2 tests failed in test_probe.py.',
        }),
        p('post_cascade_response_with_transcript', { transcript_path: '/Users/user/.windsurf/transcripts/64944513.jsonl' }),
      ]),
    );
    const r = await readByContent(file, { workspaceRoot: WS });
    assert.ok(r);
    assert.deepEqual([r.detected.source, r.detected.format], ['windsurf', 'windsurf']);
    assert.deepEqual(commands(r.read.events), [
      ['echo probe', null, true, null],
      ['mkdir -p build', null, true, null],
      ['pytest -q', null, true, 'failed'],
    ]);
    assert.deepEqual(edits(r.read.events), [['docs/probe.txt', 'write_code']]);
    assert.deepEqual(turns(r.read.events), [
      ['user', 'Create docs/probe.txt, then run the tests'],
      ['assistant', 'Created docs/probe.txt; 2 tests failed in test_probe.py.'],
    ]);
    assert.deepEqual(
      r.read.user_requests?.map((q) => [q.text, q.time]),
      [['Create docs/probe.txt, then run the tests', '2026-06-29T18:10:11.653398-04:00']],
    );
    // The read and write hooks carry nothing a handoff keeps; the transcript hook only names a file.
    assert.equal(r.read.stats.skipped, 4);
    assert.equal(r.read.stats.malformed, 0);
  });

  it('a command a pre-hook refused (no post_run_command before the response) never ran; one still announced at the end is neither', async () => {
    const file = write(
      dir,
      'refused.jsonl',
      jsonl([
        p('pre_user_prompt', { user_prompt: 'read the probe' }),
        p('pre_run_command', { command_line: 'cat docs/DENY.txt', cwd: WS }),
        p('pre_run_command', { command_line: 'npm test', cwd: WS }),
        p('post_run_command', { command_line: 'npm test', cwd: WS }),
        p('post_cascade_response', { response: '### Planner Response\n\nThe cat was blocked by a hook; all tests pass.' }),
        p('pre_user_prompt', { user_prompt: 'again' }),
        p('pre_run_command', { command_line: 'npm run build', cwd: WS }),
      ]),
    );
    const r = await readWindsurf(file, { workspaceRoot: WS });
    assert.deepEqual(commands(r.events), [
      ['cat docs/DENY.txt', null, false, null],
      ['npm test', null, true, 'passed'],
    ]);
  });

  it('closing words: the last Planner Response section without the triggered rules; a response without sections whole', () => {
    assert.equal(windsurfClosingWords('### Planner Response\n\nfirst\n\n### Planner Response\n\n- (Glob) Triggered Rule: a.md\nDone.\n'), 'Done.');
    assert.equal(windsurfClosingWords('All done.'), 'All done.');
    assert.equal(windsurfClosingWords('### Planner Response\n\n'), undefined);
  });

  it('a bad line is counted, an unfinished last line left for the next read, a payload of a kept event missing its field skipped', async () => {
    const good = JSON.stringify(p('pre_user_prompt', { user_prompt: 'hello' }));
    const file = write(
      dir,
      'bad.jsonl',
      `${good}\nnot json\n${JSON.stringify(p('post_write_code', { edits: [] }))}\n${JSON.stringify(p('post_run_command', { command_line: 'make' })).slice(0, 40)}`,
    );
    const r = await readWindsurf(file);
    assert.deepEqual(turns(r.events), [['user', 'hello']]);
    // The bad record is line 2; the unfinished line counts as malformed too, but is no bad record and is read again.
    assert.deepEqual(r.stats.bad_records, { count: 1, first: 2, unit: 'line' });
    assert.equal(r.stats.skipped, 1);
    assert.equal(r.end_offset, Buffer.byteLength(`${good}\nnot json\n${JSON.stringify(p('post_write_code', { edits: [] }))}\n`));
  });

  it('the hook keeps four events, checked and bounded, and says which it skips', () => {
    const long = 'x'.repeat(MAX_WINDSURF_TEXT_CHARS + 10);
    const prompt = checkWindsurfPayload(JSON.stringify(p('pre_user_prompt', { user_prompt: long, extra: 'dropped' })));
    assert.ok(prompt.ok);
    assert.equal([...(prompt.record.tool_info as { user_prompt: string }).user_prompt].length, MAX_WINDSURF_TEXT_CHARS);
    assert.equal('extra' in prompt.record.tool_info, false);
    assert.equal('model_name' in prompt.record, false);
    const response = checkWindsurfPayload(JSON.stringify(p('post_cascade_response', { response: `${long}THE END` })));
    assert.ok(response.ok);
    assert.match((response.record.tool_info as { response: string }).response, /^….*THE END$/);
    const many = Array.from({ length: MAX_WINDSURF_EDITS + 5 }, () => ({ old_string: 'a'.repeat(5000), new_string: 'b' }));
    const writeCode = checkWindsurfPayload(JSON.stringify(p('post_write_code', { file_path: `${WS}/a.py`, edits: many })));
    assert.ok(writeCode.ok);
    const kept = (writeCode.record.tool_info as { edits: Array<{ old_string: string }> }).edits;
    assert.equal(kept.length, MAX_WINDSURF_EDITS);
    assert.equal(kept[0].old_string.length, 1000);
    assert.deepEqual(checkWindsurfPayload(JSON.stringify(p('post_read_code', { file_path: 'x' }))), { ok: false, skipped: true, event: 'post_read_code' });
    for (const bad of [
      '',
      'nope',
      '[]',
      '{"agent_action_name":"SessionEnd","tool_info":{}}',
      JSON.stringify({ agent_action_name: 'post_write_code', trajectory_id: 't', tool_info: {} }),
    ]) {
      const c = checkWindsurfPayload(bad);
      assert.ok(!c.ok && !c.skipped, bad);
    }
  });

  it('log names: a plain trajectory id as it is, anything else hashed; the folder keyed by the workspace', () => {
    assert.equal(windsurfLogName('64944513-a64d-410b-af09-426251271f8b'), '64944513-a64d-410b-af09-426251271f8b.jsonl');
    assert.match(windsurfLogName('../../etc/passwd'), /^[0-9a-f]{40}\.jsonl$/);
    assert.match(windsurfLogName('..'), /^[0-9a-f]{40}\.jsonl$/);
    assert.notEqual(windsurfLogDir('/s', '/a'), windsurfLogDir('/s', '/b'));
  });

  it('appends whole lines under the lock, concurrently too, and stops at the size bound', async () => {
    const file = path.join(dir, 'state', 'w', 'log.jsonl');
    const lines = Array.from({ length: 20 }, (_, i) => `${JSON.stringify({ i, pad: 'z'.repeat(3000) })}\n`);
    const results = await Promise.all(lines.map((l) => appendHookLogLine(file, l, 1024 * 1024)));
    assert.ok(results.every((r) => r.status === 'appended'));
    const back = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { i: number }).i);
    assert.deepEqual(
      back.sort((a, b) => a - b),
      [...Array(20).keys()],
    );
    const size = Buffer.byteLength(lines.join(''));
    assert.deepEqual(await appendHookLogLine(file, lines[0], size + 10), { status: 'full', size });
    await assert.rejects(appendHookLogLine(file, 'two\nlines\n', 1e6), /one line/);
  });

  it("discovery: the workspace's newest log in its state folder, never another workspace's", async () => {
    const state = path.join(dir, 'discovery');
    const older = write(windsurfLogDir(state, WS), 'a.jsonl', jsonl([p('pre_user_prompt', { user_prompt: 'old' })]));
    const newer = write(windsurfLogDir(state, WS), 'b.jsonl', jsonl([p('pre_user_prompt', { user_prompt: 'new' })]));
    const other = write(windsurfLogDir(state, '/Users/user/other'), 'c.jsonl', jsonl([p('pre_user_prompt', { user_prompt: 'other' })]));
    utimesSync(older, new Date('2026-06-29T10:00:00Z'), new Date('2026-06-29T10:00:00Z'));
    utimesSync(newer, new Date('2026-06-29T11:00:00Z'), new Date('2026-06-29T11:00:00Z'));
    utimesSync(other, new Date('2026-06-29T12:00:00Z'), new Date('2026-06-29T12:00:00Z'));
    assert.deepEqual(
      (await findWindsurf(state, WS)).map((f) => [f.source, path.basename(f.file)]),
      [['windsurf', 'b.jsonl']],
    );
    assert.deepEqual(await findWindsurf(state, '/Users/user/none'), []);
  });

  it('discovery: a workspace named through a link, or a folder inside the repository, finds the log keyed by the real top', async () => {
    const state = path.join(dir, 'discovery-top');
    const repo = realpathSync(initRepo(tempDir('handoff-windsurf-repo-')));
    mkdirSync(path.join(repo, 'pkg', 'web'), { recursive: true });
    write(windsurfLogDir(state, repo), 't.jsonl', jsonl([p('pre_user_prompt', { user_prompt: 'in the repository' })]));
    const link = path.join(tempDir('handoff-windsurf-link-'), 'ws');
    symlinkSync(repo, link);
    for (const root of [repo, link, path.join(repo, 'pkg', 'web'), path.join(link, 'pkg')])
      assert.deepEqual(
        (await findWindsurf(state, root)).map((f) => path.basename(f.file)),
        ['t.jsonl'],
        root,
      );
    assert.deepEqual(await findWindsurf(state, tempDir('handoff-windsurf-elsewhere-')), []);
  });

  it('discovery: without a Cascade log in any workspace, a folder inside a repository runs no git (every handover looks here)', async () => {
    const repo = realpathSync(initRepo(tempDir('handoff-windsurf-nogit-')));
    mkdirSync(path.join(repo, 'pkg'), { recursive: true });
    // A `git` first on PATH that writes a line per run and then runs the real git.
    const bin = tempDir('handoff-windsurf-gitlog-');
    const calls = path.join(bin, 'calls');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${calls}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`;
    const runs = () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean).length : 0);
    try {
      const state = path.join(dir, 'discovery-nogit');
      mkdirSync(path.join(state, 'another-workspace-id'), { recursive: true });
      assert.deepEqual(await findWindsurf(state, path.join(repo, 'pkg')), []);
      assert.equal(runs(), 0, 'no Cascade log anywhere: git is not asked');
      write(windsurfLogDir(state, repo), 't.jsonl', jsonl([p('pre_user_prompt', { user_prompt: 'in the repository' })]));
      assert.deepEqual(
        (await findWindsurf(state, path.join(repo, 'pkg'))).map((f) => path.basename(f.file)),
        ['t.jsonl'],
      );
      assert.equal(runs(), 1, 'a log exists: git names the repository top once');
    } finally {
      process.env.PATH = savedPath;
    }
  });
});
