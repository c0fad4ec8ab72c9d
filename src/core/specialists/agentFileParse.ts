/**
 * Agent files, ours or other tools', parsed into specialists. id = file-name stem; label = VS Code `name`, for Claude our
 * marker's label (else one made from `name`); mandate = `description`, else the body's first paragraph; return condition
 * = the `## Return condition` section; instructions = our `## Instructions` section, or another tool's whole body.
 */
import * as z from 'zod';
import { splitFrontmatter } from '../handoff/frontmatter';
import { AGENT_BODY_HEADINGS, AGENT_FOLDERS, AGENT_MARKER_PREFIX, normaliseAgentId, type AgentFolder, type AgentFormat, type AgentHandoff } from './agentFiles';
import { BUILTIN_SPECIALISTS, isVisibleText, labelFromId, type Specialist } from './registry';

const MARKER = /^<!-- specialist-handoff (\{.*\}) -->$/;
const MarkerSchema = z.object({
  id: z.string().optional(),
  label: z.string().trim().min(1).max(80).optional(),
  icon: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .optional(),
});

/** `target`: the specialist id its `agent` names, or null. */
export interface ParsedAgentHandoff extends AgentHandoff {
  readonly target: string | null;
}

/** `tools` and `model` are informational; `generated`: the body carries our marker; `notes`: problems that did not stop loading. */
export interface ParsedAgent {
  readonly specialist: Specialist;
  readonly handoffs: readonly ParsedAgentHandoff[];
  readonly tools: readonly string[] | undefined;
  readonly model: string | readonly string[] | undefined;
  readonly generated: boolean;
  readonly notes: readonly string[];
}

export type AgentParse = { ok: true; agent: ParsedAgent } | { ok: false; message: string };

/** As in `.handoff/specialists/`. */
export const MAX_AGENT_LABEL_CHARS = 80;
/** Claude descriptions carry examples. */
export const MAX_AGENT_DESCRIPTION_CHARS = 4000;
/** Longer ones are cut with "…"; the whole body stays the instructions. */
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

function stemOf(fileName: string): string {
  return fileName.replace(/(\.agent|\.chatmode)?\.md$/i, '');
}

/** `tools:` as a list: a YAML list of names, or Claude's comma-separated string. */
function toolsOf(value: unknown): string[] | undefined {
  if (typeof value === 'string')
    return value
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
  if (Array.isArray(value)) return value.filter((t): t is string => typeof t === 'string');
  return undefined;
}

function modelOf(value: unknown): string | string[] | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((m): m is string => typeof m === 'string');
  return undefined;
}

/** On the first non-empty line of the body. */
function readMarker(body: string, rel: string, notes: string[]): z.infer<typeof MarkerSchema> | undefined {
  const first = body
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim();
  if (!first?.startsWith(AGENT_MARKER_PREFIX)) return undefined;
  const m = MARKER.exec(first);
  try {
    const parsed = MarkerSchema.safeParse(m ? JSON.parse(m[1]) : undefined);
    if (parsed.success) return parsed.data;
  } catch {
    // reported below
  }
  notes.push(
    `${rel}: its "specialist-handoff" marker comment cannot be read — the label and icon were taken from the rest of the file; re-export it (specialist-handoff export-agents --force) or delete the comment`,
  );
  return undefined;
}

function headingAt(lines: readonly string[], heading: string, from = 0): number {
  for (let i = from; i < lines.length; i++) if (lines[i].trimEnd() === heading) return i;
  return -1;
}

function between(lines: readonly string[], start: number, end: number): string {
  return lines
    .slice(start, end < 0 ? lines.length : end)
    .join('\n')
    .trim();
}

/** Prose only: no comment, heading, list or fence. */
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

