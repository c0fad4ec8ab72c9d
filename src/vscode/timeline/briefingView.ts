/**
 * "Open Briefing", from the timeline and from the notification after a handoff, one way: the
 * briefing read-only and rendered — the Markdown preview of a `handoff-briefing:` document
 * (its sections joined, as the engine reads them) — beside what is open, so the handoff's
 * own preview stays. Nothing is an unsaved buffer: closing it asks nothing.
 */
import * as vscode from 'vscode';

/** URI scheme of the read-only briefing documents. */
export const BRIEFING_SCHEME = 'handoff-briefing';

/** The built-in Markdown extension's command that opens a preview in the group beside the active one. */
const PREVIEW_TO_SIDE = 'markdown.showPreviewToSide';

/** Read-only documents holding the briefings opened in this window, by URI. */
export class BriefingDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** Fires when a briefing opened again has new text (VS Code re-reads the open document). */
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? 'This briefing is no longer held in this window: open it again from the Handoff timeline.';
  }

  /**
   * Shows `text`, the briefing named `name`, read-only and rendered beside the active editor
   * (the Markdown preview); without the Markdown extension, the read-only text beside it.
   */
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
