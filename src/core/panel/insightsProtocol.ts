/**
 * The "Handoff Insights" webview ↔ host protocol, validated both ways like ./protocol.ts. The webview never computes a figure:
 * it shows the engine's `Insights` (src/core/timeline/insights.ts), mirrored here in zod/mini because the webview may import
 * only src/core/panel/**; keep the two in step.
 */
import * as z from 'zod/mini';
import { en } from 'zod/locales';

const natural = () => z.number().check(z.int(), z.nonnegative());
/** ms, or null when nothing was measured. */
const millis = () => z.nullable(natural());
const isoTime = () => z.string().check(z.minLength(10), z.maxLength(40));
const specialistId = () => z.string().check(z.minLength(1), z.maxLength(100));

/** Counts of handoffs; medians in ms (null: none measured). */
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

export const SpecialistInsightsSchema = z.extend(InsightsFiguresSchema, { specialist: specialistId() });

/** Waiting for pick-up (still pending) or an answer (accepted, never answered); `age_ms` until `generated_at`. */
export const WaitingHandoffSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(300)),
  specialist: specialistId(),
  from: z.string().check(z.minLength(1), z.maxLength(100)),
  topic: z.string().check(z.maxLength(300)),
  waiting: z.enum(['pickup', 'answer']),
  since: z.string().check(z.minLength(1), z.maxLength(40)),
  age_ms: natural(),
});

/** As `readInsights` returns them. */
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
export type InsightsView = z.infer<typeof InsightsViewSchema>;
export type InsightsFigures = z.infer<typeof InsightsFiguresSchema>;
export type WaitingHandoff = z.infer<typeof WaitingHandoffSchema>;

export const InsightsPeriodSchema = z.enum(['all', '7d', '30d', '90d']);
export type InsightsPeriod = z.infer<typeof InsightsPeriodSchema>;

/** The host turns them into `since`. */
export const PERIOD_DAYS: Readonly<Record<Exclude<InsightsPeriod, 'all'>, number>> = { '7d': 7, '30d': 30, '90d': 90 };

/** The only commands the insights view may ask the host to run. */
export const InsightsCommandSchema = z.enum(['openFolder', 'manageTrust', 'showTimeline', 'openSettings']);

export const InsightsToHostSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('setPeriod'), period: InsightsPeriodSchema }),
  z.strictObject({ type: z.literal('runCommand'), command: InsightsCommandSchema }),
]);
export type InsightsToHost = z.infer<typeof InsightsToHostSchema>;

/** From the folder's registry; the id when it has none. */
export const InsightsSpecialistSchema = z.object({ id: specialistId(), label: z.string().check(z.maxLength(200)), icon: z.string().check(z.maxLength(100)) });
export type InsightsSpecialist = z.infer<typeof InsightsSpecialistSchema>;

/**
 * `no-folder`/`untrusted`: the other commands' refusals as a page with their next action; `ready` carries `insights` unchanged;
 * `error` a `message`. `pending_warn_after` is the setting as the user wrote it, for the page's wording.
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
export type InsightsShow = z.infer<typeof InsightsShowSchema>;

export const InsightsToWebviewSchema = z.discriminatedUnion('type', [InsightsShowSchema]);
export type InsightsToWebview = z.infer<typeof InsightsToWebviewSchema>;

let english: z.core.$ZodErrorMap | undefined;

/** English wording whatever zod locale is set; `{error}` is bounded, for the log. */
export function parseInsightsMessage(raw: unknown): { ok: true; message: InsightsToHost } | { ok: false; error: string } {
  english ??= en().localeError;
  const r = InsightsToHostSchema.safeParse(raw, { error: english });
  if (r.success) return { ok: true, message: r.data };
  const issue = r.error.issues[0];
  const where = (issue?.path.join('.') || 'message').slice(0, 200);
  return { ok: false, error: `${where}: ${(issue?.message ?? 'invalid').slice(0, 300)}` };
}
