/**
 * The panel's page: the empty state (no folder, or an untrusted workspace) or the form —
 * the specialist picker with its card, topic, the drafted-from-the-session bar, summary, the
 * five lists, the user's requests and the commands run, return condition,
 * reason and its kind, the chain offer, the evidence, and at the foot the budget choice and the token meter,
 * the hop guard and the Preview / Hand over buttons.
 */
import { DRAFT_LISTS, type Draft } from '../src/core/panel/draft';
import { request } from './actions';
import { clearBanner } from './banner';
import { textField, valueOf } from './controls';
import { h, icon, replaceChildren } from './dom';
import { afterEdit, draftedMark, drafting, renderDraftBar, renderReadOnlyList, renderReadOnlySection, SUMMARY_PLACEHOLDER } from './drafted';
import { renderEvidence } from './evidence';
import { renderList, renderListSection } from './lists';
import { renderBudgetChoice } from './budget';
import { watchFooter } from './focusView';
import { renderMeter } from './meter';
import { model, send, specialistById, update } from './model';
import { Tags } from './toolkit';

const REASON_KINDS: Array<[Draft['reason_kind'], string]> = [
  ['end_of_session', 'End of session'],
  ['specialization', 'Needs a specialist'],
  ['capability_boundary', 'Beyond my capabilities'],
  ['escalation', 'Escalation'],
  ['load_balancing', 'Load balancing'],
];

const app = document.getElementById('app') as HTMLElement;

/** What to do first when there is nothing to hand over yet: open a folder, or trust the workspace. */
function renderEmptyState(): HTMLElement {
  if (!model.state.hasFolder) {
    return h(
      'section',
      { class: 'empty', role: 'status' },
      h('h2', {}, 'No folder is open'),
      h('p', {}, 'A handoff records the work of a workspace folder: open one to hand over.'),
      h(Tags.button, { id: 'open-folder', onClick: () => send({ type: 'runCommand', command: 'openFolder' }) }, 'Open Folder…'),
    );
  }
  return h(
    'section',
    { class: 'empty', role: 'status' },
    h('h2', {}, 'This workspace is not trusted'),
    h('p', { id: 'status' }, 'This workspace is not trusted: Specialist Handoff runs no git and writes no files here. Trust the workspace to hand over.'),
    h(Tags.button, { id: 'manage-trust', onClick: () => send({ type: 'runCommand', command: 'manageTrust' }) }, 'Manage Workspace Trust'),
  );
}

/** The chosen specialist's card (icon, label, persona marker, mandate), or the question who takes over. */
function renderSpecialistCard(): HTMLElement | string {
  const s = specialistById(model.draft.specialist);
  if (!s) {
    return h('p', { class: 'muted' }, 'Who should take the work over?');
  }
  return h(
    'div',
    { class: 'card', 'aria-live': 'polite' },
    h('div', { class: 'card-title' }, icon(s.icon), h('strong', {}, s.label), h('span', { class: 'marker', id: 'persona-marker' }, s.persona_marker)),
    h('p', { class: 'mandate' }, s.mandate),
  );
}

/** The specialist dropdown (built-ins first, then the workspace's own, marked where they come from) and its card. */
function renderSpecialistPicker(): HTMLElement {
  const options: HTMLElement[] = [h(Tags.option, { value: '' }, 'Choose a specialist…')];
  // Built-ins first, then the workspace's own specialists (.handoff/specialists/*.md), marked as such.
  const ordered = [...model.specialists.filter((s) => s.source === 'builtin'), ...model.specialists.filter((s) => s.source !== 'builtin')];
  for (const s of ordered) {
    // Where a non-built-in specialist comes from: the project's own file, or another tool's agent folder.
    const origin: Record<string, string> = { custom: 'custom', 'github-agent': '.github/agents', 'claude-agent': '.claude/agents' };
    const label = s.source === 'builtin' ? s.label : `${s.label} (${origin[s.source] ?? s.source})`;
    options.push(
      h(
        Tags.option,
        { value: s.id, title: s.mandate, selected: s.id === model.draft.specialist },
        h('span', { slot: 'start', class: `codicon codicon-${s.icon}`, 'aria-hidden': 'true' }),
        label,
      ),
    );
  }
  const dropdown = h(
    Tags.dropdown,
    {
      id: 'specialist',
      class: 'wide',
      'aria-label': 'Specialist',
      onChange: (e) => {
        update({ specialist: valueOf(e) });
        if (model.draft.specialist) clearBanner('specialist');
        replaceChildren(document.getElementById('specialist-card') as HTMLElement, renderSpecialistCard());
        renderReturnPlaceholder();
      },
    },
    ...options,
  );
  // The toolkit's dropdown reads its value from the selected option once upgraded.
  queueMicrotask(() => ((dropdown as HTMLInputElement).value = model.draft.specialist));
  return h(
    'section',
    { class: 'field' },
    h('label', { for: 'specialist', class: 'label' }, 'Specialist'),
    dropdown,
    h('div', { id: 'specialist-card' }, renderSpecialistCard()),
  );
}

