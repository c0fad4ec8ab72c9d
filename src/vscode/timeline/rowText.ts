/**
 * The words of a row of the "Handoff Timeline" tree (./timelineTree.ts): its label,
 * description and screen-reader label, with the relative time and the source's name. No
 * VS Code API here, so the UI tests compute what a row must show from the same code.
 */
import { clipText } from '../../core/handoff/text';
import type { TimelineSource } from '../../core/timeline/chains';

/** The source's name in a row's description and tooltip (ours has none). */
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

/**
 * Most characters of a topic a row's label shows: 17. At the default side-bar width (300 px)
 * a row nested three deep still shows its label and its longest status word, "in progress",
 * in full (a selected row's inline actions cover its last 40 px). The whole topic is in the
 * tooltip and the screen-reader label.
 */
export const ROW_TOPIC_MAX = 17;

/** What a row is about: the words its label, description and screen-reader label are made of. */
export interface TimelineRowFacts {
  /** The specialist's label ("Quality reviewer"). */
  readonly specialist: string;
  /** Undefined until the file's head is read. */
  readonly kind: 'handoff' | 'result' | undefined;
  readonly topic: string | null | undefined;
  /** "pending", "in progress", "partial"; undefined until read. */
  readonly status: string | undefined;
  /** "waiting 3 days" (./waitingMark.ts). */
  readonly waiting: string | undefined;
  /** "contradicted", "verified" (./verdict.ts). */
  readonly verdict: string | undefined;
  /** Creation time, ms since the epoch. */
  readonly time: number;
  readonly source: TimelineSource;
}

/**
 * A row's text. Label: the topic (what tells rows apart), clipped to {@link ROW_TOPIC_MAX}
 * characters; without a topic, the specialist ("… — result" for a result). Description:
 * status words first (so the side bar's width cuts the least needed end), then the
 * specialist when the label is the topic ("… result" for a result), the relative time and
 * the source. Accessibility: the same in words, the topic whole.
 */
export function timelineRowText(row: TimelineRowFacts, now = Date.now()): { label: string; description: string; accessibility: string } {
  const topic = row.topic?.replace(/\s+/g, ' ').trim() || undefined;
  const result = row.kind === 'result';
  const who = result ? `${row.specialist} result` : row.specialist;
  const label = topic ? clipText(topic, ROW_TOPIC_MAX) : result ? `${row.specialist} — result` : row.specialist;
  const when = relativeTime(row.time, now);
  const source = SOURCE_LABELS[row.source];
  const description = [row.status, row.waiting, row.verdict, topic ? who : undefined, when, source].filter(Boolean).join(' · ');
  const what = result ? `Result from ${row.specialist}` : row.kind === 'handoff' ? `Handoff to ${row.specialist}` : row.specialist;
  const words = [what, topic && `topic: ${topic}`, row.status && `status: ${row.status}`, row.waiting, row.verdict, when, source && `from ${source}`];
  return { label, description, accessibility: words.filter(Boolean).join(', ') };
}
