// Kiro CLI's session export (aws/amazon-q-developer-cli `crates/chat-cli-v2/src/agent/acp/commands/chat.rs`,
// `ExportFormat::KiroV1`): one JSON document `{format: "kiro-session-export-v1", metadata: SessionData, log_entries:
// [LogEntry, …]}`, the session's `<id>.json` and `<id>.jsonl` (./kiroSession.ts) in one file; read item by item.
import { countBadRecord, emptyStats, type ReadStats, type TranscriptRead } from '../../../core/session/events';
import type { RecordHead } from '../jsonLinesFormat';
import { transcriptRead, unreadable, type ReaderOptions, readArrayItemsKeepingCutShort } from './common';
import { KiroSessionEvents, readKiroSessionMeta } from './kiroSession';

export const KIRO_EXPORT_FORMAT = 'kiro-session-export-v1';

/** By its first key, `format`. */
export function isKiroSessionExport(head: RecordHead): boolean {
  return head.values.get('format') === KIRO_EXPORT_FORMAT;
}

/** Never throws. */
export async function readKiroSessionExport(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const stats: ReadStats = emptyStats();
  try {
    // A document is read whole each time: what is new is told by time, not by offset.
    const events = new KiroSessionEvents({ ...opts, fromOffset: 0 }, await readKiroSessionMeta(file, 'metadata'));
    await readArrayItemsKeepingCutShort(file, ['log_entries'], stats, (item) => {
      stats.lines++;
      if (!events.entry(item)) countBadRecord(stats, stats.lines, 'item');
    });
    return { ...transcriptRead('kiro', file, events.acc, stats, 0), ...(events.lastTime ? { last_time: events.lastTime } : {}) };
  } catch (err) {
    return unreadable('kiro', file, err);
  }
}
