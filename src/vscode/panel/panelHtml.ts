/**
 * The HTML of the "Hand over" webview. Security: CSP `default-src 'none'`, the script by
 * a nonce from crypto.randomBytes, styles and fonts only from the webview's cspSource;
 * the script and styles come from the built webview folder and media/ (the view's only
 * localResourceRoots).
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** What distinguishes one of our webview pages: its stylesheet in media/, its script in the built webview folder, its title. */
export interface WebviewPageParts {
  readonly css: string;
  readonly script: string;
  readonly title: string;
}

/**
 * A page on the rules above: codicons and `media/<css>`, the "Loading…" placeholder, and
 * the bundled `<script>` with a fresh nonce (the Hand Over view and the insights panel).
 * @param webviewRoot `<extension>/dist/webview`
 * @param media `<extension>/media`
 */
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

/**
 * The Hand Over page: `media/panel.css` and the bundled `main.js` ({@link webviewPage}).
 * @param webviewRoot `<extension>/dist/webview`
 * @param media `<extension>/media`
 */
export function panelHtml(webview: vscode.Webview, webviewRoot: vscode.Uri, media: vscode.Uri): string {
  return webviewPage(webview, webviewRoot, media, { css: 'panel.css', script: 'main.js', title: 'Hand Over to Specialist' });
}
