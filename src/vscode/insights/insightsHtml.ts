/** The insights webview's HTML, on the panel's CSP and resource rules (panelHtml.ts). */
import type * as vscode from 'vscode';
import { webviewPage } from '../panel/panelHtml';

export function insightsHtml(webview: vscode.Webview, webviewRoot: vscode.Uri, media: vscode.Uri): string {
  return webviewPage(webview, webviewRoot, media, { css: 'insights.css', script: 'insights.js', title: 'Handoff Insights' });
}
