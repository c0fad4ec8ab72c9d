/**
 * The page of the insights view: the period picker, then — for the state the
 * host sent — the figures (overall tiles, the handoffs waiting too long, one chart per
 * specialist, the table of every figure, the chains), an empty state, or the no-folder /
 * untrusted / error page. It renders the engine's `Insights` exactly as received: nothing
 * here counts or averages; it formats (thousands, durations, dates) and lays out.
 *
 * Keyboard and screen readers: headings for each part, the period as a radio group (arrow
 * keys), every figure in a real `<table>` with header cells, the charts as images whose
 * names say their numbers, the waiting list with its warning said in words.
 */
import type { InsightsFigures, InsightsPeriod, InsightsShow, InsightsToHost, InsightsView } from '../src/core/panel/insightsProtocol';
import { renderChart } from './insightsChart';
import { fmt, h, icon, replaceChildren } from './dom';

/** Sends a message to the host. */
export type Send = (message: InsightsToHost) => void;

/** The picker's periods and their labels. */
export const PERIODS: ReadonlyArray<[InsightsPeriod, string]> = [
  ['all', 'All time'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
  ['90d', 'Last 90 days'],
];

/** The table's columns: header, figure, and how it is shown. */
const COLUMNS: ReadonlyArray<[string, keyof InsightsFigures, 'count' | 'duration']> = [
  ['Written', 'written', 'count'],
  ['Picked up', 'picked_up', 'count'],
  ['Completed', 'completed', 'count'],
  ['Blocked', 'blocked', 'count'],
  ['Pending', 'pending', 'count'],
  ['Accepted', 'accepted', 'count'],
  ['In progress', 'in_progress', 'count'],
  ['Pending too long', 'pending_too_long', 'count'],
  ['Unanswered too long', 'unanswered_too_long', 'count'],
  ['Median time to pick up', 'median_pickup_ms', 'duration'],
  ['Median time to complete', 'median_complete_ms', 'duration'],
  ['Hand-backs', 'handbacks', 'count'],
  ['Retries', 'retries', 'count'],
  ['Tests failing at hand-back', 'tests_failing_at_handback', 'count'],
];

/**
 * A duration for people: `45 s`, `12 min`, `3.5 h`, `2.1 days`; `—` when nothing was measured.
 * @param ms milliseconds, or null
 */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  const s = ms / 1000;
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 48 * 3600) return `${(s / 3600).toFixed(1).replace(/\.0$/, '')} h`;
  return `${(s / 86400).toFixed(1).replace(/\.0$/, '')} days`;
}

/** `2026-12-01T20:50:00.000Z` → `2026-12-01 20:50 UTC` (the same for every reader of a screenshot). */
export function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function cell(value: number | null, kind: 'count' | 'duration'): string {
  return kind === 'duration' ? formatDuration(value) : fmt(value ?? 0);
}

/** The period picker: a radio group, one `setPeriod` per change. */
export function renderPicker(current: InsightsPeriod, send: Send): HTMLElement {
  return h(
    'fieldset',
    { id: 'period', class: 'period' },
    h('legend', {}, 'Period'),
    ...PERIODS.map(([value, label]) =>
      h(
        'label',
        { class: 'period-option' },
        h('input', {
          type: 'radio',
          name: 'period',
          value,
          id: `period-${value}`,
          checked: value === current,
          onChange: (e: Event) => (e.target as HTMLInputElement).checked && send({ type: 'setPeriod', period: value }),
        }),
        h('span', {}, label),
      ),
    ),
  );
}

/** The no-folder, untrusted and error pages: what is wrong and the next action. */
function renderState(show: InsightsShow, send: Send): HTMLElement {
  if (show.status === 'no-folder') {
    return h(
      'section',
      { class: 'empty', role: 'status' },
      h('h2', {}, 'No folder is open'),
      h('p', {}, 'Insights are read from the handoff files of a workspace folder: open one to see how its handoffs go.'),
      h('button', { id: 'open-folder', type: 'button', onClick: () => send({ type: 'runCommand', command: 'openFolder' }) }, 'Open Folder…'),
    );
  }
  if (show.status === 'untrusted') {
    return h(
      'section',
      { class: 'empty', role: 'status' },
      h('h2', {}, 'This workspace is not trusted'),
      h('p', {}, 'Specialist Handoff works only in a trusted workspace. Trust the workspace to see the insights of its handoffs.'),
      h('button', { id: 'manage-trust', type: 'button', onClick: () => send({ type: 'runCommand', command: 'manageTrust' }) }, 'Manage Workspace Trust'),
    );
  }
  return h(
    'section',
    { class: 'empty', role: 'alert' },
    h('h2', {}, 'The insights could not be read'),
    h('p', { id: 'error' }, show.message ?? 'See the "Specialist Handoff" output.'),
  );
}

