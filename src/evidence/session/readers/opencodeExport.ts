/**
 * A session as `opencode export <sessionID>` writes it (and Kilo Code's CLI, a fork of OpenCode):
 * one JSON document `{info, messages: [{info, parts}]}` — `info` the session (`id: "ses_…"`,
 * `directory`, `projectID`, `time`), each message its `info` (`role`, `time`, `path?`) and its
 * `parts` (anomalyco/opencode `packages/opencode/src/cli/cmd/export.ts`: `Session.get` and
 * `Session.messages`, the shapes of ./opencodeEvents.ts). A transcript on its own, wherever the
 * file is: messages are streamed one at a time (memory bounded by the largest message), the
 * session's `info` read first for its folder. Incremental reads use `sinceTime`, as the storage.
 */
import { fsErrorCode } from '../../../core/handoff/fsErrors';
import { countBadRecord, emptyStats, type TranscriptRead } from '../../../core/session/events';
import { forEachJsonArrayItem, readJsonValueAt } from '../jsonStream';
import type { RecordHead } from '../jsonLinesFormat';
import { obj, str, transcriptRead, unreadable, type ReaderOptions } from './common';
import { OpenCodeEvents } from './opencodeEvents';

/** Whether a JSON document's start (its {@link RecordHead}) is an OpenCode export: an `info` whose `id` is a session id. */
export function isOpenCodeExport(head: RecordHead): boolean {
  const id = head.values.get('info.id');
  return head.keys.has('info') && typeof id === 'string' && /^ses_[A-Za-z0-9]+$/.test(id);
}

/** Reads one OpenCode export from its start (items newer than `opts.sinceTime` only). Never throws. */
export async function readOpenCodeExport(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const stats = emptyStats();
  try {
    const info = obj(await readJsonValueAt(file, ['info']));
    const events = new OpenCodeEvents(opts.sinceTime ?? -Infinity, str(info?.directory), opts.workspaceRoot);
    const each = forEachJsonArrayItem(file, ['messages'], (item, i) => {
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
    // A document cut short (or broken) after some messages: those read are kept, the rest counted as one bad item.
    await each.catch((err: unknown) => {
      if (fsErrorCode(err) !== undefined || stats.lines === 0) throw err;
      countBadRecord(stats, stats.lines + 1, 'item');
    });
    return { ...transcriptRead('opencode', file, events.acc, stats, 0), ...(events.lastTime ? { last_time: events.lastTime } : {}) };
  } catch (err) {
    return unreadable('opencode', file, err);
  }
}
