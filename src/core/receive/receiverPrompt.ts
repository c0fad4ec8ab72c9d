/**
 * The prompt a receiving specialist starts from: who it is, what it must do on
 * receipt, where to write its deliverable, what changed since the handoff, when to hand
 * back, and the prior handoffs. The `## Run Context` and `## Prior Agent Handoffs`
 * blocks follow the itervox handoff convention so agents set up for itervox read ours.
 *
 * Pure: no I/O.
 */
import { describeReturnCondition } from '../handoff/render';
import { priorHandoffsBlock } from '../timeline/chains';

/**
 * What a receiving specialist does, in order (this project's wording). The persona
 * marker and the "never ask what is answered" rules follow Agent Zero's specialist
 * handover; reading prior handoffs first and writing to `run.handoff_path` follow the
 * itervox handoff convention; the staleness check is docs/DESIGN.md §5's receiving side.
 */
export const RECEIVE_RULES: readonly string[] = Object.freeze([
  'Open your first reply with your persona marker and introduce yourself as this specialist.',
  'Show that you already have the context: sum up in a few lines what you were handed — the goal, the decisions made so far and what is left to do.',
  'Never ask the user anything the handoff or the prior handoffs already answer; ask only about what is still open.',
  'Read the prior handoffs at the end of this prompt before you act: each gives who handed over to whom, its status now, its summary, decisions and failed approaches, and the path of its file; open the file when you need its touched files, commits or tests. Handoffs dropped to fit the budget are still on disk.',
  'Check the Staleness section: where the workspace changed since the handoff was written, trust the workspace over the handoff.',
  'The User requests are the user\'s own words, verbatim: where the summary or the next steps disagree with them, the latest request wins.',
  'Write your deliverable to the path given as run.handoff_path in the Run Context, and do not edit handoff files written by earlier agents.',
  'Hand back when the return condition is met, and say in your deliverable whether it was.',
]);

/** Inputs of {@link buildSpecialistPrompt}. */
export interface SpecialistPromptInput {
  /** The receiving specialist (see `Specialist` in specialists.ts). */
  readonly specialist: {
    readonly id: string;
    readonly label: string;
    readonly personaMarker: string;
    readonly mandate: string;
    readonly returnCondition: string;
  };
  /**
   * The handoff picked up: its id, its workspace-relative path and its return condition, and
   * `body`: the handoff itself as `pickedUpHandoffText` shapes it (./pickedUpHandoff.ts: one
   * `## ` heading, its human sections `###` under it, no frontmatter), absent when
   * its file could not be read; null when the user called the specialist directly.
   */
  readonly handoff: {
    readonly id: string;
    readonly relativePath: string;
    readonly returnCondition: string;
    readonly body?: string;
  } | null;
  /** The block built by `priorHandoffsBlock` (starts with `## Prior Agent Handoffs`); blank means none. */
  readonly priorHandoffs: string;
  /** What changed since the handoff was written, one finding per line; empty = the handoff matches the workspace. */
  readonly staleness: readonly string[];
  /** The latest verification of the handoff, as one line (`verificationLine`), put right after the introduction; absent when it was never verified. */
  readonly verification?: string;
  /** Handoffs of the chain waiting too long for a pick-up or an answer, one line each (`waitingPromptLine`), put after the verification line; absent or empty: none. */
  readonly waiting?: readonly string[];
  /** `timestamp`: ISO 8601 time of this run; `deliverablePath`: workspace-relative path the specialist writes its deliverable to. */
  readonly runContext: { readonly timestamp: string; readonly deliverablePath: string };
}

/** Section headings of the specialist prompt, in order (before the prior handoffs block). */
export const PROMPT_SECTIONS = ['Mandate', 'Receive rules', 'Run Context', 'Staleness', 'Return condition'] as const;

/** A list item: trimmed, continuation lines indented under the bullet. */
function bullet(text: string): string {
  return `- ${text.trim().replace(/\r?\n/g, '\n  ')}`;
}

/** Text on one line: line breaks and runs of spaces become one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Builds the receiving specialist's prompt as Markdown (`\n` line ends, one final `\n`):
 *
 * 1. `# <persona marker> <label>` and an introduction naming the specialist id and the
 *    handoff picked up (`id` and workspace-relative path), or saying there is none; then,
 *    when the handoff was verified, `**Verification:** <its line>`; then one
 *    `**Waiting:** <line>` per handoff of the chain waiting too long;
 * 2. `## Mandate` — the specialist's mandate;
 * 3. `## Receive rules` — {@link RECEIVE_RULES} as a list;
 * 4. `## Run Context` — `- run.timestamp: <ISO time>` and `- run.handoff_path: <path>`
 *    (spelling of the itervox handoff convention);
 * 5. `## Staleness` — the staleness lines as a list, or a line saying the handoff matches
 *    the workspace (or that there is no handoff to compare); then the handoff's `body` as
 *    given (`## Handoff to <label>: <topic>` and its sections — User requests,
 *    Done, Commands run among them — as `###`), when there is one;
 * 6. `## Return condition` — the handoff's return condition, else the specialist's
 *    default, with known codes in words (`user_request`, see `describeReturnCondition`);
 * 7. the prior handoffs block, last (when blank, the empty block of `priorHandoffsBlock`);
 *    it does not hold the handoff picked up again.
 *
 * Every section is present whether or not `handoff` is null. Never throws.
 */
export function buildSpecialistPrompt(input: SpecialistPromptInput): string {
  const { specialist, handoff, staleness, runContext } = input;
  const intro = handoff
    ? `You are the ${specialist.label} specialist (\`${specialist.id}\`), picking up handoff \`${oneLine(handoff.id)}\` (\`${oneLine(handoff.relativePath)}\`). Your persona marker is ${specialist.personaMarker}.`
    : `You are the ${specialist.label} specialist (\`${specialist.id}\`). No handoff file was handed over: the user called you directly. Your persona marker is ${specialist.personaMarker}.`;

  const stalenessLines = staleness.map((l) => l.trim()).filter((l) => l.length > 0);
  let stalenessBody: string;
  if (stalenessLines.length > 0) {
    stalenessBody = stalenessLines.map(bullet).join('\n');
  } else if (handoff) {
    stalenessBody = 'The handoff matches the workspace: nothing changed since it was written.';
  } else {
    stalenessBody = 'No handoff was handed over, so there is nothing to compare with the workspace.';
  }

  const condition = handoff?.returnCondition.trim() || specialist.returnCondition.trim();
  const prior = input.priorHandoffs.trim() || priorHandoffsBlock([]).text.trim();

  const parts = [
    `# ${specialist.personaMarker} ${specialist.label}`,
    intro,
    ...(input.verification?.trim() ? [`**Verification:** ${oneLine(input.verification)}`] : []),
    ...(input.waiting ?? []).filter((l) => l.trim()).map((l) => `**Waiting:** ${oneLine(l)}`),
    '## Mandate',
    specialist.mandate.trim() || '_None given._',
    '## Receive rules',
    RECEIVE_RULES.map(bullet).join('\n'),
    '## Run Context',
    [`- run.timestamp: ${oneLine(runContext.timestamp)}`, `- run.handoff_path: ${oneLine(runContext.deliverablePath)}`].join('\n'),
    '## Staleness',
    stalenessBody,
    ...(handoff?.body?.trim() ? [handoff.body.trim()] : []),
    '## Return condition',
    condition ? describeReturnCondition(condition) : 'None given: hand back when the user asks for it.',
    prior,
  ];
  return `${parts.join('\n\n')}\n`;
}
