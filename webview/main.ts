/**
 * The "Hand over to specialist" panel (webview). Talks to the extension host only through
 * the zod-typed protocol of src/core/panel/protocol.ts; keeps its draft in the webview state
 * (so hiding, moving and reloading the view lose nothing) and sends it to the host,
 * which counts tokens, collects evidence and writes the files.
 */
import { DRAFT_LISTS, addItem, editItem, emptyDraft, moveItem, newerDraft, parseSavedDraft, removeItem, testKey, toggle, type Draft, type DraftList } from '../src/core/panel/draft';
import {
  HostToWebviewSchema,
  type EstimateNotification,
  type EvidenceView,
  type HostToWebview,
  type PanelState,
  type SpecialistView,
  type WebviewToHost,
} from '../src/core/panel/protocol';
import { fmt, h, icon, replaceChildren } from './dom';
import { Tags, registerComponents } from './toolkit';

registerComponents();
const vscode = acquireVsCodeApi();

/** How long after the last keystroke the draft goes to the host, in milliseconds. */
const SEND_DEBOUNCE_MS = 200;

const LIST_LABELS: Record<DraftList, { title: string; noun: string; placeholder: string; numbered: boolean }> = {
  decisions: { title: 'Decisions', noun: 'decision', placeholder: 'Add a decision, then Enter', numbered: false },
  failed_approaches: { title: 'Failed approaches', noun: 'failed approach', placeholder: 'Add an approach that did not work, then Enter', numbered: false },
  next_steps: { title: 'Next steps', noun: 'next step', placeholder: 'Add a next step, then Enter', numbered: true },
  blockers: { title: 'Blockers', noun: 'blocker', placeholder: 'Add a blocker, then Enter', numbered: false },
};

const REASON_KINDS: Array<[Draft['reason_kind'], string]> = [
  ['end_of_session', 'End of session'],
  ['specialization', 'Needs a specialist'],
  ['capability_boundary', 'Beyond my capabilities'],
  ['escalation', 'Escalation'],
  ['load_balancing', 'Load balancing'],
];

interface Model {
  draft: Draft;
  /** Edits so far (see RevisedDraftSchema): the newer of the webview's and the host's draft wins. */
  revision: number;
  specialists: SpecialistView[];
  settings: { maxContextTokens: number; tokenizer: string; maxHandoverDepth: number; includeRecentTurns: number };
  state: PanelState;
  evidence: EvidenceView | null;
  evidenceError: string | null;
  loading: boolean;
  estimate: EstimateNotification | null;
  busy: boolean;
}

// What this view saved before it was hidden, moved or reloaded (validated: it may be from an older version).
const saved = parseSavedDraft(vscode.getState());
const model: Model = {
  draft: saved?.draft ?? emptyDraft(),
  revision: saved?.revision ?? 0,
  specialists: [],
  settings: { maxContextTokens: 3000, tokenizer: 'o200k_base', maxHandoverDepth: 3, includeRecentTurns: 5 },
  state: { hasFolder: true, trusted: true, handoffCount: 0 },
  evidence: null,
  evidenceError: null,
  loading: false,
  estimate: null,
  busy: false,
};

let sendTimer: ReturnType<typeof setTimeout> | undefined;
let requestSeq = 0;

function send(message: WebviewToHost): void {
  vscode.postMessage(message);
}

/** Keeps the draft in the webview state now, and sends it to the host shortly. */
function changed(): void {
  model.revision += 1;
  save();
  if (sendTimer) clearTimeout(sendTimer);
  sendTimer = setTimeout(flush, SEND_DEBOUNCE_MS);
}

/** Keeps the draft and its revision in the webview state. */
function save(): void {
  vscode.setState({ draft: model.draft, revision: model.revision });
}

/** Sends the pending draft to the host now. */
function flush(): void {
  if (sendTimer) clearTimeout(sendTimer);
  sendTimer = undefined;
  send({ type: 'draftChanged', draft: model.draft, revision: model.revision });
}

function update(patch: Partial<Draft>): void {
  model.draft = { ...model.draft, ...patch };
  changed();
}

// ---------------------------------------------------------------- rendering

const app = document.getElementById('app') as HTMLElement;

function valueOf(e: Event): string {
  return (e.target as HTMLInputElement).value ?? '';
}

