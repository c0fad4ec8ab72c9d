/** A timeline row's description, icon and rich tooltip besides its label (./timelineTree.ts). */
import * as vscode from 'vscode';
import type { ParsedHandoff } from '../../core/handoff/parse';
import { formatCount } from '../../core/handoff/limits';
import { plural } from '../../core/handoff/text';
import { STATUS_LABELS } from '../../core/handoff/status';
import type { Specialist } from '../../core/specialists/registry';
import type { TimelineFile, TimelineSource } from '../../core/timeline/chains';
import { appendVerification, type VerificationShown } from './verdict';

/** Ours has none. */
export const SOURCE_LABELS: Record<TimelineSource, string> = { handoff: '', itervox: 'itervox', 'agent-zero': 'Agent Zero' };

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "5 minutes ago", "yesterday", "3 days ago" for a time in ms since the epoch. */
export function relativeTime(time: number, now = Date.now()): string {
  const s = Math.round((time - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 60) return relative.format(s, 'second');
  if (abs < 3600) return relative.format(Math.round(s / 60), 'minute');
  if (abs < 86400) return relative.format(Math.round(s / 3600), 'hour');
  if (abs < 86400 * 30) return relative.format(Math.round(s / 86400), 'day');
  return new Date(time).toLocaleDateString(undefined, { dateStyle: 'medium' });
}

const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Local time zone, e.g. "Dec 5, 2026, 2:03 PM"; the text itself when it is not a time. */
export function localTime(time: number | string): string {
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? String(time) : whenFormat.format(date);
}

export function resultIcon(status: string): string {
  return status === 'complete' ? 'pass' : status === 'blocked' ? 'circle-slash' : 'sync';
}

/** Every text from the file is escaped for Markdown; `more` appends last. */
export function timelineTooltip(
  file: TimelineFile,
  head: ParsedHandoff | undefined,
  s: Specialist | undefined,
  verification: VerificationShown | undefined,
  more: (md: vscode.MarkdownString, esc: (t: string) => string) => void,
): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.supportThemeIcons = true;
  const esc = (t: string) => t.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
  md.appendMarkdown(`**${esc(s?.label ?? file.specialist)}** ${esc(s?.personaMarker ?? '')}${file.partial ? ' — $(warning) partial' : ''}\n\n`);
  md.appendMarkdown(`${esc(localTime(file.time))} · \`${file.name.replace(/`/g, "'")}\`\n\n`);
  if (head) {
    const fm = head.frontmatter;
    md.appendMarkdown(
      `${fm.kind === 'result' ? 'Result' : 'Handoff'} · **${esc(STATUS_LABELS[fm.status])}** · hop ${fm.hop} (${esc(fm.chain.join(' → '))})\n\n`,
    );
    // Every status change, merged branches included: the newest 5.
    if (fm.status_history.length) {
      md.appendMarkdown(
        `Status history: ${fm.status_history
          .slice(-5)
          .map((c) => esc(`${STATUS_LABELS[c.to]} (${localTime(c.at)})`))
          .join(' → ')}\n\n`,
      );
    }
    const summary = (head.sections.get('Summary') ?? '').trim().replace(/\s+/g, ' ');
    if (summary && summary !== '_None._') {
      md.appendMarkdown(`${esc(summary.length > 400 ? `${summary.slice(0, 399)}…` : summary)}\n\n`);
    }
    md.appendMarkdown(
      `${formatCount(fm.estimated_tokens)} / ${formatCount(fm.max_context_tokens)} tokens · ${plural(fm.touched_files_count, 'touched file')} · ${plural(fm.tests_run_count, 'test run')}`,
    );
  } else if (file.source !== 'handoff') {
    md.appendMarkdown(`From ${esc(SOURCE_LABELS[file.source])}${file.topic ? ` · ${esc(file.topic)}` : ''}`);
  }
  appendVerification(md, verification, esc);
  more(md, esc); // waiting too long
  return md;
}
