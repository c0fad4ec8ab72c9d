/**
 * "Draft with …" in the real extension host (issue 15): the action (src/vscode/lm) against a
 * deterministic chat model that the test extension test/integration/chatModelExtension
 * registers with `vscode.lm.registerLanguageModelChatProvider` (VS Code 1.104 and later), loaded
 * beside Specialist Handoff by test/host/run.ts. The evidence is the demo repository's git state
 * and a Claude Code transcript (its published JSONL format) carrying a planted secret.
 *
 * On the current host: listing the models (what the panel does when it opens) sends nothing;
 * the click sends one request, which carries the redacted evidence (the secret is absent);
 * the answer fills the four fields, with the token cost. On VS Code 1.99 (no API to register a
 * model, and no model without a provider): the action calls `vscode.lm.selectChatModels` and
 * reports that no model is available.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { collectDraftEvidence } from '../../src/engine/draft/draftSession';
import { NO_MODEL_MESSAGE, type LmApi } from '../../src/vscode/lm/chatModels';
import { LanguageModelDrafter, type ModelDraftState } from '../../src/vscode/lm/modelDrafter';
import { FIXED_MODEL_ANSWER, fakeTokenCount } from '../helpers/fakeChatModel';
import { fakeSecrets } from '../helpers/fakeSecrets';

const TEST_EXTENSION = 'handoff-test.handoff-test-chat-model';
const secret = fakeSecrets().find((f) => f.kind === 'github-token')!.value;

function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test workspace folder is open');
  return folder.uri.fsPath;
}

/** A Claude Code transcript of two user requests, the latest carrying the secret. */
function transcript(ws: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'handoff-lm-')), 'session.jsonl');
  const lines = [
    {
      type: 'user',
      message: { role: 'user', content: 'Add a /health endpoint to the todo API.' },
      timestamp: '2026-03-01T10:00:00.000Z',
      cwd: ws,
      sessionId: 's1',
      uuid: 'u1',
    },
    {
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Added GET /health in src/server.ts.' }] },
      timestamp: '2026-03-01T10:00:05.000Z',
      cwd: ws,
      sessionId: 's1',
      uuid: 'a1',
    },
    {
      type: 'user',
      message: { role: 'user', content: `Deploy it with the token ${secret} once the tests pass.` },
      timestamp: '2026-03-01T10:01:00.000Z',
      cwd: ws,
      sessionId: 's1',
      uuid: 'u2',
    },
  ];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

