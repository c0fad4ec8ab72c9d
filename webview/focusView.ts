/**
 * Keeps the field that has the focus in sight above the footer that stays at the bottom of
 * the view (the meter and the actions): the footer's height is published as
 * `--footer-height` (the stylesheet's `scroll-padding-bottom`), and a field that takes the
 * focus under the footer or above the top — by Tab, or a check that sends the user to it
 * ("Type a topic first") — is scrolled into view.
 */

let observer: ResizeObserver | undefined;

/** Follows the height of `footer` (the form's footer, new on every render). */
export function watchFooter(footer: HTMLElement | null): void {
  observer?.disconnect();
  if (!footer) {
    document.documentElement.style.removeProperty('--footer-height');
    return;
  }
  const publish = () => document.documentElement.style.setProperty('--footer-height', `${Math.ceil(footer.getBoundingClientRect().height)}px`);
  observer = new ResizeObserver(publish);
  observer.observe(footer);
  publish();
}

/** Scrolls `el` into view when the footer covers it or it is above the top (nothing when it is in sight). */
export function revealAboveFooter(el: Element): void {
  const footer = document.querySelector('.footer');
  if (!footer || footer.contains(el)) return;
  const r = el.getBoundingClientRect();
  const limit = footer.getBoundingClientRect().top;
  if (r.top < 0 || r.bottom > limit) {
    // `nearest` with the scroll padding: the least scrolling that shows the whole field above the footer.
    el.scrollIntoView({ block: 'nearest' });
  }
}

/** Listens for focus moving inside the page (once, at start). */
export function followFocus(): void {
  document.addEventListener('focusin', (e) => {
    if (e.target instanceof Element) revealAboveFooter(e.target);
  });
}
