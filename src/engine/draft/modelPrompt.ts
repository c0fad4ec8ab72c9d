/**
 * The request "Draft with …" sends to the editor's language model: the draft's
 * evidence, redacted by the gate every written byte passes (`sanitizeTexts`,
 * src/core/safety/gate.ts; docs/DESIGN.md §7), laid out as short sections and bounded in
 * tokens, then the instructions asking for the strict JSON answer that `modelDraft.ts` parses.
 *
 *   DraftEvidence ─▶ pieces (every text once) ─▶ the gate (one batch) ─▶ sections, newest
 *   first, while they fit ─▶ the prompt + what was left out
 *
 * Pure but for the gate's secret scan: no I/O, no model call.
 */
import type { TokenCounter } from '../../core/handoff/tokens';
import { sanitizeText, sanitizeTexts } from '../../core/safety/gate';
import type { DraftEvidence } from './draftSession';

/**
 * Bound of the evidence part of the prompt: 6,000 tokens (o200k_base, counted locally before
 * the model's own count), enough for the latest request, the plan, tests, commands, commits,
 * files and the newest turns of a long session, and well inside every chat model's window.
 * The instructions (about 300 tokens) come on top.
 */
export const MODEL_DRAFT_EVIDENCE_TOKENS = 6_000;

/** One item of a section is cut to 2,000 characters (a pasted log, a long turn) with "…". */
export const MODEL_DRAFT_ITEM_CHARS = 2_000;

/** A section of the evidence as the model reads it, and how many of its items did not fit. */
export interface PromptSection {
  /** Section title as written in the prompt (`Latest user request`, `Recent turns` …). */
  readonly title: string;
  /** Items in the section (all of them, before the bound). */
  readonly total: number;
  /** Items left out because the bound was reached. */
  readonly omitted: number;
}

/** The prompt and what it holds. */
export interface ModelPrompt {
  /** The whole text sent as the one user message (sanitized: the gate passed it twice). */
  readonly text: string;
  /** Every section, in prompt order, with what the bound left out. */
  readonly sections: readonly PromptSection[];
  /** Tokens of the evidence part (o200k_base or the counter given), at most `bound`. */
  readonly evidence_tokens: number;
  /** The bound that applied, in tokens. */
  readonly bound: number;
  /** Secrets the gate replaced by `[REDACTED:<kind>]` (kind → count). */
  readonly redactions: Record<string, number>;
}

/** The instructions after the evidence: the four fields and the strict JSON answer. */
export const MODEL_DRAFT_INSTRUCTIONS = [
  'You are drafting a handoff of an AI-coding session for the next specialist, from the evidence above only.',
  'Answer with ONE JSON object and nothing else (no prose, no Markdown fence), exactly these keys:',
  '{"summary": string, "decisions": string[], "failed_approaches": string[], "next_steps": string[]}',
  '- summary: 1 to 4 sentences: what was asked, what was done, where it stands.',
  '- decisions: choices made and why (at most 10, one sentence each).',
  '- failed_approaches: what was tried and did not work, and why (at most 10).',
  '- next_steps: what the next specialist should do, in order (at most 10).',
  'Use [] for a list the evidence does not answer. Never invent files, commands or results.',
  'Text shown as [REDACTED:<kind>] was removed on purpose: keep the marker, never guess the value.',
].join('\n');

interface RawSection {
  readonly title: string;
  /** Items, most important first (newest, or the plan's own order). */
  readonly items: readonly string[];
  /** Show the kept items oldest first (as they happened). */
  readonly chronological?: boolean;
}

function clip(text: string): string {
  const t = text.trim();
  return t.length > MODEL_DRAFT_ITEM_CHARS ? `${t.slice(0, MODEL_DRAFT_ITEM_CHARS)}…` : t;
}

function oneLine(text: string): string {
  return clip(text).replace(/\s*\n\s*/g, ' ⏎ ');
}

