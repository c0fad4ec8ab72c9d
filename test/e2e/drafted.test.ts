/**
 * UI test of issue 15 in the real workbench: with a recorded Claude Code session (a
 * transcript in Claude Code's own JSONL format — user messages, a TodoWrite plan, a Bash
 * install — where the Claude Code reader finds it), the "Hand Over to Specialist" panel opens
 * with its fields drafted and marked, each drafted item's source on hover and on keyboard
 * focus, the loss report beside the meter; the test edits the summary and hands over, and
 * the handoff file holds the edit, the drafted rest, and lists in `drafted` the fields not
 * edited. Takes the README's screenshot of the drafted panel (dark theme).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { createDemoRepository } from '../../scripts/demoRepo';
import { parseHandoff } from '../../src/core/handoff/parse';
import { workspaceDir } from '../host/codeServer';
import { activityBarItem, clearNotifications, handOverFrame, notificationToast, openWorkbench, screenshot, type Session } from './workbench';

const REQUEST = 'Add bearer-token auth to the todo API';
const CORRECTION = 'Use opaque random tokens, not JWTs';
const DONE = 'Add the auth middleware';
const IN_PROGRESS = 'Write the token endpoint tests';
const PENDING = 'Document the token format in the README';
const MY_SUMMARY = 'Auth middleware is in; the endpoint tests are half written.';
/** Longer than the panel's send debounce (200 ms): the host holds the latest draft. */
const SEND_SETTLE_MS = 600;

/** Claude Code's project folder for a workspace: the path with `/`, `\`, `:` and `.` as `-` (as Claude Code names it). */
function claudeProjectDir(root: string): string {
  return path.resolve(root).replace(/[\\/:.]/g, '-');
}

/**
 * A Claude Code session in its transcript format (one JSON object per line: `user` and
 * `assistant` messages, `tool_use` blocks answered by `tool_result` blocks): the request, a
 * TodoWrite plan (one done, one in progress, one pending), an install through Bash, the
 * user's correction, and the agent's last words. Times are the last minutes.
 */
function writeTranscript(projectsDir: string, workspace: string): string {
  const sessionId = '7d0c2f4e-9a51-4d8e-b6a3-2f1e0c9b8a77';
  const t0 = Date.now() - 10 * 60_000;
  const at = (s: number) => new Date(t0 + s * 1000).toISOString();
  const base = { isSidechain: false, userType: 'external', cwd: workspace, sessionId, version: '2.1.152', gitBranch: 'main' };
  let n = 0;
  const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  const user = (content: unknown, s: number, extra: object = {}) => ({
    ...base,
    type: 'user',
    message: { role: 'user', content },
    uuid: uuid(),
    timestamp: at(s),
    ...extra,
  });
  const assistant = (content: unknown[], s: number) => ({
    ...base,
    type: 'assistant',
    message: { model: 'claude-opus-4-7', id: `msg_${n}`, type: 'message', role: 'assistant', content, stop_reason: 'tool_use' },
    uuid: uuid(),
    timestamp: at(s),
  });
  const todos = [
    { content: DONE, status: 'completed', activeForm: 'Adding the auth middleware' },
    { content: IN_PROGRESS, status: 'in_progress', activeForm: 'Writing the token endpoint tests' },
    { content: PENDING, status: 'pending', activeForm: 'Documenting the token format' },
  ];
  const lines = [
    user(REQUEST, 0),
    assistant(
      [
        { type: 'text', text: 'I will plan the work first.' },
        { type: 'tool_use', id: 'toolu_01', name: 'TodoWrite', input: { todos } },
      ],
      5,
    ),
    user(
      [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01',
          content: 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.',
        },
      ],
      6,
      { toolUseResult: { oldTodos: [], newTodos: todos } },
    ),
    assistant(
      [{ type: 'tool_use', id: 'toolu_02', name: 'Bash', input: { command: 'npm install express-bearer-token', description: 'Install the token parser' } }],
      20,
    ),
    user([{ type: 'tool_result', tool_use_id: 'toolu_02', content: 'added 1 package in 2s', is_error: false }], 24, {
      toolUseResult: { stdout: 'added 1 package in 2s', stderr: '', interrupted: false },
    }),
    user(CORRECTION, 60),
    assistant([{ type: 'text', text: 'Switched to opaque tokens; the middleware is done and the endpoint tests are next.' }], 70),
  ];
  const dir = path.join(projectsDir, claudeProjectDir(workspace));
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${sessionId}.jsonl`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

async function valueOf(frame: FrameLocator, id: string): Promise<string> {
  return frame.locator(`#${id}`).locator('input, textarea').first().inputValue();
}

/** Screenshot of the side bar only (the webview is drawn over it). */
async function sidebarShot(page: Page, name: string): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  assert.ok(box, 'the side bar is visible');
  await screenshot(page, name, false, box);
}

