/**
 * The panel's form filled from the session's draft: which fields the draft may
 * fill, what a user's edit changes, and where each drafted item came from, as the panel
 * shows it on hover. Pure: the webview applies a draft the host sends (so an edit typed
 * meanwhile is never lost), and the tests run these functions in Node.
 *
 * The rule of a (re)draft: a field is filled when it still holds the draft's value
 * (`drafted`), or when it is empty and the user never edited it. A field the user edited
 * keeps the user's text; a redraft reports it as `kept` so the panel can ask before
 * replacing it ("Replace my edits too" runs the same draft with `replaceEdited`).
 */
import { draftItemText } from '../handoff/drafted';
import type { CommandRun, Draft as SessionDraft, DraftedField, Provenance } from '../handoff/draftFields';
import type { Draft } from './draft';

/** Every field a session draft fills, in the panel's order (docs/DESIGN.md §4). */
export const DRAFTED_FIELDS: readonly DraftedField[] = ['summary', 'completed', 'decisions', 'failed_approaches', 'next_steps', 'blockers', 'user_requests', 'commands_run'];

/** The words the panel uses for each drafted field (the loss report and the redraft banner). */
export const FIELD_TITLES: Record<DraftedField, string> = {
  summary: 'Summary',
  completed: 'Done',
  decisions: 'Decisions',
  failed_approaches: 'Failed approaches',
  next_steps: 'Next steps',
  blockers: 'Blockers',
  user_requests: 'User requests',
  commands_run: 'Commands run',
};

/** The value a session draft gives a field of the form. */
function draftValue(s: SessionDraft, f: DraftedField): Draft[DraftedField] {
  switch (f) {
    case 'summary':
      return s.summary.text.trim();
    case 'user_requests':
      return s.user_requests.map((r) => ({ text: r.text, time: r.time, source: r.source }));
    case 'commands_run':
      return s.commands_run.map((c) => ({ ...c }));
    default:
      return s[f].map(draftItemText);
  }
}

/** Whether a field's value is empty (a blank summary, an empty list). */
function isEmpty(v: Draft[DraftedField]): boolean {
  return typeof v === 'string' ? v.trim() === '' : v.length === 0;
}

/** A session draft with nothing in it: the base of a language model's draft when the session gave none. */
export function emptySessionDraft(): SessionDraft {
  return {
    summary: { text: '', sources: [] },
    decisions: [],
    failed_approaches: [],
    next_steps: [],
    blockers: [],
    completed: [],
    user_requests: [],
    commands_run: [],
    commands_run_omitted: 0,
    left_out: { older_requests: 0, commands_beyond_cap: 0, collapsed_todos: 0, turns: 0 },
  };
}

/** The fields a session draft has something for. */
export function draftedFields(s: SessionDraft): DraftedField[] {
  return DRAFTED_FIELDS.filter((f) => !isEmpty(draftValue(s, f)));
}

/** Whether a (re)draft may fill field `f` of `form` without asking. */
export function mayFill(form: Draft, f: DraftedField): boolean {
  return form.drafted.includes(f) || (isEmpty(form[f]) && !form.edited.includes(f));
}

/** What applying a session draft did. */
export interface PrefillResult {
  /** The form with the draft applied. */
  readonly draft: Draft;
  /** Fields now holding the draft's value (and marked drafted). */
  readonly filled: DraftedField[];
  /** Edited fields the draft would change, left as the user wrote them. */
  readonly kept: DraftedField[];
}

/**
 * Applies a session draft to the form: each field the rule allows takes the draft's value
 * and is marked drafted when the value holds something (an empty drafted value clears the
 * mark). With `replaceEdited` the user's edited fields are replaced too (the user asked).
 * Fields outside the session draft (specialist, topic, return condition …) never change;
 * with `only`, neither do the drafted fields not named (a language model drafts four).
 */
export function prefill(form: Draft, session: SessionDraft, opts: { replaceEdited?: boolean; only?: readonly DraftedField[] } = {}): PrefillResult {
  const next: Draft = { ...form, drafted: [...form.drafted], edited: [...form.edited] };
  const filled: DraftedField[] = [];
  const kept: DraftedField[] = [];
  for (const f of DRAFTED_FIELDS.filter((x) => !opts.only || opts.only.includes(x))) {
    const value = draftValue(session, f);
    if (!mayFill(form, f) && !opts.replaceEdited) {
      if (!isEmpty(value) && JSON.stringify(value) !== JSON.stringify(form[f])) kept.push(f);
      continue;
    }
    if (opts.replaceEdited && !mayFill(form, f) && isEmpty(value)) continue;
    (next as Record<DraftedField, unknown>)[f] = value;
    next.edited = next.edited.filter((x) => x !== f);
    next.drafted = next.drafted.filter((x) => x !== f);
    if (!isEmpty(value)) {
      next.drafted.push(f);
      filled.push(f);
    }
  }
  next.drafted = DRAFTED_FIELDS.filter((f) => next.drafted.includes(f));
  return { draft: next, filled, kept };
}

