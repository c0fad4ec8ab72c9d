/** The receiving specialist's prompt; `## Run Context` and `## Prior Agent Handoffs` follow the itervox convention, so agents set up for itervox read ours. */
import { describeReturnCondition } from '../handoff/render';
import { priorHandoffsBlock } from '../timeline/chains';

/** The persona marker and "never ask what is answered" follow Agent Zero's specialist handover; the prior-handoffs and deliverable rules, itervox's. */
export const RECEIVE_RULES: readonly string[] = Object.freeze([
  'Open your first reply with your persona marker and introduce yourself as this specialist.',
  'Show that you already have the context: sum up in a few lines what you were handed — the goal, the decisions made so far and what is left to do.',
  'Never ask the user anything the handoff or the prior handoffs already answer; ask only about what is still open.',
  'Read the prior handoffs at the end of this prompt before you act: each gives who handed over to whom, its status now, its summary, decisions and failed approaches, and the path of its file; open the file when you need its touched files, commits or tests. Handoffs dropped to fit the budget are still on disk.',
  'Check the Staleness section: where the workspace changed since the handoff was written, trust the workspace over the handoff.',
  "The User requests are the user's own words, verbatim: where the summary or the next steps disagree with them, the latest request wins.",
  'Write your deliverable to the path given as run.handoff_path in the Run Context, and do not edit handoff files written by earlier agents.',
  'Hand back when the return condition is met, and say in your deliverable whether it was.',
]);

export interface SpecialistPromptInput {
  readonly specialist: {
    readonly id: string;
    readonly label: string;
    readonly personaMarker: string;
    readonly mandate: string;
    readonly returnCondition: string;
  };
  /** `body`: the handoff as `pickedUpHandoffText` shapes it, absent when its file could not be read; null when the user called the specialist directly. */
  readonly handoff: {
    readonly id: string;
    readonly relativePath: string;
    readonly returnCondition: string;
    readonly body?: string;
  } | null;
  readonly priorHandoffs: string;
  /** One finding per line; empty: the handoff matches the workspace. */
  readonly staleness: readonly string[];
  /** One line, right after the introduction; absent when never verified. */
  readonly verification?: string;
  /** One line per handoff of the chain waiting too long. */
  readonly waiting?: readonly string[];
  readonly runContext: { readonly timestamp: string; readonly deliverablePath: string };
}

/** Section headings of the specialist prompt, in order (before the prior handoffs block). */
export const PROMPT_SECTIONS = ['Mandate', 'Receive rules', 'Run Context', 'Staleness', 'Return condition'] as const;

function bullet(text: string): string {
  return `- ${text.trim().replace(/\r?\n/g, '\n  ')}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Markdown: `# <marker> <label>`, an introduction naming the handoff picked up (or none), `**Verification:**` and
 * `**Waiting:**` lines, then `## Mandate`, `## Receive rules`, `## Run Context` (`run.timestamp`, `run.handoff_path`),
 * `## Staleness` followed by the handoff's body, `## Return condition` in words, and the prior handoffs block last.
 * Every section is present even without a handoff. Never throws.
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
