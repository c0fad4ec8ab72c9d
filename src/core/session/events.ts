/**
 * The session log as plain data (docs/DESIGN.md §6): every reader — the extension's own recorder
 * and the agent transcripts (Claude Code, Codex CLI, Aider, Cline/Roo/Kilo Code, SpecStory, Copilot
 * Chat, Gemini CLI, OpenCode) — produces the same normalized events, so the rest of the engine never sees a
 * file format.
 */

import { z } from 'zod';
import { shellWrites as shellWordsWrites } from './shellWords';
import { CommandTally, type CommandGroup } from './commands';
import { userRequestText } from './requests';
import { carryDoneSteps } from './planMerge';
import { holdsReceivingPrompt, isChatNotice, withoutReceivingPrompt } from '../receive/ownPrompt';

/** Where a fact came from; shown beside every test result. */
export type SessionSource = 'recorder' | 'claude-code' | 'codex' | 'aider' | 'cline' | 'roo' | 'kilo' | 'specstory' | 'copilot' | 'gemini' | 'opencode' | 'copilot-cli' | 'qwen' | 'droid';

/** All readers, in the order their evidence is listed. */
export const SESSION_SOURCES: readonly SessionSource[] = ['recorder', 'claude-code', 'codex', 'aider', 'cline', 'roo', 'kilo', 'specstory', 'copilot', 'gemini', 'opencode', 'copilot-cli', 'qwen', 'droid'];

/** Something a person or an agent said. Tool output and system reminders are never turns. */
export interface SessionTurn {
  readonly kind: 'turn';
  readonly role: 'user' | 'assistant';
  readonly text: string;
  /** ISO 8601, when the format records it. */
  readonly time?: string;
  /**
   * The format itself marks this user-role text as not typed by the user (Claude Code's
   * `isCompactSummary`): a turn, never a user request (./requests.ts).
   */
  readonly injected?: boolean;
}

/** One of the user's own messages: its text verbatim and bounded (./requests.ts), and its time when the format records one. */
export interface SessionUserRequest {
  readonly text: string;
  readonly time?: string;
}

/**
 * A shell command the session ran or proposed.
 * - `ran`: false when the user rejected or interrupted it (then it is no test result).
 * - `exit_code`: null when the format cannot tell (Aider, SpecStory, Cline) — never guessed.
 * - `failed`: the format says the command failed without giving its exit code.
 * - `output_tail`: the end of its output (at most {@link OUTPUT_TAIL_CHARS}), where test
 *   runners print their summary line.
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
  /**
   * The result the agent's own words state for this run, where the log has no exit code and no
   * output (./claimedResult.ts): a test run's result on the basis of the agent's claim.
   */
  readonly claimed?: 'passed' | 'failed';
}

/** A file an agent tool wrote or edited (path relative to the workspace when inside it). */
export interface SessionFileEdit {
  readonly kind: 'file_edit';
  readonly path: string;
  readonly tool: string;
  readonly time?: string;
}

/**
 * The agent compacted its conversation (Claude Code's `compact_boundary` and `isCompactSummary`
 * records, a Codex `compacted` record, Gemini CLI's `<state_snapshot>` turn, Copilot Chat's
 * summarized history): the log before it stays on disk and is read as usual; this carries the
 * agent's own summary of it — the agent's words, never a user request nor a turn.
 * - `text`: the summary as the agent wrote it; empty when the format keeps none (a Codex
 *   compaction done by the server, whose summary is encrypted).
 * - `trigger`: `manual` (the user's `/compact`, `/compress`) or `auto`, where the format says.
 */
export interface SessionCompaction {
  readonly kind: 'compaction';
  readonly text: string;
  readonly trigger?: 'manual' | 'auto';
  readonly time?: string;
}

/** One normalized session-log event. */
export type SessionEvent = SessionTurn | SessionCommand | SessionFileEdit | SessionPlan | SessionCompaction;

/** Characters of a command's output kept for parsing its summary: the last 4,000. */
export const OUTPUT_TAIL_CHARS = 4000;

/** The last {@link OUTPUT_TAIL_CHARS} characters of an output. */
export function outputTail(output: string | undefined | null): string | undefined {
  if (!output) {
    return undefined;
  }
  return output.length > OUTPUT_TAIL_CHARS ? output.slice(output.length - OUTPUT_TAIL_CHARS) : output;
}

