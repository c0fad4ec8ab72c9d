// The session draft the panel keeps in its webview state, so the drafted items' sources and the loss report survive a reload.
import * as z from 'zod/mini';
import { SessionDraftSchema, type SessionDraft } from '../handoff/draftFields';

const SavedSessionSchema = z.object({ session: SessionDraftSchema });

/** Undefined when nothing, or no session draft, was saved. */
export function parseSavedSession(raw: unknown): SessionDraft | undefined {
  const r = SavedSessionSchema.safeParse(raw);
  return r.success ? r.data.session : undefined;
}
