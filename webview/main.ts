/**
 * Script of the "Hand over" webview view. Until the full panel lands it shows the state
 * the host reports and a button that runs the end-of-session handoff. Talks to the host
 * only through the zod-typed protocol of src/core/protocol.ts.
 */
import { HostToWebviewSchema, type PanelState, type WebviewToHost } from '../src/core/protocol';

const vscode = acquireVsCodeApi();

function send(message: WebviewToHost): void {
  vscode.postMessage(message);
}

function render(state: PanelState): void {
  const status = document.getElementById('status');
  const button = document.getElementById('end-session') as HTMLButtonElement | null;
  if (!status || !button) {
    return;
  }
  if (!state.hasFolder) {
    status.textContent = 'Open a folder to hand over its work.';
    button.disabled = true;
  } else if (!state.trusted) {
    status.textContent = 'This workspace is not trusted: Specialist Handoff runs no git and writes no files here. Trust the workspace to hand over.';
    button.disabled = true;
  } else {
    status.textContent =
      state.handoffCount === 0 ? 'No handoffs yet in this workspace.' : `${state.handoffCount} handoff${state.handoffCount === 1 ? '' : 's'} in this workspace — see the timeline below.`;
    button.disabled = false;
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  const parsed = HostToWebviewSchema.safeParse(event.data);
  if (!parsed.success) {
    return; // not ours (VS Code also posts its own messages) or malformed
  }
  if (parsed.data.type === 'state') {
    render(parsed.data.state);
  }
});

document.getElementById('end-session')?.addEventListener('click', () => send({ type: 'runCommand', command: 'endSession' }));
send({ type: 'ready' });