/** The overall tiles: the five counts and the two medians, each a term and its value. */
function renderOverall(f: InsightsFigures): HTMLElement {
  const tiles: Array<[string, string, string]> = [
    ['Written', fmt(f.written), 'written'],
    ['Picked up', fmt(f.picked_up), 'picked_up'],
    ['Completed', fmt(f.completed), 'completed'],
    ['Blocked', fmt(f.blocked), 'blocked'],
    ['Pending', fmt(f.pending), 'pending'],
    ['Median time to pick up', formatDuration(f.median_pickup_ms), 'median_pickup'],
    ['Median time to complete', formatDuration(f.median_complete_ms), 'median_complete'],
  ];
  return h(
    'dl',
    { class: 'tiles', id: 'overall' },
    ...tiles.map(([term, value, key]) => h('div', { class: 'tile', 'data-figure': key }, h('dt', {}, term), h('dd', {}, value))),
  );
}

/** The handoffs waiting longer than the setting, each with its warning in words. */
function renderWaiting(view: InsightsView, label: (id: string) => string, setting: string): HTMLElement {
  const items = view.waiting.map((w) =>
    h(
      'li',
      { class: 'waiting-item' },
      icon('warning', 'warn'),
      h('span', { class: 'sr-only' }, 'Warning: '),
      h('strong', {}, label(w.specialist)),
      ` — ${w.waiting === 'pickup' ? 'not picked up' : 'accepted, not answered'} for ${formatDuration(w.age_ms)} (since ${formatTime(w.since)})`,
      w.topic ? h('span', { class: 'muted' }, ` · ${w.topic}`) : null,
      h('span', { class: 'muted mono' }, ` · ${w.id}`),
    ),
  );
  return h(
    'section',
    { 'aria-labelledby': 'h-waiting' },
    h('h2', { id: 'h-waiting' }, `Waiting too long (${fmt(view.waiting.length + view.waiting_omitted)})`),
    view.pending_warn_after_ms === 0
      ? h('p', { class: 'muted', id: 'waiting' }, 'No warnings: handoff.pendingWarnAfter is off.')
      : items.length
        ? h('ul', { class: 'waiting', id: 'waiting' }, ...items)
        : h('p', { class: 'muted', id: 'waiting' }, `Nothing waits longer than handoff.pendingWarnAfter (${setting}).`),
    view.waiting_omitted ? h('p', { class: 'muted' }, `… and ${fmt(view.waiting_omitted)} more, not listed.`) : null,
  );
}

/** The table of every figure: a row per specialist, the overall row in the footer. */
function renderTable(view: InsightsView, label: (id: string) => string): HTMLElement {
  const head = h('tr', {}, h('th', { scope: 'col' }, 'Specialist'), ...COLUMNS.map(([title]) => h('th', { scope: 'col' }, title)));
  const row = (name: string, f: InsightsFigures, id?: string) =>
    h(
      'tr',
      id ? { 'data-specialist': id } : {},
      h('th', { scope: 'row' }, name),
      ...COLUMNS.map(([, key, kind]) => h('td', { 'data-figure': key }, cell(f[key], kind))),
    );
  return h(
    'div',
    { class: 'table-wrap', role: 'region', 'aria-labelledby': 'figures-caption', tabindex: 0 },
    h(
      'table',
      { id: 'figures' },
      h('caption', { id: 'figures-caption' }, 'Every figure, per specialist and overall'),
      h('thead', {}, head),
      h('tbody', {}, ...view.specialists.map((s) => row(label(s.specialist), s, s.specialist))),
      h('tfoot', {}, row('Overall', view.overall)),
    ),
  );
}

