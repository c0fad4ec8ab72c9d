/**
 * The drafted parts of the panel: the "Drafted" mark of each field still as the
 * session's draft left it (visible text, and the same in words for screen readers), the
 * source of each drafted item (a tooltip shown on hover and on keyboard focus), the bar with
 * "Redraft" and "Draft with …", and the read-only lists of the user's requests and the
 * commands run (each can be removed).
 */
import type { DraftedField } from '../src/core/panel/protocol';
import { FIELD_TITLES, itemSources } from '../src/core/panel/prefill';
import { h, icon, localTime, replaceChildren } from './dom';
import { model, send, update } from './model';
import { Tags } from './toolkit';

let tipSeq = 0;

/**
 * A keyboard-reachable source tooltip: an info icon (Tab stops on it) whose tooltip, shown
 * on hover and on focus, says where the item came from; `label` names it for screen readers.
 */
export function sourceTip(label: string, sources: string): HTMLElement {
  const id = `source-tip-${++tipSeq}`;
  return h(
    'span',
    { class: 'source', tabindex: 0, role: 'img', 'aria-label': `${label}: ${sources}`, 'aria-describedby': id },
    icon('info'),
    h('span', { class: 'tip', role: 'tooltip', id }, sources),
  );
}

/** The "Drafted" mark of field `f` (`#drafted-<f>`), or null when the field is the user's. */
export function draftedMark(f: DraftedField): HTMLElement | null {
  if (!model.draft.drafted.includes(f)) return null;
  const sources = f === 'summary' ? itemSources(model.draft, model.session, f, localTime)[0] : '';
  return h(
    'span',
    { class: 'drafted', id: `drafted-${f}` },
    h('span', { class: 'drafted-badge' }, 'Drafted'),
    h('span', { class: 'sr-only' }, ` ${FIELD_TITLES[f]} was drafted from the session; editing it makes it yours.`),
    sources ? sourceTip(`Source of the drafted ${FIELD_TITLES[f].toLowerCase()}`, sources) : null,
  );
}

/** Puts the "Drafted" mark of `f` in its slot `#mark-<f>` (after an edit it goes). */
export function renderMark(f: DraftedField): void {
  const slot = document.getElementById(`mark-${f}`);
  if (slot) replaceChildren(slot, draftedMark(f));
}

/**
 * After an edit typed in place (the field keeps the focus, so it is not rendered again):
 * the field's "Drafted" mark and its items' sources go, and the bar counts again.
 */
export function afterEdit(f: DraftedField): void {
  renderMark(f);
  document
    .getElementById(`list-${f}`)
    ?.querySelectorAll('.source')
    .forEach((el) => el.remove());
  renderDraftBar();
}

/**
 * The bar above the drafted fields (`#draft-bar`): how many fields are drafted, "Redraft"
 * (collects the evidence again; edited fields are left as they are, the banner then offers to
 * replace them), and the place of "Draft with …" (the language model: sent only on a click).
 */
export function renderDraftBar(): void {
  const box = document.getElementById('draft-bar');
  if (!box) return;
  const n = model.draft.drafted.length;
  const m = model.modelDraft;
  const running = m?.state === 'running';
  const busy = drafting();
  const status = busy
    ? 'Drafting from the session (git and the agents\u2019 logs)…'
    : n > 0
      ? `${n} field${n === 1 ? '' : 's'} drafted from the session: edit any to make it yours.`
      : model.session
        ? 'Nothing drafted is left: every field is yours.'
        : 'Redraft fills the fields from the session (the agent\u2019s plan, your requests, the commands run).';
  const modelLabel = m?.state === 'available' && m.model ? `Draft with ${m.model}` : 'Draft with model';
  // Usable only once the host named a model: before that, or without one, clicking would do nothing.
  const modelReady = !!m && m.state !== 'unavailable';
  const modelTitle = !m
    ? 'Looking for a language model in this editor…'
    : m.state === 'unavailable'
      ? (m.message ?? 'No language model is available in this editor.')
      : 'Ask the editor\u2019s language model for the summary, decisions, failed approaches and next steps; you see the result and its token cost before anything is written.';
  box.setAttribute('aria-busy', busy ? 'true' : 'false');
  document.getElementById('summary')?.setAttribute('placeholder', busy ? 'Drafting from the session…' : SUMMARY_PLACEHOLDER);
  replaceChildren(
    box,
    h(
      'p',
      { class: 'muted', id: 'draft-status', role: 'status' },
      busy ? h(Tags.progress, { class: 'small', 'aria-hidden': 'true' }) : icon('sparkle'),
      ' ',
      status,
    ),
    h(
      'div',
      { class: 'row' },
      h(
        Tags.button,
        {
          id: 'redraft',
          appearance: 'secondary',
          title: 'Collect the evidence again and re-fill the fields you have not edited',
          onClick: () => send({ type: 'redraft' }),
        },
        h('span', { slot: 'start', class: 'codicon codicon-refresh', 'aria-hidden': 'true' }),
        'Redraft',
      ),
      running
        ? h(Tags.button, { id: 'cancel-model-draft', appearance: 'secondary', onClick: () => send({ type: 'cancelModelDraft' }) }, 'Cancel')
        : h(
            Tags.button,
            {
              id: 'draft-with-model',
              appearance: 'secondary',
              title: modelTitle,
              'aria-label': `${modelLabel} (the editor\u2019s language model)…`,
              disabled: !modelReady,
              onClick: () => modelReady && send({ type: 'draftWithModel' }),
            },
            h('span', { slot: 'start', class: 'codicon codicon-sparkle', 'aria-hidden': 'true' }),
            `${modelLabel}…`,
          ),
    ),
    // One line, cut with an ellipsis (the whole text on hover, and in the disabled button's tooltip).
    m && m.state !== 'available' ? h('p', { class: 'muted one-line', id: 'model-draft-state', title: modelDraftText(m) }, modelDraftText(m)) : null,
  );
}

