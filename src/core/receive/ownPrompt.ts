/**
 * Text a transcript records in someone's role though they never wrote it: our receiving prompt in the next agent's first
 * message (found by its structure, so every specialist's prompt is), and a chat's own notice in the assistant's place.
 */
/** The headings every receiving prompt carries, in this order, after its introduction. */
export const PROMPT_FIRST_HEADINGS = ['## Mandate', '## Receive rules'] as const;

/** `# <marker> <label>`, then (after blank lines) `You are the <label> specialist (`<id>`)`. */
const PROMPT_HEAD = /^# [^\n]+\n+You are the [^\n]*? specialist \(`[^`\n]+`\)/m;

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

export function holdsReceivingPrompt(text: string): boolean {
  return promptStart(text.replace(/\r\n?/g, '\n')) >= 0;
}

/** What the user typed above the pasted prompt, trimmed, LF line ends; the prompt runs to the message's end. */
export function withoutReceivingPrompt(text: string): string {
  const normal = text.replace(/\r\n?/g, '\n');
  const start = promptStart(normal);
  return start < 0 ? text : normal.slice(0, start).trim();
}

/** VS Code's chat setup notices, matched on the whole message. */
const CHAT_NOTICES: readonly RegExp[] = [
  /^You need to set up GitHub Copilot and be signed in to use Chat\.$/,
  /^You must be signed in to use AI features\.$/,
  /^You need to trust this workspace to use Chat\.$/,
  /^AI features are currently only supported in trusted workspaces\.$/,
  /^Chat took too long to get ready\. Please ensure [^\n]*$/,
  /^(?:Chat setup failed\.|Failed to get a response\. Please try again\.)$/,
];

export function isChatNotice(text: string): boolean {
  const t = text.trim();
  return CHAT_NOTICES.some((re) => re.test(t));
}
