/**
 * Integration tests inside the real extension host. The workspace is a git repository
 * with real changes (the demo repository, built by the runner before VS Code opens it).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { parseHandoff, parseTouchedFiles } from '../../src/core/handoff/parse';
import type { HandoverResult } from '../../src/core/handoff/schema';
import { rawGitView } from '../helpers/repo';

const EXTENSION_ID = 'specialist-handoff.specialist-handoff';

function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test workspace folder is open');
  return folder.uri.fsPath;
}

/**
 * activate() entry to return (ms) and the finer marks, as the extension logged them in its
 * "Specialist Handoff" log (src/extension.ts), found under the server's log folder the
 * harness names in HANDOFF_TEST_HOST_LOGS (test/host/run.ts); undefined without it.
 */
async function loggedActivation(): Promise<{ ms: string; marks: string } | undefined> {
  const dir = process.env.HANDOFF_TEST_HOST_LOGS;
  if (!dir || !existsSync(dir)) return undefined;
  const logs: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.includes(`${path.sep}${EXTENSION_ID}${path.sep}`) && e.name.endsWith('.log')) logs.push(p);
    }
  };
  // The log channel is flushed to disk shortly after it is written.
  for (let i = 0; i < 50; i++) {
    logs.length = 0;
    walk(dir);
    const text = logs.map((f) => readFileSync(f, 'utf8')).join('\n');
    const activated = /activated in ([\d.]+) ms/.exec(text);
    if (activated) return { ms: activated[1], marks: /activate\(\) marks \(ms since entry\): ([^\n]*)/.exec(text)?.[1] ?? 'no marks' };
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

describe('Specialist Handoff in the VS Code extension host', () => {
  it('activates, and its activation time is logged', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is installed`);
    const t0 = performance.now();
    await ext.activate();
    const ms = performance.now() - t0;
    assert.equal(ext.isActive, true);
    // Issue 19: the extension's own figure, activate() entry to return, and its finer marks, from its log (printed, not asserted).
    const logged = await loggedActivation();
    console.log(
      `[activation] ${EXTENSION_ID} activate() resolved in ${ms.toFixed(1)} ms; activate() entry → return ${logged ? `${logged.ms} ms (${logged.marks})` : 'not in the log'} (VS Code ${vscode.version}, ${vscode.env.appName})`,
    );
  });

  it('contributes its view container, both views, its commands and its settings', async () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON;
    assert.deepEqual(
      pkg.contributes.viewsContainers.activitybar.map((c: { id: string; title: string }) => [c.id, c.title]),
      [['handoff', 'Handoff']],
    );
    assert.deepEqual(
      pkg.contributes.views.handoff.map((v: { id: string; name: string; type?: string }) => [v.id, v.name, v.type ?? 'tree']),
      // Issue 17: one wording in title case ("Hand over" / "Handoff timeline" before), and read the same when
      // VS Code 1.139 capitalizes every word of a view header ("Hand Over to Specialist" showed as "… To …").
      [
        ['handoff.handOver', 'Hand Over', 'webview'],
        ['handoff.timeline', 'Handoff Timeline', 'tree'],
      ],
    );
    const commands = await vscode.commands.getCommands(true);
    for (const id of [
      'handoff.endSession',
      'handoff.refreshTimeline',
      'handoff.openHandoffFolder',
      'handoff.timeline.focus',
      'handoff.handOver.focus',
      'workbench.view.extension.handoff',
    ]) {
      assert.ok(commands.includes(id), `command ${id} is registered`);
    }
    for (const c of pkg.contributes.commands) {
      assert.equal(c.category, 'Handoff', `${c.command} has category Handoff`);
    }
    const cfg = vscode.workspace.getConfiguration('handoff');
    assert.equal(cfg.inspect('directory')?.defaultValue, '.handoff');
    assert.equal(cfg.inspect('maxContextTokens')?.defaultValue, 3000);
    assert.equal(cfg.inspect('includeRecentTurns')?.defaultValue, 5);
    assert.equal(cfg.inspect('tokenizer')?.defaultValue, 'o200k_base');
    await vscode.commands.executeCommand('workbench.view.extension.handoff');
    await vscode.commands.executeCommand('handoff.timeline.focus');
  });

  it('the end-of-session command writes the handoff and the briefing, matching the workspace git changes', async () => {
    const root = workspaceRoot();
    const git = rawGitView(root);
    assert.ok(git.length >= 5, 'the workspace has real changes');
    const result = (await vscode.commands.executeCommand('handoff.endSession', {
      specialist: 'quality_reviewer',
      topic: 'Integration check',
      summary: 'Written by the integration test.',
      decisions: ['Keep the API'],
      next_steps: ['Review the diff'],
      blockers: [],
    })) as HandoverResult;
    assert.equal(result?.status, 'ok', result?.status === 'error' ? result.message : 'no result');
    if (result.status !== 'ok') return;
    assert.ok(result.handoff_file.startsWith(path.join(root, '.handoff', 'handoffs')));
    assert.ok(existsSync(result.briefing.path));
    const parsed = parseHandoff(readFileSync(result.handoff_file, 'utf8'));
    assert.ok(parsed.ok);
    assert.equal(parsed.handoff.frontmatter.specialist, 'quality_reviewer');
    assert.match(parsed.handoff.sections.get('Summary') ?? '', /Written by the integration test\./);
    const listed = parseTouchedFiles(parsed.handoff.sections.get('Touched files') ?? '');
    assert.deepEqual(
      listed.map((f) => [f.path, f.old_path, f.added, f.deleted]),
      git.map((g) => [g.path, g.orig, g.added, g.deleted]),
    );
    assert.match(readFileSync(result.briefing.path, 'utf8'), /Written by the integration test\./);
    // The handoff opens rendered, in the Markdown preview (issue 17: not its raw frontmatter).
    const name = path.basename(result.handoff_file);
    const previewed = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .some((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('markdown.preview') && t.label.includes(name));
    for (let i = 0; i < 50 && !previewed(); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(
      previewed(),
      `the handoff's Markdown preview was opened (tabs: ${vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)).join(', ')})`,
    );
  });

  it('bad arguments give an ERROR and write nothing more', async () => {
    const root = workspaceRoot();
    const before = readdirSync(path.join(root, '.handoff', 'handoffs')).length;
    const result = (await vscode.commands.executeCommand('handoff.endSession', { specialist: 'quality_reviwer', topic: 'x' })) as HandoverResult;
    assert.equal(result.status, 'error');
    assert.match(result.status === 'error' ? result.message : '', /^ERROR: unknown specialist "quality_reviwer" — did you mean: quality_reviewer/);
    assert.equal(readdirSync(path.join(root, '.handoff', 'handoffs')).length, before);
  });
});
