/** The session log as plain data: every reader produces these normalized events, so the engine never sees a file format. */
import * as z from 'zod';
import { shellWrites as shellWordsWrites } from './shellWords';
import { CommandTally, type CommandGroup } from './commands';
import { userRequestText } from './requests';
import { carryDoneSteps } from './planMerge';
import { holdsReceivingPrompt, isChatNotice, withoutReceivingPrompt } from '../receive/ownPrompt';

export type SessionSource =
  | 'recorder'
  | 'claude-code'
  | 'codex'
  | 'aider'
  | 'cline'
  | 'roo'
  | 'kilo'
  | 'specstory'
  | 'copilot'
  | 'gemini'
  | 'opencode'
  | 'copilot-cli'
  | 'qwen'
  | 'droid'
  | 'continue'
  | 'cursor'
  | 'amp'
  | 'goose'
  | 'zed'
  | 'kiro'
  | 'windsurf'
  | 'antigravity';

export const SESSION_SOURCES: readonly SessionSource[] = [
  'recorder',
  'claude-code',
  'codex',
  'aider',
  'cline',
  'roo',
  'kilo',
  'specstory',
  'copilot',
  'gemini',
  'opencode',
  'copilot-cli',
  'qwen',
  'droid',
  'continue',
  'cursor',
  'amp',
  'goose',
  'zed',
  'kiro',
  'windsurf',
  'antigravity',
];

/** Tool output and system reminders are never turns. */
export interface SessionTurn {
  readonly kind: 'turn';
  readonly role: 'user' | 'assistant';
  readonly text: string;
  readonly time?: string;
  /** The format marks this user-role text as not typed (Claude Code's `isCompactSummary`): never a user request. */
  readonly injected?: boolean;
}

export interface SessionUserRequest {
  readonly text: string;
  readonly time?: string;
}

/**
 * `ran` is false when rejected or interrupted; `exit_code` null when the format cannot tell, never guessed; `failed`:
 * the format says so without a code; `output_tail`: the end of the output, where runners print their summary.
 */
export interface SessionCommand {
  readonly kind: 'command';
  readonly command: string;
  readonly cwd?: string | null;
  readonly exit_code: number | null;
  readonly failed?: boolean;
  readonly ran: boolean;
  readonly output_tail?: string;
  readonly time?: string;
  readonly duration_ms?: number | null;
  /** The result the agent's words state, where the log has neither exit code nor output (./claimedResult.ts). */
  readonly claimed?: 'passed' | 'failed';
}

/** The path is relative to the workspace when inside it. */
export interface SessionFileEdit {
  readonly kind: 'file_edit';
  readonly path: string;
  readonly tool: string;
  readonly time?: string;
}

/** The agent's own summary of its compacted conversation (the log before it is read as usual); empty when encrypted (Codex). */
export interface SessionCompaction {
  readonly kind: 'compaction';
  readonly text: string;
  readonly trigger?: 'manual' | 'auto';
  readonly time?: string;
}

export type SessionEvent = SessionTurn | SessionCommand | SessionFileEdit | SessionPlan | SessionCompaction;

export const OUTPUT_TAIL_CHARS = 4000;

export function outputTail(output: string | undefined | null): string | undefined {
  if (!output) {
    return undefined;
  }
  return output.length > OUTPUT_TAIL_CHARS ? output.slice(output.length - OUTPUT_TAIL_CHARS) : output;
}

/** `malformed`: not parseable, bad records included; `skipped`: parseable but not understood, or over the line cap. */
export interface ReadStats {
  lines: number;
  malformed: number;
  skipped: number;
  invalid_utf8: number;
  /** `first` is 1-based in what was read. An unfinished last line is not a bad record. */
  bad_records?: { count: number; first: number; unit: 'line' | 'item' };
}

export function emptyStats(): ReadStats {
  return { lines: 0, malformed: 0, skipped: 0, invalid_utf8: 0 };
}

export function countBadRecord(stats: ReadStats, at: number, unit: 'line' | 'item'): void {
  stats.malformed++;
  const was = stats.bad_records;
  stats.bad_records = was ? { ...was, count: was.count + 1 } : { count: 1, first: at, unit };
}