/** The chains: how many of each length, and how many reached the depth limit. */
function renderChains(view: InsightsView): HTMLElement {
  const { chains } = view;
  return h(
    'section',
    { 'aria-labelledby': 'h-chains' },
    h('h2', { id: 'h-chains' }, 'Chains'),
    chains.by_length.length
      ? h(
          'table',
          { id: 'chains', class: 'narrow' },
          h('caption', {}, `${fmt(chains.total)} ${chains.total === 1 ? 'chain' : 'chains'} by length`),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Length (hops)'), h('th', { scope: 'col' }, 'Chains'))),
          h('tbody', {}, ...chains.by_length.map((c) => h('tr', {}, h('th', { scope: 'row' }, fmt(c.hops)), h('td', {}, fmt(c.chains))))),
        )
      : h('p', { class: 'muted' }, 'No chains in this period.'),
    h(
      'p',
      { id: 'depth-limit' },
      `${fmt(chains.reached_depth_limit)} reached the depth limit (handoff.maxHandoverDepth: ${fmt(chains.max_depth)} hops); ${fmt(chains.past_depth_limit)} went past it on a confirmation.`,
    ),
  );
}

/** The figures of a period, or its empty state. */
function renderFigures(show: InsightsShow, view: InsightsView, send: Send): HTMLElement[] {
  const labels = new Map(show.specialists.map((s) => [s.id, s.label]));
  const label = (id: string) => labels.get(id) ?? id;
  const periodWords = PERIODS.find(([p]) => p === show.period)?.[1] ?? 'All time';
  const read = `${fmt(view.files_read)} handoff ${view.files_read === 1 ? 'file' : 'files'} read${view.files_unreadable ? `, ${fmt(view.files_unreadable)} unreadable (not counted)` : ''}`;
  const range = h(
    'p',
    { class: 'muted', id: 'range' },
    `${view.period.since ? `${formatTime(view.period.since)} to ${formatTime(view.period.until)}` : `All time, up to ${formatTime(view.period.until)}`} · ${read}`,
  );
  if (view.overall.written === 0) {
    return [
      range,
      h(
        'section',
        { class: 'empty', role: 'status', id: 'empty' },
        h('h2', {}, show.period === 'all' ? 'No handoffs yet' : `No handoffs in the ${periodWords.toLowerCase()}`),
        h(
          'p',
          {},
          show.period === 'all'
            ? 'No handoffs yet in this workspace: hand over from the Hand Over panel or with "Handoff: End Session and Hand Over…", and the figures appear here.'
            : 'Pick a longer period to see older handoffs.',
        ),
        h('button', { id: 'show-timeline', type: 'button', onClick: () => send({ type: 'runCommand', command: 'showTimeline' }) }, 'Show the Handoff Timeline'),
      ),
    ];
  }
  const scale = Math.max(1, ...view.specialists.map((s) => s.written));
  const charts = view.specialists.map((s) =>
    h('figure', { class: 'chart-card', 'data-specialist': s.specialist }, h('h3', {}, label(s.specialist)), renderChart(label(s.specialist), s, scale)),
  );
  return [
    range,
    h('section', { 'aria-labelledby': 'h-overall' }, h('h2', { id: 'h-overall' }, 'Overall'), renderOverall(view.overall)),
    renderWaiting(view, label, show.pending_warn_after),
    h('section', { 'aria-labelledby': 'h-specialists' }, h('h2', { id: 'h-specialists' }, 'By specialist'), h('div', { class: 'charts' }, ...charts)),
    h('section', { 'aria-labelledby': 'h-table' }, h('h2', { id: 'h-table' }, 'All figures'), renderTable(view, label)),
    renderChains(view),
  ];
}

/**
 * Renders a `show` message into `body` (the part below the picker); the picker is kept, so
 * the keyboard focus stays on the period the user just chose.
 */
export function renderBody(body: HTMLElement, show: InsightsShow, send: Send): void {
  body.setAttribute('aria-busy', String(show.status === 'loading'));
  if (show.status === 'loading') {
    replaceChildren(body, h('p', { class: 'muted', role: 'status' }, 'Reading the handoff files…'));
    return;
  }
  if (show.status !== 'ready' || !show.insights) {
    replaceChildren(body, renderState(show, send));
    return;
  }
  replaceChildren(body, ...renderFigures(show, show.insights, send));
}
