/**
 * Status changes as events (docs/DESIGN.md §5 "Status"): each change of a handoff's status —
 * a person's *Set Status*, the `accepted` mark of a pick-up, the status a result gives — is
 * its own small file, `status/<handoff id>/<time>_<8 hex>.json`, written once and never
 * edited. Two branches that change the same handoff add two different files, so `git merge`
 * and `git rebase` keep both without a conflict. The current status is the latest change in
 * name order (the time, then the random part: the same answer on every clone); the others
 * stay in its history. Handoffs whose changes were edited into their frontmatter
 * (`status_history`, before events) keep reading as they did: those changes are merged
 * with the events by time. Pure.
 */
import { z } from 'zod';
import { fileTimestamp, parseHandoffFileName } from './naming';
import { HandoffStatusSchema, type HandoffStatus, type StatusChange } from './schema';

/** Sub-folder of the handoff root holding one folder of status events per handoff id. */
export const STATUS_DIR = 'status';

/** One status event file's content (`schema: 1`): the change and the handoff it belongs to. */
export const StatusEventSchema = z
  .object({
    schema: z.literal(1),
    handoff_id: z.string().min(1).max(300),
    from: HandoffStatusSchema,
    to: HandoffStatusSchema,
    at: z.string().min(1).max(100),
    session_id: z.string().min(1).max(300),
    /**
     * The result handoff this change comes with (its id): the change holds only once that
     * result is written whole as `handoffs/<result_id>.md`. The event is written while the result
     * is still `.partial.md` and the result's rename completes both, so a writer killed between
     * the two leaves neither a result without its status nor a status without its result.
     */
    result_id: z
      .string()
      .max(300)
      .refine((id) => parseHandoffFileName(`${id}.md`)?.id === id, 'not a handoff id')
      .optional(),
  })
  .strict();
/** A status event as stored. */
export type StatusEvent = z.infer<typeof StatusEventSchema>;

/** An event's file name: `<ISO 8601 UTC with ms, ':' → '-'>_<8 lowercase hex>.json`; name order is time order. */
export const STATUS_EVENT_NAME = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z)_([0-9a-f]{8})\.json$/;

/** The file name of an event written at `date` with the random part `random` (8 lowercase hex digits). */
export function statusEventFileName(date: Date, random: string): string {
  return `${fileTimestamp(date)}_${random}.json`;
}

/** A status event read back, with its file name (the order key). */
export interface NamedStatusEvent {
  readonly name: string;
  readonly event: StatusEvent;
}

/**
 * Parses one event file: JSON validated with {@link StatusEventSchema}, for handoff `id`.
 * @returns the event, or undefined when the name is not an event's, the JSON or the schema
 *   does not hold, or it belongs to another handoff (a file copied into the wrong folder)
 */
export function parseStatusEvent(name: string, text: string, id: string): StatusEvent | undefined {
  return parseEventFile(StatusEventSchema, name, text, id);
}

/**
 * Parses one file of a per-handoff event folder (status events here, verifications in
 * src/core/receive/verification.ts): the name must be an event file's ({@link STATUS_EVENT_NAME}),
 * the text JSON that `schema` accepts, and its `handoff_id` the folder's `id`.
 * @returns the parsed value, or undefined when any of that does not hold
 */
export function parseEventFile<T extends { handoff_id: string }>(schema: z.ZodType<T>, name: string, text: string, id: string): T | undefined {
  if (!STATUS_EVENT_NAME.test(name)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(json);
  return parsed.success && parsed.data.handoff_id === id ? parsed.data : undefined;
}

/** An event file's text: one line of JSON and a final newline. */
export function renderStatusEvent(event: StatusEvent): string {
  return `${JSON.stringify(StatusEventSchema.parse(event))}\n`;
}

/** The status of a handoff and every change that led to it, oldest first. */
export interface EffectiveStatus {
  readonly status: HandoffStatus;
  readonly history: StatusChange[];
}

/** Order key of a change kept in the frontmatter: its time as a file timestamp, or '' (oldest) when `at` is not a time. */
function legacyKey(at: string): string {
  const t = Date.parse(at);
  return Number.isNaN(t) ? '' : fileTimestamp(new Date(t));
}

/**
 * The current status of a handoff: with no event, what its frontmatter says (unchanged
 * from before events); otherwise the `to` of the latest change, the frontmatter's
 * `status_history` and the events merged in time order (an event's order key is its file
 * name; a frontmatter change's its `at`, ties keep the frontmatter's change first).
 *
 * @param status the frontmatter's `status`
 * @param legacy the frontmatter's `status_history`, oldest first
 * @param events the handoff's events, any order
 */
export function effectiveStatus(status: HandoffStatus, legacy: readonly StatusChange[], events: readonly NamedStatusEvent[]): EffectiveStatus {
  if (events.length === 0) return { status, history: [...legacy] };
  const keyed = [
    ...legacy.map((c, i) => ({ key: legacyKey(c.at), rank: 0, i, change: c })),
    ...events.map((e, i) => ({ key: e.name, rank: 1, i, change: { from: e.event.from, to: e.event.to, at: e.event.at, session_id: e.event.session_id } })),
  ];
  keyed.sort((a, b) => {
    // Compare the timestamps only (the first 24 characters), then frontmatter before events, then the name.
    const ka = a.key.slice(0, 24);
    const kb = b.key.slice(0, 24);
    if (ka !== kb) return ka < kb ? -1 : 1;
    if (a.rank !== b.rank) return a.rank - b.rank;
    return a.rank === 0 ? a.i - b.i : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  });
  const history = keyed.map((k) => k.change);
  return { status: history[history.length - 1].to, history };
}

/**
 * The time to name a new event: `at` when it is a time, else `now`; moved 1 ms past the
 * latest event already there (`latestName`), so a writer's own changes keep their order
 * even when the clock steps back or two come in the same millisecond.
 */
export function nextEventDate(at: string, now: Date, latestName: string | undefined): Date {
  const parsed = Date.parse(at);
  let t = Number.isNaN(parsed) ? now.getTime() : parsed;
  const m = latestName ? STATUS_EVENT_NAME.exec(latestName) : null;
  if (m) {
    const latest = Date.parse(m[1].replace(/T(\d{2})-(\d{2})-(\d{2})/, 'T$1:$2:$3'));
    if (!Number.isNaN(latest) && t <= latest) t = latest + 1;
  }
  return new Date(t);
}
