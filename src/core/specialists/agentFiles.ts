/**
 * Specialists as other tools' agent files (docs/DESIGN.md §3): the formats, their folders and file
 * names, and the layout of the files we write. `agentFileRender.ts` renders our registry
 * as VS Code / GitHub Copilot custom agents and Claude Code subagents;
 * `agentFileParse.ts` parses such files, ours or other tools', back into specialists.
 *
 * Formats (as their tools document them):
 * - VS Code / GitHub Copilot custom agents, `.github/agents/<name>.agent.md` (and the
 *   older custom chat modes, `.github/chatmodes/<name>.chatmode.md`): optional YAML
 *   frontmatter with `name` (defaults to the file name), `description`, `tools`, `model`,
 *   `handoffs` (a list of `{label, agent, prompt, send, model}`: a button that switches to
 *   the agent named `agent` with `prompt` filled in, submitted at once when `send` is
 *   true) and more; the Markdown body is the agent's instructions.
 * - Claude Code subagents, `.claude/agents/<name>.md`: frontmatter with `name` (required,
 *   lowercase letters and hyphens), `description` (required: when to delegate to it),
 *   optional `tools` (comma-separated), `model` and more; the body is its system prompt.
 *
 * Mapping to a {@link Specialist} (the same for every format, so a round trip is exact):
 * - `id`: the file name without its suffix (`.agent.md`, `.chatmode.md`, `.md`),
 *   normalised by {@link normaliseAgentId} — file names are ids, as for
 *   `.handoff/specialists/<id>.md`;
 * - `label`: VS Code `name`; for Claude files (whose `name` is an identifier) the label in
 *   our marker comment, else one made from `name` or the id;
 * - `personaMarker`: `[label lowercased]`;
 * - `mandate`: `description`, else the first paragraph of the body;
 * - `returnCondition`: the body's `## Return condition` section, else `user_request`;
 * - `icon`: the icon in our marker comment, else `copilot` (GitHub) or `robot` (Claude);
 * - `instructions`: files we wrote: their `## Instructions` section; others: the body.
 *
 * Files we write start their body with a marker comment
 * (`<!-- specialist-handoff {"id":…,"label":…,"icon":…} -->`) carrying what the formats
 * have no field for. Pure: no I/O (the store reads and writes the files).
 */
import { SPECIALIST_ID_PATTERN, type SpecialistSource } from './registry';

/** The agent-file formats we read: VS Code custom agents, their older chat modes, Claude Code subagents. */
export type AgentFormat = 'github-agent' | 'github-chatmode' | 'claude-agent';

/**
 * One folder of agent files: its format, workspace-relative POSIX folder, file-name
 * suffix, the {@link SpecialistSource} its specialists get and their default codicon.
 */
export interface AgentFolder {
  readonly format: AgentFormat;
  readonly dir: string;
  readonly suffix: string;
  readonly source: Extract<SpecialistSource, 'github-agent' | 'claude-agent'>;
  readonly defaultIcon: string;
}

/**
 * The folders discovery reads, in precedence order (docs/DESIGN.md §3): VS Code custom agents,
 * then chat modes (their older name), then Claude Code subagents. An id found in an
 * earlier folder wins over the same id in a later one.
 */
export const AGENT_FOLDERS: readonly AgentFolder[] = Object.freeze([
  { format: 'github-agent', dir: '.github/agents', suffix: '.agent.md', source: 'github-agent', defaultIcon: 'copilot' },
  { format: 'github-chatmode', dir: '.github/chatmodes', suffix: '.chatmode.md', source: 'github-agent', defaultIcon: 'copilot' },
  { format: 'claude-agent', dir: '.claude/agents', suffix: '.md', source: 'claude-agent', defaultIcon: 'robot' },
] as const);

/** Where the registry can be exported: `github` = `.github/agents/<id>.agent.md`, `claude` = `.claude/agents/<id>.md`. */
export type AgentTarget = 'github' | 'claude';

/** Every export target, in the order they are written. */
export const AGENT_TARGETS: readonly AgentTarget[] = Object.freeze(['github', 'claude']);

/** The folder an export target writes into. */
export function folderForTarget(target: AgentTarget): AgentFolder {
  return AGENT_FOLDERS.find((f) => f.format === (target === 'github' ? 'github-agent' : 'claude-agent')) as AgentFolder;
}

/** File name of a specialist's agent file for an export target: `<id>.agent.md` or `<id>.md`. */
export function agentFileName(target: AgentTarget, id: string): string {
  return `${id}${folderForTarget(target).suffix}`;
}

/**
 * Turns a file-name stem or agent name into a specialist id (`^[a-z0-9][a-z0-9_-]{0,63}$`,
 * docs/DESIGN.md §3): accents dropped, lowercased, every run of other characters → `_`, leading
 * characters other than a letter or digit and trailing `_` removed, cut to 64 characters.
 * `Code Reviewer` → `code_reviewer`, `speckit.plan` → `speckit_plan`, `quality-reviewer` unchanged.
 *
 * @returns the id, or undefined when nothing usable is left (e.g. `…`)
 */
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

/**
 * One VS Code `handoffs:` entry: the button `label`, the target agent's `agent` name (its
 * `name` in the agent file we write: its label), the `prompt` put in the chat input, and
 * `send` (false: the user reviews the prompt before it goes).
 */
export interface AgentHandoff {
  readonly label: string;
  readonly agent: string;
  readonly prompt: string;
  readonly send: boolean;
}

/** The start of the marker comment that opens the body of every agent file we write: `<!-- specialist-handoff {…} -->`. */
export const AGENT_MARKER_PREFIX = '<!-- specialist-handoff ';

/** Headings of the body we write, in order (the parser finds the sections by them). */
export const AGENT_BODY_HEADINGS = Object.freeze({
  mandate: '## Mandate',
  returnCondition: '## Return condition',
  receivingAndHandingOver: '## Receiving and handing over',
  instructions: '## Instructions',
} as const);
