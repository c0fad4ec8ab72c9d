/** Every text the `@handoff` participant streams or the `#handover` tool returns passes the output gate. */
import * as vscode from 'vscode';
import { sanitizeOutput } from '../../core/safety/gate';

/** `flush` resolves once every call was passed on, in order. */
export type GatedStream = vscode.ChatResponseStream & { readonly flush: () => Promise<void> };

const TEXT_METHODS = new Set(['markdown', 'progress', 'warning']);

/** Texts pass the gate first; every call is queued, so the user sees them in call order. */
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

export async function gatedToolResult(text: string): Promise<vscode.LanguageModelToolResult> {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(await sanitizeOutput(text))]);
}
