/**
 * `npm run test:electron`: the same integration suite (test/integration, `run()` in the
 * extension host) under @vscode/test-electron, which downloads VS Code into
 * .vscode-test/ — the path for contributors with internet access. Machines without it
 * use code-server (`npm test`), which runs the identical suite.
 */
import path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { createDemoRepository } from '../../scripts/demoRepo';
import { workspaceDir } from './codeServer';
import { REPO_ROOT, VSCODE_VERSION } from './install';
import { buildForHost } from './run';

async function main(): Promise<void> {
  await buildForHost();
  const ws = path.join(workspaceDir('electron'), 'todo-api');
  createDemoRepository(ws);
  const code = await runTests({
    version: process.env.VSCODE_TEST_VERSION ?? VSCODE_VERSION,
    extensionDevelopmentPath: REPO_ROOT,
    extensionTestsPath: path.join(REPO_ROOT, 'out', 'integration', 'index.js'),
    launchArgs: [ws, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  });
  process.exitCode = code;
}

main().catch((err) => {
  process.stderr.write(
    `test:electron failed: ${err instanceof Error ? err.message : String(err)}\n` +
      'It downloads VS Code from update.code.visualstudio.com; without internet use `npm test`, which runs the same suite in code-server.\n',
  );
  process.exitCode = 1;
});
