/**
 * The "Hand over" webview view. Until the full panel lands it shows the workspace state
 * and a button that runs the end-of-session handoff. Strict CSP (`default-src 'none'`,
 * script by nonce from crypto.randomBytes), resources only from dist/webview and media/,
 * and every message from the webview validated with zod; invalid ones are logged and ignored.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { parseWebviewMessage, type HostToWebview, type PanelState } from '../core/protocol';
import { Commands } from './constants';
import { DisposableOwner } from './lifecycle';

/** Supplies the panel state on demand (folder open, trusted, number of handoffs). */
export type PanelStateSource = () => Promise<PanelState>;

/** WebviewViewProvider of the "Hand over" view. */
export class HandOverViewProvider extends DisposableOwner implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private ready = false;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    private readonly state: PanelStateSource,
    private readonly onResolved: () => void = () => undefined,
  ) {
    super();
  }

  /** Called by VS Code when the view becomes visible the first time (or after being disposed). */
  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [webviewRoot, media] };
    view.webview.html = this.html(view.webview, vscode.Uri.joinPath(webviewRoot, 'main.js'), vscode.Uri.joinPath(media, 'panel.css'));
    const subs = [
      view.webview.onDidReceiveMessage((raw: unknown) => void this.onMessage(raw)),
      view.onDidChangeVisibility(() => view.visible && void this.pushState()),
    ];
    view.onDidDispose(() => {
      subs.forEach((d) => d.dispose());
      if (this.view === view) {
        this.view = undefined;
      }
    });
    this.onResolved();
  }

  /** Sends the current state to the webview (after its `ready`). */
  async pushState(): Promise<void> {
    if (this.view && this.ready) {
      const message: HostToWebview = { type: 'state', state: await this.state() };
      void this.view.webview.postMessage(message);
    }
  }

  private async onMessage(raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.log.warn(`ignored an invalid message from the Hand over view: ${parsed.error}`);
      return;
    }
    const msg = parsed.message;
    switch (msg.type) {
      case 'ready':
        this.ready = true;
        await this.pushState();
        break;
      case 'runCommand':
        await vscode.commands.executeCommand(Commands.endSession);
        break;
    }
  }

  private html(webview: vscode.Webview, script: vscode.Uri, style: vscode.Uri): string {
    const nonce = randomBytes(16).toString('base64');
    const csp = [`default-src 'none'`, `style-src ${webview.cspSource}`, `font-src ${webview.cspSource}`, `img-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${webview.asWebviewUri(style)}">
<title>Hand over</title>
</head>
<body>
<main>
<h2>Hand over to a specialist</h2>
<p>Write a handoff for the next specialist: the touched files come from git, you add the summary, decisions, next steps and blockers.</p>
<p id="status" role="status" aria-live="polite">Loading…</p>
<button id="end-session" type="button" disabled>End Session and Hand Over…</button>
</main>
<script nonce="${nonce}" src="${webview.asWebviewUri(script)}"></script>
</body>
</html>`;
  }
}
