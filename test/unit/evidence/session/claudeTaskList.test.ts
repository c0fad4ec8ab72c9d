/**
 * Claude Code's task list on disk (`<config>/tasks/<list id>/<n>.json`): read in Claude Code's own shape (two-space
 * JSON as its TaskCreate writes it, `.lock` and `.highwatermark` beside the tasks), and made the session's plan when
 * it changed no earlier than the transcript's own plan: the session's list (named by the transcript's session id) or
 * the list shared through CLAUDE_CODE_TASK_LIST_ID in the workspace's Claude Code settings.
 */
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { claudeSessionTaskList, readClaudeTaskList, taskListFolderName } from '../../../../src/evidence/session/claudeTaskList';
import { collectSessionLog } from '../../../../src/evidence/session/collectSessionLog';
import { claudeProjectDirName } from '../../../../src/evidence/session/discovery';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const FIX = path.join(__dirname, '..', '..', '..', 'fixtures', 'session-logs', 'plans');
/** The session of claude-code-tasks.jsonl, whose transcript's last plan call is at 08:09 and leaves tasks 1, 2 and 4. */
const SESSION = '9e1f2a3b-4c5d-4e6f-8a7b-1c2d3e4f5a6b';
const AFTER_TRANSCRIPT = new Date('2026-03-04T08:30:00.000Z');
const BEFORE_LAST_CALL = new Date('2026-03-04T08:05:00.000Z');

interface Task {
  id: string;
  subject: string;
  status: string;
  activeForm?: string;
  owner?: string;
  metadata?: Record<string, unknown>;
}

/** A task list folder as Claude Code leaves it, every file's time set to `at`. */
function writeList(folder: string, tasks: readonly (Task | { raw: string; name: string })[], at: Date): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, '.lock'), '');
  writeFileSync(path.join(folder, '.highwatermark'), String(tasks.length + 1));
  for (const t of tasks) {
    const name = 'raw' in t ? t.name : `${t.id}.json`;
    const text = 'raw' in t ? t.raw : JSON.stringify({ description: `Do: ${t.subject}`, blocks: [], blockedBy: [], ...t }, null, 2);
    writeFileSync(path.join(folder, name), text);
    utimesSync(path.join(folder, name), at, at);
  }
  utimesSync(folder, at, at);
}

/** Claude Code's layout under a config folder: the transcript (named by its session id) and its task list. */
function claudeHome(ws: string): { config: string; transcript: string; list: string } {
  const config = tempDir('handoff-claude-config-');
  const project = path.join(config, 'projects', claudeProjectDirName(ws));
  mkdirSync(project, { recursive: true });
  const transcript = path.join(project, `${SESSION}.jsonl`);
  copyFileSync(path.join(FIX, 'claude-code-tasks.jsonl'), transcript);
  return { config, transcript, list: path.join(config, 'tasks', SESSION) };
}

const shown = (items: readonly { status: string; text: string }[] | undefined) => (items ?? []).map((i) => `${i.status}: ${i.text}`);

