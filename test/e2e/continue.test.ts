/**
 * UI test of "Continue in …" in the real workbench: a handoff written before the window
 * opens (its summary full of shell syntax), the specialists exported as custom agents, and
 * recording executables named as every agent's CLI but Aider's (`claude`, `codex`, `gemini`,
 * `copilot`, `qwen`, `opencode`, `amp`, `kiro-cli`, `droid`, `goose`, and Cursor's `cursor`;
 * test/helpers/recordingAgent.ts), named by the settings `handoff.agents.<id>.path` —
 * machine-overridable settings, which 1.139 passes to the UI session's remote extension host
 * only from `Machine/settings.json` (test/host/codeServer.ts writes them there) — and first on
 * the server's PATH. From the handoff's context menu in the timeline the picker lists what this
 * machine has and names Aider as not found; "Claude Code", "Codex CLI" and "Qwen Code" each
 * start a terminal whose process is that executable, receiving exactly the receiving prompt as
 * one argument, in the workspace folder, with no shell reading it; "Copilot Chat" (where VS
 * Code has it: 1.139 builds it in) opens a new chat holding the prompt, not sent, and where it
 * is absent is not offered (1.99: Copy prompt). Cursor's link is opened by the link opener on
 * the extension host's PATH, which in the UI session is the login shell's, not a test's: it is
 * tested in the extension host (test/integration/continue.test.ts).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { createDemoRepository } from '../../scripts/demoRepo';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { exportAgents } from '../../src/engine/agents/exportAgents';
import { handover } from '../../src/engine/handover/handover';
import { buildPrompt } from '../../src/engine/receive/prompt';
import { waitFor, workspaceDir } from '../host/codeServer';
import { activeHost } from '../host/hosts';
import { hostPath } from '../host/install';
import { AGENT_EXECUTABLES, AGENT_IDS } from '../../src/core/agents/continueAgents';
import { readAgentRecord, writeRecordingAgent } from '../helpers/recordingAgent';
import { activityBarItem, notificationToast, screenshot, openWorkbench, runContextMenuItem, waitForQuickInput, type Session } from './workbench';

const SUMMARY = 'Shell syntax stays text: $(touch pwned) `touch pwned2`; echo "x" | tee y';

/** The handoff's row: its topic as the label; its status (taken up by the first agent started: accepted), then the specialist. */
const REVIEWER_ROW = /^token auth\s*(pending|accepted) · Quality reviewer · /;

function timelineRow(page: Page, text: string | RegExp): Locator {
  return page
    .locator('.pane', { has: page.locator('.pane-header', { hasText: /Handoff timeline/i }) })
    .locator('.monaco-list-row', { hasText: text })
    .first();
}

/** Opens "Continue in…" from the handoff's context menu and waits for the picker; resolves to its rows' text. */
async function openPicker(page: Page): Promise<string[]> {
  // The timeline redraws its row when the handoff's status changes (taking it up makes it accepted), which closes an
  // open context menu: runContextMenuItem opens it again until the picker shows.
  await runContextMenuItem(page, timelineRow(page, REVIEWER_ROW), 'Continue in…', () =>
    waitForQuickInput(page, 'Where the receiving specialist continues', 'the Continue in… picker', 0).then(
      () => true,
      () => false,
    ),
  );
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows.first().waitFor({ timeout: 10_000 });
  return Promise.all(
    Array.from({ length: await rows.count() }, (_, i) =>
      rows
        .nth(i)
        .innerText()
        .then((t) => t.replace(/\s+/g, ' ').trim()),
    ),
  );
}

/**
 * Opens the picker and chooses the row whose text holds `label` by typing it into the filter and pressing Enter. The
 * previous agent's terminal closes when its process exits and takes focus with it, which can hide an open picker (a
 * quick pick closes on focus loss; seen on 1.139 in CI): the picker is then opened again. Resolves to the rows' text as
 * the picker first showed them.
 */
async function choose(page: Page, label: string): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    const rows = await openPicker(page);
    try {
      await page.locator('.quick-input-widget input.input').fill(label, { timeout: 5000 });
      await page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor({ state: 'visible', timeout: 5000 });
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5000 });
      return rows;
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

/** The receiving prompt the engine builds for the handoff now, without taking it up. */
async function promptNow(folder: string, handoff: string): Promise<string> {
  const built = await buildPrompt({ handoff, take: false }, { workspaceRoot: folder });
  assert.equal(built.status, 'ok', built.status === 'error' ? built.message : '');
  return built.status === 'ok' ? built.prompt : '';
}

