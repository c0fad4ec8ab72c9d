/**
 * The "Hand over to specialist" panel (webview). Talks to the extension host only through
 * the typed protocol of src/core/panel/protocol.ts (zod/mini schemas, validated on
 * arrival); keeps its draft in the webview state (so hiding, moving and reloading the
 * view lose nothing) and sends it to the host, which counts tokens, collects evidence
 * and writes the files.
 *
 * The parts: model.ts (state and messages to the host), messages.ts (messages from the
 * host), form.ts (the page), lists.ts, evidence.ts, meter.ts (token meter and hop guard),
 * banner.ts, actions.ts (Preview and Hand over), controls.ts, dom.ts, toolkit.ts.
 */
import { HostToWebviewSchema } from '../src/core/panel/protocol';
import { request } from './actions';
import { followFocus } from './focusView';
import { onHostMessage } from './messages';
import { flush, hasPendingDraft, model, send } from './model';
import { registerComponents } from './toolkit';

registerComponents();
followFocus();

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
window.addEventListener('pagehide', () => hasPendingDraft() && flush());

send({ type: 'ready' });