describe("Claude Code's task list on disk", () => {
  after(cleanupTempDirs);

  it("reads a list in id order with each task's id and status; a task the schema rejects or marked _internal is not in it", async () => {
    const folder = path.join(tempDir(), 'list');
    const at = new Date('2026-03-04T09:00:00.000Z');
    writeList(
      folder,
      [
        { id: '10', subject: 'Tag the release', status: 'pending' },
        { id: '2', subject: 'Render items as RSS 2.0', status: 'in_progress', activeForm: 'Rendering items', owner: 'team-lead' },
        { id: '1', subject: 'Add the RSS route', status: 'completed' },
        { id: '3', subject: 'builder-T0', status: 'completed', metadata: { _internal: true } },
        // An id that is a number, and a status Claude Code does not write: its own schema drops both files.
        { raw: JSON.stringify({ id: 4, subject: 'Numeric id', description: '', status: 'pending', blocks: [], blockedBy: [] }), name: '4.json' },
        { raw: JSON.stringify({ id: '5', subject: 'Odd status', description: '', status: 'blocked', blocks: [], blockedBy: [] }), name: '5.json' },
        { raw: '{"id": "6", "subj', name: '6.json' },
      ],
      at,
    );
    const r = await readClaudeTaskList(folder);
    assert.deepEqual(shown(r?.plan.items), ['completed: Add the RSS route', 'in_progress: Render items as RSS 2.0', 'pending: Tag the release']);
    assert.deepEqual(
      r?.plan.items.map((i) => i.id),
      ['1', '2', '10'],
    );
    assert.equal(r?.plan.tool, 'TaskList');
    assert.equal(r?.plan.time, at.toISOString());
    assert.equal(r?.changedMs, at.getTime());
  });

  it('a folder with only .lock and .highwatermark, or none, is no list', async () => {
    const folder = path.join(tempDir(), 'empty');
    writeList(folder, [], new Date());
    assert.equal(await readClaudeTaskList(folder), undefined);
    assert.equal(await readClaudeTaskList(path.join(folder, 'missing')), undefined);
  });

  it('names the folder as Claude Code does: every character but letters, digits, _ and - becomes -', () => {
    assert.equal(taskListFolderName('my project/v2.0'), 'my-project-v2-0');
    assert.equal(taskListFolderName(SESSION), SESSION);
  });

  it("the session's list, changed after the transcript's last plan call, is the plan; its folder is the plan's source", async () => {
    const ws = tempDir();
    const { transcript, list } = claudeHome(ws);
    writeList(
      list,
      [
        { id: '1', subject: 'Add the RSS route', status: 'completed' },
        { id: '2', subject: 'Render items as RSS 2.0', status: 'completed' },
        { id: '4', subject: 'Write the changelog entry for 1.4', status: 'in_progress' },
        { id: '5', subject: 'Publish the feed URL', status: 'pending' },
      ],
      AFTER_TRANSCRIPT,
    );
    const r = await collectSessionLog({ workspaceRoot: ws, mode: transcript });
    assert.deepEqual(shown(r.plan?.items), [
      'completed: Add the RSS route',
      'completed: Render items as RSS 2.0',
      'in_progress: Write the changelog entry for 1.4',
      'pending: Publish the feed URL',
    ]);
    assert.deepEqual(r.plan?.provenance, { reader: 'claude-code', file: list, time: AFTER_TRANSCRIPT.toISOString() });
    // Remembered with its ids, so a later read of only new lines applies TaskUpdate to it.
    assert.deepEqual(
      r.next_state.files[transcript]?.plan?.items.map((i) => i.id),
      ['1', '2', '4', '5'],
    );
  });

  it('found with the transcript under the projects folder set in locations: the tasks folder beside it is read', async () => {
    const ws = tempDir();
    const { config, list } = claudeHome(ws);
    writeList(list, [{ id: '1', subject: 'Add the RSS route', status: 'completed' }], AFTER_TRANSCRIPT);
    const r = await collectSessionLog({ workspaceRoot: ws, sources: ['claude-code'], locations: { 'claude-code': path.join(config, 'projects') } });
    assert.equal(r.transcripts.length, 1);
    assert.deepEqual(shown(r.plan?.items), ['completed: Add the RSS route']);
    assert.equal(r.plan?.provenance.file, list);
  });

  it('a later read of only new lines applies their TaskUpdate to the list read from disk, by task id', async () => {
    const ws = tempDir();
    const { transcript, list } = claudeHome(ws);
    writeList(
      list,
      [
        { id: '1', subject: 'Add the RSS route', status: 'completed' },
        { id: '2', subject: 'Render items as RSS 2.0', status: 'completed' },
        { id: '5', subject: 'Publish the feed URL', status: 'pending' },
      ],
      AFTER_TRANSCRIPT,
    );
    const first = await collectSessionLog({ workspaceRoot: ws, mode: transcript });
    assert.equal(first.plan?.provenance.file, list);
    const line = (o: object) => `${JSON.stringify({ isSidechain: false, cwd: '/home/dev/blog', sessionId: SESSION, ...o })}\n`;
    appendFileSync(
      transcript,
      line({
        type: 'assistant',
        uuid: 'u90',
        timestamp: '2026-03-04T09:00:00.000Z',
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_tu9', name: 'TaskUpdate', input: { taskId: '5', status: 'in_progress' } }] },
      }) +
        line({
          type: 'user',
          uuid: 'u91',
          timestamp: '2026-03-04T09:00:01.000Z',
          message: { role: 'user', content: [{ tool_use_id: 'toolu_tu9', type: 'tool_result', content: 'Updated task #5 status' }] },
        }),
    );
    const second = await collectSessionLog({ workspaceRoot: ws, mode: transcript, state: first.next_state });
    assert.deepEqual(shown(second.plan?.items), ['completed: Add the RSS route', 'completed: Render items as RSS 2.0', 'in_progress: Publish the feed URL']);
    assert.deepEqual(second.plan?.provenance, { reader: 'claude-code', file: transcript, time: '2026-03-04T09:00:00.000Z' });
  });

  it("a list older than the transcript's last plan call leaves the transcript's plan", async () => {
    const ws = tempDir();
    const { transcript, list } = claudeHome(ws);
    writeList(list, [{ id: '1', subject: 'Add the RSS route', status: 'in_progress' }], BEFORE_LAST_CALL);
    const r = await collectSessionLog({ workspaceRoot: ws, mode: transcript });
    assert.deepEqual(shown(r.plan?.items), [
      'completed: Add the RSS route',
      'in_progress: Render items as RSS 2.0',
      'pending: Write the changelog entry for 1.4',
    ]);
    assert.equal(r.plan?.provenance.file, transcript);
  });

  it("the list shared through CLAUDE_CODE_TASK_LIST_ID in the workspace's .claude/settings.json is the session's", async () => {
    const ws = tempDir();
    const { config, transcript } = claudeHome(ws);
    mkdirSync(path.join(ws, '.claude'));
    writeFileSync(path.join(ws, '.claude', 'settings.json'), JSON.stringify({ env: { CLAUDE_CODE_TASK_LIST_ID: 'blog feed' } }));
    const shared = path.join(config, 'tasks', 'blog-feed');
    writeList(shared, [{ id: '1', subject: 'Ship the feed', status: 'in_progress' }], AFTER_TRANSCRIPT);
    const found = await claudeSessionTaskList(transcript, ws);
    assert.equal(found?.folder, shared);
    const r = await collectSessionLog({ workspaceRoot: ws, mode: transcript });
    assert.deepEqual(shown(r.plan?.items), ['in_progress: Ship the feed']);
  });

  it('a transcript not named by a session id (a sub-agent, a copy) has no task list', async () => {
    const ws = tempDir();
    const { config, list } = claudeHome(ws);
    writeList(list, [{ id: '1', subject: 'Add the RSS route', status: 'in_progress' }], AFTER_TRANSCRIPT);
    const sub = path.join(config, 'projects', claudeProjectDirName(ws), SESSION, 'subagents', 'agent-a1.jsonl');
    mkdirSync(path.dirname(sub), { recursive: true });
    copyFileSync(path.join(FIX, 'claude-code-tasks.jsonl'), sub);
    assert.equal(await claudeSessionTaskList(sub, ws), undefined);
  });
});
