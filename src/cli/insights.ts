/** `specialist-handoff insights`: how the project's handoffs go, as a table or --json. Writes nothing. */
import { DEFAULT_MAX_HANDOVER_DEPTH, MAX_HOP_DEPTH } from '../core/handoff/compose';
import type { Insights, InsightsFigures } from '../core/timeline/insights';
import { ageInWords, parsePendingWarnAfter, shortDuration, utcMinute, waitingLine } from '../core/timeline/waiting';
import { readInsights } from '../engine/timeline/insights';
import { openProject } from '../engine/project/project';
import { integer, type Values } from './args';
import { EXIT_BAD_INPUT, EXIT_OK, type CliIo } from './io';
import { escapeControls, exitCodeOf, fail, failWith } from './wording';
import { resolveWorkspace } from './workspace';

/**
 * `--since`: a UTC day (`2026-11-28`) or an ISO 8601 time with its zone, not after `now`;
 * undefined when absent.
 */
export function sinceFlag(value: string | undefined, now: Date): Date | undefined | { error: string } {
  if (value === undefined) return undefined;
  const v = value.trim();
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/i.test(v);
  const ms = day ? Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : time ? Date.parse(v) : NaN;
  const real = Number.isFinite(ms) && (!day || new Date(ms).toISOString().startsWith(v));
  if (!real) {
    return {
      error: `ERROR: --since must be a date such as 2026-11-28 (UTC) or an ISO 8601 time with its zone such as 2026-11-28T09:00Z (got ${JSON.stringify(v.slice(0, 60))})`,
    };
  }
  if (ms > now.getTime()) return { error: `ERROR: --since ${v} is in the future: nothing would be counted — give a date up to today, or leave it out for all` };
  return new Date(ms);
}

const COLUMNS: ReadonlyArray<readonly [string, (f: InsightsFigures) => string]> = [
  ['written', (f) => String(f.written)],
  ['picked up', (f) => String(f.picked_up)],
  ['pending', (f) => String(f.pending)],
  ['accepted', (f) => String(f.accepted)],
  ['in progress', (f) => String(f.in_progress)],
  ['complete', (f) => String(f.completed)],
  ['blocked', (f) => String(f.blocked)],
  ['waiting too long', (f) => String(f.pending_too_long + f.unanswered_too_long)],
  ['to pick up', (f) => shortDuration(f.median_pickup_ms)],
  ['to complete', (f) => shortDuration(f.median_complete_ms)],
  ['hand-backs', (f) => String(f.handbacks)],
  ['retries', (f) => String(f.retries)],
  ['failing tests', (f) => String(f.tests_failing_at_handback)],
];

/** The insights as a terminal table: per specialist and `all`, then chains and long waits. */
export function formatInsights(i: Insights): string {
  const period = i.period.since ? `since ${utcMinute(i.period.since)}` : 'all handoffs';
  const warn = i.pending_warn_after_ms ? `warning after ${ageInWords(i.pending_warn_after_ms)} waiting` : 'no waiting warning';
  const lines = [`Handoff insights, ${period}, until ${utcMinute(i.period.until)} (${warn}; times are medians)`, ''];
  if (i.overall.written + i.overall.handbacks === 0) {
    lines.push(`No handoff${i.period.since ? ' in this period' : ' yet'}.`);
    return lines.join('\n');
  }
  const rows = [
    ['specialist', ...COLUMNS.map(([h]) => h)],
    ...i.specialists.map((s) => [s.specialist, ...COLUMNS.map(([, f]) => f(s))]),
    ['all', ...COLUMNS.map(([, f]) => f(i.overall))],
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const [n, r] of rows.entries()) {
    lines.push(
      r
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
        .join('  ')
        .trimEnd(),
    );
    if (n === 0 || n === rows.length - 2) lines.push(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  const c = i.chains;
  const lengths = c.by_length.map((b) => `${b.chains} of ${b.hops} ${b.hops === 1 ? 'hop' : 'hops'}`).join(', ');
  lines.push(
    '',
    `Chains: ${c.total}${lengths ? ` (${lengths})` : ''}; ${c.reached_depth_limit} reached the depth limit of ${c.max_depth} hops, ${c.past_depth_limit} went past it on a confirmation.`,
  );
  if (i.waiting.length) {
    lines.push('', 'Waiting too long:');
    for (const w of i.waiting) lines.push(`- ${w.id} (to ${w.specialist}, from ${w.from}, ${w.topic}): ${waitingLine(w)}`);
    if (i.waiting_omitted) lines.push(`- … and ${i.waiting_omitted} more`);
  }
  if (i.files_unreadable)
    lines.push(
      '',
      `${i.files_unreadable} handoff ${i.files_unreadable === 1 ? 'file' : 'files'} could not be read and ${i.files_unreadable === 1 ? 'is' : 'are'} not counted.`,
    );
  return lines.join('\n');
}

/** Exit 0 printed, 2 bad input, 1 an internal failure. */
export async function runInsights(values: Values, io: CliIo, now = new Date()): Promise<number> {
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  const since = sinceFlag(values.since, now);
  if (since && 'error' in since) return fail(io, values, since.error, EXIT_BAD_INPUT, 'since');
  const warn = parsePendingWarnAfter(values['pending-warn-after'], '--pending-warn-after');
  if (!warn.ok) return fail(io, values, `ERROR: ${warn.problem} — ${warn.fix.replace(/; the default.*$/, '')}`, EXIT_BAD_INPUT, 'pending-warn-after');
  const maxDepth = integer(values['max-depth'], 'max-depth');
  if (typeof maxDepth === 'object') return fail(io, values, `${maxDepth.error} — from 1 to ${MAX_HOP_DEPTH} hops`, EXIT_BAD_INPUT, 'max-depth');
  if (maxDepth !== undefined && (maxDepth < 1 || maxDepth > MAX_HOP_DEPTH)) {
    return fail(
      io,
      values,
      `ERROR: --max-depth must be from 1 to ${MAX_HOP_DEPTH} hops (got ${maxDepth}); the default is ${DEFAULT_MAX_HANDOVER_DEPTH}`,
      EXIT_BAD_INPUT,
      'max-depth',
    );
  }
  const opened = await openProject({ workspaceRoot: cwd, handoffDirectory: values.dir });
  if (!opened.ok) return failWith(io, values, opened.error, exitCodeOf(opened.error));
  const insights = await readInsights(opened.project, {
    ...(since ? { since } : {}),
    now,
    pendingWarnAfterMs: warn.ms,
    ...(maxDepth !== undefined ? { maxDepth } : {}),
  });
  io.stdout(values.json ? JSON.stringify(insights, null, 2) : escapeControls(formatInsights(insights)));
  return EXIT_OK;
}
