/**
 * The extension-tests module, in the @vscode/test-electron convention: VS Code loads it
 * inside the extension host and calls `run()`; a rejected promise fails the run. Used
 * unchanged by code-server (test/host/run.ts) and by @vscode/test-electron
 * (test/host/electron.ts). When HANDOFF_TEST_RESULTS names a file, the counts and
 * failures are written there as JSON for the runner to print.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  // INTEGRATION_FILES=modelDraft runs only the files whose names contain it (test/host/run.ts passes it on).
  const only = process.env.INTEGRATION_FILES;
  for (const f of readdirSync(__dirname).sort()) {
    if (f.endsWith('.test.js') && (!only || f.includes(only))) {
      mocha.addFile(path.join(__dirname, f));
    }
  }
  return new Promise((resolve, reject) => {
    const failures: Array<{ title: string; error: string }> = [];
    const runner = mocha.run((failed) => {
      const out = process.env.HANDOFF_TEST_RESULTS;
      if (out) {
        writeFileSync(out, JSON.stringify({ ...runner.stats, failuresList: failures }, null, 2));
      }
      if (failed > 0) {
        reject(new Error(`${failed} integration test(s) failed`));
      } else {
        resolve();
      }
    });
    runner.on('fail', (test, err: Error) => failures.push({ title: test.fullTitle(), error: String(err?.stack ?? err) }));
  });
}
