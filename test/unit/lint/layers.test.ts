/**
 * The layer map of docs/ARCHITECTURE.md ("What may import what") is enforced by lint:
 * files planted in the real folders, under unique temporary names, that import across a
 * layer boundary make ESLint fail with the layer rule's message; files that import in the
 * allowed direction pass. The planted files are linted with the repository's own
 * eslint.config.mjs (the ESLint Node API, one call for all of them) and deleted in
 * `finally`, so the tree is left as it was even when linting throws.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const MAP = 'docs/ARCHITECTURE.md#what-may-import-what';

/** One planted file: where it goes (relative to the repository), its text, and the layer rule it must break (none: it must pass). */
interface Plant {
  folder: string;
  text: string;
  rule?: string;
}

const PLANTS: Record<string, Plant> = {
  coreImportsStore: { folder: 'src/core', text: "import '../store/handoffs/handoffStore';\n", rule: 'core is pure' },
  coreImportsEngine: { folder: 'src/core/handoff', text: "export { handover } from '../../engine/handover/handover';\n", rule: 'core is pure' },
  coreRequiresEngine: { folder: 'src/core', text: "export const engine: unknown = import('../engine/handover/handover');\n", rule: 'core is pure' },
  coreImportsWebview: { folder: 'src/core/panel', text: "import '../../../webview/main';\n", rule: 'webview is browser code' },
  coreReadsDisk: { folder: 'src/core', text: "import 'node:fs';\n", rule: 'core is pure' },
  vscodeImportsStore: {
    folder: 'src/vscode',
    text: "import type { HandoffStore } from '../store/handoffs/handoffStore';\nexport type Store = HandoffStore;\n",
    rule: 'entry points go through the engine',
  },
  vscodePanelImportsEvidence: {
    folder: 'src/vscode/panel',
    text: "import '../../evidence/session/collectSessionLog';\n",
    rule: 'entry points go through the engine',
  },
  cliImportsStore: { folder: 'src/cli', text: "import '../store/pathGuard';\n", rule: 'entry points go through the engine' },
  cliRequiresEvidence: {
    folder: 'src/cli',
    text: "export const git: unknown = require('../evidence/git/collectGit');\n",
    rule: 'entry points go through the engine',
  },
  mcpTypeFromStore: { folder: 'src/mcp', text: "export type Guard = typeof import('../store/pathGuard');\n", rule: 'entry points go through the engine' },
  evidenceImportsStore: { folder: 'src/evidence/git', text: "import '../../store/pathGuard';\n", rule: 'evidence and store import core only' },
  storeImportsEvidence: { folder: 'src/store', text: "import './../evidence/git/collectGit';\n", rule: 'evidence and store import core only' },
  engineImportsEntryPoint: { folder: 'src/engine', text: "import '../mcp/server';\n", rule: 'the engine is the front door' },
  engineImportsVscode: { folder: 'src/engine', text: "import 'vscode';\n", rule: 'vscode only in the VS Code adapter' },
  webviewImportsEngine: { folder: 'webview', text: "import '../src/engine/handover/handover';\n", rule: 'webview imports only the panel protocol' },
  webviewImportsCore: { folder: 'webview', text: "import '../src/core/handoff/schema';\n", rule: 'webview imports only the panel protocol' },
  webviewDetour: { folder: 'webview', text: "import '../src/core/panel/../../engine/handover/handover';\n", rule: 'paths without detours' },
  cleanCore: { folder: 'src/core/handoff', text: "import './limits';\nimport '../panel/protocol';\n" },
  cleanEngine: { folder: 'src/engine', text: "import '../core/handoff/compose';\nimport '../store/pathGuard';\nimport '../evidence/git/collectGit';\n" },
  cleanEvidence: { folder: 'src/evidence/session', text: "import '../../core/session/events';\nimport '../git/gitParse';\n" },
  cleanVscode: { folder: 'src/vscode/panel', text: "import 'vscode';\nimport '../../engine/handover/handover';\nimport '../../core/panel/protocol';\n" },
  cleanCli: { folder: 'src/cli', text: "import '../engine/handover/handover';\nimport '../mcp/server';\n" },
  cleanWebview: {
    folder: 'webview',
    text: "import '../src/core/panel/protocol';\nimport '../src/core/panel/draft';\nimport '../src/core/handoff/limits';\nimport '../src/core/handoff/ids';\nimport './dom';\n",
  },
};

describe('lint enforces the layer map (planted files)', function () {
  this.timeout(60_000);
  const results = new Map<string, ESLint.LintResult>();

  before(async () => {
    const tag = `lint-probe-${process.pid}-${randomBytes(4).toString('hex')}`;
    const files = new Map(Object.entries(PLANTS).map(([name, plant]) => [name, path.join(REPO_ROOT, plant.folder, `${tag}-${name}.ts`)]));
    try {
      for (const [name, file] of files) writeFileSync(file, PLANTS[name].text, { flag: 'wx' });
      const linted = await new ESLint({ cwd: REPO_ROOT }).lintFiles([...files.values()]);
      for (const [name, file] of files) {
        const result = linted.find((r) => r.filePath === file);
        assert.ok(result, `ESLint linted ${file}`);
        results.set(name, result);
      }
    } finally {
      for (const file of files.values()) rmSync(file, { force: true });
    }
  });

  for (const [name, plant] of Object.entries(PLANTS)) {
    const where = `${plant.folder}/: ${plant.text.trim().split('\n')[0]}`;
    if (plant.rule) {
      it(`fails ${where}`, () => {
        const messages = results.get(name)?.messages ?? [];
        assert.ok(messages.length > 0, `${where} passed lint`);
        const layer = messages.find((m) => m.message.includes(`Layer rule "${plant.rule}"`));
        assert.ok(layer, `no "${plant.rule}" message in: ${messages.map((m) => m.message).join(' | ')}`);
        assert.equal(layer.severity, 2);
        assert.ok(layer.message.includes(MAP), `the message points to ${MAP}`);
      });
    } else {
      it(`passes ${where} …`, () => {
        const messages = results.get(name)?.messages ?? [];
        assert.deepEqual(
          messages.map((m) => `${m.ruleId}: ${m.message}`),
          [],
        );
      });
    }
  }
});
