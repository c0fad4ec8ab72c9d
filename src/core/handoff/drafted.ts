/**
 * What a handoff takes from its draft: the request's fields where given, the draft's where not, never the other way round.
 * `user_requests` and `commands_run` come from the draft whenever the request leaves them out (absent, not empty); the prose
 * fields only with `draft: true` and when empty. `drafted` names every field whose content no person reviewed.
 */
import { DraftedFieldSchema, type CommandRun, type SessionDraft, type DraftItem, type DraftedField, type LeftOut, type UserRequest } from './draftFields';
import type { HandoverRequest } from './request';

export interface DraftedParts {
  readonly summary: string;
  readonly decisions: string[];
  readonly failed_approaches: string[];
  readonly next_steps: string[];
  readonly blockers: string[];
  readonly completed: string[];
  readonly user_requests: UserRequest[];
  readonly user_requests_omitted: number;
  readonly commands_run: CommandRun[];
  readonly commands_run_omitted: number;
  readonly left_out: LeftOut;
  readonly drafted: DraftedField[];
}

/** Marks the plan item the agent was on, in a next step's text: `(in progress) ` before it. */
export const IN_PROGRESS_MARK = '(in progress) ';

export function draftItemText(item: DraftItem): string {
  return item.in_progress ? `${IN_PROGRESS_MARK}${item.text}` : item.text;
}

export function noLeftOut(): LeftOut {
  return { older_requests: 0, commands_beyond_cap: 0, collapsed_todos: 0, turns: 0 };
}

export function mergeDraft(req: HandoverRequest, draft: SessionDraft | undefined): DraftedParts {
  const drafted = new Set<DraftedField>(req.drafted);
  const fill = draft && req.draft;
  const list = (field: 'decisions' | 'failed_approaches' | 'next_steps' | 'blockers' | 'completed'): string[] => {
    const given = req[field];
    if (given.length || !fill || !draft[field].length) return [...given];
    drafted.add(field);
    return draft[field].map(draftItemText);
  };
  let summary = req.summary.trim();
  if (!summary && fill && draft.summary.text.trim()) {
    summary = draft.summary.text.trim();
    drafted.add('summary');
  }
  const parts = {
    decisions: list('decisions'),
    failed_approaches: list('failed_approaches'),
    next_steps: list('next_steps'),
    blockers: list('blockers'),
    completed: list('completed'),
  };
  let user_requests: UserRequest[];
  let user_requests_omitted = 0;
  if (req.user_requests !== undefined || !draft) {
    user_requests = (req.user_requests ?? []).map((r) => ({ ...r }));
    // The caller's list still as drafted (the panel's, not edited): the requests older than it are the draft's to count.
    if (draft && req.drafted.includes('user_requests')) user_requests_omitted = draft.left_out.older_requests;
  } else {
    user_requests = draft.user_requests.map((r) => ({ text: r.text, time: r.time, source: r.source }));
    user_requests_omitted = draft.left_out.older_requests;
    if (user_requests.length) drafted.add('user_requests');
  }
  let commands_run: CommandRun[];
  let commands_run_omitted = 0;
  if (req.commands_run !== undefined || !draft) {
    commands_run = (req.commands_run ?? []).map((c) => ({ ...c }));
    if (draft && req.drafted.includes('commands_run')) commands_run_omitted = draft.commands_run_omitted;
  } else {
    commands_run = draft.commands_run.map((c) => ({ ...c }));
    commands_run_omitted = draft.commands_run_omitted;
    if (commands_run.length) drafted.add('commands_run');
  }
  const filled: Record<DraftedField, boolean> = {
    summary: summary.length > 0,
    ...Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, v.length > 0])),
    user_requests: user_requests.length > 0,
    commands_run: commands_run.length > 0,
  } as Record<DraftedField, boolean>;
  return {
    summary,
    ...parts,
    user_requests,
    user_requests_omitted,
    commands_run,
    commands_run_omitted,
    left_out: draft ? { ...draft.left_out } : noLeftOut(),
    // In the schema's order, and only fields that say something.
    drafted: DraftedFieldSchema.options.filter((f) => drafted.has(f) && filled[f]),
  };
}
