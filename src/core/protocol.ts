/**
 * The typed protocol between the "Hand over" webview and the extension host. Every
 * message that crosses the boundary is validated with these zod schemas on arrival:
 * the host never trusts what the webview sends, and the webview never trusts the host
 * blindly either (STYLE.md: typed webview protocol; DESIGN §7).
 *
 * Webview → host: `ready` (handshake: the host holds its posts until it arrives) and
 * commands. Host → webview: notifications.
 */
import { z } from 'zod';

/** Webview → host: the webview script has loaded and can receive messages. */
export const ReadyMessageSchema = z.object({ type: z.literal('ready') }).strict();

/** Webview → host: run one of the extension's commands that the panel offers. */
export const RunCommandMessageSchema = z.object({ type: z.literal('runCommand'), command: z.enum(['endSession']) }).strict();

/** Every message the webview may send. */
export const WebviewToHostSchema = z.discriminatedUnion('type', [ReadyMessageSchema, RunCommandMessageSchema]);
/** A message from the webview. */
export type WebviewToHost = z.infer<typeof WebviewToHostSchema>;

/** What the panel needs to know to show the right state and next action. */
export const PanelStateSchema = z.object({
  hasFolder: z.boolean(),
  trusted: z.boolean(),
  handoffCount: z.number().int().nonnegative(),
});
/** The panel's state. */
export type PanelState = z.infer<typeof PanelStateSchema>;

/** Host → webview: the current state. */
export const StateNotificationSchema = z.object({ type: z.literal('state'), state: PanelStateSchema }).strict();

/** Every message the host may send. */
export const HostToWebviewSchema = z.discriminatedUnion('type', [StateNotificationSchema]);
/** A message from the host. */
export type HostToWebview = z.infer<typeof HostToWebviewSchema>;

/**
 * Validates a message from the webview.
 * @returns the message, or `{error}` describing why it was refused (for the log)
 */
export function parseWebviewMessage(raw: unknown): { ok: true; message: WebviewToHost } | { ok: false; error: string } {
  const r = WebviewToHostSchema.safeParse(raw);
  if (r.success) {
    return { ok: true, message: r.data };
  }
  const issue = r.error.issues[0];
  return { ok: false, error: `${issue?.path.join('.') || 'message'}: ${issue?.message ?? 'invalid'}` };
}
