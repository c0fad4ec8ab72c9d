/**
 * The draft of a handoff from evidence alone (docs/DESIGN.md §8): what the session
 * log and git already answer, each item with its source, for a person (the panel, the
 * end-of-session command) or a caller (`--draft`, the hook, the agent tools) to take as it
 * is or edit. Deterministic: the same evidence and options give the same draft — no clock,
 * no randomness, no language model (that is "Draft with …", src/engine/draft/modelDraft.ts).
 *
 *   DraftEvidence (git + session log) ─▶ draftFromEvidence ─▶ Draft (summary, next steps,
 *   done, blockers, user requests, commands run, the loss report)
 */
import type { CommandRun, Draft, DraftItem, LeftOut, Provenance } from '../../core/handoff/draftFields';
import { clipText } from '../../core/handoff/render';
import { tokenUpperBound } from '../../core/handoff/tokens';
import type { TestRun } from '../../core/handoff/schema';
import type { PlanItem } from '../../core/session/events';
import type { DraftEvidence } from './draftSession';

/** Command entries (command + folder) listed in a draft unless `commandsCap` says otherwise: 15, failures first. */
export const DEFAULT_COMMANDS_CAP = 15;
/** Plan items drafted per list (next steps, done): 30; more are counted in `left_out.collapsed_todos`. */
export const MAX_DRAFTED_PLAN_ITEMS = 30;
/** Characters of the latest request quoted in the draft summary's "Asked" line: 200. */
export const SUMMARY_REQUEST_CHARS = 200;
/** Characters of the agent's last message quoted in the draft summary: 240. */
export const SUMMARY_MESSAGE_CHARS = 240;
/** Plan items and commit subjects named in the draft summary's "Done" line (the rest as a count): 3 each. */
export const SUMMARY_NAMED_ITEMS = 3;

/** Options of {@link draftFromEvidence}. */
export interface DraftOptions {
  /** Token bound of the user requests kept, newest first (setting `handoff.userRequestTokens`, default 1,500); the latest is kept even alone over it. */
  readonly userRequestTokens: number;
  /** Counts the tokens of a text in the handoff's encoding (src/engine/tokenizers/tokenizer.ts). */
  readonly countTokens: (text: string) => number;
  /** Command entries listed (default {@link DEFAULT_COMMANDS_CAP}); the rest are `commands_run_omitted`. */
  readonly commandsCap?: number;
  /** Recent turns the handoff keeps (`include_recent_turns`): the loss report counts the session's other turns; default: those in the evidence. */
  readonly includeRecentTurns?: number;
}

/** One line of text: whitespace runs (line breaks included) as one space, trimmed. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The plan's provenance, or a reader-only one when the evidence has none. */
function planSource(evidence: DraftEvidence): Provenance {
  const p = evidence.session?.plan?.provenance;
  return p ? { reader: p.reader, file: p.file ?? null, time: p.time ?? null } : { reader: 'session-log', file: null, time: null };
}

/** Where the session's turns came from: the one transcript read, else the session log as a whole. */
function turnsSource(evidence: DraftEvidence, time: string | undefined): Provenance {
  const t = evidence.session?.transcripts ?? [];
  return t.length === 1 ? { reader: t[0].source, file: t[0].file, time: time ?? null } : { reader: 'session-log', file: null, time: time ?? null };
}

/** A test run's source as provenance. */
function testSource(t: TestRun): Provenance {
  return { reader: t.source, file: null, time: t.started_at };
}

/** A test run in words for the summary and a blocker: "`npm test` failed (exit 1; 2 failed, 5 passed)". */
function describeTest(t: TestRun): string {
  const details = [t.exit_code === null ? 'exit code unknown' : `exit ${t.exit_code}`];
  const counts = (['failed', 'passed', 'skipped'] as const).filter((k) => t.counts?.[k] !== undefined).map((k) => `${t.counts?.[k]} ${k}`);
  if (counts.length) details.push(counts.join(', '));
  return `\`${oneLine(t.command)}\` ${t.result === 'unknown' ? 'ended with an unknown result' : t.result} (${details.join('; ')})`;
}

/** Plan items of one status as drafted items, in plan order (items without text left out). */
function planItems(items: readonly PlanItem[], status: PlanItem['status'], source: Provenance): DraftItem[] {
  return items
    .filter((i) => i.status === status && i.text.trim().length > 0)
    .map((i) => ({ text: i.text.trim(), source: { ...source }, ...(status === 'in_progress' ? { in_progress: true } : {}) }));
}

