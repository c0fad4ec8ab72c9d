/**
 * The banner at the top of the panel (`#banner`): one message at a time (an error, a
 * warning, information or a success), with its actions and a Dismiss button.
 */
import { h, icon, replaceChildren } from './dom';
import { Tags } from './toolkit';

/** What a warning banner asks the user to fix: it goes as soon as that is fixed. */
export type BannerCause = 'specialist' | 'topic' | 'hop-guard';

/** What a banner carries besides its message. */
export interface BannerOptions {
  /** Buttons under the message. */
  readonly actions?: HTMLElement[];
  /** A line under the message (a hint). */
  readonly detail?: HTMLElement;
  /** Scroll the banner into sight and focus it (an outcome the user waits for). */
  readonly reveal?: boolean;
  /** What a warning asks the user to fix. */
  readonly cause?: BannerCause;
}

let shownCause: BannerCause | undefined;

function clear(box: Element): void {
  shownCause = undefined;
  replaceChildren(box);
}

/** Removes the banner when it asks for `cause` and that is fixed now (a banner about something else stays). */
export function clearBanner(cause: BannerCause): void {
  const box = document.getElementById('banner');
  if (box && shownCause === cause) clear(box);
}

/**
 * Shows `message` in `#banner`, replacing what was there; errors are announced as alerts,
 * the rest as polite status. With `reveal` (an outcome the user waits for, such as the
 * handoff written) the banner is scrolled into sight and takes the focus: the button that
 * was clicked is at the foot of a form scrolled down, and the banner is at its top. A banner
 * with a `cause` goes when that is fixed ({@link clearBanner}).
 */
export function renderBanner(kind: 'error' | 'warning' | 'info' | 'success', message: string, options: BannerOptions = {}): void {
  const { actions = [], reveal = false, cause, detail } = options;
  const box = document.getElementById('banner');
  if (!box) return;
  shownCause = cause;
  const note = h(
    'div',
    {
      class: `note ${kind}`,
      role: kind === 'error' ? 'alert' : 'status',
      'aria-live': kind === 'error' ? 'assertive' : 'polite',
      tabindex: reveal ? -1 : undefined,
    },
    h(
      'div',
      { class: 'grow' },
      h('p', {}, icon(kind === 'error' ? 'error' : kind === 'success' ? 'pass' : 'info'), ' ', message),
      detail ?? null,
      actions.length ? h('div', { class: 'row' }, ...actions) : null,
    ),
    h(Tags.button, { appearance: 'icon', 'aria-label': 'Dismiss', onClick: () => clear(box) }, icon('close')),
  );
  replaceChildren(box, note);
  if (reveal) {
    note.scrollIntoView({ block: 'start' });
    note.focus({ preventScroll: true });
  }
}
