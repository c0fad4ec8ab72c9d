/**
 * The banner at the top of the panel (`#banner`): one message at a time (an error, a
 * warning, information or a success), with its actions and a Dismiss button.
 */
import { h, icon, replaceChildren } from './dom';
import { Tags } from './toolkit';

/**
 * Shows `message` in `#banner`, replacing what was there; errors are announced as alerts,
 * the rest as polite status. With `reveal` (an outcome the user waits for, such as the
 * handoff written) the banner is scrolled into sight and takes the focus: the button that
 * was clicked is at the foot of a form scrolled down, and the banner is at its top.
 */
export function renderBanner(kind: 'error' | 'warning' | 'info' | 'success', message: string, actions: HTMLElement[] = [], reveal = false): void {
  const box = document.getElementById('banner');
  if (!box) return;
  const note = h(
    'div',
    { class: `note ${kind}`, role: kind === 'error' ? 'alert' : 'status', 'aria-live': kind === 'error' ? 'assertive' : 'polite', tabindex: reveal ? -1 : undefined },
    h('div', { class: 'grow' }, h('p', {}, icon(kind === 'error' ? 'error' : kind === 'success' ? 'pass' : 'info'), ' ', message), actions.length ? h('div', { class: 'row' }, ...actions) : null),
    h(Tags.button, { appearance: 'icon', 'aria-label': 'Dismiss', onClick: () => replaceChildren(box) }, icon('close')),
  );
  replaceChildren(box, note);
  if (reveal) {
    note.scrollIntoView({ block: 'start' });
    note.focus({ preventScroll: true });
  }
}
