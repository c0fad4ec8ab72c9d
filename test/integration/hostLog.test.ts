/**
 * What the extension leaves in VS Code's extension-host log (issue 17, seen on VS Code
 * 1.139): no `PendingMigrationError` ("navigator is now a global in nodejs", from zod's
 * capability check as dist/extension.js loaded) and no "Accessing a resource scoped
 * configuration without providing a resource" naming this extension (the timeline read
 * `handoff.timeline.order` without its folder). The Handoff views are shown and the
 * timeline refreshed first, so every setting they read is read. The harness
 * (test/host/run.ts) names the server's log folder in HANDOFF_TEST_HOST_LOGS.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';

/** Every line of the extension-host logs (remoteexthost.log / exthost.log) under `dir`. */
function extensionHostLogLines(dir: string): string[] {
  const lines: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/^(remote)?exthost\.log$/i.test(name)) lines.push(...readFileSync(p, 'utf8').split('\n'));
    }
  };
  walk(dir);
  return lines;
}

describe('the extension-host log stays clean', () => {
  it('no navigator PendingMigrationError, no resource-scoped handoff.* setting read without a resource', async function () {
    const logs = process.env.HANDOFF_TEST_HOST_LOGS;
    if (!logs || !existsSync(logs)) {
      // Under @vscode/test-electron (test/host/electron.ts) the harness names no log folder.
      assert.fail(`HANDOFF_TEST_HOST_LOGS names no folder (${logs}): run through test/host/run.ts`);
    }
    const ext = vscode.extensions.getExtension('specialist-handoff.specialist-handoff');
    await ext?.activate();
    await vscode.commands.executeCommand('workbench.view.extension.handoff');
    await vscode.commands.executeCommand('handoff.timeline.focus');
    await vscode.commands.executeCommand('handoff.refreshTimeline');
    await new Promise((r) => setTimeout(r, 2500));
    const lines = extensionHostLogLines(logs);
    assert.ok(
      lines.some((l) => l.includes('specialist-handoff.specialist-handoff')),
      `the extension host log names the extension (${lines.length} lines read)`,
    );
    assert.deepEqual(
      lines.filter((l) => /navigator is now a global|PendingMigrationError/.test(l)),
      [],
      'no read of the navigator global',
    );
    assert.deepEqual(
      lines.filter((l) => /Accessing a resource scoped configuration without providing a resource/.test(l) && /specialist-handoff|'handoff\./.test(l)),
      [],
      'every resource-scoped handoff.* setting is read with its folder',
    );
  });
});