/** `end_offset` in bytes: a truncated last line is left for the next read. */
export interface TranscriptRead {
  readonly source: SessionSource;
  readonly file: string;
  readonly events: SessionEvent[];
  readonly stats: ReadStats;
  readonly end_offset: number;
  /** For documents read whole: the newest item's time (ms since epoch), to resume after. */
  readonly last_time?: number;
  readonly error?: string;
  readonly seen?: {
    readonly turns: number;
    readonly commands: number;
    readonly edits: number;
    readonly requests?: number;
    readonly other_commands?: number;
    readonly compactions?: number;
  };
  readonly user_requests?: readonly SessionUserRequest[];
  readonly command_groups?: readonly CommandGroup[];
}

const NOISE_BLOCKS =
  /<(system-reminder|environment_context|user_instructions|environment_details|command-message|command-name|command-args|local-command-stdout|local-command-stderr|local-command-caveat)>[\s\S]*?<\/\1>/g;

/** Undefined when nothing a person said or read is left. */
export function cleanTurnText(text: string): string | undefined {
  const cleaned = text
    .replace(NOISE_BLOCKS, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (!cleaned || /^\[Request interrupted by user[^\]]*\]$/.test(cleaned)) {
    return undefined;
  }
  return cleaned;
}

/** Without our own receiving prompt or a chat's own notice: neither is the user's request nor the agent's words. */
function authored(t: SessionTurn): SessionTurn | undefined {
  if (t.role === 'assistant') return isChatNotice(t.text) ? undefined : t;
  if (!holdsReceivingPrompt(t.text)) return t;
  const text = withoutReceivingPrompt(t.text);
  return text ? { ...t, text } : undefined;
}

export const MAX_KEPT_TURNS = 100;
export const MAX_KEPT_TEST_COMMANDS = 1000;
export const MAX_KEPT_OTHER_COMMANDS = 50;
export const MAX_KEPT_EDITS = 5000;
export const MAX_KEPT_USER_REQUESTS_PER_TRANSCRIPT = 200;

export interface AccumulatorLimits {
  readonly turns: number;
  readonly tests: number;
  readonly others: number;
}

export const BOUNDED: AccumulatorLimits = Object.freeze({ turns: MAX_KEPT_TURNS, tests: MAX_KEPT_TEST_COMMANDS, others: MAX_KEPT_OTHER_COMMANDS });

/** For the full history of a handoff; memory grows with the transcript. */
export const KEEP_ALL: AccumulatorLimits = Object.freeze({ turns: Infinity, tests: Infinity, others: Infinity });

/** Bounded memory whatever the transcript's size; `counts` say how many of each kind were seen. */
export class SessionAccumulator {
  private readonly turns = new NewestKept<SessionTurn>();
  private readonly tests = new NewestKept<SessionCommand>();
  private readonly others = new NewestKept<SessionCommand>();
  private readonly edits = new Map<string, { readonly e: SessionFileEdit; readonly seq: number }>();
  private readonly userRequests: SessionUserRequest[] = [];
  private readonly tally = new CommandTally();
  private seq = 0;
  private planSeq = 0;
  readonly counts = { turns: 0, commands: 0, edits: 0, plans: 0, compactions: 0 };
  requestsSeen = 0;
  private plan: SessionPlan | undefined;
  private readonly compactions = new NewestKept<SessionCompaction>();

  constructor(
    private readonly isTestLike: (c: SessionCommand) => boolean,
    private readonly limits: AccumulatorLimits = BOUNDED,
  ) {}

  add(event: SessionEvent): void {
    const e = event.kind === 'turn' ? authored(event) : event;
    if (!e) return;
    const seq = this.seq++;
    if (e.kind === 'turn') {
      this.counts.turns++;
      this.turns.push(e, seq, this.limits.turns);
      const request = userRequestText(e);
      if (request) {
        this.requestsSeen++;
        this.userRequests.push({ text: request, ...(e.time ? { time: e.time } : {}) });
        if (this.userRequests.length > MAX_KEPT_USER_REQUESTS_PER_TRANSCRIPT) this.userRequests.shift();
      }
    } else if (e.kind === 'command') {
      // Parsed once: the edits, and whether the command only reads.
      const writes = e.ran ? shellWrites(e.command) : [];
      for (const p of writes) {
        this.add({ kind: 'file_edit', path: p, tool: 'shell', ...(e.time ? { time: e.time } : {}) });
      }
      this.counts.commands++;
      if (this.isTestLike(e)) {
        this.tests.push(e, seq, this.limits.tests);
      } else {
        this.others.push(e, seq, this.limits.others);
        this.tally.add(e, writes);
      }
    } else if (e.kind === 'compaction') {
      this.counts.compactions++;
      this.compactions.push(e, seq, this.limits.turns);
    } else if (e.kind === 'plan') {
      // Each plan call replaces the whole list, but a step done stays done unless reopened (./planMerge.ts).
      this.counts.plans++;
      this.plan = carryDoneSteps(this.plan, e);
      this.planSeq = seq;
    } else {
      this.counts.edits++;
      this.edits.delete(e.path);
      this.edits.set(e.path, { e, seq });
      if (this.edits.size > MAX_KEPT_EDITS) {
        const first = this.edits.keys().next().value as string;
        this.edits.delete(first);
      }
    }
  }