/** @returns the agent, or `{ok:false, message}` naming the file, the field at fault and the fix; never throws */
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
    return {
      ok: false,
      message: `${rel}: the file name gives no usable specialist id — rename it to letters, digits, "_" or "-", e.g. code_reviewer${folder.suffix}`,
    };
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
    return {
      ok: false,
      message: `${rel}: field "name" must be one line of visible text (no control, bidi, zero-width or tag characters) — fix it; the file was skipped`,
    };
  }
  const label = format === 'claude-agent' ? (marker?.label ?? labelFromId(name ?? id)) : (name ?? marker?.label ?? labelFromId(id));
  if (!isVisibleText(label)) {
    return { ok: false, message: `${rel}: the label in its marker comment must be visible text — re-export the file or delete the comment; it was skipped` };
  }

  const description = fm.description?.trim() || undefined;
  if (description !== undefined && description.length > MAX_AGENT_DESCRIPTION_CHARS) {
    return {
      ok: false,
      message: `${rel}: field "description" is longer than ${MAX_AGENT_DESCRIPTION_CHARS.toLocaleString('en-US')} characters — shorten it (move details into the body); the file was skipped`,
    };
  }
  if (description !== undefined && !isVisibleText(description, true)) {
    return { ok: false, message: `${rel}: field "description" must not contain control, bidi, zero-width or tag characters — fix it; the file was skipped` };
  }

  const lines = body.split('\n');
  let returnCondition: string | undefined;
  let instructions: string | undefined;
  if (generated) {
    // Our layout: the sections in order; each ends where the next of ours begins.
    const hRet = headingAt(lines, AGENT_BODY_HEADINGS.returnCondition);
    const hHand = headingAt(lines, AGENT_BODY_HEADINGS.receivingAndHandingOver, hRet + 1);
    const hIns = headingAt(lines, AGENT_BODY_HEADINGS.instructions, (hHand < 0 ? hRet : hHand) + 1);
    if (hRet >= 0) returnCondition = between(lines, hRet + 1, hHand >= 0 ? hHand : hIns) || undefined;
    if (hIns >= 0) instructions = between(lines, hIns + 1, -1) || undefined;
    if (hRet < 0)
      notes.push(
        `${rel}: its "${AGENT_BODY_HEADINGS.returnCondition}" section is gone — the return condition is user_request; re-export it (specialist-handoff export-agents --force) to restore it`,
      );
  } else {
    const hRet = headingAt(lines, AGENT_BODY_HEADINGS.returnCondition);
    if (hRet >= 0) {
      const next = lines.findIndex((l, i) => i > hRet && /^#{1,2} /.test(l));
      returnCondition = between(lines, hRet + 1, next) || undefined;
    }
    instructions = body.trim() || undefined;
  }
  if (returnCondition !== undefined && !isVisibleText(returnCondition, true)) {
    return {
      ok: false,
      message: `${rel}: its "${AGENT_BODY_HEADINGS.returnCondition}" section must not contain control, bidi, zero-width or tag characters — fix it; the file was skipped`,
    };
  }
  const hMandate = generated ? headingAt(lines, AGENT_BODY_HEADINGS.mandate) : -1;
  const mandateSection = hMandate >= 0 ? between(lines, hMandate + 1, headingAt(lines, AGENT_BODY_HEADINGS.returnCondition, hMandate + 1)) : '';
  const mandate = description ?? (mandateSection || firstParagraph(body)) ?? `Agent defined in ${rel}.`;

  let handoffs: ParsedAgentHandoff[] = [];
  if (fm.handoffs !== undefined && fm.handoffs !== null) {
    const h = HandoffsSchema.safeParse(fm.handoffs);
    if (h.success) {
      handoffs = h.data.map((e) => ({
        label: e.label,
        agent: e.agent,
        prompt: e.prompt ?? '',
        send: e.send ?? false,
        target: resolveAgentName(e.agent, known),
      }));
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

/** Agent or chat mode, by the file name. */
export function parseGitHubAgent(fileName: string, text: string, relativePath: string, known?: readonly Pick<Specialist, 'id' | 'label'>[]): AgentParse {
  return parseAgentFile(/\.chatmode\.md$/i.test(fileName) ? 'github-chatmode' : 'github-agent', fileName, text, relativePath, known);
}

export function parseClaudeAgent(fileName: string, text: string, relativePath: string): AgentParse {
  return parseAgentFile('claude-agent', fileName, text, relativePath);
}

/** Ignores the source and the icon (files without our marker get their folder's default), so an agent kept in both folders matches itself. */
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
