/** What a receiving specialist records when it answers a handoff, and the acceptance criteria a handoff sets. */
import * as z from 'zod';
import { MAX_ITEM_CHARS, MAX_LIST_ITEMS, MAX_SUMMARY_CHARS, formatCount } from '../handoff/limits';
import type { ParsedHandoff } from '../handoff/parse';
import { SpecialistIdSchema } from '../handoff/ids';
import { TestRunSchema, TokenizerNameSchema } from '../handoff/schema';

const item = z.string().max(MAX_ITEM_CHARS, `items must be at most ${formatCount(MAX_ITEM_CHARS)} characters`);
const list = z
  .array(item)
  .max(MAX_LIST_ITEMS, `must have at most ${formatCount(MAX_LIST_ITEMS)} items`)
  .default([])
  .transform((xs) => xs.map((x) => x.trim()).filter(Boolean));

/**
 * `handoffs` empty: every open handoff to `specialist`. `criteria_met`: texts, 1-based numbers from
 * {@link acceptanceCriteria}, or `all`. `proceed_if_taken`: record even when another session took the handoff up.
 */
export const RecordResultRequestSchema = z.object({
  specialist: SpecialistIdSchema,
  handoffs: z.array(z.string().trim().min(1).max(300)).max(50).default([]),
  summary: z
    .string()
    .max(MAX_SUMMARY_CHARS, `must be at most ${formatCount(MAX_SUMMARY_CHARS)} characters`)
    .default(''),
  criteria_met: z.union([z.literal('all'), z.array(z.string().trim().min(1).max(MAX_ITEM_CHARS)).max(MAX_LIST_ITEMS)]).default([]),
  next_steps: list,
  blockers: list,
  tests_run: z.array(TestRunSchema).max(MAX_LIST_ITEMS).default([]),
  proceed_if_taken: z.boolean().default(false),
  max_context_tokens: z.number().int().positive().max(10_000_000).default(3000),
  tokenizer: TokenizerNameSchema.default('o200k_base'),
});
export type RecordResultRequest = z.infer<typeof RecordResultRequestSchema>;

/** Its next steps, then its return condition; duplicates once. */
export function acceptanceCriteria(handoff: ParsedHandoff): string[] {
  const steps = (handoff.sections.get('Next steps') ?? '')
    .split('\n')
    .map((l) => /^\s*\d+\.\s+(.*)$/.exec(l)?.[1]?.trim())
    .filter((x): x is string => !!x);
  const all = [...steps, handoff.frontmatter.return_condition.trim()].filter(Boolean);
  return [...new Set(all)];
}

/** @returns one check per criterion, and the entries of `criteria_met` that matched none (texts match case-insensitively) */
export function matchCriteria(
  criteria: readonly string[],
  met: RecordResultRequest['criteria_met'],
): { checks: Array<{ criterion: string; met: boolean }>; unknown: string[] } {
  // "all" also counts inside a list (["all"]): agents send lists where the CLI sends --met all.
  if (met === 'all' || met.some((m) => m.trim().toLowerCase() === 'all')) {
    return { checks: criteria.map((criterion) => ({ criterion, met: true })), unknown: [] };
  }
  const hit = new Set<number>();
  const unknown: string[] = [];
  for (const m of met) {
    const n = /^\d+$/.test(m) ? Number(m) : NaN;
    const i = Number.isInteger(n) && n >= 1 && n <= criteria.length ? n - 1 : criteria.findIndex((c) => c.toLowerCase() === m.toLowerCase());
    if (i >= 0) hit.add(i);
    else unknown.push(m);
  }
  return { checks: criteria.map((criterion, i) => ({ criterion, met: hit.has(i) })), unknown };
}
