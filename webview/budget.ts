/**
 * The budget choice beside the token meter (`#budget-choice`): small, default (the setting
 * `handoff.maxContextTokens`), large, or a custom number of tokens. The choice is part of the
 * draft (`budget`), so the host's estimate and the handoff use it; it stays when a handoff is
 * written. Kept out of `#meter`, which is rebuilt on every estimate: a custom number being
 * typed keeps its focus.
 */
import { BUDGET_PRESETS } from '../src/core/handoff/limits';
import { budgetTokens, parseBudgetTokens, type PanelBudget } from '../src/core/panel/draft';
import { valueOf } from './controls';
import { fmt, h, replaceChildren } from './dom';
import { renderMeter } from './meter';
import { model, update } from './model';
import { Tags } from './toolkit';

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** The dropdown's value for a budget choice: a preset's name, or `custom`. */
function choiceOf(budget: PanelBudget): string {
  return typeof budget === 'number' ? 'custom' : budget;
}

/** Fills `#budget-choice` from the draft. */
export function renderBudgetChoice(): void {
  const box = document.getElementById('budget-choice');
  if (!box) return;
  const budget = model.draft.budget;
  const setting = model.settings.maxContextTokens;
  // Short ("Default 3K") so the dropdown beside the meter is not cut at the side bar's default width; the meter and
  // each option's tooltip give the exact tokens.
  const options: Array<[string, string, number | undefined]> = [
    ['small', `Small ${compact.format(BUDGET_PRESETS.small)}`, BUDGET_PRESETS.small],
    ['default', `Default ${compact.format(setting)}`, setting],
    ['large', `Large ${compact.format(BUDGET_PRESETS.large)}`, BUDGET_PRESETS.large],
    ['custom', 'Custom…', undefined],
  ];
  const chosen = choiceOf(budget);
  const dropdown = h(
    Tags.dropdown,
    {
      id: 'budget',
      'aria-label': 'Token budget of the handoff',
      title: `Tokens of the handoff: small keeps every kind of fact, each short; default is the setting handoff.maxContextTokens (${fmt(setting)}); large keeps most of a long session whole.`,
      onChange: (e) => {
        const v = valueOf(e);
        // Custom starts from the tokens of the choice it replaces.
        const next: PanelBudget = v === 'custom' ? budgetTokens(model.draft.budget, setting) : (v as PanelBudget);
        if (next === model.draft.budget) return;
        update({ budget: next });
        renderBudgetChoice();
        renderMeter();
      },
    },
    ...options.map(([v, l, tokens]) =>
      h(Tags.option, { value: v, selected: v === chosen, title: tokens === undefined ? 'Any number of tokens' : `${fmt(tokens)} tokens` }, l),
    ),
  );
  queueMicrotask(() => ((dropdown as HTMLInputElement).value = chosen));
  const custom =
    typeof budget === 'number'
      ? h(Tags.textField, {
          id: 'budget-tokens',
          value: String(budget),
          size: 9,
          'aria-label': 'Custom budget in tokens',
          onInput: (e) => {
            const n = parseBudgetTokens(valueOf(e));
            const field = e.target as HTMLElement;
            const problem = document.getElementById('budget-problem');
            if (n === undefined) {
              field.setAttribute('aria-invalid', 'true');
              if (problem) problem.textContent = 'A whole number of tokens, from 1 to 10,000,000.';
              return;
            }
            field.removeAttribute('aria-invalid');
            if (problem) problem.textContent = '';
            update({ budget: n });
            renderMeter();
          },
        })
      : null;
  replaceChildren(
    box,
    h('div', { class: 'row' }, h('label', { for: 'budget', class: 'label sr-only' }, 'Budget'), dropdown, custom),
    custom ? h('p', { id: 'budget-problem', class: 'bad', role: 'alert' }) : null,
  );
}
