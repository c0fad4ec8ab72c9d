/**
 * The token meter at the foot of the panel (`#meter`): the estimate against the budget,
 * the loss report (what the session log holds that the handoff does not carry), and when
 * over it what fit-to-budget would cut, with the button that accepts it, or with Fit to
 * budget on what it shortens and cuts; and
 * below it the hop guard's warning with its confirmation (`#hop-guard`).
 */
import { clearBanner } from './banner';
import { budgetTokens } from '../src/core/panel/draft';
import { describeFit, describeLeftOut, lossReportText } from '../src/core/panel/lossReport';
import { fmt, h, icon, replaceChildren } from './dom';
import { checkbox } from './controls';
import { model, update } from './model';
import { Tags } from './toolkit';

/** Whether the over-budget detail (what fitting cuts) is open: kept across the meter's rebuilds, closed until asked for. */
let overDetailOpen = false;

/**
 * Fills `#meter` from the model's estimate, then the hop guard: one line (the count, the
 * budget choice beside it in `#budget-choice`, the bar as a thin strip along the footer's top
 * edge), then the loss report on one line, and when over the budget one line that says by how
 * much with "Fit to budget" and a disclosure button for what fitting cuts. The footer
 * stays in sight while the form scrolls, so it keeps to these few lines. Until an estimate came
 * (the panel opened, a handoff was just written) the count reads "counting… / <budget> tokens",
 * never 0: the meter always means the handoff this draft would write, evidence included.
 */
export function renderMeter(): void {
  const box = document.getElementById('meter');
  if (!box) return;
  const e = model.estimate;
  const budget = e?.budget ?? budgetTokens(model.draft.budget, model.settings.maxContextTokens);
  // Fit to budget on: the meter counts what will be written, the fitted handoff.
  const fitted = !!e?.over && model.draft.fit && typeof e?.fitted_tokens === 'number';
  const tokens = (fitted ? e?.fitted_tokens : e?.tokens) ?? 0;
  const pct = Math.min(100, Math.round((tokens / budget) * 100));
  const over = fitted ? tokens > budget : !!e?.over;
  const label = e ? `${fmt(tokens)}${e.estimated ? ' (estimate)' : ''}${fitted ? ' fitted' : ''} / ${fmt(budget)} tokens` : `counting… / ${fmt(budget)} tokens`;
  // Set through the CSSOM: the CSP allows no inline style attributes.
  const fill = h('div', { class: 'fill' });
  fill.style.width = `${pct}%`;
  const children: Array<HTMLElement | null> = [
    h(
      'div',
      {
        class: `bar ${over ? 'over' : ''}`,
        role: 'meter',
        'aria-label': 'Estimated tokens against the budget',
        'aria-valuemin': 0,
        'aria-valuemax': budget,
        'aria-valuenow': tokens,
        'aria-valuetext': label,
      },
      fill,
    ),
    h('span', { id: 'token-count', class: over ? 'over' : '' }, label),
  ];
  const count = document.getElementById('meter-count');
  const notes = document.getElementById('meter-notes');
  if (count) replaceChildren(count, ...children);
  const note = e && fitted && !over ? fitNote(e) : e && over ? overBudget(e, tokens, budget) : null;
  if (notes) replaceChildren(notes, lossReport(), note, e?.problem ? h('p', { class: 'muted', id: 'problem' }, e.problem) : null);
  renderHopGuard();
}

/** Switches Fit to budget off: the user's choice, kept across redrafts. */
function unfitButton(): HTMLElement {
  return h(
    Tags.button,
    {
      appearance: 'secondary',
      id: 'unfit',
      title: 'Hand over the whole draft, over the budget',
      onClick: () => {
        update({ fit: false, fit_chosen: true });
        renderMeter();
      },
    },
    "Don't Fit",
  );
}

/**
 * Fit to budget on and the fitted handoff within the budget: one line saying what fitting
 * shortens and cuts (cut with an ellipsis, whole on hover and focus) and "Don't Fit".
 */
function fitNote(e: NonNullable<typeof model.estimate>): HTMLElement {
  const text = `Fitted to the budget: ${describeFit(e.cuts) ?? 'shortened'}; the full text is kept in the history file.`;
  return h(
    'div',
    { id: 'fit-note', class: 'over-line' },
    h('p', { class: 'grow loss muted one-line', tabindex: 0, title: text }, icon('check'), ' ', text),
    unfitButton(),
  );
}

/**
 * The over-budget note: one line (by how much, "Fit to budget" or that it is on with "Don't
 * Fit", and the disclosure button), the detail below it hidden until the user opens it.
 */