/**
 * The user requests kept: the newest whose tokens together stay within `bound`, oldest first
 * — the latest always, even when it alone is over the bound. When even the upper bound of
 * their tokens ({@link tokenUpperBound}) fits, all are kept without counting: the CLI's `hook`
 * then does not wait here for its tokenizer, still loading on its worker thread.
 */
function boundedRequests<T extends { readonly text: string }>(requests: readonly T[], bound: number, countTokens: (text: string) => number): T[] {
  if (requests.reduce((n, r) => n + tokenUpperBound(r.text), 0) <= bound) return [...requests];
  const kept: T[] = [];
  let spent = 0;
  for (let i = requests.length - 1; i >= 0; i--) {
    const tokens = countTokens(requests[i].text);
    if (kept.length > 0 && spent + tokens > bound) break;
    kept.push(requests[i]);
    spent += tokens;
  }
  return kept.reverse();
}

/**
 * The draft summary, short, from evidence alone: what was asked (the latest request,
 * shortened), what was done (completed plan items, commit subjects: counted since the base commit, only
 * named without one), where it stands (the
 * last test run, the open plan items, the agent's last message). Lines without evidence are
 * left out; no evidence at all gives an empty text.
 */
function draftSummary(evidence: DraftEvidence, done: readonly DraftItem[], open: readonly DraftItem[]): Draft['summary'] {
  const session = evidence.session;
  const lines: string[] = [];
  const sources: Provenance[] = [];
  const latest = session?.user_requests?.at(-1);
  if (latest) {
    lines.push(`Asked: "${clipText(oneLine(latest.text), SUMMARY_REQUEST_CHARS)}"`);
    sources.push({ reader: latest.source, file: latest.file ?? null, time: latest.time ?? null });
  }
  const doneParts: string[] = [];
  if (done.length) {
    const named = done.slice(0, SUMMARY_NAMED_ITEMS).map((d) => clipText(oneLine(d.text), 80));
    doneParts.push(`${done.length} plan item${done.length === 1 ? '' : 's'} completed (${named.join('; ')}${done.length > named.length ? '; …' : ''})`);
    sources.push(planSource(evidence));
  }
  const commits = evidence.git.commits;
  if (commits.length) {
    const total = commits.length + evidence.git.commitsOmitted;
    const named = commits.slice(0, SUMMARY_NAMED_ITEMS).map((c) => clipText(oneLine(c.subject), 80));
    const more = total > named.length ? '; …' : '';
    // Without a base commit git lists the repository's latest commits (its whole history is
    // the count): they may predate the session, so they are named, never counted as done.
    if (evidence.git.baseCommit) doneParts.push(`${total} commit${total === 1 ? '' : 's'} (${named.join('; ')}${more})`);
    else doneParts.push(`the latest commits, no base commit yet (${named.join('; ')}${more})`);
    sources.push({ reader: 'git', file: null, time: commits[0].date || null });
  }
  if (doneParts.length) lines.push(`Done: ${doneParts.join('; ')}.`);
  const now: string[] = [];
  const lastTest = session?.tests_run.at(-1);
  if (lastTest) {
    now.push(`last test run ${describeTest(lastTest)}`);
    sources.push(testSource(lastTest));
  }
  if (open.length) {
    const current = open.filter((o) => o.in_progress);
    const pending = open.length - current.length;
    const parts = [
      ...(current.length ? [`in progress: ${current.map((c) => clipText(oneLine(c.text), 80)).join('; ')}`] : []),
      ...(pending ? [`${pending} pending`] : []),
    ];
    now.push(`open plan items (${parts.join(', ')})`);
    if (!done.length) sources.push(planSource(evidence));
  }
  const lastAgent = [...(session?.recent_turns ?? [])].reverse().find((t) => t.role === 'assistant' && t.text.trim());
  if (lastAgent) {
    now.push(`the agent's last message: "${clipText(oneLine(lastAgent.text), SUMMARY_MESSAGE_CHARS)}"`);
    sources.push(turnsSource(evidence, lastAgent.time));
  }
  if (now.length) lines.push(`Now: ${now.join('; ')}${now.at(-1)?.endsWith('"') ? '' : '.'}`);
  return { text: lines.join('\n'), sources };
}

/** The plan's drafted items: open ones (in progress first) and completed ones, at most {@link MAX_DRAFTED_PLAN_ITEMS} each, and how many were collapsed. */
function draftPlan(evidence: DraftEvidence): { next_steps: DraftItem[]; completed: DraftItem[]; collapsed: number } {
  const plan = evidence.session?.plan;
  const source = planSource(evidence);
  const items = plan?.items ?? [];
  const open = [...planItems(items, 'in_progress', source), ...planItems(items, 'pending', source)];
  const next_steps = open.slice(0, MAX_DRAFTED_PLAN_ITEMS);
  const allDone = planItems(items, 'completed', source);
  const completed = allDone.slice(0, MAX_DRAFTED_PLAN_ITEMS);
  const cancelled = items.filter((i) => i.status === 'cancelled').length;
  const collapsed = cancelled + (open.length - next_steps.length) + (allDone.length - completed.length) + (plan?.items_omitted ?? 0);
  return { next_steps, completed, collapsed };
}

