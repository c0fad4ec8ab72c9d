import { SPECIALIST_ID_PATTERN, type SpecialistSource } from './registry';

/**
 * VS Code / Copilot custom agents (`.github/agents/*.agent.md`, and chat modes, `*.chatmode.md`): frontmatter `name`,
 * `description`, `tools`, `model`, `handoffs` (`{label, agent, prompt, send}` buttons), body = instructions. Claude Code
 * subagents (`.claude/agents/*.md`): `name` (lowercase and hyphens), `description` (when to delegate), `tools`
 * (comma-separated), `model`, body = system prompt.
 */
export type AgentFormat = 'github-agent' | 'github-chatmode' | 'claude-agent';

export interface AgentFolder {
  readonly format: AgentFormat;
  readonly dir: string;
  readonly suffix: string;
  readonly source: Extract<SpecialistSource, 'github-agent' | 'claude-agent'>;
  readonly defaultIcon: string;
}

/** In precedence order: an id found in an earlier folder wins. */
export const AGENT_FOLDERS: readonly AgentFolder[] = Object.freeze([
  { format: 'github-agent', dir: '.github/agents', suffix: '.agent.md', source: 'github-agent', defaultIcon: 'copilot' },
  { format: 'github-chatmode', dir: '.github/chatmodes', suffix: '.chatmode.md', source: 'github-agent', defaultIcon: 'copilot' },
  { format: 'claude-agent', dir: '.claude/agents', suffix: '.md', source: 'claude-agent', defaultIcon: 'robot' },
] as const);

/** `github` writes `.github/agents/<id>.agent.md`, `claude` `.claude/agents/<id>.md`. */
export type AgentTarget = 'github' | 'claude';

export const AGENT_TARGETS: readonly AgentTarget[] = Object.freeze(['github', 'claude']);

export function folderForTarget(target: AgentTarget): AgentFolder {
  return AGENT_FOLDERS.find((f) => f.format === (target === 'github' ? 'github-agent' : 'claude-agent')) as AgentFolder;
}

export function agentFileName(target: AgentTarget, id: string): string {
  return `${id}${folderForTarget(target).suffix}`;
}

/** `Code Reviewer` → `code_reviewer`, `speckit.plan` → `speckit_plan`; undefined when nothing usable is left. */
export function normaliseAgentId(raw: string): string | undefined {
  const id = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64)
    .replace(/_+$/, '');
  return SPECIALIST_ID_PATTERN.test(id) ? id : undefined;
}

/** `agent` is the target's `name` in the file we write (its label); `send: false` lets the user review the prompt first. */
export interface AgentHandoff {
  readonly label: string;
  readonly agent: string;
  readonly prompt: string;
  readonly send: boolean;
}

/** Opens the body of every agent file we write, carrying what the formats have no field for: `<!-- specialist-handoff {…} -->`. */
export const AGENT_MARKER_PREFIX = '<!-- specialist-handoff ';

/** In order; the parser finds our sections by them. */
export const AGENT_BODY_HEADINGS = Object.freeze({
  mandate: '## Mandate',
  returnCondition: '## Return condition',
  receivingAndHandingOver: '## Receiving and handing over',
  instructions: '## Instructions',
} as const);
