/**
 * Specialists as other tools' agent files (issue 9, DESIGN §3): rendering our registry
 * as VS Code / GitHub Copilot custom agents and Claude Code subagents, and parsing such
 * files back into specialists.
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
import { stringify } from 'yaml';
import { z } from 'zod';
import { splitFrontmatter } from '../handoff/frontmatter';
import { BUILTIN_SPECIALISTS, SPECIALIST_ID_PATTERN, SpecialistRegistry, isVisibleText, labelFromId, type Specialist, type SpecialistSource } from './registry';

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
 * The folders discovery reads, in precedence order (DESIGN §3): VS Code custom agents,
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
 * DESIGN §3): accents dropped, lowercased, every run of other characters → `_`, leading
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
 * Whom each built-in specialist usually hands the work to — the `handoffs:` buttons of its
 * VS Code agent and the list in its instructions. This project's own table, following the
 * usual order of work: requirements → design → implementation → test and review → release.
 * A specialist missing from it (a custom one) hands back to the orchestrator
 * ({@link DEFAULT_HANDOFF_TARGETS}).
 */
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

/** Whom a specialist without an entry in {@link HANDOFF_TARGETS} hands to: the orchestrator, who picks the next step. */
export const DEFAULT_HANDOFF_TARGETS: readonly string[] = Object.freeze(['a0_software_orchestrator']);

