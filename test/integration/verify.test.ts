/**
 * "Handoff: Verify" inside the real extension host (issue 18). A Claude Code transcript (its
 * own JSONL format, test/helpers/claudeTestRun.ts) records `npm test` passing in the
 * workspace; the handoff written by "End Session" records that run. Then the test script
 * fails (exit code 1). Verify without running re-runs nothing and counts it not run; Verify
 * with consent runs `npm test` as a VS Code task (a ShellExecution in the workspace folder,
 * exit code 1 seen by `onDidEndTaskProcess`), judges it contradicted, stores the
 * verification and appends it to the briefing; the timeline item's icon, description and
 * tooltip show the verdict.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { parseHandoff } from '../../src/core/handoff/parse';
import type { HandoverResult } from '../../src/core/handoff/schema';
import type { VerifyOutcome } from '../../src/engine/receive/verify';
import { TimelineTreeProvider } from '../../src/vscode/timeline/timelineTree';
import { VERIFY_TASK_TYPE } from '../../src/vscode/verify/taskRunner';
import { RECORDED_TEST, writeClaudeTestRun } from '../helpers/claudeTestRun';

function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test workspace folder is open');
  return folder.uri.fsPath;
}

/** The verify tasks whose processes started and ended while `during` ran. */
async function watchTasks<T>(
  during: () => Promise<T>,
): Promise<{ result: T; started: vscode.Task[]; ended: Array<{ task: vscode.Task; exitCode: number | undefined }> }> {
  const started: vscode.Task[] = [];
  const ended: Array<{ task: vscode.Task; exitCode: number | undefined }> = [];
  const subs = [
    vscode.tasks.onDidStartTaskProcess((e) => e.execution.task.definition.type === VERIFY_TASK_TYPE && started.push(e.execution.task)),
    vscode.tasks.onDidEndTaskProcess(
      (e) => e.execution.task.definition.type === VERIFY_TASK_TYPE && ended.push({ task: e.execution.task, exitCode: e.exitCode }),
    ),
  ];
  try {
    return { result: await during(), started, ended };
  } finally {
    subs.forEach((d) => d.dispose());
  }
}

/** The text of a briefing: the file, or the files of a briefing folder in name order. */
function briefingText(file: string): string {
  return statSync(file).isDirectory()
    ? readdirSync(file)
        .sort()
        .map((f) => readFileSync(path.join(file, f), 'utf8'))
        .join('\n')
    : readFileSync(file, 'utf8');
}

function ok(outcome: VerifyOutcome | undefined): Extract<VerifyOutcome, { status: 'ok' }> {
  assert.ok(outcome, 'the command verified');
  assert.equal(outcome.status, 'ok', outcome.status === 'error' ? outcome.message : '');
  return outcome as Extract<VerifyOutcome, { status: 'ok' }>;
}

