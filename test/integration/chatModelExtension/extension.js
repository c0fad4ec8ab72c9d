// @ts-check
/**
 * Test only (never shipped): a deterministic chat model for the host tests of "Draft with …"
 * (test/integration/modelDraft.test.ts). Loaded into the test host beside Specialist Handoff
 * as a second extensionDevelopmentPath (test/host/run.ts).
 *
 * Registers nothing until a test asks: `handoffTestModel.enable(answer)` registers the vendor
 * `handoff-test`'s provider with `vscode.lm.registerLanguageModelChatProvider` (VS Code 1.104
 * and later; the vendor is declared in package.json `languageModelChatProviders`) and returns
 * true, or false where this VS Code has no such API (1.99). The model answers `answer` to every
 * request and records each request's text; `handoffTestModel.requests` returns them,
 * `handoffTestModel.disable` unregisters the provider (the other suites see no model again).
 * Tokens: one per four characters, rounded up.
 *
 * For the UI test (test/e2e/modelDraft.test.ts), where no test code runs in the extension host:
 * with HANDOFF_TEST_MODEL_ANSWER set in the server's environment the provider is registered at
 * activation with that answer, and each request is appended to the file
 * HANDOFF_TEST_MODEL_REQUESTS names (one JSON string a line).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS test extension, loaded unbundled
const vscode = require('vscode');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const fs = require('fs');

/** @type {string[]} */
const requests = [];
/** @type {{ dispose(): unknown } | undefined} */
let registration;

/** @param {unknown} message */
function messageText(message) {
  const m = /** @type {{ content?: unknown }} */ (message);
  if (typeof m.content === 'string') return m.content;
  if (!Array.isArray(m.content)) return '';
  return m.content.map((p) => (p && typeof p.value === 'string' ? p.value : '')).join('');
}

/** @param {unknown} text */
function countTokens(text) {
  return Math.ceil((typeof text === 'string' ? text : messageText(text)).length / 4);
}

/**
 * Registers the provider answering `answer`; false where this VS Code cannot register one.
 * @param {string} answer
 */
function enable(answer) {
  /** @type {any} */
  const lm = vscode.lm;
  let register;
  try {
    register = lm && lm.registerLanguageModelChatProvider;
  } catch {
    register = undefined;
  }
  if (typeof register !== 'function') return false;
  registration?.dispose();
  requests.length = 0;
  registration = lm.registerLanguageModelChatProvider('handoff-test', {
    provideLanguageModelChatInformation() {
      return [
        {
          id: 'handoff-test-draft',
          name: 'Handoff Test Model',
          family: 'handoff-test',
          version: '1.0.0',
          maxInputTokens: 100000,
          maxOutputTokens: 4000,
          capabilities: {},
        },
      ];
    },
    provideLanguageModelChatResponse(
      /** @type {unknown} */ _model,
      /** @type {unknown[]} */ messages,
      /** @type {unknown} */ _options,
      /** @type {{ report(part: unknown): void }} */ progress,
    ) {
      const text = messages.map(messageText).join('\n');
      requests.push(text);
      if (process.env.HANDOFF_TEST_MODEL_REQUESTS) fs.appendFileSync(process.env.HANDOFF_TEST_MODEL_REQUESTS, JSON.stringify(text) + '\n');
      progress.report(new vscode.LanguageModelTextPart(answer));
      return Promise.resolve();
    },
    provideTokenCount(/** @type {unknown} */ _model, /** @type {unknown} */ text) {
      return Promise.resolve(countTokens(text));
    },
  });
  return true;
}

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  if (process.env.HANDOFF_TEST_MODEL_ANSWER) enable(process.env.HANDOFF_TEST_MODEL_ANSWER);
  context.subscriptions.push(
    vscode.commands.registerCommand('handoffTestModel.enable', enable),
    vscode.commands.registerCommand('handoffTestModel.requests', () => [...requests]),
    vscode.commands.registerCommand('handoffTestModel.disable', () => {
      registration?.dispose();
      registration = undefined;
    }),
    { dispose: () => registration?.dispose() },
  );
}

module.exports = { activate };