/**
 * What a reader met besides events: `lines` read (items, for a JSON document), `malformed`
 * (not parseable: invalid JSON, a truncated last line; bad records included), `skipped`
 * (parseable but not understood, or too long to keep: over the line cap), `invalid_utf8`
 * (lines with bytes that are not UTF-8, decoded with U+FFFD), and `bad_records`.
 */
export interface ReadStats {
  lines: number;
  malformed: number;
  skipped: number;
  invalid_utf8: number;
  /**
   * The complete lines (or items of a JSON document) that are not valid records — not JSON,
   * not an object, or a record of the wrong shape — skipped and counted in `malformed` too
   * ({@link countBadRecord}); `first` is the first one's position (1-based, in what was read).
   * Absent when there is none. An unfinished last line (still being written) is not one.
   */
  bad_records?: { count: number; first: number; unit: 'line' | 'item' };
}

/** Empty statistics. */
export function emptyStats(): ReadStats {
  return { lines: 0, malformed: 0, skipped: 0, invalid_utf8: 0 };
}

/**
 * Counts one line or item that is not a valid record (in `malformed` and `bad_records`).
 * @param at its position, 1-based, in what was read (a line of the read, an item of the document)
 */
export function countBadRecord(stats: ReadStats, at: number, unit: 'line' | 'item'): void {
  stats.malformed++;
  const was = stats.bad_records;
  stats.bad_records = was ? { ...was, count: was.count + 1 } : { count: 1, first: at, unit };
}

/**
 * The result of reading one transcript: its events in file order, statistics, and where
 * to resume (`end_offset` in bytes; a truncated last line is left for the next read).
 */
export interface TranscriptRead {
  readonly source: SessionSource;
  readonly file: string;
  readonly events: SessionEvent[];
  readonly stats: ReadStats;
  readonly end_offset: number;
  /** For formats read whole (JSON documents): the newest item's time (ms since epoch), to resume after. */
  readonly last_time?: number;
  /** Why the file could not be read, when it could not. */
  readonly error?: string;
  /** How many events of each kind the reader saw (kept or not: the accumulator keeps a bounded number). */
  readonly seen?: { readonly turns: number; readonly commands: number; readonly edits: number; readonly requests?: number; readonly other_commands?: number; readonly compactions?: number };
  /** The user's own requests, the newest {@link MAX_KEPT_USER_REQUESTS_PER_TRANSCRIPT}, oldest first. */
  readonly user_requests?: readonly SessionUserRequest[];
  /** The non-test, non-read-only commands that ran, grouped by text and folder (./commands.ts). */
  readonly command_groups?: readonly CommandGroup[];
}

/** Tags the model uses for hidden context that is never a turn of its own. */
const NOISE_BLOCKS = /<(system-reminder|environment_context|user_instructions|environment_details|command-message|command-name|command-args|local-command-stdout|local-command-stderr|local-command-caveat)>[\s\S]*?<\/\1>/g;

/**
 * Cleans a turn's text: removes system reminders and similar injected blocks and trims.
 * @returns the text, or undefined when nothing a person said or read is left
 */
export function cleanTurnText(text: string): string | undefined {
  const cleaned = text.replace(NOISE_BLOCKS, '').replace(/\n{3,}/g, '\n\n').trim();
  if (!cleaned || /^\[Request interrupted by user[^\]]*\]$/.test(cleaned)) {
    return undefined;
  }
  return cleaned;
}

/**
 * A turn as its author wrote it: a user turn without our own receiving prompt (the user's words
 * above it, if any), nothing for a chat's own notice in the assistant's place
 * (../receive/ownPrompt.ts) — neither is the user's request nor the agent's words.
 */
function authored(t: SessionTurn): SessionTurn | undefined {
  if (t.role === 'assistant') return isChatNotice(t.text) ? undefined : t;
  if (!holdsReceivingPrompt(t.text)) return t;
  const text = withoutReceivingPrompt(t.text);
  return text ? { ...t, text } : undefined;
}

/** Turns kept per transcript (the newest): 100, well above any recent-turn setting. */
export const MAX_KEPT_TURNS = 100;
/** Test runs kept per transcript (the newest): 1,000. */
export const MAX_KEPT_TEST_COMMANDS = 1000;
/** Other commands kept per transcript (the newest): 50 (counted, not listed, beyond that). */
export const MAX_KEPT_OTHER_COMMANDS = 50;
/** Distinct edited paths kept per transcript: 5,000. */
export const MAX_KEPT_EDITS = 5000;
/** User requests kept per transcript (the newest): 200, as many as the evidence keeps across transcripts. */
export const MAX_KEPT_USER_REQUESTS_PER_TRANSCRIPT = 200;

