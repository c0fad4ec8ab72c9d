/**
 * The read-only documents that show the panel's preview of a handoff: a
 * TextDocumentContentProvider for the `handoff-preview:` scheme, holding the rendered
 * Markdown of each preview until the extension is disposed.
 */
import * as vscode from 'vscode';

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
   * Shows `text` as the Markdown preview of a handoff to `label`, beside the focus (the
   * panel keeps it), in a preview editor.
   */
  async show(label: string, text: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/Preview of handoff to ${label}.md` });
    this.set(uri, text);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true });
  }

  /** Releases the change event. */
  dispose(): void {
    this.changed.dispose();
  }
}
