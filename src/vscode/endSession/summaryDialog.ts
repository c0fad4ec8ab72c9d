/**
 * What VS Code shows after a handoff is written from the command palette or the panel:
 * the handoff file opens, then the one-screen summary (src/core/handoff/summary.ts, its
 * `dialog` layout) in a modal with "Open Briefing" and "Copy Next Step" — or, for a
 * handoff written without prompts, a notification naming the file.
 */
import * as vscode from 'vscode';
import { handoffSummary } from '../../core/handoff/summary';
import type { HandoverOk } from '../../core/handoff/schema';

/**
 * Opens the handoff file and shows the summary: a modal one-screen summary (with "Open
 * Briefing" and "Copy Next Step") when `modal`, else a notification.
 */
export async function showHandoffSummary(r: HandoverOk, modal: boolean): Promise<void> {
  await vscode.window.showTextDocument(vscode.Uri.file(r.handoff_file), { preview: false });
  if (!modal) {
    void vscode.window.showInformationMessage(`Handed over to ${r.persona_marker}: ${vscode.workspace.asRelativePath(r.handoff_file)}`);
    return;
  }
  const openBriefing = 'Open Briefing';
  const copy = 'Copy Next Step';
  const detail = handoffSummary(r, { relativePath: (f) => vscode.workspace.asRelativePath(f), layout: 'dialog' });
  const pick = await vscode.window.showInformationMessage(`Handed over to ${r.persona_marker}`, { modal: true, detail }, openBriefing, copy);
  if (pick === openBriefing) {
    await vscode.window.showTextDocument(vscode.Uri.file(r.briefing.path), { preview: false });
  } else if (pick === copy) {
    await vscode.env.clipboard.writeText(r.next_step);
  }
}