function textField(id: string, label: string, value: string, placeholder: string, onInput: (v: string) => void): HTMLElement {
  return h(Tags.textField, { id, value, placeholder, 'aria-label': label, class: 'wide', onInput: (e) => onInput(valueOf(e)) }, h('span', {}, label));
}

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

function specialistById(id: string): SpecialistView | undefined {
  return model.specialists.find((s) => s.id === id);
}

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

function renderSpecialistPicker(): HTMLElement {
  const options: HTMLElement[] = [h(Tags.option, { value: '' }, 'Choose a specialist…')];
  // Built-ins first, then the workspace's own specialists (.handoff/specialists/*.md), marked as such.
  const ordered = [...model.specialists.filter((s) => s.source === 'builtin'), ...model.specialists.filter((s) => s.source !== 'builtin')];
  for (const s of ordered) {
    // Where a non-built-in specialist comes from: the project's own file, or another tool's agent folder.
    const origin: Record<string, string> = { custom: 'custom', 'github-agent': '.github/agents', 'claude-agent': '.claude/agents' };
    const label = s.source === 'builtin' ? s.label : `${s.label} (${origin[s.source] ?? s.source})`;
    options.push(h(Tags.option, { value: s.id, title: s.mandate, selected: s.id === model.draft.specialist }, h('span', { slot: 'start', class: `codicon codicon-${s.icon}`, 'aria-hidden': 'true' }), label));
  }
  const dropdown = h(
    Tags.dropdown,
    {
      id: 'specialist',
      class: 'wide',
      'aria-label': 'Specialist',
      onChange: (e) => {
        update({ specialist: valueOf(e) });
        replaceChildren(document.getElementById('specialist-card') as HTMLElement, renderSpecialistCard());
        renderReturnPlaceholder();
      },
    },
    ...options,
  );
  // The toolkit's dropdown reads its value from the selected option once upgraded.
  queueMicrotask(() => ((dropdown as HTMLInputElement).value = model.draft.specialist));
  return h('section', { class: 'field' }, h('label', { for: 'specialist', class: 'label' }, 'Specialist'), dropdown, h('div', { id: 'specialist-card' }, renderSpecialistCard()));
}

function renderReturnPlaceholder(): void {
  const field = document.getElementById('return-condition');
  const s = specialistById(model.draft.specialist);
  field?.setAttribute('placeholder', s ? s.return_condition : 'When should the specialist hand back?');
}

function renderList(key: DraftList, focus?: { index: number; add?: boolean }): void {
  const meta = LIST_LABELS[key];
  const ul = document.getElementById(`list-${key}`) as HTMLElement;
  const items = model.draft[key];
  const rows = items.map((text, i) => {
    const field = h(Tags.textField, {
      value: text,
      class: 'grow',
      'aria-label': `${meta.noun} ${i + 1} of ${items.length} (Alt+Up / Alt+Down to move)`,
      'data-index': i,
      onInput: (e) => update({ [key]: editItem(model.draft[key], i, valueOf(e)) } as Partial<Draft>),
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
      field,
      button('arrow-up', `Move ${meta.noun} ${i + 1} up`, () => {
        update({ [key]: moveItem(model.draft[key], i, -1) } as Partial<Draft>);
        renderList(key, { index: Math.max(0, i - 1) });
      }, i === 0),
      button('arrow-down', `Move ${meta.noun} ${i + 1} down`, () => {
        update({ [key]: moveItem(model.draft[key], i, 1) } as Partial<Draft>);
        renderList(key, { index: Math.min(items.length - 1, i + 1) });
      }, i === items.length - 1),
      button('trash', `Remove ${meta.noun} ${i + 1}`, () => {
        update({ [key]: removeItem(model.draft[key], i) } as Partial<Draft>);
        renderList(key, { index: Math.min(i, items.length - 2), add: items.length === 1 });
      }),
    );
  });
  replaceChildren(ul, ...rows);
  const count = document.getElementById(`count-${key}`);
  if (count) count.textContent = items.length ? String(items.length) : '';
  if (focus) {
    const target = focus.add || focus.index < 0 ? document.getElementById(`add-${key}`) : (ul.querySelector(`[data-index="${focus.index}"]`) as HTMLElement | null);
    setTimeout(() => target?.focus(), 0);
  }
}

function renderListSection(key: DraftList): HTMLElement {
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
    h('div', { class: 'label', id: `title-${key}` }, meta.title, ' ', h('span', { class: 'count', id: `count-${key}` })),
    h(meta.numbered ? 'ol' : 'ul', { id: `list-${key}`, class: 'items', 'aria-label': meta.title }),
    add,
  );
  return section;
}

