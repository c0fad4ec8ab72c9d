/**
 * How the timeline shows a handoff's latest verification (docs/DESIGN.md §9
 * "Verify on receipt"), from the engine timeline's `verification` (when, counts, line):
 * the row's icon — the error icon in the error colour when a recorded result is
 * contradicted, the pass icon in the test-passed colour when every recheck was verified,
 * the specialist's own icon otherwise — a word in its description (so the verdict is read
 * out, not only seen), and the verification line at the end of its tooltip.
 */
import * as vscode from 'vscode';
import type { RecheckCounts } from '../../core/receive/verification';

/** What the timeline knows of a verification: when (ISO), the counts, the line ("Checked at …: 1 contradicted: `npm test` passed at handoff, fails now"). */
export interface VerificationShown {
  readonly checked_at: string;
  readonly counts: RecheckCounts;
  readonly line: string;
}

/**
 * The verdict a row shows: `contradicted` (at least one recorded result differs now),
 * `verified` (at least one recheck, every one verified), or undefined (nothing re-run, or
 * some unverifiable / not run: the tooltip's line says which).
 */
export function rowVerdict(counts: RecheckCounts): 'contradicted' | 'verified' | undefined {
  if (counts.contradicted > 0) return 'contradicted';
  if (counts.verified > 0 && counts.unverifiable === 0 && counts.not_run === 0) return 'verified';
  return undefined;
}

/** Theme colours of the verdict icons: VS Code's `errorForeground` and `testing.iconPassed`. */
export const VERDICT_COLORS = { contradicted: 'errorForeground', verified: 'testing.iconPassed' } as const;

/** Codicons of the verdicts: `error` and `pass`. */
export const VERDICT_ICONS = { contradicted: 'error', verified: 'pass' } as const;

/** The row's icon for a verification; undefined: keep the row's own icon. */
export function verdictIcon(v: VerificationShown | undefined): vscode.ThemeIcon | undefined {
  const verdict = v && rowVerdict(v.counts);
  return verdict ? new vscode.ThemeIcon(VERDICT_ICONS[verdict], new vscode.ThemeColor(VERDICT_COLORS[verdict])) : undefined;
}

/** The word the row's description carries for a verification ("contradicted", "verified"); undefined when none. */
export function verdictWord(v: VerificationShown | undefined): string | undefined {
  return v ? rowVerdict(v.counts) : undefined;
}

/**
 * Appends the verification line to a tooltip, with the verdict's icon, escaped for Markdown
 * by `esc` (the line's code spans stay code spans).
 */
export function appendVerification(md: vscode.MarkdownString, v: VerificationShown | undefined, esc: (t: string) => string): void {
  if (!v) return;
  const verdict = rowVerdict(v.counts);
  const mark = verdict ? `$(${VERDICT_ICONS[verdict]}) ` : '$(info) ';
  // Keep `…` code spans (the commands) as code; escape the words between them.
  const parts = v.line.split(/(`[^`\n]*`)/);
  md.appendMarkdown(`\n\n${mark}${parts.map((p) => (/^`[^`\n]*`$/.test(p) ? p : esc(p))).join('')}`);
}
