/**
 * The typed protocol between the "Handoff Insights" webview and the extension
 * host, on the rules of the panel's protocol (./protocol.ts): every message is validated on
 * arrival with these zod/mini schemas, both ways; the webview never computes a figure, it
 * shows the `Insights` object the engine made (`readInsights`, src/engine/insights.ts; its
 * shape and meaning: src/core/timeline/insights.ts).
 *
 * The webview may import only src/core/panel/** and bundles zod/mini alone
 * (docs/ARCHITECTURE.md, the webview layer), so the figures' schema is mirrored here in
 * zod/mini; test/unit/panel/insightsProtocol.test.ts proves, at compile time, that its
 * inferred type is the engine's `Insights`, and at run time that the engine's output on a
 * real history parses with it.
 *
 * - Webview → host: `ready` (the handshake), `setPeriod` (the period picker: all time, the
 *   last 7, 30 or 90 days), `runCommand` (Open Folder, Manage Workspace Trust, show the
 *   timeline, open the setting).
 * - Host → webview: `show` — the state (no folder, untrusted, loading, ready, error) and,
 *   when ready, the figures with the labels of their specialists.
 */
import * as z from 'zod/mini';
import { en } from 'zod/locales';

/** A count: an integer ≥ 0. */
const natural = () => z.number().check(z.int(), z.nonnegative());
/** A duration in milliseconds (an integer ≥ 0), or null when nothing was measured. */
const millis = () => z.nullable(natural());
/** An ISO 8601 date-time, as the frontmatter writes `created`. */
const isoTime = () => z.string().check(z.minLength(10), z.maxLength(40));
/** A specialist id (docs/DESIGN.md §2: lowercase snake_case), bounded. */
const specialistId = () => z.string().check(z.minLength(1), z.maxLength(100));

// ---------------------------------------------------------------- the figures (the engine's Insights)

/** One row of figures (overall, or one specialist's): counts of handoffs, medians in ms (null: none measured). */
export const InsightsFiguresSchema = z.object({
  written: natural(),
  picked_up: natural(),
  pending: natural(),
  accepted: natural(),
  in_progress: natural(),
  completed: natural(),
  blocked: natural(),
  partial: natural(),
  pending_too_long: natural(),
  unanswered_too_long: natural(),
  median_pickup_ms: millis(),
  median_complete_ms: millis(),
  handbacks: natural(),
  retries: natural(),
  tests_failing_at_handback: natural(),
});

/** One specialist's figures: `specialist` is the id the handoffs went to. */
export const SpecialistInsightsSchema = z.extend(InsightsFiguresSchema, { specialist: specialistId() });

/** A handoff waiting too long: for its pick-up (still pending) or its answer (accepted, never answered); `since` ISO, `age_ms` until `generated_at`. */
export const WaitingHandoffSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(300)),
  specialist: specialistId(),
  from: z.string().check(z.minLength(1), z.maxLength(100)),
  topic: z.string().check(z.maxLength(300)),
  waiting: z.enum(['pickup', 'answer']),
  since: z.string().check(z.minLength(1), z.maxLength(40)),
  age_ms: natural(),
});

/** The figures of a period, as `readInsights` returns them (schema 1). */
export const InsightsViewSchema = z.object({
  schema: z.literal(1),
  period: z.object({ since: z.nullable(isoTime()), until: isoTime() }),
  generated_at: isoTime(),
  pending_warn_after_ms: natural(),
  overall: InsightsFiguresSchema,
  specialists: z.array(SpecialistInsightsSchema).check(z.maxLength(1000)),
  chains: z.object({
    total: natural(),
    by_length: z.array(z.object({ hops: natural(), chains: natural() })).check(z.maxLength(1000)),
    reached_depth_limit: natural(),
    past_depth_limit: natural(),
    max_depth: z.number().check(z.int(), z.positive()),
  }),
  waiting: z.array(WaitingHandoffSchema).check(z.maxLength(1000)),
  waiting_omitted: natural(),
  files_read: natural(),
  files_unreadable: natural(),
});
/** The figures as the view receives them (the engine's `Insights`). */
export type InsightsView = z.infer<typeof InsightsViewSchema>;
/** One row of figures. */
export type InsightsFigures = z.infer<typeof InsightsFiguresSchema>;
/** A handoff waiting too long. */
export type WaitingHandoff = z.infer<typeof WaitingHandoffSchema>;