describe('Draft with the language model (src/vscode/lm)', function () {
  this.timeout(60_000);
  const [, minor] = vscode.version.split('.').map(Number);
  const log = vscode.window.createOutputChannel('Handoff test: draft with model', { log: true });
  const selects: unknown[] = [];
  /** vscode.lm, counting the listings: proves the action asks VS Code for its models. */
  const countingLm = (): LmApi => ({
    selectChatModels: (selector) => {
      selects.push(selector ?? null);
      return vscode.lm.selectChatModels(selector);
    },
  });
  let enabled = false;

  before(async () => {
    await vscode.extensions.getExtension('specialist-handoff.specialist-handoff')?.activate();
    const ext = vscode.extensions.getExtension(TEST_EXTENSION);
    assert.ok(ext, `the test extension ${TEST_EXTENSION} is loaded beside Specialist Handoff (test/host/run.ts)`);
    await ext.activate();
    enabled = (await vscode.commands.executeCommand<boolean>('handoffTestModel.enable', FIXED_MODEL_ANSWER)) === true;
    console.log(
      `[model draft] VS Code ${vscode.version}: test chat model ${enabled ? 'registered' : 'not registrable (no vscode.lm.registerLanguageModelChatProvider)'}`,
    );
  });

  after(async () => {
    await vscode.commands.executeCommand('handoffTestModel.disable');
    log.dispose();
  });

  it('registers the test model where VS Code has the API (1.104 and later), and not on 1.99', () => {
    assert.equal(enabled, minor >= 104, `VS Code ${vscode.version}`);
  });

  it('sends nothing when the panel opens or the button is labelled; the click sends the redacted evidence once and fills the fields (1.104 and later)', async () => {
    if (!enabled) {
      // VS Code 1.99: no model can be registered; the test below proves the action degrades.
      assert.ok(minor < 104);
      return;
    }
    const ws = workspaceRoot();
    // The panel opening (its button label asks describe()): no request.
    await vscode.commands.executeCommand('workbench.view.extension.handoff');
    await vscode.commands.executeCommand('handoff.handOver.focus');
    await new Promise((r) => setTimeout(r, 1500));
    const drafter = new LanguageModelDrafter(log, countingLm);
    const label = await drafter.describe();
    assert.deepEqual(label, { state: 'available', model: 'Handoff Test Model', message: undefined });
    assert.deepEqual(await vscode.commands.executeCommand<string[]>('handoffTestModel.requests'), [], 'no request before the click');

    const evidence = await collectDraftEvidence({ workspaceRoot: ws, sessionLog: { mode: transcript(ws), sources: ['claude-code'] } });
    const states: ModelDraftState[] = [];
    const result = await drafter.draft(evidence, (s) => states.push(s));
    const requests = await vscode.commands.executeCommand<string[]>('handoffTestModel.requests');
    assert.equal(requests.length, 1, 'one request on the click');
    const sent = requests[0];
    assert.ok(!sent.includes(secret), 'the planted secret never reaches the model');
    assert.match(sent, /## Latest user request\n- Deploy it with the token \[REDACTED:github-token\] once the tests pass\./);
    assert.match(sent, /src\/server\.ts/);
    assert.equal(result?.status, 'ok', JSON.stringify(result));
    assert.deepEqual(
      states.map((s) => s.state),
      ['running', 'done'],
    );
    const done = states[1];
    const answer = JSON.parse(FIXED_MODEL_ANSWER) as { summary: string; decisions: string[]; failed_approaches: string[]; next_steps: string[] };
    assert.equal(done.model, 'Handoff Test Model');
    assert.equal(done.fields?.summary.text, answer.summary);
    assert.deepEqual(
      done.fields?.decisions.map((d) => d.text),
      answer.decisions,
    );
    assert.deepEqual(
      done.fields?.failed_approaches.map((d) => d.text),
      answer.failed_approaches,
    );
    assert.deepEqual(
      done.fields?.next_steps.map((d) => d.text),
      answer.next_steps,
    );
    assert.equal(done.fields?.decisions[0].source.reader, 'model:handoff-test/handoff-test-draft');
    assert.equal(done.input_tokens, fakeTokenCount(sent), 'input tokens counted by the model before sending');
    assert.equal(done.output_tokens, fakeTokenCount(FIXED_MODEL_ANSWER));
    assert.match(
      done.message ?? '',
      /^Drafted by Handoff Test Model: \d+ tokens sent, \d+ received\. Redacted before sending: github-token ×\d+\. Review the fields: nothing is written until you hand over\.$/,
    );
    assert.ok(selects.length >= 2, 'the action listed the models through vscode.lm.selectChatModels');
  });

  it('says that no language model is available where VS Code offers none (1.99, or 1.139 without the test model), after asking selectChatModels', async () => {
    if (enabled) await vscode.commands.executeCommand('handoffTestModel.disable');
    try {
      const models = await vscode.lm.selectChatModels();
      assert.deepEqual(
        models.map((m) => m.id),
        [],
        'this host offers no chat model of its own',
      );
      const drafter = new LanguageModelDrafter(log, countingLm);
      const before = selects.length;
      assert.deepEqual(await drafter.describe(), { state: 'unavailable', message: NO_MODEL_MESSAGE });
      const states: ModelDraftState[] = [];
      const evidence = await collectDraftEvidence({ workspaceRoot: workspaceRoot(), sessionLog: { mode: 'none' } });
      assert.equal(await drafter.draft(evidence, (s) => states.push(s)), undefined);
      assert.deepEqual(states, [{ state: 'unavailable', message: NO_MODEL_MESSAGE }]);
      assert.equal(selects.length, before + 2, 'describe() and the click each asked vscode.lm.selectChatModels');
      assert.equal(NO_MODEL_MESSAGE, 'No language model is available in this VS Code: install or sign in to a chat model provider (e.g. GitHub Copilot)');
    } finally {
      if (enabled) await vscode.commands.executeCommand('handoffTestModel.enable', FIXED_MODEL_ANSWER);
    }
  });
});
