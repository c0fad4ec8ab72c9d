/**
 * The "Handoff Insights" webview: shows the figures the engine read from the
 * handoff files, as the host sends them (src/core/panel/insightsProtocol.ts, zod/mini,
 * validated on arrival; an invalid message is dropped). The page: insightsPage.ts; the
 * charts: insightsChart.ts. It keeps the period in the webview state, so a reload of the
 * window asks the host for the same period again.
 */
import { InsightsPeriodSchema, InsightsToWebviewSchema, type InsightsPeriod, type InsightsToHost } from '../src/core/panel/insightsProtocol';
import { h, replaceChildren } from './dom';
import { renderBody, renderPicker } from './insightsPage';

const vscode = acquireVsCodeApi();
const saved = InsightsPeriodSchema.safeParse((vscode.getState() as { period?: unknown } | undefined)?.period);
let period: InsightsPeriod = saved.success ? saved.data : 'all';

/** The period asked for and not answered yet: the host's answers for earlier periods are stale then, and dropped. */
let requested: InsightsPeriod | undefined;

function send(message: InsightsToHost): void {
  if (message.type === 'setPeriod') {
    period = message.period;
    requested = message.period;
    vscode.setState({ period });
  }
  vscode.postMessage(message);
}

const app = document.getElementById('app') as HTMLElement;
const header = h('header', { class: 'head' }, h('h1', {}, 'Handoff insights'));
const picker = h('div', { id: 'picker' });
const body = h('div', { id: 'insights-body', 'aria-live': 'polite' });
replaceChildren(app, header, picker, body);
app.removeAttribute('aria-busy');

window.addEventListener('message', (event: MessageEvent) => {
  const parsed = InsightsToWebviewSchema.safeParse(event.data);
  if (!parsed.success) return;
  const show = parsed.data;
  // Arrow keys run through the periods faster than the host answers: only the last one asked for is shown.
  if (requested !== undefined && show.period !== requested) return;
  if (show.status !== 'loading') requested = undefined;
  const hasFigures = show.status !== 'no-folder' && show.status !== 'untrusted';
  // The picker is drawn once per period the host confirms; redrawing it would take the focus away.
  const checked = picker.querySelector<HTMLInputElement>('input:checked')?.value;
  if (!hasFigures) replaceChildren(picker);
  else if (checked !== show.period) {
    period = show.period;
    replaceChildren(picker, renderPicker(show.period, send));
  }
  renderBody(body, show, send);
});

send({ type: 'ready' });
if (period !== 'all') send({ type: 'setPeriod', period });