describe('UI: the panel arrives drafted from the session (issue 15)', function () {
  let session: Session;
  let folder: string;
  let transcript: string;
  let failed = false;

  before(async () => {
    const root = workspaceDir('drafted');
    folder = path.join(root, 'todo-api');
    createDemoRepository(folder);
    // Claude Code's config folder for this server only (CLAUDE_CONFIG_DIR, as Claude Code reads it).
    const claudeConfig = mkdtempSync(path.join(root, 'claude-'));
    transcript = writeTranscript(path.join(claudeConfig, 'projects'), folder);
    session = await openWorkbench(
      folder,
      {
        name: 'drafted',
        env: { CLAUDE_CONFIG_DIR: claudeConfig },
        settings: { 'workbench.colorTheme': 'Default Dark Modern', 'handoff.includeRecentTurns': 2 },
      },
      { width: 1400, height: 1500 },
    );
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await screenshot(session.page, `failure-drafted-${this.currentTest.title}`, true).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close(failed);
  });

  it('opens with the fields drafted and marked; the edited summary and the drafted rest are handed over', async () => {
    const { page } = session;
    await activityBarItem(page).click();
    const frame = handOverFrame(page);
    await frame.locator('#specialist').waitFor({ timeout: 30_000 });
    await page
      .locator('.pane-header', { hasText: /Handoff timeline/i })
      .first()
      .click();

    // Drafted and marked: the summary, Done, Next steps (in plan order, the one in progress
    // first and marked), the user's requests verbatim, the install among the commands run.
    await frame.locator('#drafted-summary').waitFor({ timeout: 60_000 });
    for (const f of ['completed', 'next_steps', 'user_requests', 'commands_run']) {
      await frame.locator(`#drafted-${f}`).waitFor({ timeout: 10_000 });
    }
    assert.match(await frame.locator('#drafted-summary').innerText(), /Drafted/);
    assert.match(await frame.locator('#drafted-summary .sr-only').innerText(), /drafted from the session/i, 'the mark says it in words too');
    const summary = await valueOf(frame, 'summary');
    assert.ok(summary.length > 0, 'the summary is drafted');
    const steps = await frame.locator('#list-next_steps li input').evaluateAll((els) => els.map((e) => (e as { value: string }).value));
    assert.deepEqual(steps, [`(in progress) ${IN_PROGRESS}`, PENDING], 'next steps are the open todos in plan order');
    const done = await frame.locator('#list-completed li input').evaluateAll((els) => els.map((e) => (e as { value: string }).value));
    assert.deepEqual(done, [DONE]);
    const requests = await frame.locator('#list-user_requests li .quote').allInnerTexts();
    assert.deepEqual(requests, [REQUEST, CORRECTION], "the user's requests, verbatim, oldest first");
    assert.match(await frame.locator('#list-commands_run').innerText(), /npm install express-bearer-token/);
    assert.match(await frame.locator('#draft-status').innerText(), /drafted from the session/);
    await frame.locator('#draft-with-model').waitFor({ timeout: 5000 });
    // The loss report beside the meter: two recent turns are kept (handoff.includeRecentTurns), the older ones are not carried.
    await frame
      .locator('#loss-report', { hasText: /Not carried from the session log: .*\d+ turns?; fit to budget cuts nothing\./ })
      .waitFor({ timeout: 15_000 });

    // The source of a drafted item, reached by the keyboard: the tooltip shows on focus.
    const tip = frame.locator('#list-next_steps li').first().locator('.source');
    await tip.focus();
    const tooltip = tip.locator('.tip');
    await tooltip.waitFor({ state: 'visible', timeout: 5000 });
    // The time in the user's own zone and words (the browser's locale: "Dec 5, 2026, 2:03 PM"), not raw UTC.
    const source = await tooltip.innerText();
    assert.match(
      source,
      new RegExp(`^claude-code · ${path.basename(transcript).replace('.', '\\.')} · .*\\b${new Date().getFullYear()}\\b.*\\d:\\d\\d`),
      source,
    );
    assert.doesNotMatch(source, /UTC|\d{4}-\d\d-\d\dT/, source);
    await page.waitForTimeout(500);
    await sidebarShot(page, 'panel-drafted');

    // Pick the specialist, type the topic, edit the summary: its mark goes, the rest stay.
    await frame.locator('#specialist').click();
    await frame.locator('#specialist vscode-option', { hasText: 'Quality reviewer' }).first().click();
    const topic = frame.locator('#topic').locator('input').first();
    await topic.click();
    await topic.pressSequentially('token auth', { delay: 5 });
    const box = frame.locator('#summary').locator('textarea').first();
    await box.fill(MY_SUMMARY);
    await frame.locator('#drafted-summary').waitFor({ state: 'detached', timeout: 5000 });
    assert.equal(await frame.locator('#drafted-next_steps').count(), 1, 'the fields not edited stay drafted');
    await page.waitForTimeout(SEND_SETTLE_MS);

    // Nothing was written by drafting: only "Hand over" writes.
    const handoffs = path.join(folder, '.handoff', 'handoffs');
    assert.equal(existsSync(handoffs) ? readdirSync(handoffs).length : 0, 0, 'no handoff before the click');
    await frame.locator('#hand-over').click();
    await notificationToast(page, 'Handed over to [quality reviewer]').waitFor({ timeout: 30_000 });
    await clearNotifications(page);

    const dir = handoffs;
    const files = readdirSync(dir).filter((f) => f.endsWith('.md'));
    assert.equal(files.length, 1);
    const text = readFileSync(path.join(dir, files[0]), 'utf8');
    const parsed = parseHandoff(text);
    assert.ok(parsed.ok, 'the handoff file parses');
    const { frontmatter, sections } = parsed.handoff;
    assert.equal(sections.get('Summary')?.trim(), MY_SUMMARY, 'the edit');
    assert.match(sections.get('Next steps') ?? '', new RegExp(`1\\. \\(in progress\\) ${IN_PROGRESS}\\s+2\\. ${PENDING}`), 'the drafted next steps');
    assert.match(sections.get('Done') ?? '', new RegExp(DONE));
    assert.match(sections.get('User requests') ?? '', new RegExp(CORRECTION));
    assert.match(sections.get('Commands run') ?? '', /npm install express-bearer-token/);
    const drafted = (frontmatter as { drafted?: string[] }).drafted;
    assert.deepEqual(
      [...(drafted ?? [])].sort(),
      ['commands_run', 'completed', 'next_steps', 'user_requests'],
      'drafted lists the fields not edited (the summary was)',
    );
  });
});
