/**
 * Cline and Roo Code task folders (`…/globalStorage/saoudrizwan.claude-dev/tasks/<id>/`,
 * `…/rooveterinaryinc.roo-cline/tasks/<id>/`): `ui_messages.json` is the conversation as
 * the user saw it, one JSON array streamed element by element. Each element has a time
 * (`ts`, ms), a `type` (`say` / `ask`) and a kind (`say` or `ask` field) with `text`.
 *
 * - The first `text` is the user's task; later `text` and `completion_result` are the
 *   assistant's; `user_feedback` is the user's.
 * - `command` is a command; the `command_output` chunks after it are its output. A
 *   command asked for but never followed by output or an approval did not run. Cline
 *   records no exit code: it stays unknown (the output's own test summary still counts).
 * - `tool` elements with `editedExistingFile`, `newFileCreated`, `fileDeleted` or
 *   `appliedDiff` are file edits.
 * The file is not append-only (Cline rewrites it), so incremental reads use `sinceTime`.
 */
import path from 'node:path';
import { cleanTurnText, emptyStats, outputTail, type SessionCommand, type SessionSource, type TranscriptRead } from '../../../core/session/events';
import { forEachJsonArrayItem } from '../jsonStream';
import { openRegularForReading } from '../lines';
import { accumulator, obj, relativePath, str, transcriptRead, unreadable, type ReaderOptions } from './common';

const EDIT_TOOLS = new Set(['editedExistingFile', 'newFileCreated', 'fileDeleted', 'appliedDiff', 'insertContent', 'searchAndReplace']);

/** Reads one Cline (or Roo Code) task folder. Never throws. */
export async function readClineTask(taskDir: string, opts: ReaderOptions & { source?: SessionSource } = {}): Promise<TranscriptRead> {
  const source = opts.source ?? 'cline';
  const file = path.join(taskDir, 'ui_messages.json');
  const acc = accumulator();
  const stats = emptyStats();
  const since = opts.sinceTime ?? -Infinity;
  let current: { cmd: SessionCommand; output: string[]; approved: boolean; ts: number } | undefined;
  let lastTs = 0;
  const flush = () => {
    if (current && current.ts > since) {
      const ran = current.approved || current.output.length > 0;
      acc.add({ ...current.cmd, ran, output_tail: outputTail(current.output.join('')) });
    }
    current = undefined;
  };
  try {
    await forEachJsonArrayItem(file, [], (item, index) => {
      stats.lines++;
      const m = obj(item);
      if (!m) {
        stats.malformed++;
        return;
      }
      const kind = str(m.say) ?? str(m.ask);
      const text = str(m.text) ?? '';
      const ts = typeof m.ts === 'number' ? m.ts : 0;
      lastTs = Math.max(lastTs, ts);
      const time = ts ? new Date(ts).toISOString() : undefined;
      const fresh = ts > since;
      if (kind === 'command_output') {
        if (current) current.output.push(text);
        return;
      }
      if (kind === 'command') {
        flush();
        current = { cmd: { kind: 'command', command: text.trim(), exit_code: null, ran: false, ...(time ? { time } : {}) }, output: [], approved: m.type === 'say', ts };
        return;
      }
      if (kind !== 'api_req_started' && kind !== 'reasoning' && kind !== 'checkpoint_created' && kind !== 'task_progress') {
        flush();
      }
      if (!fresh) return;
      if (kind === 'text' || kind === 'completion_result' || kind === 'user_feedback') {
        const role = kind === 'user_feedback' || (kind === 'text' && index === 0) ? 'user' : 'assistant';
        const cleaned = cleanTurnText(text);
        if (cleaned) acc.add({ kind: 'turn', role, text: cleaned, ...(time ? { time } : {}) });
      } else if (kind === 'tool') {
        try {
          const t = obj(JSON.parse(text));
          const p = t && str(t.path);
          if (t && p && EDIT_TOOLS.has(str(t.tool) ?? '')) {
            acc.add({ kind: 'file_edit', path: relativePath(p, opts.workspaceRoot), tool: str(t.tool) ?? 'tool', ...(time ? { time } : {}) });
          }
        } catch {
          stats.skipped++;
        }
      }
    });
    flush();
    return { ...transcriptRead(source, file, acc, stats, 0), last_time: lastTs };
  } catch (err) {
    if (stats.lines > 0) {
      // A truncated file: keep what was read, count the rest as malformed.
      flush();
      stats.malformed++;
      return { ...transcriptRead(source, file, acc, stats, 0), last_time: lastTs };
    }
    return unreadable(source, file, err);
  }
}

/**
 * The workspace folder a Cline task ran in: the "Current Working Directory (PATH)" its
 * first API request carried, read from the start of `api_conversation_history.json`.
 */
export async function clineTaskCwd(taskDir: string): Promise<string | undefined> {
  let fh;
  try {
    fh = await openRegularForReading(path.join(taskDir, 'api_conversation_history.json'));
    const buf = Buffer.alloc(256 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead).toString('utf8');
    const m = /Current (?:Working )?Directory \(([^)\\]+(?:\\.[^)\\]*)*)\)/.exec(head);
    return m ? m[1].replace(/\\\\/g, '\\') : undefined;
  } catch {
    return undefined;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}
