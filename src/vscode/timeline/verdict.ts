/** A handoff's latest verification in the timeline: row icon, a description word (read out, not only seen), a tooltip line. */
import * as vscode from 'vscode';
import type { RecheckCounts } from '../../core/receive/verification';

/** `line`: "Checked at …: 1 contradicted: `npm test` passed at handoff, fails now". */
export interface VerificationShown {
  readonly checked_at: string;
  readonly counts: RecheckCounts;
  readonly line: string;
}

/** Undefined when nothing was re-run, or some were unverifiable or not run. */
export function rowVerdict(counts: RecheckCounts): 'contradicted' | 'verified' | undefined {
  if (counts.contradicted > 0) return 'contradicted';
  if (counts.verified > 0 && counts.unverifiable === 0 && counts.not_run === 0) return 'verified';
  return undefined;
}

export const VERDICT_COLORS = { contradicted: 'errorForeground', verified: 'testing.iconPassed' } as const;

export const VERDICT_ICONS = { contradicted: 'error', verified: 'pass' } as const;

/** Undefined: keep the row's own icon. */
export function verdictIcon(v: VerificationShown | undefined): vscode.ThemeIcon | undefined {
  const verdict = v && rowVerdict(v.counts);
  return verdict ? new vscode.ThemeIcon(VERDICT_ICONS[verdict], new vscode.ThemeColor(VERDICT_COLORS[verdict])) : undefined;
}

export function verdictWord(v: VerificationShown | undefined): string | undefined {
  return v ? rowVerdict(v.counts) : undefined;
}

const localTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The line is the receiving prompt's, with an ISO time for agents; a person reads the time in their own zone. */
function lineInLocalTime(v: VerificationShown): string {
  const head = `Checked at ${v.checked_at}`;
  const time = Date.parse(v.checked_at);
  return v.line.startsWith(head) && !Number.isNaN(time) ? `Checked at ${localTime.format(time)}${v.line.slice(head.length)}` : v.line;
}

/** Code spans in the line (the commands) stay code spans. */
export function appendVerification(md: vscode.MarkdownString, v: VerificationShown | undefined, esc: (t: string) => string): void {
  if (!v) return;
  const verdict = rowVerdict(v.counts);
  const mark = verdict ? `$(${VERDICT_ICONS[verdict]}) ` : '$(info) ';
  const parts = lineInLocalTime(v).split(/(`[^`\n]*`)/);
  md.appendMarkdown(`\n\n${mark}${parts.map((p) => (/^`[^`\n]*`$/.test(p) ? p : esc(p))).join('')}`);
}
