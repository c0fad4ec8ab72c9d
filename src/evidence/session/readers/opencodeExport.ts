// A session as `opencode export <sessionID>` writes it (also Kilo Code's CLI): `{info, messages: [{info, parts}]}`,
// `info` the session (`id: "ses_…"`, `directory`, `projectID`, `time`). Messages are streamed one at a time.
import { countBadRecord, emptyStats, type TranscriptRead } from '../../../core/session/events';
import { readJsonValueAt } from '../jsonStream';
import type { RecordHead } from '../jsonLinesFormat';
import { obj, str, transcriptRead, unreadable, type ReaderOptions, readArrayItemsKeepingCutShort } from './common';
import { OpenCodeEvents } from './opencodeEvents';

/** An `info` whose `id` is a session id. */
export function isOpenCodeExport(head: RecordHead): boolean {
  const id = head.values.get('info.id');
  return head.keys.has('info') && typeof id === 'string' && /^ses_[A-Za-z0-9]+$/.test(id);
}

/** From its start; only items newer than `opts.sinceTime` count. Never throws. */
export async function readOpenCodeExport(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const stats = emptyStats();
  try {
    const info = obj(await readJsonValueAt(file, ['info']));
    const events = new OpenCodeEvents(opts.sinceTime ?? -Infinity, str(info?.directory), opts.workspaceRoot);
    await readArrayItemsKeepingCutShort(file, ['messages'], stats, (item, i) => {
      stats.lines++;
      const m = obj(item);
      const msg = obj(m?.info);
      if (!m || !msg) {
        countBadRecord(stats, i + 1, 'item');
        return;
      }
      const parts = Array.isArray(m.parts) ? m.parts.map(obj).filter((p): p is Record<string, unknown> => p !== undefined) : [];
      events.message(msg, parts, stats);
    });
    return { ...transcriptRead('opencode', file, events.acc, stats, 0), ...(events.lastTime ? { last_time: events.lastTime } : {}) };
  } catch (err) {
    return unreadable('opencode', file, err);
  }
}
