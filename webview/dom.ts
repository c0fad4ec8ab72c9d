/**
 * A tiny DOM builder for the panel (no framework): `h('div', {class: 'x'}, child…)`.
 * Text children are set as text, never parsed as HTML.
 */

/**
 * Attributes and event handlers of {@link h}: `on<Event>` keys become listeners. No
 * `style`: the panel's CSP refuses inline style attributes (set `el.style` instead).
 */
export type Attrs = Record<string, string | number | boolean | undefined | null | ((e: Event) => void)>;

/** Creates an element with attributes, listeners and children. */
export function h<K extends string>(tag: K, attrs: Attrs = {}, ...children: Array<Node | string | null | undefined | false>): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') {
      el.addEventListener(k.slice(2).toLowerCase(), v as EventListener);
    } else if (v === true) {
      el.setAttribute(k, '');
    } else {
      el.setAttribute(k, String(v));
    }
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return el;
}

/** A codicon (`<span class="codicon codicon-NAME" aria-hidden="true">`). */
export function icon(name: string, extra = ''): HTMLElement {
  return h('span', { class: `codicon codicon-${name} ${extra}`.trim(), 'aria-hidden': 'true' });
}

/** Replaces an element's children. */
export function replaceChildren(el: Element, ...children: Array<Node | string | null | undefined | false>): void {
  el.replaceChildren(...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false));
}

/** `1234` → `1,234`. */
export function fmt(n: number): string {
  return n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An ISO 8601 time as the user reads it, in their time zone and language ("Dec 5, 2026, 2:03 PM"); the text itself when it does not parse. */
export function localTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : whenFormat.format(new Date(t));
}
