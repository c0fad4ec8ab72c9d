/**
 * Shared pieces of the transcript readers: options, the result builder, path
 * relativisation and the test-likeness rule for bounded retention.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { fsCause, fsCauseAt, fsErrorCode, type FsFailure } from '../../../core/handoff/fsErrors';
import { KEEP_ALL, SessionAccumulator, emptyStats, type ReadStats, type SessionCommand, type SessionPlan, type SessionSource, type TranscriptRead } from '../../../core/session/events';
import { parseTestSummary, testRunner } from '../../../core/session/testDetection';

/** Options every reader takes. */
export interface ReaderOptions {
  /** Byte offset to resume at (JSONL and Markdown logs); 0 for a full read. */
  readonly fromOffset?: number;
  /** For formats read whole (JSON): only items newer than this time (ms since epoch) count as new. */
  readonly sinceTime?: number;
  /** Absolute workspace folder: edited paths inside it are made relative to it. */
  readonly workspaceRoot?: string;
  /**
   * The plan remembered from the previous read, for tools whose calls change one item of it
   * (Claude Code `TaskUpdate`): a read of only new lines still knows the items they name.
   */
  readonly plan?: SessionPlan;
  /**
   * Keep every turn and command read (the full history of a handoff,
   * src/engine/history.ts), not the newest bounded numbers a handoff's evidence keeps.
   */
  readonly keepAll?: boolean;
}

/** Commands worth keeping as test candidates: a known runner, or a known test summary in the output. */
export function isTestLike(c: SessionCommand): boolean {
  return testRunner(c.command) !== undefined || parseTestSummary(c.output_tail)?.specific === true;
}

/** A fresh accumulator with the test-likeness rule: bounded, or keeping everything when `opts.keepAll`. */
export function accumulator(opts: Pick<ReaderOptions, 'keepAll'> = {}): SessionAccumulator {
  return new SessionAccumulator(isTestLike, opts.keepAll ? KEEP_ALL : undefined);
}

/** Builds a reader's result: the kept events and how many of each kind were seen. */
export function transcriptRead(source: SessionSource, file: string, acc: SessionAccumulator, stats: ReadStats, endOffset: number): TranscriptRead {
  return { source, file, events: acc.events(), stats, end_offset: endOffset, seen: { ...acc.counts, requests: acc.requestsSeen, other_commands: acc.otherCommandsSeen }, user_requests: acc.requests(), command_groups: acc.commandGroups() };
}

/** The result for a file that could not be read: no events, one malformed "line", the reason ({@link cannotRead}) in `error`. */
export async function unreadable(source: SessionSource, file: string, err: unknown): Promise<TranscriptRead & { error: string }> {
  return { source, file, events: [], stats: { ...emptyStats(), malformed: 1 }, end_offset: 0, error: await cannotRead(file, err) };
}

/**
 * Why a transcript could not be read, in words, its path first (src/core/handoff/fsErrors.ts:
 * never a raw error code; a link loop names the link), saying it was skipped and, where the
 * user can act, how to have it read. An error without a code (not a regular file) keeps its words.
 */
export async function cannotRead(file: string, err: unknown): Promise<string> {
  if (fsErrorCode(err) === undefined) return `${file} cannot be read: ${(err as Error)?.message ?? String(err)}`;
  const cause = fsCause(err);
  if (cause.kind === 'missing') return `${file} does not exist`;
  return `${file} cannot be read: ${await fsCauseAt(err, file, realpath)} — it was skipped${READ_FIXES[cause.kind] ?? ''}`;
}

/** What the user can do about a transcript that could not be read, by kind of failure. */
const READ_FIXES: Partial<Record<FsFailure, string>> = {
  denied: ' (make it readable to have it read)',
  'link-loop': ' (remove the link or point it at the transcript to have it read)',
};

/** A path as the user thinks of it: relative to `base` (the session's or the workspace's folder) when inside it. */
export function relativePath(p: string, base: string | undefined): string {
  if (!base || !path.isAbsolute(p)) {
    return p;
  }
  const rel = path.relative(base, p);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : p;
}

/** A value as text: strings as they are, arrays of `{text}` / `{type:'text', text}` blocks joined. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') {
    return content;
  }
  if (Array.isArray(content)) {
    return content
      .map((b) => (typeof b === 'string' ? b : b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : ''))
      .filter(Boolean)
      .join('\n');
  }
  return '';
}

/** Reads a record field as a string, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Reads a record field as an object, or undefined. */
export function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * Tool calls (or their results) waiting for their other half, keyed by call id, oldest first:
 * what a Map does for the readers' pending calls, with the same order and semantics (setting a
 * key that is there replaces its value in place). A Map whose entries come and go reallocates
 * its hash table every few calls, and once the Map has lived through a GC each new table is
 * allocated in V8's old space: garbage that only a full GC frees (part of the peak RSS of
 * reading a long transcript). These lists are short
 * (a call's result is usually the next line), so a search from the newest end is cheap.
 */
export class PendingCalls<V> {
  private readonly ids: string[] = [];
  private readonly items: V[] = [];

  /** How many are waiting. */
  get size(): number {
    return this.ids.length;
  }

  /** The value waiting under `id`, or undefined. */
  get(id: string): V | undefined {
    const i = this.ids.lastIndexOf(id);
    return i < 0 ? undefined : this.items[i];
  }

  /** Adds `value` under `id` as the newest; replaces it in place when `id` is already waiting. */
  set(id: string, value: V): void {
    const i = this.ids.lastIndexOf(id);
    if (i >= 0) {
      this.items[i] = value;
    } else {
      this.ids.push(id);
      this.items.push(value);
    }
  }

  /** Removes `id` and returns its value, or undefined when it was not waiting. */
  take(id: string): V | undefined {
    const i = this.ids.lastIndexOf(id);
    if (i < 0) return undefined;
    const value = this.items[i];
    this.ids.splice(i, 1);
    this.items.splice(i, 1);
    return value;
  }

  /** Removes and returns the oldest value, or undefined when none waits. */
  shift(): V | undefined {
    this.ids.shift();
    return this.items.shift();
  }

  /** The waiting values, oldest first. */
  values(): readonly V[] {
    return this.items;
  }

  /** Removes every waiting value. */
  clear(): void {
    this.ids.length = 0;
    this.items.length = 0;
  }
}
