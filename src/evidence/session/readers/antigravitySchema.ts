// The shapes of Google Antigravity's plain files (./antigravity.ts says where each lives). No schema is published: these are
// the keys its files hold, as read in the real transcripts of test/fixtures/real/SOURCES.md and the readers cited there.
import * as z from 'zod';

/** The step record (`logs/transcript.jsonl`); unknown keys kept, unknown step types skipped. */
export const AntigravityStepSchema = z.looseObject({
  step_index: z.number().optional(),
  source: z.string(),
  type: z.string(),
  status: z.string().optional(),
  created_at: z.string().optional(),
  content: z.string().optional(),
  exit_code: z.number().optional(),
  tool_calls: z.array(z.looseObject({ name: z.string(), args: z.record(z.string(), z.unknown()).optional() })).optional(),
});
export type AntigravityStep = z.infer<typeof AntigravityStepSchema>;

/** Who writes steps; `type` is an upper-case enum name. */
export const ANTIGRAVITY_STEP_SOURCES = new Set(['USER_EXPLICIT', 'USER_IMPLICIT', 'MODEL', 'SYSTEM']);

/** One line of `history.jsonl` (the `agy` CLI's prompt history): the folder a conversation was started in. */
export const AntigravityHistorySchema = z.looseObject({ conversationId: z.string(), workspace: z.string() });
