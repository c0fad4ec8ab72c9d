/**
 * How the timeline shows a handoff waiting too long (docs/DESIGN.md §5 "Insights"):
 * not picked up after `handoff.pendingWarnAfter`, or accepted and never answered (no result
 * below it, no further status) after that long. The row gets the `warning` codicon in the
 * list warning colour, a word in its description ("waiting 3 days", so it is read out, not
 * only seen) and a line in its tooltip saying since when. Precedence of the row's icon: a
 * partial file's warning, then a contradicted verification, then waiting, then a
 * verified one, then the specialist's own icon — a wrong claim outranks a late answer, a late
 * answer outranks good news. Whether a row waits is `nodeWaiting` (src/core/timeline/waiting.ts).
 */
import * as vscode from 'vscode';
import { ageInWords, DEFAULT_PENDING_WARN_AFTER_MS, waitingLine, type Waiting } from '../../core/timeline/waiting';
import { Config } from '../constants';
import { readSettings } from '../workspace/settings';

/** Theme colour of the waiting icon: VS Code's `list.warningForeground` (the colour lists use for warnings). */
export const WAITING_COLOR = 'list.warningForeground';

/** The waiting icon: ThemeIcon `warning` in {@link WAITING_COLOR}. */
export function waitingIcon(): vscode.ThemeIcon {
  return new vscode.ThemeIcon('warning', new vscode.ThemeColor(WAITING_COLOR));
}

/** The word the row's description carries: "waiting 3 days". */
export function waitingWord(w: Waiting | undefined): string | undefined {
  return w ? `waiting ${ageInWords(w.age_ms)}` : undefined;
}

/**
 * Appends the waiting line to a tooltip: "$(warning) Pending since 2026-11-28 09:00 UTC
 * (3 days), not picked up — longer than handoff.pendingWarnAfter (2 days)", escaped by `esc`.
 */
export function appendWaiting(md: vscode.MarkdownString, w: Waiting | undefined, warnAfterMs: number, esc: (t: string) => string): void {
  if (!w) return;
  const line = waitingLine(w);
  md.appendMarkdown(
    `\n\n$(warning) ${esc(`${line[0].toUpperCase()}${line.slice(1)} — longer than ${Config.section}.${Config.pendingWarnAfter} (${ageInWords(warnAfterMs)})`)}`,
  );
}

/**
 * `handoff.pendingWarnAfter` as the timeline reads it, once per render: `ms` (0: off). A bad
 * value is logged and shown once (with *Open Settings*) until it changes, and the default used.
 */
export class PendingWarnAfterSetting {
  /** The setting in ms (the default, 2 days, until read). */
  ms = DEFAULT_PENDING_WARN_AFTER_MS;
  private shown: string | undefined;

  /** Reads the setting of `folder`. */
  read(folder: vscode.WorkspaceFolder, log: vscode.LogOutputChannel): void {
    const settings = readSettings(folder);
    this.ms = settings.pendingWarnAfterMs;
    const problem = settings.pendingWarnAfterProblem;
    if (problem && problem !== this.shown) {
      log.warn(`timeline: ${problem}`);
      const open = 'Open Settings';
      void vscode.window
        .showWarningMessage(problem, open)
        .then((c) => c === open && vscode.commands.executeCommand('workbench.action.openSettings', `${Config.section}.${Config.pendingWarnAfter}`));
    }
    this.shown = problem;
  }
}
