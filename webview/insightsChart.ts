/**
 * The small chart of one specialist in the insights view: an SVG bar chart we
 * render ourselves (no charting library, no remote code), one bar per figure — written,
 * picked up, completed, blocked, still pending — drawn from the engine's figures as they are.
 *
 * CSP-safe: geometry is set as SVG attributes (`x`, `width` …), colours come from classes in
 * media/insights.css (the theme's `--vscode-charts-*` variables); no style attribute.
 * Screen readers get `role="img"` and an accessible name that says every number; the marks
 * inside are hidden from them (the name says it all, and the table below has the figures).
 */
import type { InsightsFigures } from '../src/core/panel/insightsProtocol';
import { fmt } from './dom';

const SVG = 'http://www.w3.org/2000/svg';

/** The bars of a chart, in order: the figure, its label, its colour class. */
export const CHART_BARS: ReadonlyArray<{ key: keyof InsightsFigures; label: string; spoken: string; cls: string }> = [
  { key: 'written', label: 'Written', spoken: 'written', cls: 'bar-written' },
  { key: 'picked_up', label: 'Picked up', spoken: 'picked up', cls: 'bar-picked' },
  { key: 'completed', label: 'Completed', spoken: 'completed', cls: 'bar-completed' },
  { key: 'blocked', label: 'Blocked', spoken: 'blocked', cls: 'bar-blocked' },
  { key: 'pending', label: 'Pending', spoken: 'still pending', cls: 'bar-pending' },
];

/** Chart geometry in SVG user units (= CSS pixels at the chart's natural width). */
const WIDTH = 320;
const ROW = 22;
const BAR = 14;
const LABEL_W = 82;
const VALUE_W = 44;

/** The accessible name of a chart: `Quality reviewer: 5 written, 4 picked up, 3 completed, 1 blocked, 1 still pending`. */
export function chartName(label: string, figures: InsightsFigures): string {
  return `${label}: ${CHART_BARS.map((b) => `${fmt(figures[b.key] as number)} ${b.spoken}`).join(', ')}`;
}

function svg(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/**
 * One specialist's chart.
 * @param scale the count a full-width bar stands for (the largest `written` of the charts shown, so charts compare; ≥ 1)
 */
export function renderChart(label: string, figures: InsightsFigures, scale: number): SVGElement {
  const height = CHART_BARS.length * ROW + 2;
  const name = chartName(label, figures);
  const root = svg('svg', { class: 'chart', role: 'img', 'aria-label': name, viewBox: `0 0 ${WIDTH} ${height}`, width: WIDTH, height });
  root.append(svg('title', {}, name));
  const marks = svg('g', { 'aria-hidden': 'true' });
  const track = WIDTH - LABEL_W - VALUE_W;
  CHART_BARS.forEach((b, i) => {
    const value = figures[b.key] as number;
    const y = i * ROW + 1;
    const w = value > 0 ? Math.max(2, Math.round((Math.min(value, scale) / Math.max(1, scale)) * track)) : 0;
    marks.append(
      svg('text', { class: 'chart-label', x: 0, y: y + BAR - 2 }, b.label),
      svg('rect', { class: 'chart-track', x: LABEL_W, y, width: track, height: BAR, rx: 2 }),
      svg('rect', { class: `chart-bar ${b.cls}`, x: LABEL_W, y, width: w, height: BAR, rx: 2 }),
      svg('text', { class: 'chart-value', x: LABEL_W + track + 6, y: y + BAR - 2 }, fmt(value)),
    );
  });
  root.append(marks);
  return root;
}
