/**
 * UI test of a long session in the real workbench (issue 34): a Claude Code session of 40
 * requests that compacted once, with test runs, state-changing commands and a todo list, over 60
 * changed files. The panel opens drafted; its loss report says what the session log holds that
 * the handoff does not carry; choosing the *Small* budget beside the meter counts against 1,000
 * tokens and says what fit-to-budget shortens and cuts; after *Fit to budget* and *Hand Over*
 * the file on disk is within 1,000 tokens and still carries every changed path (rolled up into
 * folders), the test runs, the commands, the open todos and the agent's compaction summary,
 * marked as the agent's. The budget choice stays for the next handoff, and a custom number is
 * counted against as typed (a number that is none is refused, saying why). Screenshots:
 * `panel-long-session-default`, `panel-long-session-small`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createDemoRepository } from '../../scripts/demoRepo';
import { parseHandoff } from '../../src/core/handoff/parse';
import { waitFor, workspaceDir } from '../host/codeServer';
import { activityBarItem, clearNotifications, handOverFrame, notificationToast, openWorkbench, screenshot, type Session } from './workbench';

const REQUESTS = 40;
const OPEN_TODO = 'Document the token format in the README';
const COMMIT = `git add -A && git commit -m "$(cat <<'EOF'\nAuth: opaque tokens | bearer header; rotate keys\nEOF\n)"`;
/** Longer than the panel's send debounce (200 ms): the host holds the latest draft. */
const SEND_SETTLE_MS = 600;

/** Claude Code's project folder for a workspace: the path with `/`, `\`, `:` and `.` as `-`. */
function claudeProjectDir(root: string): string {
  return path.resolve(root).replace(/[\\/:.]/g, '-');
}

/** A 40-request Claude Code session of `workspace` in its transcript format, compacted halfway. */
function writeTranscript(projectsDir: string, workspace: string): void {
  const sessionId = '5b7e1a2c-3d4f-4a6b-8c9d-0e1f2a3b4c5d';
  const t0 = Date.now() - 60 * 60_000;
  let n = 0;
  let tool = 0;
  const base = () => ({
    isSidechain: false,
    userType: 'external',
    cwd: workspace,
    sessionId,
    version: '2.1.152',
    gitBranch: 'main',
    uuid: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    timestamp: new Date(t0 + n * 5000).toISOString(),
  });
  const user = (content: unknown, extra: object = {}) => ({ ...base(), type: 'user', message: { role: 'user', content }, ...extra });
  const assistant = (content: unknown[]) => ({
    ...base(),
    type: 'assistant',
    message: { model: 'claude-opus-4-7', id: `msg_${n}`, type: 'message', role: 'assistant', content, stop_reason: 'tool_use' },
  });
  const call = (name: string, input: object, result: { is_error: boolean; content: string }) => {
    const id = `toolu_${String(++tool).padStart(4, '0')}`;
    return [assistant([{ type: 'tool_use', id, name, input }]), user([{ type: 'tool_result', tool_use_id: id, ...result }])];
  };
  const todos = [
    { content: 'Add the auth middleware', status: 'completed', activeForm: 'Adding the auth middleware' },
    { content: 'Write the token endpoint tests', status: 'in_progress', activeForm: 'Writing the tests' },
    { content: OPEN_TODO, status: 'pending', activeForm: 'Documenting the token format' },
  ];
  const lines: unknown[] = [];
  for (let r = 0; r < REQUESTS; r++) {
    lines.push(user(`Request ${r + 1}: harden the token auth of route ${r} and keep the API as it is; ${'explain what changed and why. '.repeat(12)}`));
    lines.push(
      ...call(
        'Edit',
        { file_path: `${workspace}/src/routes/route-${r}.js`, old_string: 'a', new_string: 'b' },
        { is_error: false, content: 'The file has been updated.' },
      ),
    );
    lines.push(...call('Bash', { command: `rg "token|bearer" src/routes/route-${r}.js | head` }, { is_error: false, content: 'route.js: token' }));
    lines.push(
      ...call(
        'Bash',
        { command: 'npm test' },
        r % 4 === 1
          ? { is_error: true, content: 'Exit code 1\nTests: 1 failed, 9 passed, 10 total' }
          : { is_error: false, content: 'Tests: 10 passed, 10 total' },
      ),
    );
    lines.push(...call('Bash', { command: [COMMIT, 'npm install express-bearer-token', 'npm run build'][r % 3] }, { is_error: false, content: 'done' }));
    if (r === 5) lines.push(...call('TodoWrite', { todos }, { is_error: false, content: 'Todos have been modified successfully.' }));
    if (r === 20) {
      lines.push({
        ...base(),
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 158_000 },
      });
      lines.push(
        user(
          'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nSummary: routes 0–20 hardened; one flaky test in the token endpoint; pending: document the token format.',
          { isCompactSummary: true, isVisibleInTranscriptOnly: true },
        ),
      );
    }
    lines.push(assistant([{ type: 'text', text: `Route ${r} hardened; ${r % 4 === 1 ? 'one test fails' : 'the tests pass'}.` }]));
  }
  const dir = path.join(projectsDir, claudeProjectDir(workspace));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${sessionId}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

