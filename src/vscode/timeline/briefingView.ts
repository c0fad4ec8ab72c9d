/** "Open Briefing": read-only and rendered beside what is open, so the handoff's own preview stays. */
import * as vscode from 'vscode';

export const BRIEFING_SCHEME = 'handoff-briefing';

/** Opens a preview in the group beside the active one. */
const PREVIEW_TO_SIDE = 'markdown.showPreviewToSide';

export class BriefingDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? 'This briefing is no longer held in this window: open it again from the Handoff timeline.';
  }

  async show(name: string, text: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: BRIEFING_SCHEME, path: `/Briefing ${name}.md` });
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    try {
      await vscode.commands.executeCommand(PREVIEW_TO_SIDE, uri);
      return;
    } catch {
      // The built-in Markdown extension is disabled: the text, read-only, beside.
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: false });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
