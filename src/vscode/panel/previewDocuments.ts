/**
 * The read-only documents that show the panel's preview of a handoff: a
 * TextDocumentContentProvider for the `handoff-preview:` scheme, holding the Markdown body of
 * each preview until the extension is disposed, shown in the Markdown preview.
 */
import * as vscode from 'vscode';
import { handoffViewText } from '../endSession/handoffView';

/** The built-in Markdown extension's preview command (markdown-language-features); absent when that extension is disabled. */
const MARKDOWN_PREVIEW = 'markdown.showPreview';

/** URI scheme of the read-only handoff preview documents. */
export const PREVIEW_SCHEME = 'handoff-preview';

/** Read-only documents holding rendered previews. */
export class PreviewDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** Fires when a preview's text was replaced (VS Code re-reads the open document). */
  readonly onDidChange = this.changed.event;

  /** Sets the text of the preview at `uri`. */
  set(uri: vscode.Uri, text: string): void {
    this.docs.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  /** The text of the preview at `uri`; empty when there is none. */
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '';
  }

  /**
   * Shows `text` (a handoff's Markdown, frontmatter first) rendered, as the written handoff
   * opens: the Markdown preview of its body, the frontmatter left out (VS Code's preview draws
   * it as a table of machine metadata); without the built-in Markdown extension, the read-only
   * text in a preview editor.
   */
  async show(label: string, text: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/Handoff to ${label} (not written yet).md` });
    this.set(uri, handoffViewText(text));
    try {
      await vscode.commands.executeCommand(MARKDOWN_PREVIEW, uri);
      return;
    } catch {
      // command 'markdown.showPreview' not found: the built-in Markdown extension is disabled.
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true });
  }

  /** Releases the change event. */
  dispose(): void {
    this.changed.dispose();
  }
}