/** The prompt without the lines that name the moment it was built (run.timestamp, run.handoff_path). */
function timeless(prompt: string): string {
  return prompt.replace(/^- run\.(timestamp|handoff_path): .*$/gm, '- run.$1: <now>');
}

describe('UI: Continue in …', function () {
  let session: Session;
  let folder: string;
  let bin: string;
  let handoffId: string;
  /** The prompt while the handoff is still pending: what the first agent started gets (it takes the handoff up after building it). */
  let pendingPrompt: string;
  let failed = false;
  const hasChat = activeHost().id === 'current';

  before(async () => {
    folder = path.join(workspaceDir('continue'), 'todo-api');
    createDemoRepository(folder);
    const handed = HandoverOkSchema.parse(
      await handover({ specialist: 'quality_reviewer', topic: 'token auth', summary: SUMMARY, next_steps: ['Review the diff'] }, { workspaceRoot: folder }),
    );
    handoffId = handed.package.id;
    assert.equal((await exportAgents({ target: 'github' }, { workspaceRoot: folder })).status, 'ok');
    pendingPrompt = await promptNow(folder, handed.package.id);
    bin = mkdtempSync(path.join(tmpdir(), 'agents-'));
    const settings: Record<string, string> = {};
    for (const id of AGENT_IDS.filter((a) => a !== 'aider')) {
      const spec = AGENT_EXECUTABLES[id];
      writeRecordingAgent(bin, spec.executable, path.join(bin, `${spec.executable}.json`));
      settings[spec.setting] = path.join(bin, spec.executable);
    }
    session = await openWorkbench(
      folder,
      {
        name: 'continue',
        env: { PATH: `${bin}${path.delimiter}${hostPath()}` },
        settings,
      },
      { width: 1400, height: 900 },
    );
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await screenshot(session.page, `failure-continue-${this.currentTest.title}`, true).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close(failed);
  });

  it('the picker offers the agents found here and names those that are not', async () => {
    const { page } = session;
    await activityBarItem(page).click();
    await timelineRow(page, /^token auth\s*pending · Quality reviewer · /).waitFor({ timeout: 30_000 });
    // Collapse the Hand Over view: once its webview has drawn the draft bar, the timeline row sits low and its
    // context menu opens over the webview's frame, which on 1.99 takes the click meant for "Continue in…".
    const handOver = page.locator('.pane-header', { hasText: /^\s*Hand Over\s*$/i }).first();
    if ((await handOver.getAttribute('aria-expanded')) === 'true') await handOver.click();
    const rows = await openPicker(page);
    const all = [
      'Copilot Chat',
      'Cursor',
      'Claude Code',
      'Codex CLI',
      'Gemini CLI',
      'Aider',
      'GitHub Copilot CLI',
      'Qwen Code',
      'OpenCode',
      'Amp',
      'Kiro CLI',
      'Factory Droid',
      'Goose',
      'Copy prompt',
    ];
    // No chat model is signed in here: Copilot Chat could only ask to set one up, so it comes after the others and says why.
    const expected = [...all.filter((l) => l !== 'Copilot Chat' && l !== 'Aider'), ...(hasChat ? ['Copilot Chat'] : [])];
    // The list draws only the rows in view: those come in the expected order ("Claude Code A terminal in …" starts with its label) …
    const labels = rows.map((r) => all.find((l) => r.startsWith(l)) ?? r);
    assert.deepEqual(labels, expected.slice(0, labels.length), rows.join(' | '));
    await waitForQuickInput(page, 'not found on this machine: Aider)', 'Aider named as not found');
    // … and each one is a row of the picker: typed into its filter, it shows.
    const filter = page.locator('.quick-input-widget input.input');
    for (const label of expected) {
      await filter.fill(label);
      await page
        .locator('.quick-input-list .monaco-list-row', { hasText: label })
        .first()
        .waitFor({ state: 'visible', timeout: 5000 })
        .catch(() => {
          throw new Error(`the picker has no row "${label}"`);
        });
    }
    if (hasChat)
      assert.match(
        (await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Copilot Chat' }).first().innerText()) ?? '',
        /no chat model signed in/,
      );
    await filter.fill('Aider');
    await page.waitForTimeout(300);
    assert.equal(await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Aider' }).count(), 0, 'Aider, not found here, is not offered');
    await filter.fill('');
    await screenshot(page, 'continue-picker');
    await page.keyboard.press('Escape');
  });

  for (const [agent, label, argvOf] of [
    ['claude', 'Claude Code', (p: string) => ['--', p]],
    ['codex', 'Codex CLI', (p: string) => ['--', p]],
    ['qwen', 'Qwen Code', (p: string) => [`--prompt-interactive=${p}`]],
  ] as const) {
    it(`"${label}" starts a terminal whose process, ${agent}, receives exactly the prompt in the workspace folder`, async () => {
      const { page } = session;
      await choose(page, label);
      const seen = await waitFor(`${agent} to record its arguments`, 30_000, () => readAgentRecord(path.join(bin, `${agent}.json`)));
      // The prompt the engine builds for this handoff: the first agent's was built while it was pending (taking it up
      // comes after); by the later ones, the first had taken it up (accepted).
      const expected = agent === 'claude' ? pendingPrompt : await promptNow(folder, handoffId);
      assert.deepEqual(seen.argv.map(timeless), argvOf(timeless(expected)), 'the agent received exactly the receiving prompt');
      assert.ok(seen.argv.at(-1)!.includes(SUMMARY), 'the shell syntax arrived as text');
      assert.equal(seen.stdinIsTTY, true, "the agent is the terminal's process");
      assert.equal(realpathSync(seen.cwd), realpathSync(folder));
      for (const f of ['pwned', 'pwned2', 'y']) assert.equal(existsSync(path.join(folder, f)), false, `no shell ran the prompt (${f})`);
      // (The recording agent exits at once with 0, and VS Code then closes its terminal: its terminal-ness is stdinIsTTY above.)
    });
  }

  it(
    hasChat
      ? '"Copilot Chat" opens a new chat holding the prompt, not sent, in the custom agent'
      : 'without Copilot Chat, "Copy prompt" puts the prompt on the clipboard and says so',
    async () => {
      const { page } = session;
      const rows = await choose(page, hasChat ? 'Copilot Chat' : 'Copy prompt');
      assert.ok(rows[0].includes('Qwen Code'), `the last choice comes first: ${rows.join(' | ')}`);
      if (!hasChat) {
        await notificationToast(page, 'is on the clipboard: paste it into the receiving agent').waitFor({ timeout: 30_000 });
        return;
      }
      await notificationToast(page, 'Opened a new chat in the custom agent "Quality reviewer"').waitFor({ timeout: 30_000 });
      assert.match(await notificationToast(page, 'Opened a new chat').innerText(), /not sent/);
      // The input's visible lines, top to bottom, wrapped lines joined back: the beginning of the prompt, character for character.
      const input = page.locator('.interactive-input-part .monaco-editor .view-lines').first();
      const visible = async () =>
        (
          await input
            .evaluate((el) =>
              [...el.querySelectorAll('.view-line')]
                .map((l) => l as unknown as { style: { top: string }; textContent: string | null })
                .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
                .map((l) => l.textContent ?? '')
                .join(''),
            )
            .catch(() => '')
        ).replace(/\u00a0/g, ' ');
      const shown = await waitFor('the chat input to hold the prompt', 30_000, async () =>
        (await visible()).startsWith('# [quality reviewer] Quality reviewer') ? visible() : undefined,
      );
      const prompt = (await promptNow(folder, handoffId)).replace(/\n/g, '');
      assert.ok(shown.length > 200, `the input shows a good part of the prompt: ${shown}`);
      assert.ok(prompt.startsWith(shown), `the chat input holds the prompt:\n${shown}\n---\n${prompt.slice(0, shown.length)}`);
      assert.ok(shown.includes(`picking up handoff \`${handoffId}\``));
      const agentPicked = await page
        .locator('.interactive-input-part')
        .evaluate((part) =>
          [...part.querySelectorAll('*')].some((e) => !e.closest('.view-lines') && e.children.length === 0 && e.textContent?.trim() === 'Quality reviewer'),
        );
      assert.ok(agentPicked, 'the chat input shows the custom agent "Quality reviewer" picked');
      assert.equal(await page.locator('.interactive-item-container.interactive-request').count(), 0, 'nothing was sent');
      await screenshot(page, 'continue-copilot-chat');
    },
  );
});
