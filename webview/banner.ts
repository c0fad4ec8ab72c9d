/**
 * The banner at the top of the panel (`#banner`): one message at a time (an error, a
 * warning, information or a success), with its actions and a Dismiss button.
 */
import { h, icon, replaceChildren } from './dom';
import { Tags } from './toolkit';

/** Shows `message` in `#banner`, replacing what was there; errors are announced as alerts. */
export function renderBanner(kind: 'error' | 'warning' | 'info' | 'success', message: string, actions: HTMLElement[] = []): void {
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
