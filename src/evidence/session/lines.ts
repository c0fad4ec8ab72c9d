// Streaming line reading from a byte offset in bounded memory. Lines over the cap are skipped without being held;
// a last line without its newline is offered as `partial` and, if the reader cannot use it, left for the next read.
import { isUtf8 } from 'node:buffer';
import { constants as fsConstants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { countBadRecord, emptyStats, type ReadStats } from '../../core/session/events';

/** A Claude Code line holding a whole file read is a few MB. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

const READ_CHUNK_BYTES = 256 * 1024;

export interface LineInfo {
  readonly offset: number;
  /** From 1 in this read (the file's line number when the read started at 0). */
  readonly line: number;
  readonly partial: boolean;
  /** For the reader to count malformed or skipped lines. */
  readonly stats: ReadStats;
}

export interface LinesRead {
  /** After the last line used (before an unusable partial last line): where to resume. */
  readonly endOffset: number;
  readonly stats: ReadStats;
}

/**
 * `onLine` returns false for a partial last line it could not use (half a JSON object still being written): it is
 * then counted as malformed and not consumed. Invalid UTF-8 is decoded as U+FFFD and counted.
 * @throws the file system error when the file cannot be opened
 */
export async function forEachLine(
  file: string,
  fromOffset: number,
  onLine: (line: string, info: LineInfo) => boolean | void,
  maxLineBytes = MAX_LINE_BYTES,
): Promise<LinesRead> {
  const stats = emptyStats();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overflow = false;
  let lineStart = fromOffset;
  let position = fromOffset;
  const emit = (buf: Buffer, partial: boolean): boolean => {
    stats.lines += 1;
    let text: string;
    if (isUtf8(buf)) {
      text = buf.toString('utf8');
    } else {
      stats.invalid_utf8 += 1;
      text = new TextDecoder('utf-8', { fatal: false }).decode(buf);
    }
    if (text.endsWith('\r')) {
      text = text.slice(0, -1);
    }
    return onLine(text, { offset: lineStart, line: stats.lines, partial, stats }) !== false;
  };
  const fh = await openRegularForReading(file);
  // One buffer read into again and again: a stream allocates a chunk per read, memory the GC frees late.
  // Every use of its bytes below is synchronous or a copy.
  const chunk = Buffer.allocUnsafeSlow(READ_CHUNK_BYTES);
  try {
    for (;;) {
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      const buf = bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead);
      let from = 0;
      for (let nl = buf.indexOf(10, from); nl >= 0; nl = buf.indexOf(10, from)) {
        const piece = buf.subarray(from, nl);
        if (overflow || pendingBytes + piece.length > maxLineBytes) {
          stats.lines += 1;
          stats.skipped += 1;
        } else {
          pending.push(piece);
          emit(pending.length === 1 ? pending[0] : Buffer.concat(pending), false);
        }
        pending = [];
        pendingBytes = 0;
        overflow = false;
        position += nl - from + 1;
        lineStart = position;
        from = nl + 1;
      }
      const rest = buf.subarray(from);
      position += rest.length;
      if (!overflow) {
        if (pendingBytes + rest.length > maxLineBytes) {
          overflow = true;
          pending = [];
          pendingBytes = 0;
        } else if (rest.length) {
          // Copy: the next read reuses the buffer.
          pending.push(Buffer.from(rest));
          pendingBytes += rest.length;
        }
      }
    }
  } finally {
    await fh.close().catch(() => undefined);
  }
  let endOffset = position;
  if (overflow) {
    // An oversized unterminated last line: skip it now, but read it again next time.
    stats.lines += 1;
    stats.skipped += 1;
    endOffset = lineStart;
  } else if (pendingBytes > 0) {
    const used = emit(Buffer.concat(pending), true);
    if (!used) {
      stats.malformed += 1;
      endOffset = lineStart;
    }
  }
  return { endOffset, stats };
}

/** Undefined when not a JSON object (counted by the caller). */
export function parseJsonLine(line: string): Record<string, unknown> | undefined {
  if (!line.trim()) {
    return undefined;
  }
  try {
    const v: unknown = JSON.parse(line);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A complete line that is not a JSON object is a bad record (blank lines are not); an unterminated last line that
 * does not parse yet is left for the next read.
 * @throws the file system error when the file cannot be opened
 */
export async function forEachJsonLine(
  file: string,
  fromOffset: number,
  onRecord: (record: Record<string, unknown>, info: LineInfo) => void,
): Promise<LinesRead> {
  return forEachLine(file, fromOffset, (line, info) => {
    const record = parseJsonLine(line);
    if (!record) {
      if (info.partial) return false;
      if (line.trim()) countBadRecord(info.stats, info.line, 'line');
      return true;
    }
    onRecord(record, info);
    return true;
  });
}

/** Undefined when it cannot be read. */
export async function readFirstLine(file: string, maxBytes = 256 * 1024): Promise<string | undefined> {
  let fh;
  try {
    fh = await openRegularForReading(file);
    const buf = Buffer.alloc(maxBytes);
    const { bytesRead } = await fh.read(buf, 0, maxBytes, 0);
    const nl = buf.subarray(0, bytesRead).indexOf(10);
    return buf.subarray(0, nl < 0 ? bytesRead : nl).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/**
 * Refuses anything but a regular file: a FIFO, a device (a link to `/dev/zero` committed into a repository) or a
 * socket would block or never end. Opened non-blocking, so even the open cannot hang.
 * @throws when not a regular file (callers count it as skipped), or the open error
 */
export async function openRegularForReading(file: string): Promise<FileHandle> {
  const fh = await open(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  try {
    const st = await fh.stat();
    if (!st.isFile()) {
      throw new Error(
        `${file} is not a regular file (${st.isFIFO() ? 'a FIFO' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isDirectory() ? 'a folder' : 'a special file'}); it was not read`,
      );
    }
    return fh;
  } catch (err) {
    await fh.close().catch(() => undefined);
    throw err;
  }
}
