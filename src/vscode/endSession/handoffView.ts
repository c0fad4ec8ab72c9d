/**
 * `handoff-view:` read-only documents: a handoff's Markdown body without its YAML frontmatter,
 * which the built-in preview would draw as a long metadata table before the title. The URI path
 * is the handoff file's absolute path; the text is read on demand.
 */
import * as vscode from 'vscode';
import { splitFrontmatter } from '../../core/handoff/frontmatter';

export const HANDOFF_VIEW_SCHEME = 'handoff-view';

export function handoffViewUri(file: string): vscode.Uri {
  return vscode.Uri.from({ scheme: HANDOFF_VIEW_SCHEME, path: vscode.Uri.file(file).path });
}

/** The whole text when there is no frontmatter or it does not parse: nothing is hidden then. */
export function handoffViewText(text: string): string {
  const split = splitFrontmatter(text);
  return split.ok && split.hasFrontmatter ? split.body.replace(/^\s*\n/, '') : text;
}

class HandoffViewProvider implements vscode.TextDocumentContentProvider {
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    try {
      const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(uri.fsPath));
      return handoffViewText(new TextDecoder().decode(bytes));
    } catch (err) {
      return `The handoff file ${uri.fsPath} could not be read: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
}

export function registerHandoffView(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(HANDOFF_VIEW_SCHEME, new HandoffViewProvider()));
}