/**
 * The drafted summary alone: {@link draftFromEvidence}'s `summary`, without drafting the
 * rest. It counts no tokens, so a caller that needs only the summary (the Claude Code hook,
 * src/engine/agents/hook.ts, whose handoff drafts the rest itself) does not wait for the tokenizer
 * or draft twice.
 * @throws never
 */
export function draftSummaryFromEvidence(evidence: DraftEvidence): Draft['summary'] {
  const { next_steps, completed } = draftPlan(evidence);
  return draftSummary(evidence, completed, next_steps);
}

/**
 * Drafts a handoff from the evidence alone. Deterministic; pure (the evidence is
 * already collected: src/engine/draft/draftSession.ts `collectDraftEvidence`).
 *
 * - `next_steps`: the plan's in-progress items (marked `in_progress: true`), then its pending
 *   ones, in plan order; `completed`: its completed items. At most {@link MAX_DRAFTED_PLAN_ITEMS}
 *   each; cancelled items, those beyond and those the reader did not keep (`plan.items_omitted`)
 *   are counted in `left_out.collapsed_todos`.
 * - `user_requests`: the newest within `opts.userRequestTokens` tokens, oldest first, the
 *   latest always kept; older ones are `left_out.older_requests`.
 * - `commands_run`: the first `opts.commandsCap` entries (default {@link DEFAULT_COMMANDS_CAP})
 *   of the evidence's list (failures first, then newest); `commands_run_omitted` counts the
 *   entries beyond it, `left_out.commands_beyond_cap` the runs not listed (those entries' runs
 *   and runs the reader did not keep).
 * - `summary`: see {@link draftSummary}; `blockers`: the last test run when it failed (which
 *   run, with its exit code and counts); `decisions` and `failed_approaches`: none (the
 *   evidence does not say them).
 * - `left_out.turns`: the session's turns (seen) not in the recent turns kept.
 * @throws never; evidence without a session log gives a draft of git facts only
 */
export function draftFromEvidence(evidence: DraftEvidence, opts: DraftOptions): Draft {
  const session = evidence.session;
  const { next_steps, completed, collapsed } = draftPlan(evidence);

  const requests = (session?.user_requests ?? []).filter((r) => r.text.trim().length > 0);
  const kept = boundedRequests(requests, Math.max(0, opts.userRequestTokens), opts.countTokens);
  const seenRequests = Math.max(session?.user_requests_seen ?? requests.length, requests.length);

  const cap = Math.max(0, Math.floor(opts.commandsCap ?? DEFAULT_COMMANDS_CAP));
  const commands: CommandRun[] = [...(session?.commands_run ?? [])];
  const listed = commands.slice(0, cap).map((c) => ({ ...c }));
  const runsOf = (list: readonly CommandRun[]) => list.reduce((n, c) => n + c.count, 0);
  const runsSeen = Math.max(session?.commands_seen ?? 0, runsOf(commands));

  const turns = session?.recent_turns ?? [];
  const turnsKept = Math.min(turns.length, opts.includeRecentTurns ?? turns.length);
  const left_out: LeftOut = {
    older_requests: Math.max(0, seenRequests - kept.length),
    commands_beyond_cap: Math.max(0, runsSeen - runsOf(listed)),
    collapsed_todos: collapsed,
    turns: Math.max(0, Math.max(session?.turns_seen ?? 0, turns.length) - turnsKept),
  };

  const lastTest = session?.tests_run.at(-1);
  const blockers: DraftItem[] =
    lastTest && lastTest.result === 'failed'
      ? [
          {
            text: `The last test run failed: ${describeTest(lastTest)}${lastTest.started_at ? ` at ${lastTest.started_at}` : ''}.`,
            source: testSource(lastTest),
          },
        ]
      : [];

  return {
    summary: draftSummary(evidence, completed, next_steps),
    decisions: [],
    failed_approaches: [],
    next_steps,
    blockers,
    completed,
    user_requests: kept.map((r) => ({ text: r.text, time: r.time ?? null, source: r.source, file: r.file ?? null })),
    commands_run: listed,
    commands_run_omitted: commands.length - listed.length,
    left_out,
  };
}
