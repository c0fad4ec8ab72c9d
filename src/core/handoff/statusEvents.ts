/**
 * Status changes as events: each change is its own write-once file, `status/<handoff id>/<time>_<8 hex>.json`, so two branches
 * changing one handoff merge without a conflict. The current status is the latest change in name order (the same on every
 * clone); changes kept in a frontmatter's `status_history` are merged with the events by time. Pure.
 */
import * as z from 'zod';
import { fileTimestamp, parseHandoffFileName } from './naming';
import { HandoffStatusSchema, type HandoffStatus, type StatusChange } from './schema';

export const STATUS_DIR = 'status';

export const StatusEventSchema = z
  .object({
    schema: z.literal(1),
    handoff_id: z.string().min(1).max(300),
    from: HandoffStatusSchema,
    to: HandoffStatusSchema,
    at: z.string().min(1).max(100),
    session_id: z.string().min(1).max(300),
    /** The result this change comes with: the event is written while the result is `.partial.md` and the rename completes both, so a killed writer leaves neither half. */
    result_id: z
      .string()
      .max(300)
      .refine((id) => parseHandoffFileName(`${id}.md`)?.id === id, 'not a handoff id')
      .optional(),
  })
  .strict();
export type StatusEvent = z.infer<typeof StatusEventSchema>;

/** An event's file name: `<ISO 8601 UTC with ms, ':' → '-'>_<8 lowercase hex>.json`; name order is time order. */
export const STATUS_EVENT_NAME = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z)_([0-9a-f]{8})\.json$/;

export function statusEventFileName(date: Date, random: string): string {
  return `${fileTimestamp(date)}_${random}.json`;
}

export interface NamedStatusEvent {
  readonly name: string;
  readonly event: StatusEvent;
}

/** Undefined when the name, JSON or schema does not hold, or the event belongs to another handoff (a file copied into the wrong folder). */
export function parseStatusEvent(name: string, text: string, id: string): StatusEvent | undefined {
  return parseEventFile(StatusEventSchema, name, text, id);
}

/** A file of any per-handoff event folder (status events, verifications): an event name, JSON `schema` accepts, the folder's `handoff_id`. */
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

export function renderStatusEvent(event: StatusEvent): string {
  return `${JSON.stringify(StatusEventSchema.parse(event))}\n`;
}

export interface EffectiveStatus {
  readonly status: HandoffStatus;
  readonly history: StatusChange[];
}

/** Order key of a change kept in the frontmatter: its time as a file timestamp, or '' (oldest) when `at` is not a time. */
function legacyKey(at: string): string {
  const t = Date.parse(at);
  return Number.isNaN(t) ? '' : fileTimestamp(new Date(t));
}

/** With no event, what the frontmatter says; else the latest of the frontmatter's changes and the events merged in time order (ties: the frontmatter's first). */
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

/** `at` (else `now`), moved 1 ms past the latest event, so a writer's own changes keep their order if the clock steps back. */
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
