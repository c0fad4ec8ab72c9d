/**
 * The evidence section (`#evidence`): the git position, the notes (with the next action
 * when git gave nothing), and the touched files, tests run, commits and recent turns, each
 * with a checkbox that leaves it out of the handoff; and below the form, the offer to
 * continue the latest handoff's chain and to verify it (`#chain`).
 */
import { testKey, toggle } from '../src/core/panel/draft';
import type { EvidenceView } from '../src/core/panel/protocol';
import { checkbox } from './controls';
import { fmt, h, icon, replaceChildren } from './dom';
import { model, send, specialistById, update } from './model';
import { Tags } from './toolkit';

/** Fills `#evidence` from the model: progress while collecting, the error, or the lists; then the chain offer. */
export function renderEvidence(): void {
  const box = document.getElementById('evidence');
  if (!box) return;
  const ev = model.evidence;
  const head = h(
    'div',
    { class: 'section-head' },
    h('h3', { id: 'evidence-title' }, 'Evidence'),
    model.loading ? h(Tags.progress, { class: 'small', 'aria-label': 'Collecting evidence' }) : null,
    h(
      Tags.button,
      {
        appearance: 'icon',
        id: 'refresh-evidence',
        'aria-label': 'Collect the evidence again',
        title: 'Collect the evidence again',
        onClick: () => send({ type: 'refreshEvidence' }),
      },
      icon('refresh'),
    ),
  );
  if (model.evidenceError && !model.loading) {
    replaceChildren(
      box,
      head,
      h(
        'div',
        { class: 'note error', role: 'alert' },
        h('p', {}, icon('error'), ' ', model.evidenceError),
        h('p', {}, 'Try again with the refresh button; the handoff can still be written without evidence.'),
      ),
    );
    return;
  }
  if (!ev) {
    replaceChildren(box, head, h('p', { class: 'muted' }, model.loading ? 'Collecting git changes and the session log…' : 'No evidence yet.'));
    return;
  }
  const ex = model.draft.excluded;
  const group = (title: string, count: number, items: HTMLElement[], empty: string) =>
    h(
      'details',
      { open: count > 0 && count <= 50 },
      h('summary', {}, `${title} (${fmt(count)})`),
      items.length ? h('div', { class: 'evidence-items' }, ...items) : h('p', { class: 'muted' }, empty),
    );
  const files = ev.touched_files.map((f) => {
    const counts = f.binary ? 'binary' : f.status === '?' ? 'untracked' : f.added !== null ? `+${f.added} −${f.deleted}` : '';
    return checkbox(
      h(
        'span',
        { class: 'mono' },
        h('span', { class: `status status-${f.status === '?' ? 'u' : f.status}` }, f.status),
        ' ',
        f.old_path ? `${f.old_path} → ${f.path}` : f.path,
        counts ? h('span', { class: 'muted' }, `  ${counts}`) : null,
      ),
      !ex.files.includes(f.path),
      (c) => {
        update({ excluded: { ...model.draft.excluded, files: toggle(model.draft.excluded.files, f.path, !c) } });
      },
    );
  });
  if (ev.touched_files_omitted) files.push(h('p', { class: 'muted' }, `… and ${fmt(ev.touched_files_omitted)} more`));
  const tests = ev.tests_run.map((t) => {
    const mark = t.result === 'passed' ? icon('pass', 'ok') : t.result === 'failed' ? icon('error', 'bad') : icon('question');
    const detail = [t.exit_code === null ? 'exit ?' : `exit ${t.exit_code}`, t.source].join(' · ');
    return checkbox(
      h('span', {}, mark, ' ', h('span', { class: 'mono' }, t.command), h('span', { class: 'muted' }, `  ${t.result} · ${detail}`)),
      !ex.tests.includes(testKey(t)),
      (c) => {
        update({ excluded: { ...model.draft.excluded, tests: toggle(model.draft.excluded.tests, testKey(t), !c) } });
      },
    );
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
    return checkbox(
      h('span', {}, h('strong', {}, `${t.role}: `), text.length > 140 ? `${text.slice(0, 139)}…` : text),
      !ex.turns.includes(i),
      (c) => {
        update({ excluded: { ...model.draft.excluded, turns: toggle(model.draft.excluded.turns, i, !c) } });
      },
      t.text.slice(0, 1000),
    );
  });
  const where = [ev.branch ? `branch ${ev.branch}` : ev.head_commit ? 'detached HEAD' : '', ev.head_commit ? `at ${ev.head_commit.slice(0, 7)}` : '']
    .filter(Boolean)
    .join(' ');
  replaceChildren(
    box,
    head,
    where ? h('p', { class: 'muted' }, `Git: ${where}. Untick what should stay out of the handoff.`) : null,
    ...ev.notes.map((n, i) =>
      h('div', { class: 'note warning', role: 'note' }, h('p', {}, icon('warning'), ' ', n), i === 0 ? gitAction(ev.git_problem) : null),
    ),
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
    return h(
      Tags.button,
      { id: 'init-repository', appearance: 'secondary', onClick: () => send({ type: 'runCommand', command: 'initRepository' }) },
      'Initialize Repository',
    );
  }
  if (problem === 'git_missing') {
    return h(
      Tags.button,
      { id: 'git-settings', appearance: 'secondary', onClick: () => send({ type: 'runCommand', command: 'openGitSettings' }) },
      'Set the Path to git',
    );
  }
  return null;
}

/** Fills `#chain`: the checkbox that continues the latest handoff's chain, when there is one. */
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
    checkbox(`Continue the chain of the latest handoff (to ${s?.label ?? latest.specialist}, hop ${latest.hop})`, model.draft.continue_chain, (c) =>
      update({ continue_chain: c, hop_guard_confirmed: false }),
    ),
    // Check the latest handoff's recorded tests and builds; the host asks consent before re-running any.
    h(
      'div',
      {},
      h(
        Tags.button,
        {
          id: 'verify-latest',
          appearance: 'secondary',
          title: 'Re-run the tests and builds the latest handoff recorded (after you confirm) and report what changed since it',
          onClick: () => send({ type: 'verify', handoff: latest.id }),
        },
        'Verify Latest Handoff…',
      ),
    ),
  );
}
