/**
 * Streaming line reading for session logs: from a byte offset, in bounded memory, never
 * a whole-file read. A line longer than the cap is skipped without being held (counted
 * in `stats.skipped`); bytes that are not UTF-8 are decoded as U+FFFD (counted in
 * `stats.invalid_utf8`); a last line without its newline is offered as `partial` and,
 * when the reader cannot use it, left for the next read.
 */
import { isUtf8 } from 'node:buffer';
import { constants as fsConstants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { countBadRecord, emptyStats, type ReadStats } from '../../core/session/events';

/** Longest line kept: 16 MiB (a Claude Code line holding a whole file read is a few MB). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Bytes read from the file at a time: 256 KiB. */
const READ_CHUNK_BYTES = 256 * 1024;

/** Where a line starts (byte offset, and its number in this read), and whether it is an unterminated last line. */
export interface LineInfo {
  readonly offset: number;
  /** The line's number in this read, from 1 (the file's line number when the read started at 0). */
  readonly line: number;
  readonly partial: boolean;
  /** The statistics of this read, for the reader to count malformed or skipped lines. */
  readonly stats: ReadStats;
}

/** What {@link forEachLine} read: where to resume next time, and the statistics. */
export interface LinesRead {
  /** Byte offset after the last line used (before an unusable partial last line). */
  readonly endOffset: number;
  readonly stats: ReadStats;
}

/**
 * Calls `onLine` for every line of `file` from byte `fromOffset` on.
 * `onLine` returns false for a partial last line it could not use (e.g. half a JSON
 * object still being written): that line is then counted as malformed and not consumed.
 *
 * @throws the file system error when the file cannot be opened (callers report it)
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
  // One buffer, read into again and again: a stream allocates a fresh chunk for every read
  // (external memory the GC frees late, at the peak of a long read). Every
  // use of a chunk's bytes below is synchronous or a copy (`Buffer.from(rest)`).
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

/** Parses one JSON line; undefined when it is not a JSON object (counted by the caller). */
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
 * {@link forEachLine} over a JSON Lines file: calls `onRecord` with each line that is a
 * JSON object. A complete line that is not one is a bad record (`countBadRecord`: in
 * `stats.malformed` and `stats.bad_records`; blank lines are not); an unterminated last
 * line that does not parse yet is left for the next read.
 * `onRecord` returns nothing; the line is always consumed.
 *
 * @throws the file system error when the file cannot be opened (callers report it)
 */
export async function forEachJsonLine(file: string, fromOffset: number, onRecord: (record: Record<string, unknown>, info: LineInfo) => void): Promise<LinesRead> {
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

/** The first line of a file (at most `maxBytes` read), or undefined when it cannot be read. */
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
 * Opens a file for reading only when it is a regular file: a FIFO, a device (a link to
 * `/dev/zero` committed into a repository) or a socket would block or never end, so it
 * is refused. Opened non-blocking, so even the open cannot hang on a FIFO.
 * @throws an Error saying the file is not a regular file (callers count it as skipped), or the open error
 */
export async function openRegularForReading(file: string): Promise<FileHandle> {
  const fh = await open(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  try {
    const st = await fh.stat();
    if (!st.isFile()) {
      throw new Error(`${file} is not a regular file (${st.isFIFO() ? 'a FIFO' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isDirectory() ? 'a folder' : 'a special file'}); it was not read`);
    }
    return fh;
  } catch (err) {
    await fh.close().catch(() => undefined);
    throw err;
  }
}
