import * as vscode from 'vscode';
import { Commands, Views } from '../constants';
import type { TimelineTreeProvider } from '../timeline/timelineTree';
import { InsightsPanel } from './insightsPanel';

/** Nothing is read until the panel opens. */
export function registerInsights(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, timeline: TimelineTreeProvider): InsightsPanel {
  const insights = new InsightsPanel(context.extensionUri, log);
  context.subscriptions.push(
    insights,
    vscode.commands.registerCommand(Commands.showInsights, () => {
      insights.show();
      // The timeline's watchers tell the panel when files change, even while the tree was never shown.
      timeline.watchFiles();
    }),
    // A panel open when the window closed or reloaded comes back (activation event `onWebviewPanel:handoff.insights`).
    vscode.window.registerWebviewPanelSerializer(Views.insights, {
      deserializeWebviewPanel: async (panel) => {
        insights.restore(panel);
        timeline.watchFiles();
      },
    }),
    timeline.onDidChangeHandoffs(() => insights.refresh()),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('handoff') && insights.refresh()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => insights.refresh()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => insights.refresh()),
  );
  return insights;
}
