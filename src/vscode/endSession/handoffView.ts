/**
 * The rendered view of a written handoff: the `handoff-view:` scheme's read-only documents
 * hold a handoff file's Markdown body without its YAML frontmatter, and the Markdown preview
 * opens on them. Since VS Code 1.10x the built-in preview draws frontmatter as a table by
 * default (setting `markdown.preview.frontMatter`, microsoft/vscode#316147), so the preview of
 * the file itself opened on some fifty rows of machine metadata (ids, hashes, budget) before
 * the handoff's title ("its Markdown preview, not the raw frontmatter"). The user's
 * setting is left alone; the file itself is one click away (the preview's "Open Source").
 *
 * A document's URI path is the handoff file's absolute path; its text is read when VS Code
 * asks for it, so nothing is kept in memory.
 */
import * as vscode from 'vscode';
import { splitFrontmatter } from '../../core/handoff/frontmatter';

/** URI scheme of the read-only rendered handoffs. */
export const HANDOFF_VIEW_SCHEME = 'handoff-view';

/** The `handoff-view:` URI showing `file` (an absolute path) without its frontmatter. */
export function handoffViewUri(file: string): vscode.Uri {
  return vscode.Uri.from({ scheme: HANDOFF_VIEW_SCHEME, path: vscode.Uri.file(file).path });
}

/**
 * The body of a handoff file for the preview: the Markdown after its frontmatter, or the
 * whole text when it has none or the frontmatter does not parse (nothing is hidden then).
 */
export function handoffViewText(text: string): string {
  const split = splitFrontmatter(text);
  return split.ok && split.hasFrontmatter ? split.body.replace(/^\s*\n/, '') : text;
}

/** Provides the `handoff-view:` documents: each reads its handoff file when opened. */
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

/** Registers the `handoff-view:` provider for the extension's lifetime. */
export function registerHandoffView(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(HANDOFF_VIEW_SCHEME, new HandoffViewProvider()));
}