function checkbox(label: string | HTMLElement, checked: boolean, onChange: (checked: boolean) => void, title?: string): HTMLElement {
  return h(Tags.checkbox, { checked, title, onChange: (e) => onChange((e.target as HTMLInputElement).checked) }, label);
}

function renderEvidence(): void {
  const box = document.getElementById('evidence');
  if (!box) return;
  const ev = model.evidence;
  const head = h(
    'div',
    { class: 'section-head' },
    h('h3', { id: 'evidence-title' }, 'Evidence'),
    model.loading ? h(Tags.progress, { class: 'small', 'aria-label': 'Collecting evidence' }) : null,
    h(Tags.button, { appearance: 'icon', id: 'refresh-evidence', 'aria-label': 'Collect the evidence again', title: 'Collect the evidence again', onClick: () => send({ type: 'refreshEvidence' }) }, icon('refresh')),
  );
  if (model.evidenceError && !model.loading) {
    replaceChildren(box, head, h('div', { class: 'note error', role: 'alert' }, h('p', {}, icon('error'), ' ', model.evidenceError), h('p', {}, 'Try again with the refresh button; the handoff can still be written without evidence.')));
    return;
  }
  if (!ev) {
    replaceChildren(box, head, h('p', { class: 'muted' }, model.loading ? 'Collecting git changes and the session log…' : 'No evidence yet.'));
    return;
  }
  const ex = model.draft.excluded;
  const group = (title: string, count: number, items: HTMLElement[], empty: string) =>
    h('details', { open: count > 0 && count <= 50 }, h('summary', {}, `${title} (${fmt(count)})`), items.length ? h('div', { class: 'evidence-items' }, ...items) : h('p', { class: 'muted' }, empty));
  const files = ev.touched_files.map((f) => {
    const counts = f.binary ? 'binary' : f.status === '?' ? 'untracked' : f.added !== null ? `+${f.added} −${f.deleted}` : '';
    return checkbox(h('span', { class: 'mono' }, h('span', { class: `status status-${f.status === '?' ? 'u' : f.status}` }, f.status), ' ', f.old_path ? `${f.old_path} → ${f.path}` : f.path, counts ? h('span', { class: 'muted' }, `  ${counts}`) : null), !ex.files.includes(f.path), (c) => {
      update({ excluded: { ...model.draft.excluded, files: toggle(model.draft.excluded.files, f.path, !c) } });
    });
  });
  if (ev.touched_files_omitted) files.push(h('p', { class: 'muted' }, `… and ${fmt(ev.touched_files_omitted)} more`));
  const tests = ev.tests_run.map((t) => {
    const mark = t.result === 'passed' ? icon('pass', 'ok') : t.result === 'failed' ? icon('error', 'bad') : icon('question');
    const detail = [t.exit_code === null ? 'exit ?' : `exit ${t.exit_code}`, t.source].join(' · ');
    return checkbox(h('span', {}, mark, ' ', h('span', { class: 'mono' }, t.command), h('span', { class: 'muted' }, `  ${t.result} · ${detail}`)), !ex.tests.includes(testKey(t)), (c) => {
      update({ excluded: { ...model.draft.excluded, tests: toggle(model.draft.excluded.tests, testKey(t), !c) } });
    });
  });
  const commits = ev.commits.map((c) =>
    checkbox(h('span', {}, h('span', { class: 'mono' }, c.sha.slice(0, 7)), ` ${c.subject}`), !ex.commits.includes(c.sha), (on) => {
      update({ excluded: { ...model.draft.excluded, commits: toggle(model.draft.excluded.commits, c.sha, !on) } });
    }),
  );
  const first = Math.max(0, ev.recent_turns.length - model.settings.includeRecentTurns);
  const turns = ev.recent_turns.slice(first).map((t, k) => {
    const i = first + k;
    const text = t.text.replace(/\s+/g, ' ');
    return checkbox(h('span', {}, h('strong', {}, `${t.role}: `), text.length > 140 ? `${text.slice(0, 139)}…` : text), !ex.turns.includes(i), (c) => {
      update({ excluded: { ...model.draft.excluded, turns: toggle(model.draft.excluded.turns, i, !c) } });
    }, t.text.slice(0, 1000));
  });
  const where = [ev.branch ? `branch ${ev.branch}` : ev.head_commit ? 'detached HEAD' : '', ev.head_commit ? `at ${ev.head_commit.slice(0, 7)}` : ''].filter(Boolean).join(' ');
  replaceChildren(
    box,
    head,
    where ? h('p', { class: 'muted' }, `Git: ${where}. Untick what should stay out of the handoff.`) : null,
    ...ev.notes.map((n, i) => h('div', { class: 'note warning', role: 'note' }, h('p', {}, icon('warning'), ' ', n), i === 0 ? gitAction(ev.git_problem) : null)),
    group('Touched files', ev.touched_files.length + ev.touched_files_omitted, files, 'No changes against HEAD.'),
    group('Tests run', ev.tests_run.length, tests, 'No test runs in the session log.'),
    group('Commits', ev.commits.length, commits, 'No commits since the last handoff.'),
    group('Recent turns', turns.length, turns, 'No conversation turns found.'),
  );
  renderChain();
}

