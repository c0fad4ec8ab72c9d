/**
 * The HTML of the "Hand over" webview. Security: CSP `default-src 'none'`, the script by
 * a nonce from crypto.randomBytes, styles and fonts only from the webview's cspSource;
 * the script and styles come from the built webview folder and media/ (the view's only
 * localResourceRoots).
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/**
 * The page: codicons and `media/panel.css`, the "Loading…" placeholder, and the bundled
 * `main.js` with a fresh nonce.
 * @param webviewRoot `<extension>/dist/webview`
 * @param media `<extension>/media`
 */
export function panelHtml(webview: vscode.Webview, webviewRoot: vscode.Uri, media: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const csp = [`default-src 'none'`, `style-src ${webview.cspSource}`, `font-src ${webview.cspSource}`, `img-src ${webview.cspSource} data:`, `script-src 'nonce-${nonce}'`].join('; ');
  const asset = (base: vscode.Uri, file: string) => webview.asWebviewUri(vscode.Uri.joinPath(base, file));
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset(webviewRoot, 'codicon.css')}">
<link rel="stylesheet" href="${asset(media, 'panel.css')}">
<title>Hand Over to Specialist</title>
</head>
<body>
<main id="app" aria-busy="true"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${asset(webviewRoot, 'main.js')}"></script>
</body>
</html>`;
}
