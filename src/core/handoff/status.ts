// The one in-place change a handoff file allows: `status` takes the new value and the change is appended to `status_history`; the rest stays byte for byte.
import type { Document } from 'yaml';
import { editFrontmatter } from './frontmatter';
import { parseHandoff } from './parse';
import { yaml } from './yamlLibrary';
import type { HandoffStatus, StatusChange } from './schema';

/** What a person or a pick-up may set: all but pending and partial. */
export const SETTABLE_STATUSES = ['accepted', 'in_progress', 'complete', 'blocked'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

export const STATUS_LABELS: Record<HandoffStatus, string> = {
  pending: 'pending',
  accepted: 'accepted',
  in_progress: 'in progress',
  complete: 'complete',
  blocked: 'blocked',
  partial: 'partial',
};

export type StatusChangeResult = { ok: true; text: string; change: StatusChange | null } | { ok: false; message: string };

/** `change: null` when the status already was `to` (text unchanged); `{ok:false}` when the file is not a valid handoff. */
export function changeStatus(text: string, to: SettableStatus, change: { at: string; session_id: string }): StatusChangeResult {
  const parsed = parseHandoff(text);
  if (!parsed.ok) {
    return { ok: false, message: `not a valid handoff file: ${parsed.message}` };
  }
  const from = parsed.handoff.frontmatter.status;
  if (from === to) {
    return { ok: true, text, change: null };
  }
  const entry: StatusChange = { from, to, at: change.at, session_id: change.session_id };
  const edited = editFrontmatter(text, (doc: Document) => {
    doc.set('status', to);
    const history = doc.get('status_history', true);
    const node = doc.createNode({ ...entry });
    if (yaml().isSeq(history)) {
      history.add(node);
    } else {
      doc.set('status_history', doc.createNode([entry]));
    }
  });
  if (!edited.ok) {
    return edited;
  }
  const check = parseHandoff(edited.text);
  if (!check.ok || check.handoff.frontmatter.status !== to) {
    return { ok: false, message: `the edited frontmatter does not read back (${check.ok ? 'status unchanged' : check.message})` };
  }
  return { ok: true, text: edited.text, change: entry };
}

/** The latest change to `accepted` or `in_progress` while the handoff is still there: a session took it up and has not handed back. */
export function openPickUp(status: HandoffStatus, history: readonly StatusChange[]): StatusChange | undefined {
  if (status !== 'accepted' && status !== 'in_progress') {
    return undefined;
  }
  return [...history].reverse().find((c) => c.to === 'accepted' || c.to === 'in_progress');
}
