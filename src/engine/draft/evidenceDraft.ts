/** A handoff's draft from evidence alone, each item with its source. Deterministic: no clock, no randomness, no model. */
import type { CommandRun, SessionDraft, DraftItem, LeftOut, Provenance } from '../../core/handoff/draftFields';
import { clipText } from '../../core/handoff/text';
import { tokenUpperBound } from '../../core/handoff/tokens';
import type { GitEvidence } from '../../core/handoff/gitEvidence';
import type { HandoffFrontmatter, TestRun } from '../../core/handoff/schema';
import type { PlanItem } from '../../core/session/events';
import type { SessionLogEvidence } from '../../evidence/session/collectSessionLog';

/** The evidence of a draft, collected once and reused: what a draft is made from. */
export interface DraftEvidence {
  readonly git: GitEvidence;
  readonly session: SessionLogEvidence | undefined;
  /** The newest complete handoff, whose chain the draft may continue. */
  readonly latest: (HandoffFrontmatter & { readonly file_ref: string }) | undefined;
}

export const DEFAULT_COMMANDS_CAP = 15;
/** Per list; more are counted in `left_out.collapsed_todos`. */
export const MAX_DRAFTED_PLAN_ITEMS = 30;
export const SUMMARY_REQUEST_CHARS = 200;
export const SUMMARY_MESSAGE_CHARS = 240;
export const SUMMARY_NAMED_ITEMS = 3;

export interface DraftOptions {
  /** Tokens; the latest request is kept even alone over it. */
  readonly userRequestTokens: number;
  readonly countTokens: (text: string) => number;
  /** The rest are `commands_run_omitted`. */
  readonly commandsCap?: number;
  /** The loss report counts the session's other turns; default: those in the evidence. */
  readonly includeRecentTurns?: number;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function planSource(evidence: DraftEvidence): Provenance {
  const p = evidence.session?.plan?.provenance;
  return p ? { reader: p.reader, file: p.file ?? null, time: p.time ?? null } : { reader: 'session-log', file: null, time: null };
}

function turnsSource(evidence: DraftEvidence, time: string | undefined): Provenance {
  const t = evidence.session?.transcripts ?? [];
  return t.length === 1 ? { reader: t[0].source, file: t[0].file, time: time ?? null } : { reader: 'session-log', file: null, time: time ?? null };
}

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

function planItems(items: readonly PlanItem[], status: PlanItem['status'], source: Provenance): DraftItem[] {
  return items
    .filter((i) => i.status === status && i.text.trim().length > 0)
    .map((i) => ({ text: i.text.trim(), source: { ...source }, ...(status === 'in_progress' ? { in_progress: true } : {}) }));
}

/**
 * The newest requests within `bound` tokens, oldest first, the latest always. When even their upper bound
 * fits, nothing is counted, so the CLI's `hook` need not wait for its tokenizer.
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

/** Asked, Done, Now: lines without evidence are left out; no evidence gives an empty text. */
function draftSummary(evidence: DraftEvidence, done: readonly DraftItem[], open: readonly DraftItem[]): SessionDraft['summary'] {
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
    // Without a base commit these are the repository's latest commits, maybe older than the session: named, never counted.
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

/** Only the summary: it counts no tokens, so the hook need not wait for the tokenizer. Never throws. */
export function draftSummaryFromEvidence(evidence: DraftEvidence): SessionDraft['summary'] {
  const { next_steps, completed } = draftPlan(evidence);
  return draftSummary(evidence, completed, next_steps);
}

/**
 * Drafts a handoff from evidence alone; pure. Never throws.
 * - `next_steps`: in-progress plan items, then pending; `completed`: done ones; at most {@link MAX_DRAFTED_PLAN_ITEMS} each.
 * - `commands_run`: the first `commandsCap` (failures first); `left_out.commands_beyond_cap` counts the runs not listed.
 * - `blockers`: the last test run when it failed; `decisions`, `failed_approaches`: none (evidence cannot say them).
 */
export function draftFromEvidence(evidence: DraftEvidence, opts: DraftOptions): SessionDraft {
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
