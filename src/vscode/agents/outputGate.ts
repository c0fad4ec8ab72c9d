/**
 * The chat's and the language model tool's output boundary (docs/DESIGN.md §7 "The gate"):
 * every text the `@handoff` participant streams and every text part the `#handover` tool
 * returns passes the output gate (`sanitizeOutput`, `src/core/safety/gate.ts`: secrets
 * redacted, invisible and control characters removed; JSON sanitized value by value).
 */
import * as vscode from 'vscode';
import { sanitizeOutput } from '../../core/safety/gate';

/** A chat response stream whose texts pass the gate; `flush` resolves once everything was passed on, in order. */
export type GatedStream = vscode.ChatResponseStream & { readonly flush: () => Promise<void> };

/** Stream methods whose first argument is text shown to the user (a string or a `MarkdownString`). */
const TEXT_METHODS = new Set(['markdown', 'progress', 'warning']);

/**
 * Wraps `stream`: each call is queued; a text argument (`markdown`, `progress`) is passed
 * through the gate first, and every other call (anchor, button …) waits for the texts
 * before it, so the order the user sees is the order of the calls.
 */
export function gatedStream(stream: vscode.ChatResponseStream): GatedStream {
  let queue: Promise<void> = Promise.resolve();
  const target = stream as unknown as Record<string, unknown>;
  return new Proxy(target, {
    get(obj, prop) {
      if (prop === 'flush') return () => queue;
      const value = obj[prop as string];
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        queue = queue.then(async () => {
          if (TEXT_METHODS.has(String(prop)) && args.length > 0) {
            const first = args[0];
            if (typeof first === 'string') args[0] = await sanitizeOutput(first);
            else if (first instanceof vscode.MarkdownString)
              args[0] = Object.assign(new vscode.MarkdownString(await sanitizeOutput(first.value), first.supportThemeIcons), {
                isTrusted: first.isTrusted,
                supportHtml: first.supportHtml,
              });
          }
          (value as (...a: unknown[]) => unknown).apply(obj, args);
        });
      };
    },
  }) as unknown as GatedStream;
}

/** The language model tool's result with its text passed through the gate. */
export async function gatedToolResult(text: string): Promise<vscode.LanguageModelToolResult> {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(await sanitizeOutput(text))]);
}