/**
 * How many events of each kind a {@link SessionAccumulator} keeps (the newest): turns
 * ({@link MAX_KEPT_TURNS}), test-like commands ({@link MAX_KEPT_TEST_COMMANDS}) and other
 * commands ({@link MAX_KEPT_OTHER_COMMANDS}) by default. {@link KEEP_ALL} keeps every one:
 * the full history of a handoff (src/engine/history.ts) reads a transcript whole.
 */
export interface AccumulatorLimits {
  readonly turns: number;
  readonly tests: number;
  readonly others: number;
}

/** The bounds of a handoff's evidence (docs/DESIGN.md §6): 100 turns, 1,000 test runs, 50 other commands. */
export const BOUNDED: AccumulatorLimits = Object.freeze({ turns: MAX_KEPT_TURNS, tests: MAX_KEPT_TEST_COMMANDS, others: MAX_KEPT_OTHER_COMMANDS });

/** No bound: every turn and command of what is read (the full history; memory grows with the transcript). */
export const KEEP_ALL: AccumulatorLimits = Object.freeze({ turns: Infinity, tests: Infinity, others: Infinity });

/**
 * Collects a reader's events in bounded memory, whatever the transcript's size: the
 * newest turns, every test-like command (up to a cap), the newest other commands, and
 * each edited path once (its latest edit). `counts` say how many of each were seen.
 */
export class SessionAccumulator {
  private readonly turns = new NewestKept<SessionTurn>();
  private readonly tests = new NewestKept<SessionCommand>();
  private readonly others = new NewestKept<SessionCommand>();
  /** Each edited path's latest edit and its place in the transcript, least recently edited first. */
  private readonly edits = new Map<string, { readonly e: SessionFileEdit; readonly seq: number }>();
  private readonly userRequests: SessionUserRequest[] = [];
  /** Non-test commands grouped by text and folder. */
  private readonly tally = new CommandTally();
  /** The next event's place in the transcript (the kept events are returned in this order). */
  private seq = 0;
  private planSeq = 0;
  /** How many events of each kind were seen in all. */
  readonly counts = { turns: 0, commands: 0, edits: 0, plans: 0, compactions: 0 };
  /** User requests seen, kept or not. */
  requestsSeen = 0;
  /** The latest plan snapshot seen. */
  private plan: SessionPlan | undefined;
  /** The newest compactions seen (as many as turns are kept: every one is counted; the log before each is read as usual). */
  private readonly compactions = new NewestKept<SessionCompaction>();

  /**
   * @param isTestLike decides which commands are kept as test candidates (see core/testDetection)
   */
  constructor(
    private readonly isTestLike: (c: SessionCommand) => boolean,
    private readonly limits: AccumulatorLimits = BOUNDED,
  ) {}

  /** Adds one event. */
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
      // Parsed once (the parser costs milliseconds a line): the edits, and whether the command only reads.
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

  /** The user's own requests, the newest kept, oldest first. */
  requests(): SessionUserRequest[] {
    return [...this.userRequests];
  }

  /** Runs of non-test commands of a listed kind seen (read-only and rejected ones not counted). */
  get otherCommandsSeen(): number {
    return this.tally.seen;
  }

  /** The non-test commands that ran, grouped: see ./commands.ts. */
  commandGroups(): CommandGroup[] {
    return this.tally.list();
  }

  /** The kept events, in the order they were added. */
  events(): SessionEvent[] {
    const all: { readonly e: SessionEvent; readonly seq: number }[] = [...this.turns.entries(), ...this.tests.entries(), ...this.others.entries(), ...this.compactions.entries(), ...this.edits.values()];
    if (this.plan) all.push({ e: this.plan, seq: this.planSeq });
    return all.sort((a, b) => a.seq - b.seq).map((x) => x.e);
  }
}

/**
 * The newest events of one kind and their places in the transcript, oldest first. The place
 * is kept beside the event (not in a WeakMap keyed by every event added: that table grew by
 * one entry per event until the next full GC).
 */
class NewestKept<T extends SessionEvent> {
  private readonly items: T[] = [];
  private readonly seqs: number[] = [];

