// Fills the panel's form from the session's draft; the webview applies it, so an edit typed meanwhile is never lost. A field is filled when it
// still holds the draft's value, or is empty and never edited; an edited field keeps the user's text and is reported `kept`.
import { draftItemText } from '../handoff/drafted';
import type { CommandRun, SessionDraft, DraftedField, Provenance } from '../handoff/draftFields';
import type { Draft } from './draft';

/** In the panel's order. */
export const DRAFTED_FIELDS: readonly DraftedField[] = [
  'summary',
  'completed',
  'decisions',
  'failed_approaches',
  'next_steps',
  'blockers',
  'user_requests',
  'commands_run',
];

/** The loss report's and the redraft banner's words for each field. */
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

function isEmpty(v: Draft[DraftedField]): boolean {
  return typeof v === 'string' ? v.trim() === '' : v.length === 0;
}

/** The base of a language model's draft when the session gave none. */
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

export function draftedFields(s: SessionDraft): DraftedField[] {
  return DRAFTED_FIELDS.filter((f) => !isEmpty(draftValue(s, f)));
}

export function mayFill(form: Draft, f: DraftedField): boolean {
  return form.drafted.includes(f) || (isEmpty(form[f]) && !form.edited.includes(f));
}

export interface PrefillResult {
  readonly draft: Draft;
  readonly filled: DraftedField[];
  /** Edited fields the draft would change, left as the user wrote them. */
  readonly kept: DraftedField[];
}

/** `replaceEdited` replaces edited fields too; with `only`, fields not named never change (a language model drafts four). */
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

/** The changed fields count as edited, so a redraft asks before replacing them. */
export function markEdited(form: Draft, fields: readonly string[]): Draft {
  const changed = DRAFTED_FIELDS.filter((f) => fields.includes(f));
  if (changed.length === 0) return form;
  return {
    ...form,
    drafted: form.drafted.filter((f) => !changed.includes(f)),
    edited: DRAFTED_FIELDS.filter((f) => form.edited.includes(f) || changed.includes(f)),
  };
}

export function baseName(file: string): string {
  return file.split(/[\\/]/).filter(Boolean).pop() ?? file;
}

/** UTC to the minute (`2026-12-01 14:02 UTC`); the text unchanged when it does not parse. */
export function shortTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `claude-code · 3f2a.jsonl · 2026-12-01 14:02 UTC`; surfaces that show local time pass their own `time`. */
export function describeSource(p: Pick<Provenance, 'reader'> & Partial<Pick<Provenance, 'file' | 'time'>>, time: (iso: string) => string = shortTime): string {
  return [p.reader, p.file ? baseName(p.file) : null, p.time ? time(p.time) : null].filter(Boolean).join(' · ');
}

/** One entry per item (the summary's in one); empty once the field is no longer drafted: its items are the user's. */
export function itemSources(form: Draft, session: SessionDraft | null, f: DraftedField, time: (iso: string) => string = shortTime): string[] {
  if (!session || !form.drafted.includes(f)) return [];
  switch (f) {
    case 'summary':
      return [session.summary.sources.map((p) => describeSource(p, time)).join('; ')];
    case 'user_requests':
      return session.user_requests.map((r) => describeSource({ reader: r.source, file: r.file, time: r.time }, time));
    case 'commands_run':
      return session.commands_run.map((c: CommandRun) =>
        [describeSource({ reader: c.source, time: c.last_at }, time), c.cwd ? `in ${c.cwd}` : null].filter(Boolean).join(' · '),
      );
    default:
      return session[f].map((i) => describeSource(i.source, time));
  }
}

export interface SessionAnswers {
  summary: string;
  decisions: string[];
  nextSteps: string[];
  blockers: string[];
  /** Not asked: carried as a language model drafted them (empty otherwise). */
  failedApproaches?: string[];
}

export function draftedAnswers(d: SessionDraft): SessionAnswers {
  return {
    summary: d.summary.text.trim(),
    decisions: d.decisions.map(draftItemText),
    nextSteps: d.next_steps.map(draftItemText),
    blockers: d.blockers.map(draftItemText),
    failedApproaches: d.failed_approaches.map(draftItemText),
  };
}

/** Done, User requests and Commands run are not asked, so they stay drafted when they hold something. */
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