function overBudget(e: NonNullable<typeof model.estimate>, tokens: number, budget: number): HTMLElement {
  const cuts = describeFit(e.cuts);
  const by = tokens - budget;
  const action = model.draft.fit
    ? h('span', { id: 'fit-on' }, icon('check'), ' Fit to budget is on ', unfitButton())
    : cuts
      ? h(
          Tags.button,
          {
            id: 'fit',
            title: 'Cut the handoff to the budget as the details say; the full text is kept in the history file',
            onClick: () => {
              update({ fit: true, fit_chosen: true });
              renderMeter();
            },
          },
          'Fit to Budget',
        )
      : null;
  const detail = h(
    'div',
    { id: 'over-details', hidden: !overDetailOpen },
    cuts
      ? h(
          'p',
          { id: 'fit-cuts' },
          `Fit to budget ${cuts}${e.fitted_tokens !== null ? `, leaving ${fmt(e.fitted_tokens)} tokens` : ''}; the full text is kept in the history file.`,
        )
      : h('p', {}, 'Nothing can be cut: shorten the decisions or next steps, or choose a larger budget.'),
    cuts && e.fitted_tokens !== null && e.fitted_tokens > budget
      ? h(
          'p',
          { id: 'still-over' },
          `Even cut, it stays ${fmt(e.fitted_tokens - budget)} tokens over: shorten the decisions, next steps or blockers, or choose a larger budget.`,
        )
      : null,
    model.draft.fit ? h('p', {}, 'The handoff will be cut as shown.') : null,
  );
  // A disclosure button (not <details>: a closed one hides its text from the page's own text, which tests and readers of innerText use).
  const toggle = h(
    Tags.button,
    {
      id: 'over-toggle',
      appearance: 'icon',
      'aria-expanded': overDetailOpen ? 'true' : 'false',
      'aria-controls': 'over-details',
      'aria-label': 'What fitting to the budget cuts',
      title: overDetailOpen ? 'Hide what fitting cuts' : 'Show what fitting cuts',
      onClick: () => {
        overDetailOpen = !overDetailOpen;
        renderMeter();
        document.getElementById('over-toggle')?.focus();
      },
    },
    icon(overDetailOpen ? 'chevron-up' : 'chevron-down'),
  );
  return h(
    'div',
    { class: 'note error over-note', role: 'alert' },
    h('div', { class: 'over-line' }, h('p', { class: 'grow' }, `Over the budget by ${fmt(by)} token${by === 1 ? '' : 's'}.`), action, toggle),
    detail,
  );
}

/**
 * The loss report (`#loss-report`), one line: the counts of what the session log holds that
 * the handoff leaves out (older requests, commands beyond the cap, plan items not carried,
 * turns not in the recent turns), from the estimate's package, else the session's draft. Null
 * when nothing is left out (over budget, the note says what fitting cuts): the footer stays
 * short, so the view keeps room for the form.
 */
function lossReport(): HTMLElement | null {
  const left = model.estimate?.left_out ?? model.session?.left_out;
  if (!left) return null;
  // Nothing left out: no line (over budget, the note below says what fitting cuts).
  if (!describeLeftOut(left)) return null;
  const text = lossReportText(left, !!model.estimate?.over);
  // One line, cut with an ellipsis; the whole sentence on hover and on keyboard focus.
  return h('p', { id: 'loss-report', class: 'loss muted', tabindex: 0, title: text }, icon('archive'), ' ', text);
}

/** Fills `#hop-guard`: why the guard stops this hop (depth, cycle) and the "Hand over anyway" checkbox; empty when it does not. */
function renderHopGuard(): void {
  const box = document.getElementById('hop-guard');
  if (!box) return;
  const g = model.estimate?.hop_guard;
  if (!g || model.draft.hop_guard_confirmed) clearBanner('hop-guard');
  if (!g) {
    replaceChildren(box);
    return;
  }
  const why = g.reasons
    .map((r) =>
      r === 'depth'
        ? `this would be hop ${model.estimate?.hop}, beyond the limit of ${g.max_depth}`
        : 'the chain would return to a specialist it already visited',
    )
    .join(' and ');
  replaceChildren(
    box,
    h(
      'div',
      { class: 'note warning', role: 'alert' },
      h('p', {}, icon('warning'), ` Hop guard: ${why}.`),
      checkbox('Hand over anyway (the handoff records this confirmation)', model.draft.hop_guard_confirmed, (c) => {
        update({ hop_guard_confirmed: c });
        if (c) clearBanner('hop-guard');
      }),
    ),
  );
}
