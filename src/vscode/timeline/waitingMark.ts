/**
 * A handoff waiting too long: not picked up, or accepted and never answered, after
 * `handoff.pendingWarnAfter`. Row icon precedence: partial, contradicted, waiting, verified, the
 * specialist's own; a wrong claim outranks a late answer, a late answer outranks good news.
 */
import * as vscode from 'vscode';
import { ageInWords, DEFAULT_PENDING_WARN_AFTER_MS, waitingLine, type Waiting } from '../../core/timeline/waiting';
import { Config } from '../constants';
import { readSettings } from '../workspace/settings';

export const WAITING_COLOR = 'list.warningForeground';

export function waitingIcon(): vscode.ThemeIcon {
  return new vscode.ThemeIcon('warning', new vscode.ThemeColor(WAITING_COLOR));
}

export function waitingWord(w: Waiting | undefined): string | undefined {
  return w ? `waiting ${ageInWords(w.age_ms)}` : undefined;
}

/** "$(warning) Pending since 2026-11-28 09:00 UTC (3 days), not picked up — longer than handoff.pendingWarnAfter (2 days)" */
export function appendWaiting(md: vscode.MarkdownString, w: Waiting | undefined, warnAfterMs: number, esc: (t: string) => string): void {
  if (!w) return;
  const line = waitingLine(w);
  md.appendMarkdown(
    `\n\n$(warning) ${esc(`${line[0].toUpperCase()}${line.slice(1)} — longer than ${Config.section}.${Config.pendingWarnAfter} (${ageInWords(warnAfterMs)})`)}`,
  );
}

/** Read once per render; a bad value is logged and shown once until it changes, and the default used. */
export class PendingWarnAfterSetting {
  /** 0: off; the default until read. */
  ms = DEFAULT_PENDING_WARN_AFTER_MS;
  private shown: string | undefined;

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
