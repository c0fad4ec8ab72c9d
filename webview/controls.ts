/**
 * The form controls the panel's sections share, built from the toolkit's components: a
 * labelled text field and a checkbox, and the value an input event carries.
 */
import { h } from './dom';
import { Tags } from './toolkit';

/** The value of the field an event came from (`''` when it has none). */
export function valueOf(e: Event): string {
  return (e.target as HTMLInputElement).value ?? '';
}

/** A full-width text field with a visible `label` (also its accessible name); `onInput` gets each new value. */
export function textField(id: string, label: string, value: string, placeholder: string, onInput: (v: string) => void): HTMLElement {
  return h(Tags.textField, { id, value, placeholder, 'aria-label': label, class: 'wide', onInput: (e) => onInput(valueOf(e)) }, h('span', {}, label));
}

/** A checkbox; `onChange` gets the new checked state; `title` is the tooltip. */
export function checkbox(label: string | HTMLElement, checked: boolean, onChange: (checked: boolean) => void, title?: string): HTMLElement {
  return h(Tags.checkbox, { checked, title, onChange: (e) => onChange((e.target as HTMLInputElement).checked) }, label);
}
