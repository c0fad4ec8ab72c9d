/**
 * UI test of "Draft with …" in the real workbench (issue 15): the packaged extension beside the
 * test extension test/integration/chatModelExtension, which on VS Code 1.104 and later
 * registers a deterministic chat model at activation (HANDOFF_TEST_MODEL_ANSWER) and appends
 * every request it gets to a file (HANDOFF_TEST_MODEL_REQUESTS). The workspace is the demo
 * repository with an Aider chat history (its published Markdown format) whose latest request
 * carries a planted secret.
 *
 * Current host: the panel opens and labels its button with the model's name, and the model has
 * received nothing; the click sends one request without the secret, and the answer fills the
 * fields in the panel with its token cost. VS Code 1.99: the button says why no model is
 * available.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDemoRepository } from '../../scripts/demoRepo';
import { chatModelExtensionVsix } from '../host/chatModelExtension';
import { waitFor, workspaceDir } from '../host/codeServer';
import { HOST } from '../host/install';
import { FIXED_MODEL_ANSWER } from '../helpers/fakeChatModel';
import { fakeSecrets } from '../helpers/fakeSecrets';
import { activityBarItem, handOverFrame, openWorkbench, screenshot, type Session } from './workbench';

const secret = fakeSecrets().find((f) => f.kind === 'github-token')!.value;
const answer = JSON.parse(FIXED_MODEL_ANSWER) as { summary: string; decisions: string[]; failed_approaches: string[]; next_steps: string[] };
/** The message the action shows without a model (src/vscode/lm/chatModels.ts NO_MODEL_MESSAGE). */
const NO_MODEL = 'No language model is available in this VS Code: install or sign in to a chat model provider (e.g. GitHub Copilot)';

function requestsIn(file: string): string[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as string)
    : [];
}

describe('UI: Draft with the language model', function () {
  let session: Session;
  let requestsFile: string;
  let failed = false;

  before(async () => {
    const folder = path.join(workspaceDir('model-draft'), 'todo-api');
    createDemoRepository(folder);
    writeFileSync(
      path.join(folder, '.aider.chat.history.md'),
      `\n# aider chat started at 2026-03-01 10:00:00\n\n> aider --model gpt-4o  \n\n#### Add a /health endpoint to the todo API  \n\nI will add GET /health to \`src/server.ts\`.\n\n#### Deploy it with the token ${secret} once the tests pass  \n\nI will run the tests first.\n`,
    );
    requestsFile = path.join(path.dirname(folder), 'model-requests.jsonl');
    session = await openWorkbench(
      folder,
      {
        name: 'model-draft',
        extraVsix: [chatModelExtensionVsix()],
        env: { HANDOFF_TEST_MODEL_ANSWER: FIXED_MODEL_ANSWER, HANDOFF_TEST_MODEL_REQUESTS: requestsFile },
      },
      { width: 1400, height: 1000 },
    );
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await screenshot(session.page, `failure-model-draft-${this.currentTest.title}`, true).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close(failed);
  });

  it(
    HOST.id === 'current'
      ? 'sends nothing on opening; the click sends the redacted evidence once and fills the panel with its token cost'
      : 'says that no language model is available (VS Code 1.99)',
    async () => {
      const { page } = session;
      await activityBarItem(page).click();
      const frame = handOverFrame(page);
      await frame.locator('#specialist').waitFor({ timeout: 30_000 });
      const button = frame.locator('#draft-with-model');
      if (HOST.id !== 'current') {
        await button.waitFor({ timeout: 30_000 });
        await waitFor('the button to say why no model is available', 15_000, async () => (await button.getAttribute('title')) === NO_MODEL);
        await button.click({ force: true });
        await frame.locator('#model-draft-state', { hasText: NO_MODEL }).waitFor({ timeout: 15_000 });
        await screenshot(page, 'panel-model-draft-unavailable');
        return;
      }
      await frame.locator('#draft-with-model', { hasText: 'Draft with Handoff Test Model' }).waitFor({ timeout: 30_000 });
      // The panel is open, drafted from the session and labelled with the model: still no request.
      await page.waitForTimeout(2000);
      assert.deepEqual(requestsIn(requestsFile), [], 'the model received nothing before the click');

      await button.click();
      await frame.locator('#model-draft-state', { hasText: /Drafted by Handoff Test Model \(\d+ tokens sent, \d+ received\)/ }).waitFor({ timeout: 30_000 });
      const requests = requestsIn(requestsFile);
      assert.equal(requests.length, 1, 'one request on the click');
      assert.ok(!requests[0].includes(secret), 'the planted secret never reaches the model');
      assert.match(requests[0], /## Latest user request\n- Deploy it with the token \[REDACTED:github-token\] once the tests pass/);
      await waitFor(
        'the summary drafted by the model',
        10_000,
        async () => (await frame.locator('#summary').locator('textarea').first().inputValue()) === answer.summary,
      );
      // Each list item is a text field (webview/lists.ts): the model's items are their values.
      const items = (key: string) =>
        frame
          .locator(`#list-${key} li`)
          .locator('input, textarea')
          .evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
      assert.deepEqual(await items('decisions'), answer.decisions);
      assert.deepEqual(await items('failed_approaches'), answer.failed_approaches);
      assert.deepEqual(await items('next_steps'), answer.next_steps);
      await screenshot(page, 'panel-model-draft');
    },
  );
});
