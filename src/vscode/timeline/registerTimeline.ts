import * as vscode from 'vscode';
import { Commands, ContextKeys, Views } from '../constants';
import { folderHandoffRoot, type SessionHooks } from '../workspace/environment';
import { currentFolder } from '../workspace/settings';
import { TimelineCommands } from './timelineCommands';
import { TimelineTreeProvider } from './timelineTree';

/** Nothing is read until the view asks for its items. */
export function registerTimeline(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, session: SessionHooks): TimelineTreeProvider {
  const timeline = new TimelineTreeProvider(log);
  const treeView = vscode.window.createTreeView(Views.timeline, { treeDataProvider: timeline, showCollapseAll: true });
  // Contributed with `when: handoff.timelineReady`, so VS Code never shows "no data provider" while the host starts.
  void vscode.commands.executeCommand('setContext', ContextKeys.timelineReady, true);
  context.subscriptions.push(
    timeline,
    treeView,
    new TimelineCommands(log, session, timeline, treeView),
    vscode.commands.registerCommand(Commands.refreshTimeline, () => timeline.refresh()),
    vscode.commands.registerCommand(Commands.openHandoffFolder, openHandoffFolder),
    // Reveal a new entry, its parent expanded, only while the view is shown (reveal would open the side bar).
    timeline.onDidAddEntry((element) => {
      if (!treeView.visible) return;
      treeView
        .reveal(element, { select: true, focus: false, expand: true })
        .then(undefined, (err: unknown) => log.warn(`timeline: could not reveal the new entry: ${(err as Error)?.message ?? String(err)}`));
    }),
  );
  return timeline;
}

async function openHandoffFolder(): Promise<void> {
  const folder = currentFolder();
  const root = folder && folderHandoffRoot(folder);
  if (root?.ok) {
    await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(root.path));
  }
}
