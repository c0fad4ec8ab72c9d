/**
 * The panel's two actions, Preview and Hand over: the checks made before asking the host
 * (a specialist, a topic, the hop guard's confirmation), the request that carries the
 * draft, and the busy state of both buttons until the host's `response`.
 */
import { renderBanner } from './banner';
import { cancelPendingDraft, model, send } from './model';

let requestSeq = 0;

/** Disables (`busy`) or enables the Preview and Hand over buttons. */
export function setBusy(busy: boolean): void {
  model.busy = busy;
  for (const id of ['hand-over', 'preview']) {
    const b = document.getElementById(id);
    if (b) (b as HTMLButtonElement).disabled = busy;
  }
}

/**
 * Asks the host to preview or write the handoff of the current draft. A hand-over without
 * a specialist, a topic or the hop guard's confirmation is not sent: a banner says what is
 * missing and the focus goes there. Ignored while a request is under way.
 */
export function request(method: 'preview' | 'handOver'): void {
  if (model.busy) return;
  if (method === 'handOver' && !model.draft.specialist) {
    renderBanner('warning', 'Pick a specialist first.', { cause: 'specialist' });
    document.getElementById('specialist')?.focus();
    return;
  }
  if (method === 'handOver' && !model.draft.topic.trim()) {
    renderBanner('warning', 'Type a topic first: it names the work and the briefing file.', { cause: 'topic' });
    document.getElementById('topic')?.focus();
    return;
  }
  if (method === 'handOver' && model.estimate?.hop_guard && !model.draft.hop_guard_confirmed) {
    renderBanner('warning', 'The hop guard asks for a confirmation: tick "Hand over anyway", or pick another specialist.', { cause: 'hop-guard' });
    document.querySelector<HTMLElement>('#hop-guard vscode-checkbox')?.focus();
    return;
  }
  setBusy(true);
  cancelPendingDraft();
  send({ type: 'request', id: ++requestSeq, method, draft: model.draft, revision: model.revision });
}
