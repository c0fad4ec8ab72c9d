/**
 * Composition root: builds the services by hand and lets each feature folder register its
 * contributions in `context.subscriptions` (docs/ARCHITECTURE.md, "Folders"). Nothing
 * heavy runs here: git, the tokenizer and the handoff files are only touched when a view
 * opens or a command runs.
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

/** Called by VS Code on the first command or view of the extension. */
export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  // The process's CPU time as well: on a loaded machine the wall time includes waiting for a core.
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
  // "Draft with …" (the editor's language model): one drafter for the panel and the end-of-session command; it sends only on a click.
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
  // Which copy runs: the installed package, or a development path (what an issue report needs first).
  const mode =
    context.extensionMode === vscode.ExtensionMode.Production
      ? 'installed'
      : context.extensionMode === vscode.ExtensionMode.Development
        ? 'development'
        : 'test';
  log.info(
    `Specialist Handoff ${String((context.extension.packageJSON as { version?: unknown }).version)} running from ${context.extensionUri.fsPath} (${mode})`,
  );
  const cpu = process.cpuUsage(cpuAtEntry);
  log.info(
    `activated in ${(performance.now() - started).toFixed(1)} ms (CPU ${((cpu.user + cpu.system) / 1000).toFixed(1)} ms; VS Code ${vscode.version}, trusted: ${workspaceTrusted()})`,
  );
}

/** Nothing to do: every resource is in context.subscriptions. */
export function deactivate(): void {}