/** The next action for a folder without git evidence: initialize a repository, or point VS Code at git. */
function gitAction(problem: EvidenceView['git_problem']): HTMLElement | null {
  if (problem === 'not_repository') {
    return h(Tags.button, { id: 'init-repository', appearance: 'secondary', onClick: () => send({ type: 'runCommand', command: 'initRepository' }) }, 'Initialize Repository');
  }
  if (problem === 'git_missing') {
    return h(Tags.button, { id: 'git-settings', appearance: 'secondary', onClick: () => send({ type: 'runCommand', command: 'openGitSettings' }) }, 'Set the Path to git');
  }
  return null;
}

function renderChain(): void {
  const box = document.getElementById('chain');
  if (!box) return;
  const latest = model.evidence?.latest;
  if (!latest) {
    replaceChildren(box);
    return;
  }
  const s = specialistById(latest.specialist);
  replaceChildren(
    box,
    checkbox(`Continue the chain of the latest handoff (to ${s?.label ?? latest.specialist}, hop ${latest.hop})`, model.draft.continue_chain, (c) => update({ continue_chain: c, hop_guard_confirmed: false })),
  );
}

function renderMeter(): void {
  const box = document.getElementById('meter');
  if (!box) return;
  const e = model.estimate;
  const budget = e?.budget ?? model.settings.maxContextTokens;
  const tokens = e?.tokens ?? 0;
  const pct = Math.min(100, Math.round((tokens / budget) * 100));
  const over = !!e?.over;
  const label = `${fmt(tokens)}${e?.estimated ? ' (estimate)' : ''} / ${fmt(budget)} tokens`;
  // Set through the CSSOM: the CSP allows no inline style attributes.
  const fill = h('div', { class: 'fill' });
  fill.style.width = `${pct}%`;
  const children: Array<HTMLElement | null> = [
    h('div', { class: 'meter-head' }, h('span', { class: 'label' }, 'Token budget'), h('span', { id: 'token-count', class: over ? 'over' : '' }, label)),
    h('div', { class: `bar ${over ? 'over' : ''}`, role: 'meter', 'aria-label': 'Estimated tokens against the budget', 'aria-valuemin': 0, 'aria-valuemax': budget, 'aria-valuenow': tokens, 'aria-valuetext': label }, fill),
  ];
  if (over && e) {
    const unit: Record<string, string> = { recent_turns: 'turns', diff_excerpt: 'diff lines', touched_files: 'files', tests_run: 'passing tests', summary: 'summary characters' };
    const cuts = e.cuts.map((c) => `${fmt(c.count)} ${unit[c.section] ?? c.section}`).join(', ');
    children.push(
      h(
        'div',
        { class: 'note error', role: 'alert' },
        h('p', {}, `Over the budget by ${fmt(tokens - budget)} tokens.`),
        cuts
          ? h('p', {}, `Fit to budget would cut ${cuts}${e.fitted_tokens !== null ? `, leaving ${fmt(e.fitted_tokens)} tokens` : ''}; the cut text is kept in the history file.`)
          : h('p', {}, 'Nothing can be cut: shorten the decisions or next steps, or raise the budget.'),
        cuts && e.fitted_tokens !== null && e.fitted_tokens > budget
          ? h('p', { id: 'still-over' }, `Even cut, it stays ${fmt(e.fitted_tokens - budget)} tokens over: shorten the decisions, next steps or blockers, or raise handoff.maxContextTokens.`)
          : null,
        model.draft.fit
          ? h('p', {}, icon('check'), ' Fit to budget is on: the handoff will be cut as shown. ', h(Tags.button, { appearance: 'secondary', id: 'unfit', onClick: () => { update({ fit: false }); renderMeter(); } }, 'Undo'))
          : cuts
            ? h(Tags.button, { id: 'fit', onClick: () => { update({ fit: true }); renderMeter(); } }, 'Fit to budget')
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

function renderBanner(kind: 'error' | 'warning' | 'info' | 'success', message: string, actions: HTMLElement[] = []): void {
  const box = document.getElementById('banner');
  if (!box) return;
  replaceChildren(
    box,
    h(
      'div',
      { class: `note ${kind}`, role: kind === 'error' ? 'alert' : 'status' },
      h('div', { class: 'grow' }, h('p', {}, icon(kind === 'error' ? 'error' : kind === 'success' ? 'pass' : 'info'), ' ', message), actions.length ? h('div', { class: 'row' }, ...actions) : null),
      h(Tags.button, { appearance: 'icon', 'aria-label': 'Dismiss', onClick: () => replaceChildren(box) }, icon('close')),
    ),
  );
}

function setBusy(busy: boolean): void {
  model.busy = busy;
  for (const id of ['hand-over', 'preview']) {
    const b = document.getElementById(id);
    if (b) (b as HTMLButtonElement).disabled = busy;
  }
}

function request(method: 'preview' | 'handOver'): void {
  if (model.busy) return;
  if (method === 'handOver' && !model.draft.specialist) {
    renderBanner('warning', 'Pick a specialist first.');
    document.getElementById('specialist')?.focus();
    return;
  }
  if (method === 'handOver' && !model.draft.topic.trim()) {
    renderBanner('warning', 'Type a topic first: it names the work and the briefing file.');
    document.getElementById('topic')?.focus();
    return;
  }
  if (method === 'handOver' && model.estimate?.hop_guard && !model.draft.hop_guard_confirmed) {
    renderBanner('warning', 'The hop guard asks for a confirmation: tick "Hand over anyway", or pick another specialist.');
    document.querySelector<HTMLElement>('#hop-guard vscode-checkbox')?.focus();
    return;
  }
  setBusy(true);
  if (sendTimer) clearTimeout(sendTimer);
  sendTimer = undefined;
  send({ type: 'request', id: ++requestSeq, method, draft: model.draft, revision: model.revision });
}

function renderForm(): void {
  const d = model.draft;
  const reason = h(
    Tags.dropdown,
    { id: 'reason-kind', 'aria-label': 'Kind of handoff', onChange: (e) => update({ reason_kind: valueOf(e) as Draft['reason_kind'] }) },
    ...REASON_KINDS.map(([v, l]) => h(Tags.option, { value: v, selected: v === d.reason_kind }, l)),
  );
  queueMicrotask(() => ((reason as HTMLInputElement).value = d.reason_kind));
  const summary = h(Tags.textArea, { id: 'summary', value: d.summary, rows: 5, resize: 'vertical', class: 'wide', placeholder: 'What happened in this session, and where the work stands', 'aria-label': 'Summary', onInput: (e) => update({ summary: valueOf(e) }) }, h('span', {}, 'Summary'));
  replaceChildren(
    app,
    h('div', { id: 'banner' }),
    renderSpecialistPicker(),
    h('section', { class: 'field' }, textField('topic', 'Topic', d.topic, 'e.g. token auth for the todo API', (v) => update({ topic: v }))),
    h('section', { class: 'field' }, summary),
    ...DRAFT_LISTS.map(renderListSection),
    h('section', { class: 'field' }, textField('return-condition', 'Return condition', d.return_condition, 'When should the specialist hand back?', (v) => update({ return_condition: v }))),
    h('section', { class: 'field' }, textField('reason', 'Why hand over', d.handover_reason, 'e.g. the change needs an independent review', (v) => update({ handover_reason: v })), h('div', { class: 'row' }, h('label', { for: 'reason-kind' }, 'Kind'), reason)),
    h('div', { id: 'chain', class: 'field' }),
    h(Tags.divider, {}),
    h('section', { id: 'evidence', class: 'field', 'aria-labelledby': 'evidence-title' }),
    // Kept in sight at the bottom of the view: the meter and the two actions.
    h(
      'footer',
      { class: 'footer' },
      h('section', { id: 'meter', 'aria-live': 'polite' }),
      h('div', { id: 'hop-guard' }),
      h(
        'div',
        { class: 'actions' },
        h(Tags.button, { id: 'preview', appearance: 'secondary', title: 'Open the handoff this draft would write', onClick: () => request('preview') }, h('span', { slot: 'start', class: 'codicon codicon-open-preview', 'aria-hidden': 'true' }), 'Preview'),
        h(
          Tags.button,
          { id: 'hand-over', appearance: 'primary', title: 'Hand over to specialist (Ctrl+Enter, ⌘+Enter on macOS)', 'aria-keyshortcuts': 'Control+Enter Meta+Enter', onClick: () => request('handOver') },
          'Hand over to specialist',
        ),
      ),
    ),
  );
  DRAFT_LISTS.forEach((k) => renderList(k));
  renderReturnPlaceholder();
  renderEvidence();
  renderMeter();
  app.setAttribute('aria-busy', 'false');
}

function render(): void {
  if (!model.state.hasFolder || !model.state.trusted) {
    replaceChildren(app, renderEmptyState());
    app.setAttribute('aria-busy', 'false');
    return;
  }
  renderForm();
}

// ---------------------------------------------------------------- messages

function onHostMessage(m: HostToWebview): void {
  switch (m.type) {
    case 'init': {
      model.specialists = m.specialists;
      model.settings = m.settings;
      model.state = m.state;
      // Hidden, moved or reloaded: the newer copy of the draft wins (ours is written on every keystroke).
      ({ draft: model.draft, revision: model.revision } = newerDraft({ draft: model.draft, revision: model.revision }, { draft: m.draft, revision: m.revision }));
      save();
      render();
      flush();
      break;
    }
    case 'state': {
      const was = model.state;
      model.state = m.state;
      if (was.hasFolder !== m.state.hasFolder || was.trusted !== m.state.trusted) render();
      break;
    }
    case 'evidence':
      model.loading = m.status === 'loading';
      model.evidenceError = m.status === 'error' ? (m.message ?? 'Collecting the evidence failed.') : null;
      if (m.evidence) model.evidence = m.evidence;
      renderEvidence();
      break;
    case 'estimate':
      model.estimate = m;
      renderMeter();
      break;
    case 'handedOver':
      model.draft = emptyDraft();
      model.revision = Math.max(model.revision, m.revision);
      model.estimate = null;
      save();
      render();
      renderBanner('success', `Handed over to ${m.persona_marker}: ${m.handoff_file} (${fmt(m.tokens)} / ${fmt(m.budget)} tokens).`, [
        h(Tags.button, { id: 'copy-prompt', appearance: 'secondary', title: 'The prompt the receiving agent needs: mandate, receive rules, staleness and prior handoffs', onClick: () => send({ type: 'runCommand', command: 'copyPrompt' }) }, 'Copy Prompt for Specialist'),
        h(Tags.button, { id: 'open-in-chat', appearance: 'secondary', onClick: () => send({ type: 'runCommand', command: 'openInChat' }) }, 'Open in Chat'),
      ]);
      break;
    case 'banner':
      renderBanner(m.kind, m.message);
      break;
    case 'response':
      setBusy(false);
      if (!m.ok && m.message) renderBanner('error', m.message.replace(/^ERROR: /, ''));
      break;
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  const parsed = HostToWebviewSchema.safeParse(event.data);
  if (parsed.success) onHostMessage(parsed.data);
});

document.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && model.state.hasFolder && model.state.trusted) {
    e.preventDefault();
    request('handOver');
  }
});

// The view is being hidden or reloaded: send what the debounce still holds.
window.addEventListener('pagehide', () => sendTimer && flush());

send({ type: 'ready' });