describe('Handoff: Verify (extension host)', function () {
  this.timeout(180_000);
  const log = vscode.window.createOutputChannel('Verify test', { log: true });
  let projects: string;
  let packageJson: string;
  let savedPackage: string;
  let handoff: string;

  before(async () => {
    await vscode.extensions.getExtension('specialist-handoff.specialist-handoff')!.activate();
    const root = workspaceRoot();
    projects = mkdtempSync(path.join(tmpdir(), 'claude-projects-'));
    writeClaudeTestRun(projects, root);
    await vscode.workspace.getConfiguration('handoff').update('sessionLog.locations', { claudeCode: projects }, vscode.ConfigurationTarget.Workspace);
    const result = (await vscode.commands.executeCommand('handoff.endSession', {
      specialist: 'quality_reviewer',
      topic: 'Verify check',
      summary: 'formatTodo marks done items; all tests pass.',
      next_steps: ['Review formatTodo'],
    })) as HandoverResult;
    assert.equal(result?.status, 'ok', result?.status === 'error' ? result.message : 'no result');
    if (result.status === 'ok') handoff = result.handoff_file;
    const parsed = parseHandoff(readFileSync(handoff, 'utf8'));
    assert.ok(parsed.ok);
    assert.match(parsed.handoff.sections.get('Tests run') ?? '', /npm test/, 'the handoff recorded the passing run');
    // Since the handoff, the test script fails.
    packageJson = path.join(root, 'package.json');
    savedPackage = readFileSync(packageJson, 'utf8');
    const pkg = JSON.parse(savedPackage) as { scripts: Record<string, string> };
    pkg.scripts.test = `node -e "console.error('1 failing: formatTodo marks done items'); process.exit(1)"`;
    writeFileSync(packageJson, `${JSON.stringify(pkg, null, 2)}\n`);
  });

  after(async () => {
    if (savedPackage) writeFileSync(packageJson, savedPackage);
    await vscode.workspace.getConfiguration('handoff').update('sessionLog.locations', undefined, vscode.ConfigurationTarget.Workspace);
    rmSync(projects, { recursive: true, force: true });
    log.dispose();
  });

  it('"Verify Without Running" runs nothing: the recorded test is counted not run', async () => {
    const { result, started } = await watchTasks(
      async () => (await vscode.commands.executeCommand('handoff.verify', { handoff, run: false })) as VerifyOutcome | undefined,
    );
    const v = ok(result).verification;
    assert.equal(started.length, 0, 'no task started');
    assert.equal(v.ran, false);
    const recheck = v.rechecks.find((r) => r.command === RECORDED_TEST);
    assert.ok(recheck, JSON.stringify(v.rechecks));
    assert.equal(recheck.verdict, 'not_run');
    assert.equal(recheck.now, null);
  });

  it('with consent, runs the recorded `npm test` as a task in the workspace folder: exit code 1, contradicted, stored and in the briefing', async () => {
    const { result, started, ended } = await watchTasks(
      async () => (await vscode.commands.executeCommand('handoff.verify', { handoff, run: true })) as VerifyOutcome | undefined,
    );
    const outcome = ok(result);
    const task = started.find((t) => (t.execution as vscode.ShellExecution | undefined)?.commandLine === RECORDED_TEST);
    assert.ok(task, `a task ran \`${RECORDED_TEST}\`: ${JSON.stringify(started.map((t) => t.name))}`);
    assert.ok(task.execution instanceof vscode.ShellExecution);
    assert.equal(path.resolve(task.execution.options?.cwd ?? ''), path.resolve(workspaceRoot()), 'in the recorded folder');
    assert.equal(ended.find((e) => e.task.definition.run === task.definition.run)?.exitCode, 1, 'its process ended with exit code 1');
    const v = outcome.verification;
    assert.equal(v.ran, true);
    const recheck = v.rechecks.find((r) => r.command === RECORDED_TEST);
    assert.ok(recheck, JSON.stringify(v.rechecks));
    assert.equal(recheck.recorded.result, 'ok');
    assert.equal(recheck.now?.exit_code, 1);
    assert.equal(recheck.verdict, 'contradicted');
    assert.ok(v.counts.contradicted >= 1, JSON.stringify(v.counts));
    assert.match(outcome.line, /contradicted/);
    assert.match(outcome.line, /npm test/);
    assert.ok(outcome.verification_file && existsSync(outcome.verification_file), 'the verification is stored');
    assert.ok(outcome.briefing_file, 'the handoff has a briefing');
    assert.match(briefingText(outcome.briefing_file), /contradicted/, 'the verdicts are appended to the briefing');
  });

  it("the timeline item's icon, description and tooltip show the verdict", async () => {
    const tree = new TimelineTreeProvider(log);
    try {
      await tree.getChildren();
      const element = tree.elementForPath(handoff);
      assert.ok(element, 'the handoff is in the timeline');
      const item = tree.getTreeItem(element);
      const icon = item.iconPath as vscode.ThemeIcon;
      assert.ok(icon instanceof vscode.ThemeIcon);
      assert.equal(icon.id, 'error', 'the error icon');
      assert.equal(icon.color?.id, 'errorForeground', 'in the error colour');
      // The topic is the label; the status, the verdict word, then the specialist start the description; a screen reader reads them in words.
      assert.equal(item.label, 'Verify check');
      assert.match(String(item.description), /^pending · contradicted · Quality reviewer · (now|\d+ (seconds?|minutes?) ago)$/, String(item.description));
      assert.match(
        item.accessibilityInformation?.label ?? '',
        /^Handoff to Quality reviewer, topic: Verify check, status: pending, contradicted, (now|\d+ (seconds?|minutes?) ago)$/,
        item.accessibilityInformation?.label,
      );
      const resolved = await tree.resolveTreeItem(item, element);
      const tooltip = (resolved.tooltip as vscode.MarkdownString).value;
      assert.match(
        tooltip,
        /\*\*Quality reviewer\*\*[^\n]*\n\n[^\n]*\n\nVerify check\n\nHandoff · \*\*pending\*\*/,
        `the whole topic in the tooltip: ${tooltip}`,
      );
      assert.match(tooltip, /\$\(error\) Checked at/, tooltip);
      assert.doesNotMatch(tooltip, /Checked at \d{4}-\d\d-\d\dT/, "the time in the user's own zone and words, not raw UTC");
      assert.match(tooltip, /contradicted/);
      assert.match(tooltip, /`npm test`/, 'the command as code');
    } finally {
      tree.dispose();
    }
  });
});
