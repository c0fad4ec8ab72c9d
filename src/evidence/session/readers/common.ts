import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { fsCause, fsCauseAt, fsErrorCode, type FsFailure } from '../../../core/handoff/fsErrors';
import {
  KEEP_ALL,
  SessionAccumulator,
  countBadRecord,
  emptyStats,
  type ReadStats,
  type SessionCommand,
  type SessionPlan,
  type SessionSource,
  type TranscriptRead,
} from '../../../core/session/events';
import { parseTestSummary, testRunner } from '../../../core/session/testDetection';
import { forEachJsonArrayItem } from '../jsonStream';

export interface ReaderOptions {
  /** Byte offset to resume at (JSONL and Markdown logs). */
  readonly fromOffset?: number;
  /** For formats read whole (JSON): only items newer than this (ms since epoch) count as new. */
  readonly sinceTime?: number;
  /** Edited paths inside it are made relative to it. */
  readonly workspaceRoot?: string;
  /** The remembered plan, for tools that change one item of it (Claude Code `TaskUpdate`) in a read of only new lines. */
  readonly plan?: SessionPlan;
  /** Keep every turn and command (a handoff's full history), not the bounded newest. */
  readonly keepAll?: boolean;
}

/** A known runner, or a known test summary in the output. */
export function isTestLike(c: SessionCommand): boolean {
  return testRunner(c.command) !== undefined || parseTestSummary(c.output_tail)?.specific === true;
}

export function accumulator(opts: Pick<ReaderOptions, 'keepAll'> = {}): SessionAccumulator {
  return new SessionAccumulator(isTestLike, opts.keepAll ? KEEP_ALL : undefined);
}

export function transcriptRead(source: SessionSource, file: string, acc: SessionAccumulator, stats: ReadStats, endOffset: number): TranscriptRead {
  return {
    source,
    file,
    events: acc.events(),
    stats,
    end_offset: endOffset,
    seen: { ...acc.counts, requests: acc.requestsSeen, other_commands: acc.otherCommandsSeen },
    user_requests: acc.requests(),
    command_groups: acc.commandGroups(),
  };
}

/** No events, one malformed "line", the reason in `error`. */
export async function unreadable(source: SessionSource, file: string, err: unknown): Promise<TranscriptRead & { error: string }> {
  return { source, file, events: [], stats: { ...emptyStats(), malformed: 1 }, end_offset: 0, error: await cannotRead(file, err) };
}

/** In words, path first, never a raw error code; says it was skipped and how to have it read where the user can act. */
export async function cannotRead(file: string, err: unknown): Promise<string> {
  if (fsErrorCode(err) === undefined) return `${file} cannot be read: ${(err as Error)?.message ?? String(err)}`;
  const cause = fsCause(err);
  if (cause.kind === 'missing') return `${file} does not exist`;
  return `${file} cannot be read: ${await fsCauseAt(err, file, realpath)} — it was skipped${READ_FIXES[cause.kind] ?? ''}`;
}

const READ_FIXES: Partial<Record<FsFailure, string>> = {
  denied: ' (make it readable to have it read)',
  'link-loop': ' (remove the link or point it at the transcript to have it read)',
};

/** Relative to `base` (the session's or the workspace's folder) when inside it. */
export function relativePath(p: string, base: string | undefined): string {
  if (!base || !path.isAbsolute(p)) {
    return p;
  }
  const rel = path.relative(base, p);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : p;
}

/** Strings as they are; arrays of `{text}` / `{type:'text', text}` blocks joined. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') {
    return content;
  }
  if (Array.isArray(content)) {
    return content
      .map((b) =>
        typeof b === 'string' ? b : b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : '',
      )
      .filter(Boolean)
      .join('\n');
  }
  return '';
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * Calls waiting for their other half, oldest first, with a Map's semantics. Not a Map: one whose entries come and go
 * reallocates its table into V8's old space, garbage only a full GC frees. These lists are short, so searching from
 * the newest end is cheap.
 */
export class PendingCalls<V> {
  private readonly ids: string[] = [];
  private readonly items: V[] = [];

  get size(): number {
    return this.ids.length;
  }

  get(id: string): V | undefined {
    const i = this.ids.lastIndexOf(id);
    return i < 0 ? undefined : this.items[i];
  }

  /** Replaces in place when `id` is already waiting. */
  set(id: string, value: V): void {
    const i = this.ids.lastIndexOf(id);
    if (i >= 0) {
      this.items[i] = value;
    } else {
      this.ids.push(id);
      this.items.push(value);
    }
  }

  take(id: string): V | undefined {
    const i = this.ids.lastIndexOf(id);
    if (i < 0) return undefined;
    const value = this.items[i];
    this.ids.splice(i, 1);
    this.items.splice(i, 1);
    return value;
  }

  shift(): V | undefined {
    this.ids.shift();
    return this.items.shift();
  }

  values(): readonly V[] {
    return this.items;
  }

  clear(): void {
    this.ids.length = 0;
    this.items.length = 0;
  }
}

/**
 * The items of the JSON array at `path` in `file`, one at a time (`onItem` counts them in `stats.lines`). A document
 * cut short after some items (an agent still writing it) keeps those read and counts the rest as one bad item.
 * @throws when the file cannot be read, or is not a JSON document with that array before anything was read
 */
export async function readArrayItemsKeepingCutShort(
  file: string,
  path: readonly string[],
  stats: ReadStats,
  onItem: (item: unknown, index: number) => void,
): Promise<void> {
  await forEachJsonArrayItem(file, path, onItem).catch((err: unknown) => {
    if (fsErrorCode(err) !== undefined || stats.lines === 0) throw err;
    countBadRecord(stats, stats.lines + 1, 'item');
  });
}
