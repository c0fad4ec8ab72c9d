import { yaml } from '../handoff/yamlLibrary';
import { AGENT_BODY_HEADINGS, AGENT_MARKER_PREFIX, type AgentHandoff, type AgentTarget } from './agentFiles';
import { SpecialistRegistry, type Specialist } from './registry';

/** Whom each built-in usually hands to, in the usual order of work; other specialists hand back to the orchestrator. */
export const HANDOFF_TARGETS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  a0_software_orchestrator: ['requirements_analyst', 'solution_architect', 'implementation_engineer', 'quality_reviewer'],
  requirements_analyst: ['solution_architect', 'implementation_engineer'],
  codebase_explorer: ['solution_architect', 'implementation_engineer'],
  solution_architect: ['implementation_engineer', 'security_data_engineer'],
  implementation_engineer: ['quality_reviewer', 'test_debug_engineer'],
  test_debug_engineer: ['implementation_engineer', 'quality_reviewer'],
  quality_reviewer: ['implementation_engineer', 'release_auditor'],
  security_data_engineer: ['implementation_engineer', 'quality_reviewer'],
  release_auditor: ['runtime_devops_engineer', 'implementation_engineer'],
  runtime_devops_engineer: ['release_auditor', 'test_debug_engineer'],
  hacker: ['solution_architect', 'implementation_engineer'],
  frontend_designer: ['quality_reviewer', 'implementation_engineer'],
});

export const DEFAULT_HANDOFF_TARGETS: readonly string[] = Object.freeze(['a0_software_orchestrator']);

/** Only ids the registry knows, never itself. */
export function handoffTargetsFor(specialist: Specialist, registry: SpecialistRegistry): Specialist[] {
  const ids = HANDOFF_TARGETS[specialist.id] ?? DEFAULT_HANDOFF_TARGETS;
  return ids.filter((id) => id !== specialist.id).flatMap((id) => registry.get(id) ?? []);
}

/** The receiving agent first records the handoff, then continues from its next steps. */
export function handoffPrompt(target: Specialist): string {
  return (
    `Take this work over as the ${target.label} ${target.personaMarker}. First record the handover: call the handover_to_specialist tool with ` +
    `specialist_profile "${target.id}", a short topic, a summary of the work so far, its decisions, next steps and blockers ` +
    `(without the tool, run \`specialist-handoff handover --specialist ${target.id} --topic "…" --summary "…"\` in a terminal). ` +
    `Then continue from the handoff's next steps as ${target.personaMarker}.`
  );
}

export function handoffEntriesFor(specialist: Specialist, registry: SpecialistRegistry): AgentHandoff[] {
  return handoffTargetsFor(specialist, registry).map((t) => ({ label: `Hand over to ${t.label}`, agent: t.label, prompt: handoffPrompt(t), send: false }));
}

/** Frontmatter as the agents' readers parse it most reliably: every string double-quoted on one line (JSON escapes). */
function frontmatter(data: Record<string, unknown>): string {
  return `---\n${yaml().stringify(data, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', doubleQuotedAsJSON: true, lineWidth: 0 })}---\n`;
}

/** The body both formats share. */
function renderBody(specialist: Specialist, registry: SpecialistRegistry): string {
  const meta = JSON.stringify({ id: specialist.id, label: specialist.label, icon: specialist.icon }).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  const targets = handoffTargetsFor(specialist, registry);
  const lines = [
    `${AGENT_MARKER_PREFIX}${meta} -->`,
    '<!-- Written by Specialist Handoff (`specialist-handoff export-agents`) from its specialist registry. An edited copy is kept: it is replaced only with --force. -->',
    '',
    `You are the ${specialist.label} ${specialist.personaMarker}, one specialist in a chain of handoffs. Begin your first answer with ${specialist.personaMarker}, show that you know the work so far, and never ask what a handoff already answers.`,
    '',
    AGENT_BODY_HEADINGS.mandate,
    '',
    specialist.mandate.trim(),
    '',
    AGENT_BODY_HEADINGS.returnCondition,
    '',
    specialist.returnCondition.trim(),
    '',
    AGENT_BODY_HEADINGS.receivingAndHandingOver,
    '',
    `Pick up work handed to you with \`specialist-handoff prompt --specialist ${specialist.id}\` (the handoff, what changed since it was written, and the prior handoffs), or read the newest handoff to \`${specialist.id}\` in \`.handoff/handoffs/\`. ` +
      'When the return condition is met, or the work needs another specialist, hand over with the `handover_to_specialist` tool, or in a terminal with `specialist-handoff handover --specialist <id> --topic "…" --summary "…"`.' +
      (targets.length ? ' You usually hand over to:' : ''),
    ...(targets.length ? ['', ...targets.map((t) => `- ${t.label} ${t.personaMarker}: \`${t.id}\``)] : []),
  ];
  const instructions = specialist.instructions?.trim();
  if (instructions) {
    lines.push('', AGENT_BODY_HEADINGS.instructions, '', instructions);
  }
  return `${lines.join('\n')}\n`;
}

/** No `tools` or `model`, so the agent keeps the user's; `name` is the label other agents' `handoffs` use. */
export function renderGitHubAgent(specialist: Specialist, registry: SpecialistRegistry = new SpecialistRegistry()): string {
  const handoffs = handoffEntriesFor(specialist, registry);
  const data: Record<string, unknown> = { name: specialist.label, description: specialist.mandate.trim() };
  if (handoffs.length) data.handoffs = handoffs.map((h) => ({ label: h.label, agent: h.agent, prompt: h.prompt, send: h.send }));
  return frontmatter(data) + renderBody(specialist, registry);
}

/** `name` is the id with hyphens (Claude names are lowercase letters, digits and hyphens); the label travels in the marker. */
export function renderClaudeAgent(specialist: Specialist, registry: SpecialistRegistry = new SpecialistRegistry()): string {
  return frontmatter({ name: specialist.id.replace(/_/g, '-'), description: specialist.mandate.trim() }) + renderBody(specialist, registry);
}

export function renderAgentFile(target: AgentTarget, specialist: Specialist, registry: SpecialistRegistry): string {
  return target === 'github' ? renderGitHubAgent(specialist, registry) : renderClaudeAgent(specialist, registry);
}
