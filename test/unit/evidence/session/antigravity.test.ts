/**
 * Google Antigravity conversations, read by content whatever the file's name. Every record is in the
 * shape Antigravity writes, as the real `agy` transcripts of srjn45/warden hold them
 * (`brain/<id>/.system_generated/logs/transcript.jsonl`, test/fixtures/real/SOURCES.md): steps
 * `{step_index, source, type, status, created_at, content?, tool_calls?}` with every tool argument
 * JSON-encoded into a string, the request inside `<USER_REQUEST>` beside `<ADDITIONAL_METADATA>` and
 * `<USER_SETTINGS_CHANGE>`, a RUN_COMMAND result with the runtime's "The command completed
 * successfully." (older) or an `exit_code` (newer builds); brain artifacts `task.md` with
 * `<name>.metadata.json` `{artifactType, summary, updatedAt, version}`.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { readByContent } from '../../../../src/evidence/session/agentReaders';
import { detectTranscript } from '../../../../src/evidence/session/detect';
import { findAntigravity } from '../../../../src/evidence/session/discoveryCliAgents';
import { antigravityRequestText, readAntigravity, toolArg } from '../../../../src/evidence/session/readers/antigravity';
import { antigravityWorkspaceFolders } from '../../../../src/evidence/session/readers/antigravityDb';
import type { SessionCommand, SessionEvent, SessionFileEdit, SessionPlan } from '../../../../src/core/session/events';
import { cleanupTempDirs, tempDir, write } from '../../../helpers/repo';

const jsonl = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const commands = (ev: SessionEvent[]) =>
  ev.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran, c.failed ?? false]);
const edits = (ev: SessionEvent[]) => ev.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => e.path);
const plans = (ev: SessionEvent[]) => ev.filter((e): e is SessionPlan => e.kind === 'plan').map((p) => p.items.map((i) => `${i.status}:${i.text}`));
const enc = (v: string) => JSON.stringify(v);

let idx = 0;
const step = (source: string, type: string, extra: object = {}) => ({
  step_index: idx++,
  source,
  type,
  status: 'DONE',
  created_at: `2026-07-05T09:14:${String(idx).padStart(2, '0')}Z`,
  ...extra,
});
const request = (text: string, extra = '') =>
  step('USER_EXPLICIT', 'USER_INPUT', {
    content: `<USER_REQUEST>\n${text}\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is: 2026-07-05T11:14:21+02:00.\n</ADDITIONAL_METADATA>${extra}`,
  });
const call = (name: string, args: Record<string, string>) =>
  step('MODEL', 'PLANNER_RESPONSE', { tool_calls: [{ name, args: { ...args, toolAction: enc('Doing it'), toolSummary: enc('Doing it') } }] });
const runResult = (output: string, extra: object = {}) =>
  step('MODEL', 'RUN_COMMAND', {
    content: `Created At: 2026-07-05T11:14:23+02:00\nCompleted At: 2026-07-05T11:14:24+02:00\n\n\t\t\t\t${output}`,
    ...extra,
  });

describe('Antigravity transcripts and brain folders', () => {
  after(cleanupTempDirs);

  it('tool arguments are JSON-encoded strings; a bare literal stays as written', () => {
    assert.equal(toolArg('"cat hello.txt"'), 'cat hello.txt');
    assert.equal(toolArg('"/w/a \\"b\\".ts"'), '/w/a "b".ts');
    assert.equal(toolArg('5000'), '5000');
    assert.equal(toolArg('not json'), 'not json');
    assert.equal(toolArg(7), undefined);
  });

  it("conversation_summaries.db's workspace_uris: a JSON array of file URIs (or paths), else one", () => {
    assert.deepEqual(antigravityWorkspaceFolders('["file:///workspace/project","file:///home/u/My%20App"]'), ['/workspace/project', '/home/u/My App']);
    assert.deepEqual(antigravityWorkspaceFolders('file:///srv/app'), ['/srv/app']);
    assert.deepEqual(antigravityWorkspaceFolders('["https://example.com/repo", ""]'), []);
  });

  it("the request is the <USER_REQUEST> body; a settings change or the IDE's metadata alone is none", () => {
    assert.equal(
      antigravityRequestText('<USER_REQUEST>\nfix the build\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nlocal time\n</ADDITIONAL_METADATA>'),
      'fix the build',
    );
    assert.equal(antigravityRequestText('plain prompt without wrapper'), 'plain prompt without wrapper');
    assert.equal(antigravityRequestText('<USER_SETTINGS_CHANGE>\nThe user changed setting `Model Selection`.\n</USER_SETTINGS_CHANGE>'), undefined);
  });

  it('reads requests, commands with their results, edits outside the brain folder, and the plan and walkthrough beside it', async () => {
    const ws = tempDir('handoff-ag-ws-');
    const home = tempDir('handoff-ag-home-');
    const brain = path.join(home, '.gemini', 'antigravity', 'brain', '0f0e1d2c-3b4a-4958-8776-655443322110');
    idx = 0;
    write(
      brain,
      '.system_generated/logs/transcript.jsonl',
      jsonl([
        request('add a health endpoint and run the tests'),
        step('SYSTEM', 'CONVERSATION_HISTORY'),
        step('MODEL', 'PLANNER_RESPONSE', { content: 'I will write the plan first.', thinking: 'Planning the endpoint.' }),
        call('write_to_file', { TargetFile: enc(path.join(brain, 'task.md')), CodeContent: enc('- [ ] a'), Overwrite: 'true' }),
        step('MODEL', 'CODE_ACTION', { content: 'Created file' }),
        call('replace_file_content', { TargetFile: enc(path.join(ws, 'src', 'server.ts')), TargetContent: enc('a'), ReplacementContent: enc('b') }),
        step('MODEL', 'CODE_ACTION', { content: 'The following changes were made' }),
        call('run_command', { CommandLine: enc('npm test'), Cwd: enc(ws), WaitMsBeforeAsync: '5000' }),
        runResult('Tests: 1 failed, 3 passed, 4 total', { exit_code: 1 }),
        call('run_command', { CommandLine: enc('npm test'), Cwd: enc(ws) }),
        runResult('The command completed successfully.\n\t\t\t\tOutput:\n\t\t\t\tTests: 4 passed, 4 total\r\n'),
        call('run_command', { CommandLine: enc('npm run dev'), Cwd: enc(ws) }),
        runResult('Tool is running as a background task with task id: t-12', { status: 'RUNNING' }),
        call('run_command', { CommandLine: enc('rm -rf dist'), Cwd: enc(ws) }),
        request('no, do not delete dist', '\n<USER_SETTINGS_CHANGE>\nThe user changed setting `Model Selection`.\n</USER_SETTINGS_CHANGE>'),
        step('USER_EXPLICIT', 'USER_INPUT', { content: '<USER_SETTINGS_CHANGE>\nThe user changed setting `Model Selection`.\n</USER_SETTINGS_CHANGE>' }),
        step('SYSTEM', 'CHECKPOINT', { content: '{{ CHECKPOINT 0 }}\n# User Requests\n1. add a health endpoint' }),
        step('MODEL', 'PLANNER_RESPONSE', { content: 'Understood, dist stays.' }),
      ]),
    );
    write(brain, 'task.md', '# Health endpoint\n\n- [x] Write the route\n- [/] Run the tests\n- [ ] Document the endpoint\n');
    write(
      brain,
      'task.md.metadata.json',
      JSON.stringify({ artifactType: 'ARTIFACT_TYPE_TASK', summary: 'Tasks', updatedAt: '2026-07-05T09:20:00.5Z', version: '3' }),
    );
    write(brain, 'walkthrough.md', '# Walkthrough\n\nAll tests pass after the fix.\n');
    write(
      brain,
      'walkthrough.md.metadata.json',
      JSON.stringify({ artifactType: 'ARTIFACT_TYPE_WALKTHROUGH', summary: 'Done', updatedAt: '2026-07-05T09:21:00Z' }),
    );

    const transcript = path.join(brain, '.system_generated', 'logs', 'transcript.jsonl');
    const r = await readAntigravity(transcript, { workspaceRoot: ws });
    assert.equal(r.error, undefined);
    assert.deepEqual(
      r.user_requests?.map((q) => q.text),
      ['add a health endpoint and run the tests', 'no, do not delete dist'],
    );
    assert.deepEqual(commands(r.events), [
      ['npm test', 1, true, false],
      ['npm test', 0, true, false],
      ['npm run dev', null, true, false],
      // No result before the user's next request: never ran.
      ['rm -rf dist', null, false, false],
    ]);
    assert.deepEqual(edits(r.events), ['src/server.ts']);
    assert.deepEqual(plans(r.events), [['completed:Write the route', 'in_progress:Run the tests', 'pending:Document the endpoint']]);
    const plan = r.events.find((e): e is SessionPlan => e.kind === 'plan');
    assert.equal(plan?.time, '2026-07-05T09:20:00.5Z');
    const said = r.events.filter((e) => e.kind === 'turn' && e.role === 'assistant').map((e) => (e.kind === 'turn' ? e.text : ''));
    assert.deepEqual(said, ['I will write the plan first.', 'Understood, dist stays.', '# Walkthrough\n\nAll tests pass after the fix.']);

    // Read on from where it stopped: nothing new, and the walkthrough is not said again.
    const again = await readAntigravity(transcript, { workspaceRoot: ws, fromOffset: r.end_offset });
    assert.equal(again.events.filter((e) => e.kind === 'turn').length, 0);
    assert.deepEqual(plans(again.events), plans(r.events));
  });

  it('is detected by content under any name, and a brain folder by its transcript or, without one, by its artifacts', async () => {
    const dir = tempDir('handoff-ag-detect-');
    idx = 0;
    write(dir, 'renamed.log', jsonl([request('hi'), step('MODEL', 'PLANNER_RESPONSE', { content: 'hello' })]));
    assert.equal((await detectTranscript(path.join(dir, 'renamed.log')))?.source, 'antigravity');

    const withTranscript = path.join(dir, 'b1');
    write(withTranscript, '.system_generated/logs/transcript.jsonl', jsonl([request('hi')]));
    const d1 = await detectTranscript(withTranscript);
    assert.equal(d1?.file, path.join(withTranscript, '.system_generated', 'logs', 'transcript.jsonl'));

    const artifactsOnly = path.join(dir, 'b2');
    write(artifactsOnly, 'task.md', '- [x] Reproduce the bug\n- [ ] Fix it\n');
    write(
      artifactsOnly,
      'task.md.metadata.json',
      JSON.stringify({ artifactType: 'ARTIFACT_TYPE_TASK', summary: 's', updatedAt: '2026-03-25T21:55:04.479591Z' }),
    );
    const read = await readByContent(artifactsOnly);
    assert.equal(read?.detected.source, 'antigravity');
    assert.equal(read?.read.error, undefined);
    assert.deepEqual(plans(read?.read.events ?? []), [['completed:Reproduce the bug', 'pending:Fix it']]);
    assert.deepEqual(read?.read.user_requests, [], 'the artifacts record no request');
    assert.match(read?.detected.note ?? '', /without a transcript: its task\.md \(the plan\) and walkthrough\.md .* not read$/);

    write(dir, 'b3/notes.md', '- [x] not an Antigravity artifact\n');
    assert.equal(await detectTranscript(path.join(dir, 'b3')), undefined);
  });

  it("discovers the workspace's newest conversation through history.jsonl, and nothing the history does not tie to it", async () => {
    const home = tempDir('handoff-ag-find-');
    const ws = tempDir('handoff-ag-find-ws-');
    const other = tempDir('handoff-ag-find-other-');
    const gemini = path.join(home, '.gemini');
    const cli = path.join(gemini, 'antigravity-cli');
    write(
      cli,
      'history.jsonl',
      jsonl([
        { display: 'first', timestamp: 1779000000000, workspace: ws, conversationId: 'c-old' },
        { display: 'elsewhere', timestamp: 1779000001000, workspace: other, conversationId: 'c-other' },
        { display: 'second', timestamp: 1779000002000, workspace: ws, conversationId: 'c-new' },
      ]),
    );
    idx = 0;
    for (const id of ['c-old', 'c-other', 'c-new']) write(cli, `brain/${id}/.system_generated/logs/transcript.jsonl`, jsonl([request(id)]));
    const { utimesSync } = await import('node:fs');
    utimesSync(path.join(cli, 'brain/c-old/.system_generated/logs/transcript.jsonl'), 1_700_000_000, 1_700_000_000);
    const found = await findAntigravity(gemini, ws);
    assert.deepEqual(
      found.map((f) => [f.source, f.file]),
      [['antigravity', path.join(cli, 'brain', 'c-new', '.system_generated', 'logs', 'transcript.jsonl')]],
    );
    // The IDE's own store names no folder in a plain file: nothing is guessed.
    write(gemini, 'antigravity/brain/c-ide/.system_generated/logs/transcript.jsonl', jsonl([request('ide')]));
    assert.deepEqual(await findAntigravity(gemini, tempDir('handoff-ag-none-')), []);
  });
});
