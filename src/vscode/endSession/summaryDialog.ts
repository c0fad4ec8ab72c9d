/**
 * What VS Code shows after a handoff is written from the command palette or the panel: the
 * handoff's Markdown preview (rendered, its frontmatter hidden as the preview does), and a
 * notification — not a modal — with the summary's facts on one line (who received the work,
 * tokens against the budget, touched files, what was cut, the file) and the next moves:
 * "Continue in …" (an agent, or Copy prompt) and "Open Briefing". The whole one-screen
 * summary (src/core/handoff/summary.ts, `dialog` layout) goes to the output channel.
 */
import * as vscode from 'vscode';
import { describeCuts, handoffSummary, tokensText, touchedFilesText } from '../../core/handoff/summary';
import type { HandoverOk } from '../../core/handoff/schema';
import { Commands } from '../constants';
import { handoffViewUri } from './handoffView';

/**
 * The notification's actions, in order. Two: with four, VS Code squeezed the toast's
 * "Source: Specialist Handoff" label to "S…" beside them (microsoft/vscode#136989).
 * Nothing is lost: the handoff's preview is open already, and "Continue in…" offers Copy prompt.
 */
export const SUMMARY_ACTIONS = { continueIn: 'Continue in…', openBriefing: 'Open Briefing' } as const;

/** The built-in Markdown extension's preview command (markdown-language-features); absent when that extension is disabled. */
const MARKDOWN_PREVIEW = 'markdown.showPreview';

/**
 * Opens a handoff rendered: the Markdown preview of its body (without the frontmatter), else (the Markdown extension disabled) the
 * text. The command is executed, not looked up: `getCommands` lists only commands of
 * extensions already activated, and the Markdown extension activates on this command.
 */
export async function openHandoffPreview(file: string): Promise<void> {
  const uri = vscode.Uri.file(file);
  try {
    // Its body only: 1.10x+ previews draw frontmatter as a table by default (./handoffView.ts).
    await vscode.commands.executeCommand(MARKDOWN_PREVIEW, handoffViewUri(file));
    return;
  } catch {
    // command 'markdown.showPreview' not found: the built-in Markdown extension is disabled.
  }
  await vscode.window.showTextDocument(uri, { preview: false });
}

/**
 * The notification's text: `Handed over to <marker> — Tokens: … · Files: … · Cut to fit: … · <file>`
 * (the labels of the summary's rows).
 */
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

/**
 * Opens the handoff's preview and shows the summary notification; resolves once both are
 * shown (the action the user picks later runs on its own).
 * @param log where the whole summary is written (the output channel)
 */
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
