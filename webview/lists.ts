/**
 * The list sections of the form (done, decisions, failed approaches, next steps, blockers):
 * one row per item, edited in place, moved with the arrow buttons or Alt+Up / Alt+Down,
 * removed with the bin; a field below adds an item on Enter. A list still as the session
 * drafted it carries the "Drafted" mark, and each of its items its source.
 */
import { addItem, editItem, moveItem, removeItem, type Draft, type DraftList } from '../src/core/panel/draft';
import { itemSources } from '../src/core/panel/prefill';
import { valueOf } from './controls';
import { afterEdit, draftedMark, renderDraftBar, sourceTip } from './drafted';
import { h, icon, localTime, replaceChildren } from './dom';
import { model, update } from './model';
import { Tags } from './toolkit';

const LIST_LABELS: Record<DraftList, { title: string; noun: string; placeholder: string; numbered: boolean }> = {
  completed: { title: 'Done', noun: 'done item', placeholder: 'Add what was done, then Enter', numbered: false },
  decisions: { title: 'Decisions', noun: 'decision', placeholder: 'Add a decision, then Enter', numbered: false },
  failed_approaches: { title: 'Failed approaches', noun: 'failed approach', placeholder: 'Add an approach that did not work, then Enter', numbered: false },
  next_steps: { title: 'Next steps', noun: 'next step', placeholder: 'Add a next step, then Enter', numbered: true },
  blockers: { title: 'Blockers', noun: 'blocker', placeholder: 'Add a blocker, then Enter', numbered: false },
};

/**
 * Fills the list `#list-<key>` with the draft's items and its count `#count-<key>`; `focus`
 * moves the focus afterwards to the item at `index`, or to the add field (`add`, or `index` −1).
 */
export function renderList(key: DraftList, focus?: { index: number; add?: boolean }): void {
  const meta = LIST_LABELS[key];
  const ul = document.getElementById(`list-${key}`) as HTMLElement;
  const items = model.draft[key];
  const sources = itemSources(model.draft, model.session, key, localTime);
  const rows = items.map((text, i) => {
    const field = h(Tags.textField, {
      value: text,
      class: 'grow',
      'aria-label': `${meta.noun} ${i + 1} of ${items.length} (Alt+Up / Alt+Down to move)`,
      'data-index': i,
      onInput: (e) => {
        update({ [key]: editItem(model.draft[key], i, valueOf(e)) } as Partial<Draft>);
        afterEdit(key);
      },
      onKeydown: (e) => {
        const k = e as KeyboardEvent;
        if (k.altKey && (k.key === 'ArrowUp' || k.key === 'ArrowDown')) {
          k.preventDefault();
          const delta = k.key === 'ArrowUp' ? -1 : 1;
          update({ [key]: moveItem(model.draft[key], i, delta) } as Partial<Draft>);
          renderList(key, { index: Math.max(0, Math.min(items.length - 1, i + delta)) });
        }
      },
    });
    const button = (name: string, label: string, action: () => void, disabled = false) =>
      h(Tags.button, { appearance: 'icon', 'aria-label': label, title: label, disabled, onClick: action }, icon(name));
    return h(
      'li',
      { class: 'item' },
      meta.numbered ? h('span', { class: 'num', 'aria-hidden': 'true' }, `${i + 1}.`) : null,
      sources[i] ? sourceTip(`Source of ${meta.noun} ${i + 1}`, sources[i]) : null,
      field,
      button(
        'arrow-up',
        `Move ${meta.noun} ${i + 1} up`,
        () => {
          update({ [key]: moveItem(model.draft[key], i, -1) } as Partial<Draft>);
          renderList(key, { index: Math.max(0, i - 1) });
        },
        i === 0,
      ),
      button(
        'arrow-down',
        `Move ${meta.noun} ${i + 1} down`,
        () => {
          update({ [key]: moveItem(model.draft[key], i, 1) } as Partial<Draft>);
          renderList(key, { index: Math.min(items.length - 1, i + 1) });
        },
        i === items.length - 1,
      ),
      button('trash', `Remove ${meta.noun} ${i + 1}`, () => {
        update({ [key]: removeItem(model.draft[key], i) } as Partial<Draft>);
        renderList(key, { index: Math.min(i, items.length - 2), add: items.length === 1 });
      }),
    );
  });
  replaceChildren(ul, ...rows);
  const count = document.getElementById(`count-${key}`);
  if (count) count.textContent = items.length ? String(items.length) : '';
  const mark = document.getElementById(`mark-${key}`);
  if (mark) replaceChildren(mark, draftedMark(key));
  renderDraftBar();
  if (focus) {
    const target =
      focus.add || focus.index < 0 ? document.getElementById(`add-${key}`) : (ul.querySelector(`[data-index="${focus.index}"]`) as HTMLElement | null);
    setTimeout(() => target?.focus(), 0);
  }
}

/** The section of one list: its title with the count, the (empty) list and the add field; {@link renderList} fills it. */
export function renderListSection(key: DraftList): HTMLElement {
  const meta = LIST_LABELS[key];
  const add = h(Tags.textField, {
    id: `add-${key}`,
    class: 'wide',
    placeholder: meta.placeholder,
    'aria-label': `Add a ${meta.noun}`,
    onKeydown: (e) => {
      const k = e as KeyboardEvent;
      if (k.key === 'Enter' && !k.ctrlKey && !k.metaKey) {
        k.preventDefault();
        const field = e.target as HTMLInputElement;
        if (!field.value.trim()) return;
        update({ [key]: addItem(model.draft[key], field.value) } as Partial<Draft>);
        field.value = '';
        renderList(key, { index: -1, add: true });
      }
    },
  });
  const section = h(
    'section',
    { class: 'field', 'aria-labelledby': `title-${key}` },
    h('div', { class: 'label', id: `title-${key}` }, meta.title, ' ', h('span', { class: 'count', id: `count-${key}` }), h('span', { id: `mark-${key}` })),
    h(meta.numbered ? 'ol' : 'ul', { id: `list-${key}`, class: 'items', 'aria-label': meta.title }),
    add,
  );
  return section;
}