// ---------------------------------------------------------------- webview → host

/** The periods the picker offers: all time, or the last 7, 30 or 90 days before now. */
export const InsightsPeriodSchema = z.enum(['all', '7d', '30d', '90d']);
/** A period of the picker. */
export type InsightsPeriod = z.infer<typeof InsightsPeriodSchema>;

/** Days of each period but `all` (the host turns them into `since`). */
export const PERIOD_DAYS: Readonly<Record<Exclude<InsightsPeriod, 'all'>, number>> = { '7d': 7, '30d': 30, '90d': 90 };

/** The commands the insights view may ask the host to run: only these. */
export const InsightsCommandSchema = z.enum(['openFolder', 'manageTrust', 'showTimeline', 'openSettings']);

/** Every message the insights webview may send, told apart by `type`. */
export const InsightsToHostSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('setPeriod'), period: InsightsPeriodSchema }),
  z.strictObject({ type: z.literal('runCommand'), command: InsightsCommandSchema }),
]);
/** A message from the insights webview. */
export type InsightsToHost = z.infer<typeof InsightsToHostSchema>;

// ---------------------------------------------------------------- host → webview

/** A specialist's name as the view shows it (from the folder's registry; the id when it has none). */
export const InsightsSpecialistSchema = z.object({ id: specialistId(), label: z.string().check(z.maxLength(200)), icon: z.string().check(z.maxLength(100)) });
/** A specialist's name as shown. */
export type InsightsSpecialist = z.infer<typeof InsightsSpecialistSchema>;

/**
 * Host → webview: what to show. `no-folder` and `untrusted` are the other commands' refusals
 * (src/vscode/workspace/trust.ts) as a page with their next action; `loading` while the files
 * are read; `ready` with `insights` (the engine's object, unchanged) and the specialists' labels;
 * `error` with the message (a bad `handoff.directory`, an unreadable folder).
 * `pending_warn_after` is the setting as the user wrote it, for the page's wording.
 */
export const InsightsShowSchema = z.strictObject({
  type: z.literal('show'),
  status: z.enum(['no-folder', 'untrusted', 'loading', 'ready', 'error']),
  period: InsightsPeriodSchema,
  insights: z.nullable(InsightsViewSchema),
  specialists: z.array(InsightsSpecialistSchema).check(z.maxLength(500)),
  pending_warn_after: z.string().check(z.maxLength(100)),
  message: z.optional(z.string().check(z.maxLength(2000))),
});
/** What the host shows. */
export type InsightsShow = z.infer<typeof InsightsShowSchema>;

/** Every message the host may send to the insights webview. */
export const InsightsToWebviewSchema = z.discriminatedUnion('type', [InsightsShowSchema]);
/** A message to the insights webview. */
export type InsightsToWebview = z.infer<typeof InsightsToWebviewSchema>;

let english: z.core.$ZodErrorMap | undefined;

/**
 * Validates a message from the insights webview (English wording whatever zod locale is set).
 * @returns the message, or `{error}` for the log: the path at fault (≤ 200 characters) and zod's message (≤ 300)
 */
export function parseInsightsMessage(raw: unknown): { ok: true; message: InsightsToHost } | { ok: false; error: string } {
  english ??= en().localeError;
  const r = InsightsToHostSchema.safeParse(raw, { error: english });
  if (r.success) return { ok: true, message: r.data };
  const issue = r.error.issues[0];
  const where = (issue?.path.join('.') || 'message').slice(0, 200);
  return { ok: false, error: `${where}: ${(issue?.message ?? 'invalid').slice(0, 300)}` };
}