/**
 * The form after the user changed `fields`: they are no longer drafted and count as edited
 * (a redraft asks before replacing them). Other keys are ignored.
 */
export function markEdited(form: Draft, fields: readonly string[]): Draft {
  const changed = DRAFTED_FIELDS.filter((f) => fields.includes(f));
  if (changed.length === 0) return form;
  return {
    ...form,
    drafted: form.drafted.filter((f) => !changed.includes(f)),
    edited: DRAFTED_FIELDS.filter((f) => form.edited.includes(f) || changed.includes(f)),
  };
}

/** The last part of a path (either separator), e.g. the transcript's file name. */
export function baseName(file: string): string {
  return file.split(/[\\/]/).filter(Boolean).pop() ?? file;
}

/**
 * An ISO 8601 time as the panel shows it, in UTC to the minute (`2026-12-01 14:02 UTC`); the
 * text as it is when it does not parse.
 */
export function shortTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Where a drafted item came from, in one line: `claude-code · 3f2a.jsonl · 2026-12-01 14:02 UTC`.
 * @param time how a time is shown: {@link shortTime} (UTC, the same everywhere) unless the surface
 *   formats it for its user (the panel and the editor's commands: local time)
 */
export function describeSource(p: Pick<Provenance, 'reader'> & Partial<Pick<Provenance, 'file' | 'time'>>, time: (iso: string) => string = shortTime): string {
  return [p.reader, p.file ? baseName(p.file) : null, p.time ? time(p.time) : null].filter(Boolean).join(' · ');
}

/**
 * The sources of each item of a drafted field, in the form's order (one entry per item; the
 * summary's sources in one entry), times shown by `time` (see {@link describeSource}). Empty for
 * a field that is not drafted any more: its items are the user's now.
 */
export function itemSources(form: Draft, session: SessionDraft | null, f: DraftedField, time: (iso: string) => string = shortTime): string[] {
  if (!session || !form.drafted.includes(f)) return [];
  switch (f) {
    case 'summary':
      return [session.summary.sources.map((p) => describeSource(p, time)).join('; ')];
    case 'user_requests':
      return session.user_requests.map((r) => describeSource({ reader: r.source, file: r.file, time: r.time }, time));
    case 'commands_run':
      return session.commands_run.map((c: CommandRun) => [describeSource({ reader: c.source, time: c.last_at }, time), c.cwd ? `in ${c.cwd}` : null].filter(Boolean).join(' · '));
    default:
      return session[f].map((i) => describeSource(i.source, time));
  }
}

/** The answers of the end-of-session command's steps (summary, decisions, next steps, blockers). */
export interface SessionAnswers {
  summary: string;
  decisions: string[];
  nextSteps: string[];
  blockers: string[];
  /** Not asked: carried as a language model drafted them (empty otherwise). */
  failedApproaches?: string[];
}

/** The values a session draft gives the four fields the command asks for. */
export function draftedAnswers(d: SessionDraft): SessionAnswers {
  return {
    summary: d.summary.text.trim(),
    decisions: d.decisions.map(draftItemText),
    nextSteps: d.next_steps.map(draftItemText),
    blockers: d.blockers.map(draftItemText),
    failedApproaches: d.failed_approaches.map(draftItemText),
  };
}

/**
 * The fields still as drafted when the user confirms: those whose answer equals the draft's
 * (and holds something); Done, User requests and Commands run are not asked, so they stay drafted.
 */
export function stillDrafted(d: SessionDraft, a: SessionAnswers): DraftedField[] {
  const v = draftedAnswers(d);
  const same = (x: readonly string[], y: readonly string[]) => x.length > 0 && JSON.stringify(x) === JSON.stringify(y);
  const out: DraftedField[] = [];
  if (v.summary && a.summary.trim() === v.summary) out.push('summary');
  if (d.completed.length) out.push('completed');
  if (same(a.decisions, v.decisions)) out.push('decisions');
  if (same(a.failedApproaches ?? [], v.failedApproaches ?? [])) out.push('failed_approaches');
  if (same(a.nextSteps, v.nextSteps)) out.push('next_steps');
  if (same(a.blockers, v.blockers)) out.push('blockers');
  if (d.user_requests.length) out.push('user_requests');
  if (d.commands_run.length) out.push('commands_run');
  return out;
}
