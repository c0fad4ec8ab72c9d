/** A timeline row's icon and rich tooltip, besides its text (./rowText.ts). */
import * as vscode from 'vscode';
import type { ParsedHandoff } from '../../core/handoff/parse';
import { formatCount } from '../../core/handoff/limits';
import { plural } from '../../core/handoff/text';
import { STATUS_LABELS } from '../../core/handoff/status';
import type { Specialist } from '../../core/specialists/registry';
import type { TimelineFile } from '../../core/timeline/chains';
import { SOURCE_LABELS } from './rowText';
import { appendVerification, type VerificationShown } from './verdict';

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
    const topic = (fm.topic_title || fm.topic).replace(/\s+/g, ' ').trim();
    if (topic) md.appendMarkdown(`${esc(topic)}\n\n`);
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
