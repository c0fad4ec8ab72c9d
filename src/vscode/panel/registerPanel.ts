import * as vscode from 'vscode';
import { Views } from '../constants';
import type { TimelineTreeProvider } from '../timeline/timelineTree';
import type { SessionHooks } from '../workspace/environment';
import { currentFolder } from '../workspace/settings';
import { workspaceTrusted } from '../workspace/trust';
import { HandOverViewProvider } from './handOverView';
import type { PanelModelDrafter } from './modelDraftPort';

export interface PanelDeps {
  readonly log: vscode.LogOutputChannel;
  readonly session: SessionHooks;
  /** Counts the handoffs; refreshed after a handoff. */
  readonly timeline: TimelineTreeProvider;
  /** `performance.now()` at activate(). */
  readonly activatedAt: number;
  /** Absent: the action says it is not available. */
  readonly modelDrafter?: PanelModelDrafter;
}

/** The webview is created only when VS Code shows the view. */
export function registerHandOverView(context: vscode.ExtensionContext, deps: PanelDeps): HandOverViewProvider {
  const { timeline } = deps;
  const handOver = new HandOverViewProvider(
    context.extensionUri,
    deps.log,
    async () => ({ hasFolder: currentFolder() !== undefined, trusted: workspaceTrusted(), handoffCount: await timeline.countHandoffs() }),
    deps.session,
    () => timeline.refresh(),
    deps.activatedAt,
    deps.modelDrafter,
  );
  context.subscriptions.push(
    handOver,
    vscode.window.registerWebviewViewProvider(Views.handOver, handOver),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void handOver.reload()),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('handoff') && void handOver.reload()),
    timeline.onDidChangeHandoffs(() => void handOver.pushState()),
  );
  return handOver;
}