/** Screenshot of the side bar only (the webview is drawn over it). */
async function sidebarShot(page: Page, name: string): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  assert.ok(box, 'the side bar is visible');
  await screenshot(page, name, false, box);
}

describe('UI: the panel on a long session — its loss report, a small budget, the handoff within it (issue 34)', function () {
  let session: Session;
  let folder: string;
  let failed = false;

  before(async () => {
    const root = workspaceDir('long-session');
    folder = path.join(root, 'todo-api');
    createDemoRepository(folder);
    for (let i = 0; i < 60; i++) {
      const file = path.join(folder, i % 2 ? 'src' : 'test', 'generated', `part-${i}.js`);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, `module.exports = ${i};\n`);
    }
    const claudeConfig = mkdtempSync(path.join(root, 'claude-'));
    writeTranscript(path.join(claudeConfig, 'projects'), folder);
    session = await openWorkbench(
      folder,
      { name: 'long-session', env: { CLAUDE_CONFIG_DIR: claudeConfig }, settings: { 'workbench.colorTheme': 'Default Dark Modern' } },
      { width: 1400, height: 1500 },
    );
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await screenshot(session.page, `failure-long-session-${this.currentTest.title}`, true).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close(failed);
  });

  it('shows the loss report, counts against the small budget, and hands over every kind of fact within it', async () => {
    const { page } = session;
    await activityBarItem(page).click();
    const frame = handOverFrame(page);
    await frame.locator('#specialist').waitFor({ timeout: 30_000 });
    await page
      .locator('.pane-header', { hasText: /Handoff timeline/i })
      .first()
      .click();
    await frame.locator('#drafted-summary').waitFor({ timeout: 60_000 });
    await frame.locator('#specialist').click();
    await frame.locator('#specialist vscode-option', { hasText: 'Quality reviewer' }).first().click();
    const topic = frame.locator('#topic').locator('input').first();
    await topic.click();
    await topic.pressSequentially('token auth hardening', { delay: 5 });

    // The draft opens within the setting's 3,000 tokens: over it as drafted, it arrives with Fit
    // to budget on, the meter counting the fitted handoff; the loss report names what the
    // session log holds and the handoff does not.
    const count = frame.locator('#token-count');
    await waitFor('the fitted draft against the default 3,000 tokens', 30_000, async () =>
      /^[\d,]+ fitted \/ 3,000 tokens$/.test((await count.innerText()).trim()),
    );
    assert.ok(Number((await count.innerText()).replace(/[^\d/]/g, '').split('/')[0]) <= 3000, await count.innerText());
    assert.equal(await frame.locator('#token-count.over').count(), 0, 'no error colour on arrival');
    assert.equal(await frame.locator('#meter .note.error').count(), 0, 'no over-budget error on arrival');
    assert.match(
      (await frame.locator('#fit-note').innerText()).trim(),
      /^Fitted to the budget: .*cuts .*older requests.*; the full text is kept in the history file\.\s*Don't Fit$/s,
    );
    const report = frame.locator('#loss-report');
    await report.waitFor({ timeout: 15_000 });
    assert.match(
      await report.innerText(),
      /Not carried from the session log: [\d,]+ older requests?, .*[\d,]+ turns?; fit to budget would cut more \(below\)\./,
    );
    await page.waitForTimeout(500);
    await sidebarShot(page, 'panel-long-session-default');

    // The small budget, chosen beside the meter: still fitted, against 1,000 tokens, and what fitting it shortens and cuts.
    await frame.locator('#budget').click();
    await frame.locator('#budget vscode-option', { hasText: 'Small 1K' }).first().click();
    await waitFor('the fitted draft against 1,000 tokens', 30_000, async () => /^[\d,]+ fitted \/ 1,000 tokens$/.test((await count.innerText()).trim()));
    const fit = (await frame.locator('#fit-note').innerText()).trim();
    assert.match(
      fit,
      /^Fitted to the budget: shortens .*paths \(rolled up or without line counts\).*; cuts .*older requests.*; the full text is kept in the history file\./,
    );
    assert.equal(await frame.locator('#token-count.over').count(), 0, 'fitting reaches the budget');
    await page.waitForTimeout(500);
    await sidebarShot(page, 'panel-long-session-small');

    // Switched off, the draft is over the budget again, and Fit to Budget offers the same cuts.
    await frame.locator('#unfit').click();
    await frame
      .locator('#meter .note.error')
      .filter({ hasText: /Over the budget by [\d,]+ tokens?/ })
      .waitFor({ timeout: 15_000 });
    await frame.locator('#over-toggle').click();
    assert.match(
      await frame.locator('#fit-cuts').innerText(),
      /^Fit to budget shortens .*; cuts .*older requests.*, leaving [\d,]+ tokens; the full text is kept in the history file\.$/,
    );
    assert.equal(await frame.locator('#still-over').count(), 0, 'fitting reaches the budget');
    await frame.locator('#fit').click();
    await frame.locator('#fit-note').waitFor({ timeout: 15_000 });
    await page.waitForTimeout(SEND_SETTLE_MS);
    await frame.locator('#hand-over').click();
    await notificationToast(page, 'Handed over to [quality reviewer]').waitFor({ timeout: 60_000 });
    await clearNotifications(page);

    const dir = path.join(folder, '.handoff', 'handoffs');
    const files = readdirSync(dir).filter((f) => f.endsWith('.md'));
    assert.equal(files.length, 1);
    const parsed = parseHandoff(readFileSync(path.join(dir, files[0]), 'utf8'));
    assert.ok(parsed.ok, 'the handoff file parses');
    const { frontmatter, sections } = parsed.handoff;
    assert.equal(frontmatter.max_context_tokens, 1000);
    assert.ok(frontmatter.estimated_tokens <= 1000, `${frontmatter.estimated_tokens} tokens`);
    assert.ok(frontmatter.dropped.length > 0, 'the manifest says what was shortened and cut');
    const touched = sections.get('Touched files') ?? '';
    assert.match(touched, /^- `src\/generated\/` — 30 files \(\? 30\)$/m);
    assert.match(touched, /^- `test\/generated\/` — 30 files \(\? 30\)$/m);
    assert.match(sections.get('Tests run') ?? '', /`npm test` \(exit \d; ×40, 10 failed/);
    for (const c of ["git add -A && git commit -m \"$(cat <<'EOF' …", 'npm install express-bearer-token', 'npm run build'])
      assert.ok((sections.get('Commands run') ?? '').includes(c), c);
    assert.ok(!(sections.get('Commands run') ?? '').includes('rg "token'), 'a read-only search is no command run');
    assert.match(sections.get('Next steps') ?? '', new RegExp(OPEN_TODO));
    assert.match(sections.get('User requests') ?? '', /\*\*Request 40, the latest\*\*/);
    assert.match(
      sections.get('Compaction summary') ?? '',
      /^_(?:The agent's own summary when claude-code compacted the conversation \(auto, |claude-code compacted the conversation \(auto, [^)]+\); the agent's summary \([\d,]+ characters\) was cut to fit)/,
    );

    // The choice stays for the next handoff of the window; a custom number of tokens is counted against as typed.
    await waitFor('the meter of the new draft against 1,000 tokens', 30_000, async () => /\/ 1,000 tokens$/.test((await count.innerText()).trim()));
    await frame.locator('#budget').click();
    await frame.locator('#budget vscode-option', { hasText: 'Custom…' }).first().click();
    const custom = frame.locator('#budget-tokens').locator('input').first();
    await custom.waitFor({ timeout: 10_000 });
    await custom.selectText();
    await custom.pressSequentially('4,500', { delay: 5 });
    await waitFor('the meter against the custom 4,500 tokens', 30_000, async () => /\/ 4,500 tokens$/.test((await count.innerText()).trim()));
    await custom.selectText();
    await custom.pressSequentially('0', { delay: 5 });
    await frame.locator('#budget-problem', { hasText: 'A whole number of tokens, from 1 to 10,000,000.' }).waitFor({ timeout: 5000 });
  });
});
