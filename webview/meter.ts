/**
 * The token meter at the foot of the panel (`#meter`): the estimate against the budget,
 * the loss report (issue 15: what the session log holds that the handoff does not carry),
 * and when over it what fit-to-budget would cut, with the button that accepts it; and
 * below it the hop guard's warning with its confirmation (`#hop-guard`).
 */
import { budgetTokens } from '../src/core/panel/draft';
import { describeFit, describeLeftOut, lossReportText } from '../src/core/panel/lossReport';
import { fmt, h, icon, replaceChildren } from './dom';
import { checkbox } from './controls';
import { model, update } from './model';
import { Tags } from './toolkit';

/**
 * Fills `#meter` from the model's estimate, then the hop guard. Until an estimate came (the
 * panel opened, a handoff was just written) it reads "counting… / <budget> tokens", never
 * 0: the meter always means the handoff this draft would write, evidence included.
 */
export function renderMeter(): void {
  const box = document.getElementById('meter');
  if (!box) return;
  const e = model.estimate;
  const budget = e?.budget ?? budgetTokens(model.draft.budget, model.settings.maxContextTokens);
  // Fit to budget on: the meter counts what will be written, the fitted handoff.
  const fitted = !!e?.over && model.draft.fit && e?.fitted_tokens !== null && e?.fitted_tokens !== undefined;
  const tokens = (fitted ? e?.fitted_tokens : e?.tokens) ?? 0;
  const pct = Math.min(100, Math.round((tokens / budget) * 100));
  const over = fitted ? tokens > budget : !!e?.over;
  const label = e ? `${fmt(tokens)}${e.estimated ? ' (estimate)' : ''}${fitted ? ' fitted' : ''} / ${fmt(budget)} tokens` : `counting… / ${fmt(budget)} tokens`;
  // Set through the CSSOM: the CSP allows no inline style attributes.
  const fill = h('div', { class: 'fill' });
  fill.style.width = `${pct}%`;
  const children: Array<HTMLElement | null> = [
    h('div', { class: 'meter-head' }, h('span', { class: 'label' }, 'Token budget'), h('span', { id: 'token-count', class: over ? 'over' : '' }, label)),
    h('div', { class: `bar ${over ? 'over' : ''}`, role: 'meter', 'aria-label': 'Estimated tokens against the budget', 'aria-valuemin': 0, 'aria-valuemax': budget, 'aria-valuenow': tokens, 'aria-valuetext': label }, fill),
  ];
  children.push(lossReport());
  const cuts = e?.over ? describeFit(e.cuts) : '';
  const unfit = () => h(Tags.button, { appearance: 'secondary', id: 'unfit', onClick: () => { update({ fit: false, fit_chosen: true }); renderMeter(); } }, "Don't Fit");
  if (fitted && !over) {
    children.push(h('p', { id: 'fit-note', class: 'muted' }, icon('check'), ` Fitted to the budget: ${cuts || 'shortened'}; the full text is kept in the history file. `, unfit()));
  } else if (over && e) {
    const whole = e.tokens;
    children.push(
      h(
        'div',
        { class: 'note error', role: 'alert' },
        h('p', {}, `Over the budget by ${fmt(whole - budget)} token${whole - budget === 1 ? '' : 's'}.`),
        cuts
          ? h('p', { id: 'fit-cuts' }, `Fit to budget ${cuts}${e.fitted_tokens !== null ? `, leaving ${fmt(e.fitted_tokens)} tokens` : ''}; the full text is kept in the history file.`)
          : h('p', {}, 'Nothing can be cut: shorten the decisions or next steps, or choose a larger budget.'),
        cuts && e.fitted_tokens !== null && e.fitted_tokens > budget
          ? h('p', { id: 'still-over' }, `Even cut, it stays ${fmt(e.fitted_tokens - budget)} tokens over: shorten the decisions, next steps or blockers, or choose a larger budget.`)
          : null,
        model.draft.fit
          ? h('p', {}, icon('check'), ' Fit to budget is on: the handoff will be cut as shown. ', unfit())
          : cuts
            ? h(Tags.button, { id: 'fit', onClick: () => { update({ fit: true, fit_chosen: true }); renderMeter(); } }, 'Fit to Budget')
            : null,
      ),
    );
  }
  if (e?.problem) {
    children.push(h('p', { class: 'muted', id: 'problem' }, e.problem));
  }
  replaceChildren(box, ...children);
  renderHopGuard();
}

/**
 * The loss report (`#loss-report`), one compact line: the counts of what the session log
 * holds that the handoff leaves out (older requests, commands beyond the cap, plan items not
 * carried, turns not in the recent turns), from the estimate's package, else the session's
 * draft; beside it what fit-to-budget would cut (in the note below when over budget). Null
 * before any session draft or estimate says anything, and when nothing is left out and the
 * draft is within budget: the footer stays short, so the view keeps room for the form and
 * the outcome banner (issue 17; "everything is carried" said nothing the meter does not).
 */
function lossReport(): HTMLElement | null {
  const left = model.estimate?.left_out ?? model.session?.left_out;
  if (!left) return null;
  if (!describeLeftOut(left) && !model.estimate?.over) return null;
  return h('p', { id: 'loss-report', class: 'loss muted' }, icon('archive'), ' ', lossReportText(left, !!model.estimate?.over));
}

/** Fills `#hop-guard`: why the guard stops this hop (depth, cycle) and the "Hand over anyway" checkbox; empty when it does not. */
function renderHopGuard(): void {
  const box = document.getElementById('hop-guard');
  if (!box) return;
  const g = model.estimate?.hop_guard;
  if (!g) {
    replaceChildren(box);
    return;
  }
  const why = g.reasons.map((r) => (r === 'depth' ? `this would be hop ${model.estimate?.hop}, beyond the limit of ${g.max_depth}` : 'the chain would return to a specialist it already visited')).join(' and ');
  replaceChildren(
    box,
    h(
      'div',
      { class: 'note warning', role: 'alert' },
      h('p', {}, icon('warning'), ` Hop guard: ${why}.`),
      checkbox('Hand over anyway (the handoff records this confirmation)', model.draft.hop_guard_confirmed, (c) => update({ hop_guard_confirmed: c })),
    ),
  );
}
