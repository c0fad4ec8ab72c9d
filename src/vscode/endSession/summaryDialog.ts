/**
 * After a handoff is written from the palette or the panel: its rendered preview and a
 * non-modal notification with the summary on one line; the whole summary goes to the log.
 */
import * as vscode from 'vscode';
import { describeCuts, handoffSummary, tokensText, touchedFilesText } from '../../core/handoff/summary';
import type { HandoverOk } from '../../core/handoff/schema';
import { Commands } from '../constants';
import { handoffViewUri } from './handoffView';

/** Two actions only: with more, VS Code truncates the toast's source label. "Continue in…" offers Copy prompt. */
export const SUMMARY_ACTIONS = { continueIn: 'Continue in…', openBriefing: 'Open Briefing' } as const;

/** Absent when the built-in Markdown extension is disabled. */
const MARKDOWN_PREVIEW = 'markdown.showPreview';

/**
 * The preview of the body, else (Markdown extension disabled) the text. The command is executed,
 * not looked up: `getCommands` lists only activated extensions' commands.
 */
export async function openHandoffPreview(file: string): Promise<void> {
  const uri = vscode.Uri.file(file);
  try {
    // Its body only: the preview draws frontmatter as a table (./handoffView.ts).
    await vscode.commands.executeCommand(MARKDOWN_PREVIEW, handoffViewUri(file));
    return;
  } catch {
    // command 'markdown.showPreview' not found: the built-in Markdown extension is disabled.
  }
  await vscode.window.showTextDocument(uri, { preview: false });
}

/** `Handed over to <marker> — Tokens: … · Files: … · Cut to fit: … · <file>` */
export function summaryLine(r: HandoverOk, relativePath: (f: string) => string): string {
  const p = r.package;
  const facts = [
    `Tokens: ${tokensText(p)}`,
    `Files: ${touchedFilesText(p)}`,
    ...(p.dropped.length ? [`Cut to fit: ${describeCuts(p.dropped)}`] : []),
    relativePath(r.handoff_file),
  ];
  return `Handed over to ${r.persona_marker} — ${facts.join(' · ')}`;
}

/** Resolves once both are shown; the action the user picks later runs on its own. */
export async function showHandoffSummary(r: HandoverOk, _interactive: boolean, log?: vscode.LogOutputChannel): Promise<void> {
  const rel = (f: string) => vscode.workspace.asRelativePath(f);
  log?.info(handoffSummary(r, { relativePath: rel, layout: 'dialog' }));
  await openHandoffPreview(r.handoff_file);
  const a = SUMMARY_ACTIONS;
  const picked = vscode.window.showInformationMessage(summaryLine(r, rel), a.continueIn, a.openBriefing);
  void Promise.resolve(picked)
    .then(async (pick) => {
      const uri = vscode.Uri.file(r.handoff_file);
      if (pick === a.continueIn) await vscode.commands.executeCommand(Commands.continueIn, uri);
      // The timeline's command: one behaviour for both (read-only, rendered, beside the handoff's preview).
      else if (pick === a.openBriefing) await vscode.commands.executeCommand(Commands.timelineOpenBriefing, uri);
    })
    .catch((err: unknown) => log?.error(`summary action: ${(err as Error)?.message ?? String(err)}`));
}