  requests(): SessionUserRequest[] {
    return [...this.userRequests];
  }

  get otherCommandsSeen(): number {
    return this.tally.seen;
  }

  commandGroups(): CommandGroup[] {
    return this.tally.list();
  }

  events(): SessionEvent[] {
    const all: { readonly e: SessionEvent; readonly seq: number }[] = [
      ...this.turns.entries(),
      ...this.tests.entries(),
      ...this.others.entries(),
      ...this.compactions.entries(),
      ...this.edits.values(),
    ];
    if (this.plan) all.push({ e: this.plan, seq: this.planSeq });
    return all.sort((a, b) => a.seq - b.seq).map((x) => x.e);
  }
}

/** Places are kept beside the events: a WeakMap keyed by every event added would grow until the next full GC. */
class NewestKept<T extends SessionEvent> {
  private readonly items: T[] = [];
  private readonly seqs: number[] = [];

  push(e: T, seq: number, cap: number): void {
    this.items.push(e);
    this.seqs.push(seq);
    if (this.items.length > cap) {
      this.items.shift();
      this.seqs.shift();
    }
  }

  entries(): { readonly e: T; readonly seq: number }[] {
    return this.items.map((e, i) => ({ e, seq: this.seqs[i] }));
  }
}

const TurnMemorySchema = z.object({ role: z.enum(['user', 'assistant']), text: z.string(), time: z.string().optional() });

const PlanMemorySchema = z.object({
  tool: z.string(),
  items: z.array(z.object({ text: z.string(), status: z.enum(['pending', 'in_progress', 'completed', 'cancelled']), id: z.string().optional() })),
  explanation: z.string().optional(),
  omitted: z.number().int().nonnegative().optional(),
  time: z.string().optional(),
});

export const FileStateSchema = z.object({
  offset: z.number().int().nonnegative(),
  last_time: z.number().optional(),
  size: z.number().int().nonnegative(),
  /** sha1 of the file's first `head_bytes` bytes (at most 4 KiB of what was already read). */
  head: z.string(),
  head_bytes: z.number().int().nonnegative().default(0),
  turns: z.array(TurnMemorySchema).default([]),
  /** So a later handoff still has the latest request when no new one came. Optional, so older state files still parse. */
  user_requests: z.array(z.object({ text: z.string(), time: z.string().optional() })).optional(),
  /** So a read of only new lines still knows the plan. */
  plan: PlanMemorySchema.optional(),
});

export const SessionLogStateSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), FileStateSchema),
});
export type SessionLogState = z.infer<typeof SessionLogStateSchema>;

export function emptySessionLogState(): SessionLogState {
  return { version: 1, files: {} };
}

export const shellWrites = shellWordsWrites;

/** Roo/Kilo `[ ]`, `[-]`, `[x]` and Copilot `not-started`, `in-progress` map to these; `cancelled` is Gemini CLI's. */
export type PlanItemStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';

export interface PlanItem {
  readonly text: string;
  readonly status: PlanItemStatus;
  /** Where later calls name items by id (Claude Code `TaskUpdate`'s `taskId`). */
  readonly id?: string;
}

/** One call of an agent's plan tool; each call replaces the whole list, so the latest is the plan. `explanation`: Codex's note. */
export interface SessionPlan {
  readonly kind: 'plan';
  readonly tool: string;
  readonly items: readonly PlanItem[];
  readonly explanation?: string;
  readonly omitted?: number;
  readonly time?: string;
}

export { MAX_PLAN_ITEMS } from './planMerge';
export const MAX_PLAN_ITEM_CHARS = 2000;
