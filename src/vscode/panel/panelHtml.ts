/**
 * Webview HTML: CSP `default-src 'none'`, the script by nonce, styles and fonts only from
 * cspSource, resources only from dist/webview and media/.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPageParts {
  readonly css: string;
  readonly script: string;
  readonly title: string;
}

/** Shared by the Hand Over view and the insights panel. */
export function webviewPage(webview: vscode.Webview, webviewRoot: vscode.Uri, media: vscode.Uri, parts: WebviewPageParts): string {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    `default-src 'none'`,
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  const asset = (base: vscode.Uri, file: string) => webview.asWebviewUri(vscode.Uri.joinPath(base, file));
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset(webviewRoot, 'codicon.css')}">
<link rel="stylesheet" href="${asset(media, parts.css)}">
<title>${parts.title}</title>
</head>
<body>
<main id="app" aria-busy="true"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${asset(webviewRoot, parts.script)}"></script>
</body>
</html>`;
}

export function panelHtml(webview: vscode.Webview, webviewRoot: vscode.Uri, media: vscode.Uri): string {
  return webviewPage(webview, webviewRoot, media, { css: 'panel.css', script: 'main.js', title: 'Hand Over to Specialist' });
}
