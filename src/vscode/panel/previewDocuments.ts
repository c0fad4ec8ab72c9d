/** `handoff-preview:` read-only documents, each holding a preview's Markdown until the extension is disposed. */
import * as vscode from 'vscode';
import { handoffViewText } from '../endSession/handoffView';

/** Absent when the built-in Markdown extension is disabled. */
const MARKDOWN_PREVIEW = 'markdown.showPreview';

export const PREVIEW_SCHEME = 'handoff-preview';

export class PreviewDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(uri: vscode.Uri, text: string): void {
    this.docs.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  /** Empty when there is none. */
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '';
  }

  /** Rendered without the frontmatter (the preview draws it as a metadata table); read-only text without the Markdown extension. */
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

  dispose(): void {
    this.changed.dispose();
  }
}
