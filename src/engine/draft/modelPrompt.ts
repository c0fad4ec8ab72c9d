/** The "Draft with …" request: gated evidence in sections bounded in tokens, then the JSON instructions. */
import type { TokenCounter } from '../../core/handoff/tokens';
import { sanitizeText, sanitizeTexts } from '../../core/safety/gate';
import type { DraftEvidence } from './evidenceDraft';

/** Tokens (o200k_base, counted locally); the instructions come on top. */
export const MODEL_DRAFT_EVIDENCE_TOKENS = 6_000;

/** Characters; a longer item is clipped with "…". */
export const MODEL_DRAFT_ITEM_CHARS = 2_000;

export interface PromptSection {
  readonly title: string;
  readonly total: number;
  readonly omitted: number;
}

export interface ModelPrompt {
  /** Sanitized: the gate passed it twice. */
  readonly text: string;
  readonly sections: readonly PromptSection[];
  readonly evidence_tokens: number;
  readonly bound: number;
  /** Secrets the gate replaced (kind → count). */
  readonly redactions: Record<string, number>;
}

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
  /** Kept items are shown oldest first. */
  readonly chronological?: boolean;
}

function clip(text: string): string {
  const t = text.trim();
  return t.length > MODEL_DRAFT_ITEM_CHARS ? `${t.slice(0, MODEL_DRAFT_ITEM_CHARS)}…` : t;
}

function oneLine(text: string): string {
  return clip(text).replace(/\s*\n\s*/g, ' ⏎ ');
}

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
 * Every text passes the gate in one batch before layout, and the prompt again, so no secret reaches the model.
 * Sections fill in order while they fit; an item that does not fit is left out whole, never cut.
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