/** The summary's placeholder when nothing is being drafted. */
export const SUMMARY_PLACEHOLDER = 'What happened in this session, and where the work stands';

/**
 * Whether the session's draft is still on its way: no draft applied yet (none saved from before
 * either) while the evidence it is drafted from is being collected or has not come.
 */
export function drafting(): boolean {
  return (
    model.draftExpected &&
    model.session === null &&
    model.draft.drafted.length === 0 &&
    (model.loading || (model.evidence === null && model.evidenceError === null))
  );
}

/** The language-model draft's state in words (with its token cost when done). */
function modelDraftText(m: NonNullable<typeof model.modelDraft>): string {
  const who = m.model ?? 'the language model';
  switch (m.state) {
    case 'running':
      return `Asking ${who}…`;
    case 'done':
      return `Drafted by ${who}${m.input_tokens !== undefined ? ` (${m.input_tokens} tokens sent, ${m.output_tokens ?? 0} received)` : ''}: check it before handing over.`;
    case 'cancelled':
      return 'The language-model draft was cancelled; nothing changed.';
    case 'unavailable':
      return m.message ?? 'No language model is available in this editor.';
    default:
      return m.message ?? `${who} could not draft.`;
  }
}

/** The section of the user's requests (verbatim, read-only; each can be removed) or of the commands run. */
export function renderReadOnlySection(f: 'user_requests' | 'commands_run'): HTMLElement {
  return h(
    'section',
    { class: 'field', 'aria-labelledby': `title-${f}` },
    h(
      'div',
      { class: 'label', id: `title-${f}` },
      FIELD_TITLES[f],
      ' ',
      h('span', { class: 'count', id: `count-${f}` }),
      h('span', { id: `mark-${f}` }, draftedMark(f)),
    ),
    h('ul', { id: `list-${f}`, class: 'items readonly', 'aria-label': FIELD_TITLES[f] }),
  );
}

/** Fills `#list-user_requests` or `#list-commands_run` and its count; hides the section when there is nothing. */
export function renderReadOnlyList(f: 'user_requests' | 'commands_run'): void {
  const ul = document.getElementById(`list-${f}`);
  if (!ul) return;
  const sources = itemSources(model.draft, model.session, f, localTime);
  const noun = f === 'user_requests' ? 'request' : 'command';
  const remove = (i: number) =>
    h(
      Tags.button,
      {
        appearance: 'icon',
        'aria-label': `Leave ${noun} ${i + 1} out`,
        title: `Leave ${noun} ${i + 1} out of the handoff`,
        onClick: () => {
          if (f === 'user_requests') update({ user_requests: model.draft.user_requests.filter((_, k) => k !== i) });
          else update({ commands_run: model.draft.commands_run.filter((_, k) => k !== i) });
          renderReadOnlyList(f);
          renderMark(f);
          renderDraftBar();
        },
      },
      icon('close'),
    );
  const rows =
    f === 'user_requests'
      ? model.draft.user_requests.map((r, i) => {
          const text = r.text.replace(/\s+/g, ' ');
          return h(
            'li',
            { class: 'item' },
            sources[i] ? sourceTip(`Source of request ${i + 1}`, sources[i]) : null,
            h('span', { class: 'grow quote', title: r.text.slice(0, 2000) }, text.length > 240 ? `${text.slice(0, 239)}…` : text),
            remove(i),
          );
        })
      : model.draft.commands_run.map((c, i) => {
          const mark = c.result === 'succeeded' ? icon('pass', 'ok') : c.result === 'failed' ? icon('error', 'bad') : icon('question');
          const detail = [c.exit_code === null ? 'exit ?' : `exit ${c.exit_code}`, c.count > 1 ? `${c.count}×` : '', c.kind].filter(Boolean).join(' · ');
          return h(
            'li',
            { class: 'item' },
            sources[i] ? sourceTip(`Source of command ${i + 1}`, sources[i]) : null,
            h('span', { class: 'grow' }, mark, ' ', h('span', { class: 'mono' }, c.command), h('span', { class: 'muted' }, `  ${detail}`)),
            remove(i),
          );
        });
  replaceChildren(ul, ...rows);
  const count = document.getElementById(`count-${f}`);
  if (count) count.textContent = rows.length ? String(rows.length) : '';
  const section = ul.closest('section');
  if (section) section.hidden = rows.length === 0;
}