  /** Adds `e` at place `seq`, dropping the oldest beyond `cap` events. */
  push(e: T, seq: number, cap: number): void {
    this.items.push(e);
    this.seqs.push(seq);
    if (this.items.length > cap) {
      this.items.shift();
      this.seqs.shift();
    }
  }

  /** The kept events with their places, oldest first. */
  entries(): { readonly e: T; readonly seq: number }[] {
    return this.items.map((e, i) => ({ e, seq: this.seqs[i] }));
  }
}

const TurnMemorySchema = z.object({ role: z.enum(['user', 'assistant']), text: z.string(), time: z.string().optional() });

/** A plan snapshot as remembered between handoffs: bounded by the readers ({@link MAX_PLAN_ITEMS}, {@link MAX_PLAN_ITEM_CHARS}). */
const PlanMemorySchema = z.object({
  tool: z.string(),
  items: z.array(z.object({ text: z.string(), status: z.enum(['pending', 'in_progress', 'completed', 'cancelled']), id: z.string().optional() })),
  explanation: z.string().optional(),
  omitted: z.number().int().nonnegative().optional(),
  time: z.string().optional(),
});

/** What was read of one file at the previous handoff. */
export const FileStateSchema = z.object({
  offset: z.number().int().nonnegative(),
  last_time: z.number().optional(),
  size: z.number().int().nonnegative(),
  /** sha1 of the file's first `head_bytes` bytes (at most 4 KiB of what was already read). */
  head: z.string(),
  head_bytes: z.number().int().nonnegative().default(0),
  turns: z.array(TurnMemorySchema).default([]),
  /**
   * The newest user requests of the previous read (at most REMEMBERED_USER_REQUESTS in
   * collectSessionLog), so a later handoff still has the latest request when no new one came.
   * Optional (absent reads as none), so a state saved before it parses and literal states stay valid.
   */
  user_requests: z.array(z.object({ text: z.string(), time: z.string().optional() })).optional(),
  /**
   * The latest plan snapshot read of the file, so a read of only new lines still
   * knows the plan; absent when the file had none (state files written before it parse as such).
   */
  plan: PlanMemorySchema.optional(),
});

/** The session-log state kept between handoffs (per workspace). */
export const SessionLogStateSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), FileStateSchema),
});
/** Session-log state. */
export type SessionLogState = z.infer<typeof SessionLogStateSchema>;

/** An empty state: everything will be read from the start. */
export function emptySessionLogState(): SessionLogState {
  return { version: 1, files: {} };
}

/** Files a shell command line writes (parsed, heredoc bodies and quotes left alone): see {@link shellWordsWrites}. */
export const shellWrites = shellWordsWrites;

/**
 * How an agent's todo / plan tool marks an item: `pending` (Claude Code, Gemini,
 * Codex `pending`, Roo/Kilo `[ ]`, Copilot `not-started`), `in_progress` (`in_progress`,
 * `[-]`, Copilot `in-progress`), `completed` (`completed`, `[x]`), `cancelled` (Gemini CLI).
 */
export type PlanItemStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';

/** One item of an agent's todo list or plan, its text as the agent wrote it. */
export interface PlanItem {
  readonly text: string;
  readonly status: PlanItemStatus;
  /** The tool's own id of the item, where later calls name items by id (Claude Code `TaskUpdate`'s `taskId`). */
  readonly id?: string;
}

/**
 * A snapshot of an agent's todo list or plan, as one call of its plan tool left it:
 * Claude Code `TodoWrite` (or its task tools `TaskCreate` / `TaskUpdate`, one item a call), Codex `update_plan`, Roo / Kilo Code `update_todo_list`, Cline's
 * `task_progress` checklist, Copilot's todo tool, Gemini CLI `write_todos`, OpenCode
 * `todowrite`. Each call replaces the whole list, so the latest snapshot is the plan.
 * `tool` is the tool's own name; `explanation` is Codex's note beside the plan.
 */
export interface SessionPlan {
  readonly kind: 'plan';
  readonly tool: string;
  readonly items: readonly PlanItem[];
  readonly explanation?: string;
  /** Items of the call beyond {@link MAX_PLAN_ITEMS}, not kept (counted, never dropped silently). */
  readonly omitted?: number;
  readonly time?: string;
}

export { MAX_PLAN_ITEMS } from './planMerge';
/** Characters kept of one plan item's text (and of Codex's explanation): 2,000. */
export const MAX_PLAN_ITEM_CHARS = 2000;
