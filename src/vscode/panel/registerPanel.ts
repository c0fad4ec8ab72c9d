/**
 * The panel's part of activation: the "Hand over" webview view, its state (folder open,
 * trusted, number of handoffs), and its reloads when the folders or the `handoff.*`
 * settings change.
 */
import * as vscode from 'vscode';
import { Views } from '../constants';
import type { TimelineTreeProvider } from '../timeline/timelineTree';
import type { SessionHooks } from '../workspace/environment';
import { currentFolder } from '../workspace/settings';
import { workspaceTrusted } from '../workspace/trust';
import { HandOverViewProvider } from './handOverView';
import type { PanelModelDrafter } from './modelDraftPort';

/** What the panel needs from the rest of the extension. */
export interface PanelDeps {
  readonly log: vscode.LogOutputChannel;
  readonly session: SessionHooks;
  /** The timeline: it counts the handoffs and is refreshed after a handoff. */
  readonly timeline: TimelineTreeProvider;
  /** `performance.now()` at activate() entry (the first resolve logs the time since). */
  readonly activatedAt: number;
  /** "Draft with …" (src/vscode/lm); absent, the panel's action says it is not available. */
  readonly modelDrafter?: PanelModelDrafter;
}

/**
 * Creates the view's provider and registers it; disposed with the extension. The webview
 * is created only when VS Code shows the view.
 */
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
