/**
 * The one-screen summary shown after a handoff is written (command palette and panel):
 * specialist, topic, files, tokens / budget, what was cut, where the files are, next step.
 */
import * as vscode from 'vscode';
import { formatCount } from '../core/handoff/render';
import type { HandoffPackage, HandoverOk, TouchedFile } from '../core/handoff/schema';

/** "M 2, A 1, ? 1": touched files counted by status letter. */
export function statusCounts(files: readonly TouchedFile[]): string {
  const counts = new Map<string, number>();
  for (const f of files) {
    counts.set(f.status, (counts.get(f.status) ?? 0) + 1);
  }
  return [...counts.entries()].map(([k, v]) => `${k} ${v}`).join(', ');
}

/** What fit-to-budget cut, in words: "2 turns, 120 diff lines". */
export function describeCuts(dropped: HandoffPackage['dropped']): string {
  const unit: Record<string, string> = { recent_turns: 'turns', diff_excerpt: 'diff lines', touched_files: 'files', tests_run: 'passing tests', summary: 'summary characters' };
  return dropped.map((d) => `${formatCount(d.count)} ${unit[d.section] ?? d.section}`).join(', ');
}

/** The summary's lines (one screen). */
export function summaryText(r: HandoverOk): string {
  const p = r.package;
  const total = p.touched_files.length + p.touched_files_omitted;
  const counts = [statusCounts(p.touched_files), p.touched_files_omitted ? `${formatCount(p.touched_files_omitted)} not listed in the handoff` : ''].filter(Boolean).join(', ');
  const tests = p.tests_run.length + p.tests_run_omitted;
  const lines = [
    `Specialist: ${r.persona_marker} (${p.specialist})`,
    `Topic: ${p.topic_title}`,
    `Files: ${formatCount(total)} touched${total ? ` (${counts})` : ''}`,
    `Tests: ${tests ? `${formatCount(tests)} run (${['passed', 'failed', 'unknown'].map((k) => `${p.tests_run.filter((t) => t.result === k).length} ${k}`).join(', ')})` : 'none recorded'}`,
    `Tokens: ${formatCount(p.estimated_tokens)}${p.tokens_estimated ? ' (estimate)' : ''} / ${formatCount(p.max_context_tokens)} (${p.tokenizer})`,
  ];
  if (p.dropped.length) {
    lines.push(`Cut to fit: ${describeCuts(p.dropped)}`);
  }
  lines.push(`Handoff: ${vscode.workspace.asRelativePath(r.handoff_file)}`);
  lines.push(`Briefing: ${vscode.workspace.asRelativePath(r.briefing.path)} (${r.briefing.newly_created ? 'created' : 'appended'})`);
  for (const w of r.warnings) {
    lines.push(w);
  }
  lines.push('', `Next: ${r.next_step}`);
  return lines.join('\n');
}

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
  const pick = await vscode.window.showInformationMessage(`Handed over to ${r.persona_marker}`, { modal: true, detail: summaryText(r) }, openBriefing, copy);
  if (pick === openBriefing) {
    await vscode.window.showTextDocument(vscode.Uri.file(r.briefing.path), { preview: false });
  } else if (pick === copy) {
    await vscode.env.clipboard.writeText(r.next_step);
  }
}