/** The return condition's placeholder: the chosen specialist's own, or the question. */
function renderReturnPlaceholder(): void {
  const field = document.getElementById('return-condition');
  const s = specialistById(model.draft.specialist);
  field?.setAttribute('placeholder', s ? s.return_condition : 'When should the specialist hand back?');
}

/** Builds the whole form from the model, then fills its lists, the evidence and the meter. */
function renderForm(): void {
  const d = model.draft;
  const reason = h(
    Tags.dropdown,
    { id: 'reason-kind', 'aria-label': 'Kind of handoff', onChange: (e) => update({ reason_kind: valueOf(e) as Draft['reason_kind'] }) },
    ...REASON_KINDS.map(([v, l]) => h(Tags.option, { value: v, selected: v === d.reason_kind }, l)),
  );
  queueMicrotask(() => ((reason as HTMLInputElement).value = d.reason_kind));
  const summary = h(
    Tags.textArea,
    {
      id: 'summary',
      value: d.summary,
      rows: 5,
      resize: 'vertical',
      class: 'wide',
      placeholder: drafting() ? 'Drafting from the session…' : SUMMARY_PLACEHOLDER,
      'aria-label': 'Summary',
      onInput: (e) => {
        update({ summary: valueOf(e) });
        afterEdit('summary');
      },
    },
    h('span', {}, 'Summary'),
  );
  replaceChildren(
    app,
    h('div', { id: 'banner' }),
    renderSpecialistPicker(),
    h(
      'section',
      { class: 'field' },
      textField('topic', 'Topic', d.topic, 'e.g. token auth for the todo API', (v) => {
        update({ topic: v });
        if (v.trim()) clearBanner('topic');
      }),
    ),
    h('section', { id: 'draft-bar', class: 'field draft-bar', 'aria-label': 'Drafted from the session' }),
    h('section', { class: 'field' }, h('div', { class: 'mark-row', id: 'mark-summary' }, draftedMark('summary')), summary),
    ...DRAFT_LISTS.map(renderListSection),
    renderReadOnlySection('user_requests'),
    renderReadOnlySection('commands_run'),
    h(
      'section',
      { class: 'field' },
      textField('return-condition', 'Return condition', d.return_condition, 'When should the specialist hand back?', (v) => update({ return_condition: v })),
    ),
    h(
      'section',
      { class: 'field' },
      textField('reason', 'Why hand over', d.handover_reason, 'e.g. the change needs an independent review', (v) => update({ handover_reason: v })),
      h('div', { class: 'row' }, h('label', { for: 'reason-kind' }, 'Kind'), reason),
    ),
    h('div', { id: 'chain', class: 'field' }),
    h(Tags.divider, {}),
    h('section', { id: 'evidence', class: 'field', 'aria-labelledby': 'evidence-title' }),
    // Kept in sight at the bottom of the view: the meter and the two actions.
    h(
      'footer',
      { class: 'footer' },
      h(
        'section',
        { id: 'meter', 'aria-label': 'Token budget' },
        h('div', { class: 'meter-line' }, h('div', { id: 'meter-count', 'aria-live': 'polite' }), h('div', { id: 'budget-choice' })),
        h('div', { id: 'meter-notes', 'aria-live': 'polite' }),
      ),
      h('div', { id: 'hop-guard' }),
      h(
        'div',
        { class: 'actions' },
        h(
          Tags.button,
          { id: 'preview', appearance: 'secondary', title: 'Open the handoff this draft would write', onClick: () => request('preview') },
          h('span', { slot: 'start', class: 'codicon codicon-open-preview', 'aria-hidden': 'true' }),
          'Preview',
        ),
        h(
          Tags.button,
          // "Hand Over" beside Preview on one line at the default side-bar width; its name and tooltip say to whom.
          {
            id: 'hand-over',
            appearance: 'primary',
            title: 'Hand Over to Specialist (Ctrl+Enter, ⌘+Enter on macOS)',
            'aria-label': 'Hand Over to Specialist',
            'aria-keyshortcuts': 'Control+Enter Meta+Enter',
            onClick: () => request('handOver'),
          },
          'Hand Over',
        ),
      ),
    ),
  );
  DRAFT_LISTS.forEach((k) => renderList(k));
  renderReadOnlyList('user_requests');
  renderReadOnlyList('commands_run');
  renderDraftBar();
  renderReturnPlaceholder();
  renderEvidence();
  renderBudgetChoice();
  renderMeter();
  watchFooter(app.querySelector('.footer'));
  app.setAttribute('aria-busy', 'false');
}

/** Renders the page for the model's state: the empty state without a trusted folder, else the form. */
export function render(): void {
  if (!model.state.hasFolder || !model.state.trusted) {
    replaceChildren(app, renderEmptyState());
    watchFooter(null);
    app.setAttribute('aria-busy', 'false');
    return;
  }
  renderForm();
}
