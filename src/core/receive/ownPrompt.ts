/**
 * Text that a transcript records in someone's role though they never wrote it:
 *
 * - our own receiving prompt (./receiverPrompt.ts), which *Continue in…*, *Copy Prompt* and
 *   *Open Prompt in Chat* put in the next agent's first message — a user-role message there,
 *   but not the user's request;
 * - a chat's own notice, shown in the assistant's place when no model answered (VS Code's
 *   chat setup: "You need to set up GitHub Copilot and be signed in to use Chat.") — never
 *   the agent's words.
 *
 * The prompt is recognized by its structure (heading, introduction, its first two section
 * headings, as `buildSpecialistPrompt` writes them), so every specialist's prompt — built-in
 * or custom — is found, whatever its words. Formats that mark their notices themselves
 * (Claude Code's `isApiErrorMessage`, Copilot Chat's setup agents) are told apart by their
 * readers. Pure.
 */

/** The headings every receiving prompt carries, in this order, after its introduction. */
export const PROMPT_FIRST_HEADINGS = ['## Mandate', '## Receive rules'] as const;

/** `# <marker> <label>`, then (after blank lines) `You are the <label> specialist (`<id>`)`. */
const PROMPT_HEAD = /^# [^\n]+\n+You are the [^\n]*? specialist \(`[^`\n]+`\)/m;

/** Where the prompt starts in `normal` (LF line ends), or -1. */
function promptStart(normal: string): number {
  const head = PROMPT_HEAD.exec(normal);
  if (!head) return -1;
  let at = head.index + head[0].length;
  for (const heading of PROMPT_FIRST_HEADINGS) {
    const found = normal.indexOf(`\n${heading}\n`, at);
    if (found < 0) return -1;
    at = found + heading.length + 1;
  }
  return head.index;
}

/** Whether `text` holds one of our receiving prompts (line ends LF or CRLF). */
export function holdsReceivingPrompt(text: string): boolean {
  return promptStart(text.replace(/\r\n?/g, '\n')) >= 0;
}

/**
 * `text` without our receiving prompt: what stands before it — the user's own words, when they
 * typed some above the pasted prompt — trimmed, with LF line ends. The prompt runs to the
 * message's end (the builder ends it with the prior handoffs block). Without a prompt, `text`
 * is returned as it is.
 */
export function withoutReceivingPrompt(text: string): string {
  const normal = text.replace(/\r\n?/g, '\n');
  const start = promptStart(normal);
  return start < 0 ? text : normal.slice(0, start).trim();
}

/**
 * The chat's own messages in the assistant's place, matched on the whole (trimmed) message:
 * VS Code's chat setup (its sign-in, trust and readiness notices, 1.99–1.139).
 */
const CHAT_NOTICES: readonly RegExp[] = [
  /^You need to set up GitHub Copilot and be signed in to use Chat\.$/,
  /^You must be signed in to use AI features\.$/,
  /^You need to trust this workspace to use Chat\.$/,
  /^AI features are currently only supported in trusted workspaces\.$/,
  /^Chat took too long to get ready\. Please ensure [^\n]*$/,
  /^(?:Chat setup failed\.|Failed to get a response\. Please try again\.)$/,
];

/** Whether an assistant-role `text` is a chat's own notice ({@link CHAT_NOTICES}), not the agent's words. */
export function isChatNotice(text: string): boolean {
  const t = text.trim();
  return CHAT_NOTICES.some((re) => re.test(t));
}