/** The specialists `specialist` usually hands to, in table order: only ids the registry knows, never itself. */
export function handoffTargetsFor(specialist: Specialist, registry: SpecialistRegistry): Specialist[] {
  const ids = HANDOFF_TARGETS[specialist.id] ?? DEFAULT_HANDOFF_TARGETS;
  return ids.filter((id) => id !== specialist.id).flatMap((id) => registry.get(id) ?? []);
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

/**
 * The prompt of a hand-over button: the receiving agent first records the handoff with the
 * `handover_to_specialist` tool (or the CLI), then continues from its next steps.
 */
export function handoffPrompt(target: Specialist): string {
  return (
    `Take this work over as the ${target.label} ${target.personaMarker}. First record the handover: call the handover_to_specialist tool with ` +
    `specialist_profile "${target.id}", a short topic, a summary of the work so far, its decisions, next steps and blockers ` +
    `(without the tool, run \`specialist-handoff handover --specialist ${target.id} --topic "…" --summary "…"\` in a terminal). ` +
    `Then continue from the handoff's next steps as ${target.personaMarker}.`
  );
}

/** The `handoffs:` entries of a specialist's VS Code agent: one per {@link handoffTargetsFor} target, label "Hand over to <Label>", `send: false`. */
export function handoffEntriesFor(specialist: Specialist, registry: SpecialistRegistry): AgentHandoff[] {
  return handoffTargetsFor(specialist, registry).map((t) => ({ label: `Hand over to ${t.label}`, agent: t.label, prompt: handoffPrompt(t), send: false }));
}

const MARKER_PREFIX = '<!-- specialist-handoff ';
const MARKER = /^<!-- specialist-handoff (\{.*\}) -->$/;
const MarkerSchema = z.object({
  id: z.string().optional(),
  label: z.string().trim().min(1).max(80).optional(),
  icon: z.string().regex(/^[a-z0-9-]+$/).optional(),
});

/** Headings of the body we write, in order (the parser finds the sections by them). */
const H_MANDATE = '## Mandate';
const H_RETURN = '## Return condition';
const H_HANDING = '## Receiving and handing over';
const H_INSTRUCTIONS = '## Instructions';

/** Frontmatter as the agents' readers parse it most reliably: every string double-quoted on one line (JSON escapes). */
function frontmatter(data: Record<string, unknown>): string {
  return `---\n${stringify(data, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', doubleQuotedAsJSON: true, lineWidth: 0 })}---\n`;
}

/** The body both formats share: marker, who you are, mandate, return condition, how to receive and hand over, instructions. */
function renderBody(specialist: Specialist, registry: SpecialistRegistry): string {
  const meta = JSON.stringify({ id: specialist.id, label: specialist.label, icon: specialist.icon }).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  const targets = handoffTargetsFor(specialist, registry);
  const lines = [
    `${MARKER_PREFIX}${meta} -->`,
    '<!-- Written by Specialist Handoff (`specialist-handoff export-agents`) from its specialist registry. An edited copy is kept: it is replaced only with --force. -->',
    '',
    `You are the ${specialist.label} ${specialist.personaMarker}, one specialist in a chain of handoffs. Begin your first answer with ${specialist.personaMarker}, show that you know the work so far, and never ask what a handoff already answers.`,
    '',
    H_MANDATE,
    '',
    specialist.mandate.trim(),
    '',
    H_RETURN,
    '',
    specialist.returnCondition.trim(),
    '',
    H_HANDING,
    '',
    `Pick up work handed to you with \`specialist-handoff prompt --specialist ${specialist.id}\` (the handoff, what changed since it was written, and the prior handoffs), or read the newest handoff to \`${specialist.id}\` in \`.handoff/handoffs/\`. ` +
      'When the return condition is met, or the work needs another specialist, hand over with the `handover_to_specialist` tool, or in a terminal with `specialist-handoff handover --specialist <id> --topic "…" --summary "…"`.' +
      (targets.length ? ' You usually hand over to:' : ''),
    ...(targets.length ? ['', ...targets.map((t) => `- ${t.label} ${t.personaMarker}: \`${t.id}\``)] : []),
  ];
  const instructions = specialist.instructions?.trim();
  if (instructions) {
    lines.push('', H_INSTRUCTIONS, '', instructions);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Renders a specialist as a VS Code / GitHub Copilot custom agent,
 * `.github/agents/<id>.agent.md`: frontmatter `name` (the label: the name other agents'
 * `handoffs` use), `description` (the mandate) and `handoffs` ({@link handoffEntriesFor});
 * no `tools` or `model`, so the agent keeps the user's tools and model. The body is shared
 * with {@link renderClaudeAgent}.
 *
 * @param registry resolves the hand-over targets (their labels and persona markers)
 */
export function renderGitHubAgent(specialist: Specialist, registry: SpecialistRegistry = new SpecialistRegistry()): string {
  const handoffs = handoffEntriesFor(specialist, registry);
  const data: Record<string, unknown> = { name: specialist.label, description: specialist.mandate.trim() };
  if (handoffs.length) data.handoffs = handoffs.map((h) => ({ label: h.label, agent: h.agent, prompt: h.prompt, send: h.send }));
  return frontmatter(data) + renderBody(specialist, registry);
}

/**
 * Renders a specialist as a Claude Code subagent, `.claude/agents/<id>.md`: frontmatter
 * `name` (the id with `_` → `-`: Claude names are lowercase letters, digits and hyphens)
 * and `description` (the mandate: Claude delegates by it); no `tools` or `model` (all
 * tools, the session's model). The label travels in the body's marker comment.
 *
 * @param registry resolves the hand-over targets listed in the body
 */
export function renderClaudeAgent(specialist: Specialist, registry: SpecialistRegistry = new SpecialistRegistry()): string {
  return frontmatter({ name: specialist.id.replace(/_/g, '-'), description: specialist.mandate.trim() }) + renderBody(specialist, registry);
}

/** Renders a specialist for an export target ({@link renderGitHubAgent} or {@link renderClaudeAgent}). */
export function renderAgentFile(target: AgentTarget, specialist: Specialist, registry: SpecialistRegistry): string {
  return target === 'github' ? renderGitHubAgent(specialist, registry) : renderClaudeAgent(specialist, registry);
}

/** A `handoffs:` entry read from a VS Code agent, with `target`: the specialist id its `agent` names, or null when none does. */
export interface ParsedHandoff extends AgentHandoff {
  readonly target: string | null;
}

/**
 * A specialist read from an agent file, and what else the file says:
 * - `handoffs`: its VS Code `handoffs:` entries (none for Claude files);
 * - `tools`, `model`: as the file gives them (informational: handoffs do not restrict tools);
 * - `generated`: the body carries our marker (we wrote it, maybe edited since);
 * - `notes`: problems that did not stop the file from loading (a malformed `handoffs:`
 *   list, a marker that does not parse), each naming the file and the fix.
 */
export interface ParsedAgent {
  readonly specialist: Specialist;
  readonly handoffs: readonly ParsedHandoff[];
  readonly tools: readonly string[] | undefined;
  readonly model: string | readonly string[] | undefined;
  readonly generated: boolean;
  readonly notes: readonly string[];
}

/** Outcome of parsing one agent file: the agent, or a message naming the file, the problem and the fix. */
export type AgentParse = { ok: true; agent: ParsedAgent } | { ok: false; message: string };

/** Longest label read from a file: 80 characters (as in `.handoff/specialists/`). */
export const MAX_AGENT_LABEL_CHARS = 80;
/** Longest description read from an agent file: 4,000 characters (Claude descriptions carry examples; ours are a paragraph). */
export const MAX_AGENT_DESCRIPTION_CHARS = 4000;
/** Longest mandate taken from a body's first paragraph: 2,000 characters (longer ones are cut with "…"; the whole body stays the instructions). */
export const MAX_BODY_MANDATE_CHARS = 2000;

const textOrNull = z.string().nullish();
const AgentFrontmatterSchema = z
  .object({
    name: textOrNull,
    description: textOrNull,
    tools: z.unknown().optional(),
    model: z.unknown().optional(),
    handoffs: z.unknown().optional(),
  })
  .loose();
const HandoffsSchema = z.array(
  z
    .object({
      label: z.string().trim().min(1),
      agent: z.string().trim().min(1),
      prompt: z.string().nullish(),
      send: z.boolean().nullish(),
    })
    .loose(),
);

/** The stem of an agent file name: `x.agent.md` → `x`, `x.chatmode.md` → `x`, `x.md` → `x`. */
function stemOf(fileName: string): string {
  return fileName.replace(/(\.agent|\.chatmode)?\.md$/i, '');
}

/** `tools:` as a list: a YAML list of names, or Claude's comma-separated string. */
function toolsOf(value: unknown): string[] | undefined {
  if (typeof value === 'string') return value.split(',').map((t) => t.trim()).filter(Boolean);
  if (Array.isArray(value)) return value.filter((t): t is string => typeof t === 'string');
  return undefined;
}

function modelOf(value: unknown): string | string[] | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((m): m is string => typeof m === 'string');
  return undefined;
}

/** Our marker comment on the first non-empty line of the body, if any. */
function readMarker(body: string, rel: string, notes: string[]): z.infer<typeof MarkerSchema> | undefined {
  const first = body.split('\n').find((l) => l.trim() !== '')?.trim();
  if (!first?.startsWith(MARKER_PREFIX)) return undefined;
  const m = MARKER.exec(first);
  try {
    const parsed = MarkerSchema.safeParse(m ? JSON.parse(m[1]) : undefined);
    if (parsed.success) return parsed.data;
  } catch {
    // reported below
  }
  notes.push(`${rel}: its "specialist-handoff" marker comment cannot be read — the label and icon were taken from the rest of the file; re-export it (specialist-handoff export-agents --force) or delete the comment`);
  return undefined;
}

/** Index of the line `heading` (exactly) at or after `from`, or -1. */
function headingAt(lines: readonly string[], heading: string, from = 0): number {
  for (let i = from; i < lines.length; i++) if (lines[i].trimEnd() === heading) return i;
  return -1;
}

/** Lines between two indexes, joined and trimmed. */
function between(lines: readonly string[], start: number, end: number): string {
  return lines.slice(start, end < 0 ? lines.length : end).join('\n').trim();
}

/** First paragraph of a body that is prose (no comment, heading, list or fence), cut to {@link MAX_BODY_MANDATE_CHARS}. */
function firstParagraph(body: string): string | undefined {
  for (const block of body.replace(/<!--[\s\S]*?-->/g, '').split(/\n\s*\n/)) {
    const text = block.trim();
    if (!text || /^(#|```|~~~|[-*+] |\d+\. |>|\||<)/.test(text)) continue;
    const oneLine = text.replace(/\s*\n\s*/g, ' ');
    return oneLine.length > MAX_BODY_MANDATE_CHARS ? `${oneLine.slice(0, MAX_BODY_MANDATE_CHARS - 1)}…` : oneLine;
  }
  return undefined;
}

/** Resolves a `handoffs.agent` name to a specialist id: an id, a label (any case), or a name that normalises to an id. */
function resolveAgentName(agent: string, known: readonly Pick<Specialist, 'id' | 'label'>[]): string | null {
  const a = agent.trim();
  const lower = a.toLowerCase();
  const byId = known.find((s) => s.id === a) ?? known.find((s) => s.label.toLowerCase() === lower);
  if (byId) return byId.id;
  const normal = normaliseAgentId(a);
  return known.find((s) => s.id === normal)?.id ?? null;
}

/**
 * Parses an agent file of any supported format into a specialist (see the module comment
 * for the mapping). Never throws.
 *
 * @param format which folder the file came from
 * @param fileName the bare file name, e.g. `quality_reviewer.agent.md` (gives the id)
 * @param text the whole file, UTF-8
 * @param relativePath workspace-relative POSIX path, kept on the specialist and used in messages
 * @param known specialists `handoffs.agent` names are resolved against (default: the built-ins)
 * @returns the agent, or `{ok:false, message}` naming the file, the field at fault and the fix
 */
export function parseAgentFile(
  format: AgentFormat,
  fileName: string,
  text: string,
  relativePath: string,
  known: readonly Pick<Specialist, 'id' | 'label'>[] = BUILTIN_SPECIALISTS,
): AgentParse {
  const rel = relativePath;
  const folder = AGENT_FOLDERS.find((f) => f.format === format) as AgentFolder;
  const id = normaliseAgentId(stemOf(fileName));
  if (!id) {
    return { ok: false, message: `${rel}: the file name gives no usable specialist id — rename it to letters, digits, "_" or "-", e.g. code_reviewer${folder.suffix}` };
  }
  const split = splitFrontmatter(text.replace(/\r\n/g, '\n'));
  if (!split.ok) {
    return { ok: false, message: `${rel}: ${split.message} — fix the frontmatter (a "---" block of YAML at the top) or remove the file; it was skipped` };
  }
  if (split.data !== undefined && split.data !== null && (typeof split.data !== 'object' || Array.isArray(split.data))) {
    return { ok: false, message: `${rel}: the frontmatter is not a set of "key: value" fields — write it as name: …, description: …; the file was skipped` };
  }
  const parsed = AgentFrontmatterSchema.safeParse(split.data ?? {});
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join('.') || 'frontmatter';
    return { ok: false, message: `${rel}: field "${field}" must be text — quote it, e.g. ${field}: "…"; the file was skipped` };
  }
  const fm = parsed.data;
  const notes: string[] = [];
  const body = split.body;
  const marker = readMarker(body, rel, notes);
  const generated = marker !== undefined;

  const name = fm.name?.trim() || undefined;
  // A VS Code name is the label; a Claude name is an identifier (at most 64 characters).
  const maxName = format === 'claude-agent' ? 64 : MAX_AGENT_LABEL_CHARS;
  if (name !== undefined && name.length > maxName) {
    return { ok: false, message: `${rel}: field "name" is longer than ${maxName} characters — shorten it; the file was skipped` };
  }
  if (name !== undefined && !isVisibleText(name)) {
    return { ok: false, message: `${rel}: field "name" must be one line of visible text (no control, bidi, zero-width or tag characters) — fix it; the file was skipped` };
  }
  const label = format === 'claude-agent' ? (marker?.label ?? labelFromId(name ?? id)) : (name ?? marker?.label ?? labelFromId(id));
  if (!isVisibleText(label)) {
    return { ok: false, message: `${rel}: the label in its marker comment must be visible text — re-export the file or delete the comment; it was skipped` };
  }

  const description = fm.description?.trim() || undefined;
  if (description !== undefined && description.length > MAX_AGENT_DESCRIPTION_CHARS) {
    return { ok: false, message: `${rel}: field "description" is longer than ${MAX_AGENT_DESCRIPTION_CHARS.toLocaleString('en-US')} characters — shorten it (move details into the body); the file was skipped` };
  }
  if (description !== undefined && !isVisibleText(description, true)) {
    return { ok: false, message: `${rel}: field "description" must not contain control, bidi, zero-width or tag characters — fix it; the file was skipped` };
  }

  const lines = body.split('\n');
  let returnCondition: string | undefined;
  let instructions: string | undefined;
  if (generated) {
    // Our layout: the sections in order; each ends where the next of ours begins.
    const hRet = headingAt(lines, H_RETURN);
    const hHand = headingAt(lines, H_HANDING, hRet + 1);
    const hIns = headingAt(lines, H_INSTRUCTIONS, (hHand < 0 ? hRet : hHand) + 1);
    if (hRet >= 0) returnCondition = between(lines, hRet + 1, hHand >= 0 ? hHand : hIns) || undefined;
    if (hIns >= 0) instructions = between(lines, hIns + 1, -1) || undefined;
    if (hRet < 0) notes.push(`${rel}: its "${H_RETURN}" section is gone — the return condition is user_request; re-export it (specialist-handoff export-agents --force) to restore it`);
  } else {
    const hRet = headingAt(lines, H_RETURN);
    if (hRet >= 0) {
      const next = lines.findIndex((l, i) => i > hRet && /^#{1,2} /.test(l));
      returnCondition = between(lines, hRet + 1, next) || undefined;
    }
    instructions = body.trim() || undefined;
  }
  if (returnCondition !== undefined && !isVisibleText(returnCondition, true)) {
    return { ok: false, message: `${rel}: its "${H_RETURN}" section must not contain control, bidi, zero-width or tag characters — fix it; the file was skipped` };
  }
  const hMandate = generated ? headingAt(lines, H_MANDATE) : -1;
  const mandateSection = hMandate >= 0 ? between(lines, hMandate + 1, headingAt(lines, H_RETURN, hMandate + 1)) : '';
  const mandate = description ?? (mandateSection || firstParagraph(body)) ?? `Agent defined in ${rel}.`;

  let handoffs: ParsedHandoff[] = [];
  if (fm.handoffs !== undefined && fm.handoffs !== null) {
    const h = HandoffsSchema.safeParse(fm.handoffs);
    if (h.success) {
      handoffs = h.data.map((e) => ({ label: e.label, agent: e.agent, prompt: e.prompt ?? '', send: e.send ?? false, target: resolveAgentName(e.agent, known) }));
    } else {
      notes.push(`${rel}: its "handoffs" list was ignored — each entry needs text fields "label" and "agent" (and optional "prompt", "send: true|false")`);
    }
  }

  const specialist: Specialist = {
    id,
    label,
    personaMarker: `[${label.toLowerCase()}]`,
    icon: marker?.icon ?? folder.defaultIcon,
    mandate,
    returnCondition: returnCondition ?? 'user_request',
    source: folder.source,
    instructions,
    file: rel,
  };
  return { ok: true, agent: { specialist, handoffs, tools: toolsOf(fm.tools), model: modelOf(fm.model), generated, notes } };
}

/**
 * Parses a VS Code / GitHub Copilot custom agent (`.github/agents/*.agent.md`) or chat
 * mode (`.github/chatmodes/*.chatmode.md`, chosen by the file name). See {@link parseAgentFile}.
 */
export function parseGitHubAgent(fileName: string, text: string, relativePath: string, known?: readonly Pick<Specialist, 'id' | 'label'>[]): AgentParse {
  return parseAgentFile(/\.chatmode\.md$/i.test(fileName) ? 'github-chatmode' : 'github-agent', fileName, text, relativePath, known);
}

/** Parses a Claude Code subagent (`.claude/agents/*.md`). See {@link parseAgentFile}. */
export function parseClaudeAgent(fileName: string, text: string, relativePath: string): AgentParse {
  return parseAgentFile('claude-agent', fileName, text, relativePath);
}

/**
 * Whether two specialists say the same: id, label, persona marker, mandate, return
 * condition and instructions (trimmed) — not where they came from, nor the icon (files
 * without our marker get their folder's default icon, so one agent kept in both
 * `.github/agents` and `.claude/agents` would otherwise differ). A discovered file that
 * says the same as the specialist it repeats is skipped silently.
 */
export function sameSpecialist(a: Specialist, b: Specialist): boolean {
  return (
    a.id === b.id &&
    a.label === b.label &&
    a.personaMarker === b.personaMarker &&
    a.mandate.trim() === b.mandate.trim() &&
    a.returnCondition.trim() === b.returnCondition.trim() &&
    (a.instructions ?? '').trim() === (b.instructions ?? '').trim()
  );
}
