/**
 * The HTML of the "Handoff Insights" webview, on the panel's rules
 * (src/vscode/panel/panelHtml.ts): CSP `default-src 'none'`, the script by a nonce from
 * crypto.randomBytes, styles and fonts only from the webview's cspSource (no inline style:
 * the charts are SVG coloured by classes of media/insights.css), and the resources only from
 * the built webview folder and media/ (the panel's only localResourceRoots).
 */
import type * as vscode from 'vscode';
import { webviewPage } from '../panel/panelHtml';

/**
 * The page: codicons and `media/insights.css`, the "Loading…" placeholder, and the bundled
 * `insights.js` with a fresh nonce ({@link webviewPage}).
 * @param webviewRoot `<extension>/dist/webview`
 * @param media `<extension>/media`
 */
export function insightsHtml(webview: vscode.Webview, webviewRoot: vscode.Uri, media: vscode.Uri): string {
  return webviewPage(webview, webviewRoot, media, { css: 'insights.css', script: 'insights.js', title: 'Handoff Insights' });
}
