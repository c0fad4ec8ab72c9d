/**
 * What the panel keeps in its webview state beside the draft: the session's draft
 * last applied, so the drafted items' sources and the loss report survive hiding, moving and
 * reloading the view. Read back with the same schema the host's `draft` message uses.
 */
import * as z from 'zod/mini';
import { DraftSchema as SessionDraftSchema, type Draft as SessionDraft } from '../handoff/draftFields';

const SavedSessionSchema = z.object({ session: SessionDraftSchema });

/**
 * The session draft in what the webview saved with `setState` (possibly by an older version
 * of the extension, or nothing): the draft, or undefined when there is none or it is not one.
 */
export function parseSavedSession(raw: unknown): SessionDraft | undefined {
  const r = SavedSessionSchema.safeParse(raw);
  return r.success ? r.data.session : undefined;
}