/** The sections of the evidence before the gate, most important first (see {@link buildModelPrompt}). */
function rawSections(evidence: DraftEvidence): RawSection[] {
  const { git, session } = evidence;
  const requests = session?.user_requests ?? [];
  const userTurns = (session?.recent_turns ?? []).filter((t) => t.role === 'user');
  const latestRequest = requests.at(-1)?.text ?? userTurns.at(-1)?.text;
  const older = requests.length > 0 ? requests.slice(0, -1) : [];
  const state = [
    git.branch ? `branch ${git.branch}${git.detached ? ' (detached)' : ''}` : undefined,
    git.headCommit ? `HEAD ${git.headCommit.slice(0, 12)}` : undefined,
    git.operation ? `git operation in progress: ${git.operation.kind}` : undefined,
  ].filter((s): s is string => s !== undefined);
  return [
    { title: 'Latest user request', items: latestRequest ? [clip(latestRequest)] : [] },
    { title: 'Repository', items: state.length ? [state.join(', ')] : [] },
    {
      title: 'Agent plan',
      // In the tool's order (not newest first): what does not fit is the end of the plan.
      items: (session?.plan?.items ?? []).map((i) => `[${i.status}] ${oneLine(i.text)}`),
    },
    {
      title: 'Tests run (newest first)',
      items: [...(session?.tests_run ?? [])].reverse().map((t) => `${oneLine(t.command)} — ${t.result}${t.exit_code === null ? '' : ` (exit ${t.exit_code})`}`),
    },
    {
      title: 'Commands run (failures first)',
      items: (session?.commands_run ?? []).map(
        (c) => `${oneLine(c.command)} — ${c.result}${c.exit_code === null ? '' : ` (exit ${c.exit_code})`}${c.count > 1 ? `, ${c.count} runs` : ''}`,
      ),
    },
    { title: 'Commits since the base (newest first)', items: git.commits.map((c) => `${c.sha.slice(0, 12)} ${oneLine(c.subject)}`) },
    {
      title: 'Touched files',
      items: git.touchedFiles.map(
        (f) => `${f.status} ${oneLine(f.path)}${f.added !== null || f.deleted !== null ? ` (+${f.added ?? 0} -${f.deleted ?? 0})` : ''}`,
      ),
    },
    { title: 'Earlier user requests', items: [...older].reverse().map((r) => clip(r.text)), chronological: true },
    {
      title: 'Recent turns',
      items: [...(session?.recent_turns ?? [])].reverse().map((t) => `${t.role}: ${clip(t.text)}`),
      chronological: true,
    },
    { title: 'Diff excerpt', items: git.diffExcerpt ? [git.diffExcerpt.slice(0, MODEL_DRAFT_ITEM_CHARS * 4)] : [] },
  ];
}

/**
 * Builds the prompt of "Draft with …" from the draft's evidence.
 *
 * Redaction: every text of the evidence passes the gate (`sanitizeTexts`, mode `strip`: secrets
 * become `[REDACTED:<kind>]`, invisible and control characters are removed) in one batch before
 * anything is laid out, and the assembled prompt passes it again; a secret in the transcript,
 * a commit subject or a path never reaches the model.
 *
 * Bound: the evidence part holds at most `bound` tokens (default
 * {@link MODEL_DRAFT_EVIDENCE_TOKENS}, counted with `counter`). Sections are filled in this
 * order, each item newest first while it fits: latest user request, repository state, the
 * agent's plan, tests run, commands run, commits, touched files, earlier user requests,
 * recent turns, diff excerpt. What does not fit is left out whole (never cut mid-item) and
 * counted in {@link PromptSection.omitted}; a single item longer than
 * {@link MODEL_DRAFT_ITEM_CHARS} characters is clipped first.
 */
export async function buildModelPrompt(evidence: DraftEvidence, counter: TokenCounter, bound = MODEL_DRAFT_EVIDENCE_TOKENS): Promise<ModelPrompt> {
  const raw = rawSections(evidence);
  const flat = raw.flatMap((s) => [s.title, ...s.items]);
  const gated = await sanitizeTexts(flat, 'strip');
  let k = 0;
  const safe = raw.map((s) => ({ ...s, title: gated.texts[k++], items: s.items.map(() => gated.texts[k++]) }));
  let used = 0;
  const blocks: string[] = [];
  const sections: PromptSection[] = [];
  for (const s of safe) {
    const header = `## ${s.title}\n`;
    const kept: string[] = [];
    let headerCost = counter.count(header).tokens;
    for (const item of s.items) {
      const line = `- ${item}\n`;
      const cost = counter.count(line).tokens + headerCost;
      if (used + cost > bound) break;
      used += cost;
      headerCost = 0;
      kept.push(line);
    }
    sections.push({ title: s.title, total: s.items.length, omitted: s.items.length - kept.length });
    if (kept.length > 0) {
      blocks.push(header + (s.chronological ? kept.reverse() : kept).join(''));
    }
  }
  const body = blocks.length > 0 ? blocks.join('\n') : '(The session log and git gave no evidence.)\n';
  const text = `# Evidence of the session\n\n${body}\n# Task\n\n${MODEL_DRAFT_INSTRUCTIONS}\n`;
  const again = await sanitizeText(text, 'strip');
  const redactions = { ...gated.found };
  for (const [kind, n] of Object.entries(again.found)) redactions[kind] = (redactions[kind] ?? 0) + n;
  return { text: again.text, sections, evidence_tokens: used, bound, redactions };
}

/** "12 of 20 recent turns, 3 of 9 touched files" — what the bound left out, in words; '' when nothing. */
export function describeLeftOut(sections: readonly PromptSection[]): string {
  return sections
    .filter((s) => s.omitted > 0)
    .map((s) => `${s.omitted} of ${s.total} ${s.title.replace(/ \(.*\)$/, '').toLowerCase()}`)
    .join(', ');
}
