/**
 * What the panel does with each message from the host (already validated against the
 * protocol): `init` starts over (the newer draft wins), `state` switches between the empty
 * state and the form, `evidence` and `estimate` refill their sections, `draft` and a done
 * `modelDraft` fill the fields not edited, `handedOver` clears the draft and
 * offers the next steps, `banner` and `response` show what happened.
 */
import { emptyDraft, newerDraft } from '../src/core/panel/draft';
import { emptySessionDraft, FIELD_TITLES, prefill } from '../src/core/panel/prefill';
import type { DraftedField, HostToWebview, SessionDraft } from '../src/core/panel/protocol';
import { setBusy } from './actions';
import { renderBanner } from './banner';
import { fmt, h, icon } from './dom';
import { renderDraftBar, renderMark, renderReadOnlyList } from './drafted';
import { renderEvidence } from './evidence';
import { render } from './form';
import { renderList } from './lists';
import { renderMeter } from './meter';
import { flush, model, replaceDraft, save, send } from './model';
import { Tags } from './toolkit';

/** The names of fields, joined for a sentence: `Summary, Next steps`. */
const names = (fields: readonly DraftedField[]) => fields.map((f) => FIELD_TITLES[f]).join(', ');

/** Shows the fields of the form that `fields` names as the model now holds them (the rest keep the focus and caret). */
function showFields(fields: readonly DraftedField[]): void {
  for (const f of fields) {
    if (f === 'summary') {
      const el = document.getElementById('summary') as HTMLTextAreaElement | null;
      if (el) el.value = model.draft.summary;
      renderMark(f);
    } else if (f === 'user_requests' || f === 'commands_run') {
      renderReadOnlyList(f);
      renderMark(f);
    } else {
      renderList(f);
    }
  }
  renderDraftBar();
}

/**
 * Applies a session draft (from the evidence, or from the language model: `only` its four
 * fields) to the form. Asked for (`announce`), the banner says what was filled and which
 * edited fields were left as they are, with "Replace my edits too".
 */
function applyDraft(session: SessionDraft, announce: string | null, only?: readonly DraftedField[], replaceEdited = false): void {
  const before = model.draft;
  const r = prefill(before, session, { only, replaceEdited });
  // The sources shown are the newest draft's; a model's draft keeps the evidence draft's other fields.
  const merged: SessionDraft = only ? { ...(model.session ?? emptySessionDraft()), ...Object.fromEntries(only.map((f) => [f, session[f]])) } : session;
  replaceDraft(r.draft, merged);
  const changed = (Object.keys(r.draft) as Array<keyof typeof r.draft>).filter((k) => JSON.stringify(r.draft[k]) !== JSON.stringify(before[k])) as string[];
  showFields([...new Set([...r.filled, ...(changed.filter((k) => k in FIELD_TITLES) as DraftedField[])])]);
  if (!announce) return;
  const filled = r.filled.length ? `${announce}: ${names(r.filled)}.` : `${announce}: nothing to fill.`;
  if (r.kept.length === 0) {
    renderBanner('info', filled);
    return;
  }
  renderBanner('info', `${filled} Left as you edited them: ${names(r.kept)}.`, {
    actions: [
      h(
        Tags.button,
        { id: 'replace-edited', appearance: 'secondary', onClick: () => applyDraft(session, 'Replaced with the draft', only, true) },
        'Replace my edits too',
      ),
    ],
  });
}

/** Applies one message from the host to the model and the page. */
export function onHostMessage(m: HostToWebview): void {
  switch (m.type) {
    case 'init': {
      model.specialists = m.specialists;
      model.settings = m.settings;
      model.state = m.state;
      // Hidden, moved or reloaded: the newer copy of the draft wins (ours is written on every keystroke).
      ({ draft: model.draft, revision: model.revision } = newerDraft(
        { draft: model.draft, revision: model.revision },
        { draft: m.draft, revision: m.revision },
      ));
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
      renderDraftBar();
      break;
    case 'estimate':
      model.estimate = m;
      renderMeter();
      break;
    case 'draft':
      applyDraft(m.draft, m.redraft ? 'Redrafted from the session' : null);
      // Over its budget as drafted: the draft opens fitted, not as an error to fix first (unless the user chose).
      if (m.fit && !model.draft.fit && !model.draft.fit_chosen) replaceDraft({ ...model.draft, fit: true }, model.session ?? m.draft);
      renderMeter();
      break;
    case 'modelDraft':
      model.modelDraft = m;
      if (m.state === 'done' && m.fields) {
        applyDraft({ ...(model.session ?? emptySessionDraft()), ...m.fields }, `Drafted by ${m.model ?? 'the language model'}`, [
          'summary',
          'decisions',
          'failed_approaches',
          'next_steps',
        ]);
      }
      renderDraftBar();
      break;
    case 'handedOver':
      // The outcome is shown where the user is looking (the banner, scrolled to and focused);
      // the meter waits for the host's estimate of the new empty draft.
      model.draft = { ...emptyDraft(), budget: model.draft.budget };
      model.revision = Math.max(model.revision, m.revision);
      model.estimate = null;
      model.session = null;
      model.draftExpected = false;
      save();
      render();
      renderBanner('success', `Handed over to ${m.persona_marker}: ${m.handoff_file} (${fmt(m.tokens)} / ${fmt(m.budget)} tokens).`, {
        // Each handoff is a new file in Source Control: the banner says that is meant.
        detail: m.handoff_root
          ? h(
              'p',
              { class: 'muted', id: 'commit-hint' },
              icon('source-control'),
              ` Commit ${m.handoff_root}/ with your work: the next session and your team read the handoffs from there.`,
            )
          : undefined,
        actions: [
          h(
            Tags.button,
            {
              id: 'copy-prompt',
              appearance: 'secondary',
              title: 'The prompt the receiving agent needs: mandate, receive rules, staleness and prior handoffs',
              onClick: () => send({ type: 'runCommand', command: 'copyPrompt', handoff: m.handoff_id }),
            },
            'Copy Prompt for Specialist',
          ),
          h(
            Tags.button,
            { id: 'open-in-chat', appearance: 'secondary', onClick: () => send({ type: 'runCommand', command: 'openInChat', handoff: m.handoff_id }) },
            'Open in Chat',
          ),
        ],
        reveal: true,
      });
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
