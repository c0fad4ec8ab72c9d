/**
 * The timeline's part of activation: the "Handoff Timeline" tree view, its commands and
 * those of the receiving side (timelineCommands.ts), "Refresh" and "Open Handoff Folder".
 */
import * as vscode from 'vscode';
import { Commands, ContextKeys, Views } from '../constants';
import { folderHandoffRoot, type SessionHooks } from '../workspace/environment';
import { currentFolder } from '../workspace/settings';
import { TimelineCommands } from './timelineCommands';
import { TimelineTreeProvider } from './timelineTree';

/**
 * Creates the tree view and registers the timeline's commands; all are disposed with the
 * extension. Nothing is read until the view asks for its items.
 * @returns the tree's provider (the panel counts handoffs with it; writers refresh it)
 */
export function registerTimeline(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, session: SessionHooks): TimelineTreeProvider {
  const timeline = new TimelineTreeProvider(log);
  const treeView = vscode.window.createTreeView(Views.timeline, { treeDataProvider: timeline, showCollapseAll: true });
  // The view is contributed with `when: handoff.timelineReady`: until its provider is here it is not shown at all,
  // where VS Code would show "There is no data provider registered…" while the extension host starts.
  void vscode.commands.executeCommand('setContext', ContextKeys.timelineReady, true);
  context.subscriptions.push(
    timeline,
    treeView,
    new TimelineCommands(log, session, timeline, treeView),
    vscode.commands.registerCommand(Commands.refreshTimeline, () => timeline.refresh()),
    vscode.commands.registerCommand(Commands.openHandoffFolder, openHandoffFolder),
    // A new entry (a handoff written, a chain continued) is revealed and selected: its parent
    // is expanded, whatever collapse state VS Code kept for it. Only while the view is shown
    // (reveal would open the side bar otherwise).
    timeline.onDidAddEntry((element) => {
      if (!treeView.visible) return;
      treeView
        .reveal(element, { select: true, focus: false, expand: true })
        .then(undefined, (err: unknown) => log.warn(`timeline: could not reveal the new entry: ${(err as Error)?.message ?? String(err)}`));
    }),
  );
  return timeline;
}

/** "Handoff: Open Handoff Folder": reveals the current folder's handoff root in the Explorer (nothing when the setting is invalid). */
async function openHandoffFolder(): Promise<void> {
  const folder = currentFolder();
  const root = folder && folderHandoffRoot(folder);
  if (root?.ok) {
    await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(root.path));
  }
}
