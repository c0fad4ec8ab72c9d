/**
 * Composition root: builds the services by hand and registers every contribution in
 * `context.subscriptions`. Nothing heavy runs here: git, the tokenizer and the handoff
 * files are only touched when a view opens or a command runs.
 */
import * as vscode from 'vscode';
import { Commands, OUTPUT_CHANNEL_NAME, Views } from './vscode/constants';
import { EndSessionCommand } from './vscode/endSession/endSession';
import { HandOverViewProvider } from './vscode/panel/handOverView';
import { SessionService } from './vscode/session/sessionService';
import { currentFolder, readSettings } from './vscode/workspace/settings';
import { TimelineCommands } from './vscode/timeline/timelineCommands';
import { TimelineTreeProvider } from './vscode/timeline/timelineTree';
import { registerChatParticipant } from './vscode/agents/chatParticipant';
import { exportAgentsCommand } from './vscode/agents/exportAgents';
import { registerLanguageModelTool } from './vscode/agents/lmTool';
import { registerMcpServerDefinitions } from './vscode/agents/mcpServerDefinitionProvider';
import { resolveHandoffRoot } from './store/pathGuard';

/** Called by VS Code on the first command or view of the extension. */
export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  const log = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
  const session = new SessionService(context, log);
  const timeline = new TimelineTreeProvider(log);
  const treeView = vscode.window.createTreeView(Views.timeline, { treeDataProvider: timeline, showCollapseAll: true });
  const endSession = new EndSessionCommand(
    log,
    session,
    () => {
      timeline.refresh();
      handOver.invalidateEvidence();
    },
    context.workspaceState,
  );
  const handOver = new HandOverViewProvider(
    context.extensionUri,
    log,
    async () => ({ hasFolder: currentFolder() !== undefined, trusted: vscode.workspace.isTrusted, handoffCount: await timeline.countHandoffs() }),
    session,
    () => timeline.refresh(),
    started,
  );
  // The agent entry points: language model tool, @handoff chat participant, MCP server definition.
  const agents = {
    log,
    session,
    extension: context.extension,
    onWritten: () => {
      timeline.refresh();
      handOver.invalidateEvidence();
    },
  };

  context.subscriptions.push(
    log,
    session,
    timeline,
    endSession,
    handOver,
    treeView,
    new TimelineCommands(log, session, timeline, treeView),
    ...registerLanguageModelTool(agents),
    ...registerChatParticipant(agents),
    ...registerMcpServerDefinitions(agents),
    vscode.window.registerWebviewViewProvider(Views.handOver, handOver),
    vscode.commands.registerCommand(Commands.endSession, (args?: unknown) => endSession.run(args)),
    vscode.commands.registerCommand(Commands.refreshTimeline, () => timeline.refresh()),
    vscode.commands.registerCommand(Commands.openHandoffFolder, async () => {
      const folder = currentFolder();
      const root = folder && resolveHandoffRoot(folder.uri.fsPath, readSettings(folder).directory);
      if (root?.ok) {
        await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(root.path));
      }
    }),
    vscode.commands.registerCommand(Commands.startNewSession, () => session.startNewSession()),
    vscode.commands.registerCommand(Commands.exportAgents, (args?: unknown) => exportAgentsCommand(log, args)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      void handOver.reload();
      void session.startRecording();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void handOver.reload()),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('handoff') && void handOver.reload()),
    timeline.onDidChangeHandoffs(() => void handOver.pushState()),
  );
  void session.startRecording();
  log.info(`activated in ${(performance.now() - started).toFixed(1)} ms (VS Code ${vscode.version}, trusted: ${vscode.workspace.isTrusted})`);
}

/** Nothing to do: every resource is in context.subscriptions. */
export function deactivate(): void {}
