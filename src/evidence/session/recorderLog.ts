// The extension's own session recorder (docs/DESIGN.md §6): JSON Lines of `{v: 1, type}` records, `session_start`,
// `command` (a terminal command via shell integration, or a task process) and `save`, as the schemas below define.
// Written in the extension's workspace storage, never in the repository.
import * as z from 'zod';
import { OUTPUT_TAIL_CHARS, countBadRecord, type TranscriptRead } from '../../core/session/events';
import { forEachLine, parseJsonLine } from './lines';
import { accumulator, transcriptRead, unreadable, type ReaderOptions } from './readers/common';

export const RecorderSessionStartSchema = z.object({
  v: z.literal(1),
  type: z.literal('session_start'),
  session_id: z.string().min(1),
  base_commit: z.string().nullable(),
  time: z.string(),
});

export const RecorderCommandSchema = z.object({
  v: z.literal(1),
  type: z.literal('command'),
  origin: z.enum(['terminal', 'task']),
  command: z.string().min(1),
  cwd: z.string().nullable(),
  exit_code: z.number().int().nullable(),
  started_at: z.string(),
  duration_ms: z.number().nonnegative().nullable(),
  output_tail: z.string().max(OUTPUT_TAIL_CHARS).optional(),
  task: z.object({ name: z.string(), source: z.string() }).optional(),
});

/** A saved file; `path` is workspace-relative. */
export const RecorderSaveSchema = z.object({
  v: z.literal(1),
  type: z.literal('save'),
  path: z.string().min(1),
  time: z.string(),
});

export const RecorderRecordSchema = z.discriminatedUnion('type', [RecorderSessionStartSchema, RecorderCommandSchema, RecorderSaveSchema]);
export type RecorderRecord = z.infer<typeof RecorderRecordSchema>;

/** Validated first. */
export function recorderLine(record: RecorderRecord): string {
  return `${JSON.stringify(RecorderRecordSchema.parse(record))}\n`;
}

export type RecorderRead = TranscriptRead & { session?: { session_id: string; base_commit: string | null } };

/** From `opts.fromOffset`. Never throws. */
export async function readRecorder(file: string, opts: ReaderOptions = {}): Promise<RecorderRead> {
  const acc = accumulator(opts);
  let session: RecorderRead['session'];
  try {
    const { endOffset, stats } = await forEachLine(file, opts.fromOffset ?? 0, (line, info) => {
      const d = parseJsonLine(line);
      const r = d ? RecorderRecordSchema.safeParse(d) : undefined;
      if (!r?.success) {
        if (info.partial) return false;
        if (line.trim() && d) info.stats.skipped++;
        else if (line.trim()) countBadRecord(info.stats, info.line, 'line');
        return true;
      }
      const rec = r.data;
      if (rec.type === 'session_start') {
        session = { session_id: rec.session_id, base_commit: rec.base_commit };
      } else if (rec.type === 'command') {
        acc.add({
          kind: 'command',
          command: rec.command,
          cwd: rec.cwd,
          exit_code: rec.exit_code,
          ran: true,
          output_tail: rec.output_tail,
          time: rec.started_at,
          duration_ms: rec.duration_ms,
        });
      } else {
        acc.add({ kind: 'file_edit', path: rec.path, tool: 'save', time: rec.time });
      }
      return true;
    });
    return { ...transcriptRead('recorder', file, acc, stats, endOffset), session };
  } catch (err) {
    return unreadable('recorder', file, err);
  }
}

/** From the file's first `session_start` record. */
export async function recorderSession(file: string): Promise<RecorderRead['session']> {
  const r = await readRecorder(file);
  return r.session;
}
