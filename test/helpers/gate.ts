/**
 * Test helpers for the gate (src/core/safety/gate.ts): the store's writers take only
 * `Sanitized` text, so a test passes its text through the gate first, as the engine does.
 */
import { sanitizeFileName, sanitizeText, type Sanitized } from '../../src/core/safety/gate';

/** `text` through the gate (`sanitizeText`). */
export async function gated(text: string): Promise<Sanitized> {
  return (await sanitizeText(text)).text;
}

/** A store render callback (`stageHandoffFile`, `createHandoffFile`) from a plain one: name and content through the gate. */
export function gatedRender(render: (date: Date) => { name: string; content: string }): (date: Date) => Promise<{ name: Sanitized; content: Sanitized }> {
  return async (date) => {
    const r = render(date);
    return { name: await sanitizeFileName(r.name), content: await gated(r.content) };
  };
}
