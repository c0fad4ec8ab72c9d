/**
 * What the panel does with each message from the host (already validated against the
 * protocol): `init` starts over (the newer draft wins), `state` switches between the empty
 * state and the form, `evidence` and `estimate` refill their sections, `handedOver`
 * clears the draft and offers the next steps, `banner` and `response` show what happened.
 */
import { emptyDraft, newerDraft } from '../src/core/panel/draft';
import type { HostToWebview } from '../src/core/panel/protocol';
import { setBusy } from './actions';
import { renderBanner } from './banner';
import { fmt, h } from './dom';
import { renderEvidence } from './evidence';
import { render } from './form';
import { renderMeter } from './meter';
import { flush, model, save, send } from './model';
import { Tags } from './toolkit';

/** Applies one message from the host to the model and the page. */
export function onHostMessage(m: HostToWebview): void {
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
      // The outcome is shown where the user is looking (the banner, scrolled to and focused);
      // the meter waits for the host's estimate of the new empty draft (issue 17).
      model.draft = emptyDraft();
      model.revision = Math.max(model.revision, m.revision);
      model.estimate = null;
      save();
      render();
      renderBanner('success', `Handed over to ${m.persona_marker}: ${m.handoff_file} (${fmt(m.tokens)} / ${fmt(m.budget)} tokens).`, [
        h(Tags.button, { id: 'copy-prompt', appearance: 'secondary', title: 'The prompt the receiving agent needs: mandate, receive rules, staleness and prior handoffs', onClick: () => send({ type: 'runCommand', command: 'copyPrompt' }) }, 'Copy Prompt for Specialist'),
        h(Tags.button, { id: 'open-in-chat', appearance: 'secondary', onClick: () => send({ type: 'runCommand', command: 'openInChat' }) }, 'Open in Chat'),
      ], true);
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
