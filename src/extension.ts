/**
 * Composition root: each feature folder registers its contributions. Nothing heavy runs here: git,
 * the tokenizer and the handoff files are touched only when a view opens or a command runs.
 */
import * as vscode from 'vscode';
import { registerAgents } from './vscode/agents/registerAgents';
import { registerContinue } from './vscode/continue/registerContinue';
import { OUTPUT_CHANNEL_NAME } from './vscode/constants';
import { registerEndSession } from './vscode/endSession/registerEndSession';
import { registerHandoffView } from './vscode/endSession/handoffView';
import { LanguageModelDrafter } from './vscode/lm/modelDrafter';
import { registerInsights } from './vscode/insights/registerInsights';
import { registerHandOverView } from './vscode/panel/registerPanel';
import { registerSession } from './vscode/session/registerSession';
import { registerTimeline } from './vscode/timeline/registerTimeline';
import { registerVerify } from './vscode/verify/verifyCommand';
import { workspaceTrusted } from './vscode/workspace/trust';

/** Runs after startup (`onStartupFinished`), or earlier for a contributed command, view or restored Insights panel. */
export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  // CPU time too: on a loaded machine the wall time includes waiting for a core.
  const cpuAtEntry = process.cpuUsage();
  const log = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
  context.subscriptions.push(log);
  const marks: string[] = [];
  const mark = (what: string) => marks.push(`${what} ${(performance.now() - started).toFixed(1)}`);
  mark('log');
  const session = registerSession(context, log);
  mark('session');
  const timeline = registerTimeline(context, log, session);
  mark('timeline');
  // After a handoff is written: the timeline shows it, and the panel collects the evidence again.
  const onWritten = () => {
    timeline.refresh();
    handOver.invalidateEvidence();
  };
  // One language-model drafter for the panel and the end-of-session command; it sends only on a click.
  const modelDrafter = new LanguageModelDrafter(log);
  context.subscriptions.push(modelDrafter);
  mark('modelDrafter');
  registerHandoffView(context);
  mark('handoffView');
  registerEndSession(context, log, session, onWritten, modelDrafter);
  mark('endSession');
  const handOver = registerHandOverView(context, { log, session, timeline, activatedAt: started, modelDrafter });
  mark('handOver');
  registerAgents(context, { log, session, extension: context.extension, onWritten });
  mark('agents');
  registerContinue(context, log, session, (file) => timeline.invalidate(file));
  mark('continue');
  registerVerify(context, { log, session, timeline });
  mark('verify');
  registerInsights(context, log, timeline);
  mark('insights');
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      void handOver.reload();
      void session.startRecording();
    }),
  );
  void session.startRecording();
  mark('recording');
  log.info(`activate() marks (ms since entry): ${marks.join(', ')}`);
  // Which copy runs (installed or a development path): the first thing a bug report needs.
  const modes = { [vscode.ExtensionMode.Production]: 'installed', [vscode.ExtensionMode.Development]: 'development', [vscode.ExtensionMode.Test]: 'test' };
  const mode = modes[context.extensionMode];
  log.info(
    `Specialist Handoff ${String((context.extension.packageJSON as { version?: unknown }).version)} running from ${context.extensionUri.fsPath} (${mode})`,
  );
  const cpu = process.cpuUsage(cpuAtEntry);
  log.info(
    `activated in ${(performance.now() - started).toFixed(1)} ms (CPU ${((cpu.user + cpu.system) / 1000).toFixed(1)} ms; VS Code ${vscode.version}, trusted: ${workspaceTrusted()})`,
  );
}

export function deactivate(): void {}
