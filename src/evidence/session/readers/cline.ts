// Cline / Roo / Kilo task folders (`…/globalStorage/<extension id>/tasks/<id>/`): `ui_messages.json`, an array of
// `{ts (ms), type: say|ask, say|ask: kind, text}`. The first `text` is the user's task, later `text` and
// `completion_result` the assistant's, `user_feedback` the user's; `command` then its `command_output` chunks (no exit
// code); `tool` elements with an edit tool are edits. Cline rewrites the file, so incremental reads use `sinceTime`.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  cleanTurnText,
  countBadRecord,
  emptyStats,
  outputTail,
  type SessionCommand,
  type SessionSource,
  type TranscriptRead,
} from '../../../core/session/events';
import { forEachJsonArrayItem } from '../jsonStream';
import { openRegularForReading } from '../lines';
import { accumulator, obj, relativePath, str, transcriptRead, unreadable, type ReaderOptions } from './common';
import { checklistPlan, rooUiPlan } from './planTools';

const EDIT_TOOLS = new Set(['editedExistingFile', 'newFileCreated', 'fileDeleted', 'appliedDiff', 'insertContent', 'searchAndReplace']);

/** `p` itself when it names a file (any name), else the one inside the folder `p`. */
export async function clineUiFile(p: string): Promise<string> {
  return (await stat(p).catch(() => undefined))?.isFile() ? p : path.join(p, 'ui_messages.json');
}

/** Its folder or its `ui_messages.json` (any name). Never throws. */
export async function readClineTask(taskDir: string, opts: ReaderOptions & { source?: SessionSource } = {}): Promise<TranscriptRead> {
  const source = opts.source ?? 'cline';
  const file = await clineUiFile(taskDir);
  const acc = accumulator(opts);
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
        countBadRecord(stats, stats.lines, 'item');
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
        // Cline appends `REQ_APP` to a command that asks for approval: a marker, not the command's text.
        current = {
          cmd: {
            kind: 'command',
            command: text
              .trim()
              .replace(/REQ_APP$/, '')
              .trimEnd(),
            exit_code: null,
            ran: false,
            ...(time ? { time } : {}),
          },
          output: [],
          approved: m.type === 'say',
          ts,
        };
        return;
      }
      if (kind !== 'api_req_started' && kind !== 'reasoning' && kind !== 'checkpoint_created' && kind !== 'task_progress') {
        flush();
      }
      if (!fresh) return;
      const plan = kind === 'task_progress' ? checklistPlan('task_progress', text, time) : rooUiPlan(kind, m, time);
      if (plan) acc.add(plan);
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

const CWD = /Current (?:Working )?Directory \(([^)\\]+(?:\\.[^)\\]*)*)\)/;

export const MAX_CWD_ITEMS = 2000;

/** The "Current Working Directory (PATH)" of an `api_req_started`, else a tool element whose absolute `content` ends with its `path`. */
export async function clineUiCwd(uiFile: string): Promise<string | undefined> {
  let cwd: string | undefined;
  try {
    await forEachJsonArrayItem(uiFile, [], (item, index) => {
      const m = obj(item);
      const text = (m && str(m.text)) ?? '';
      if (m?.say === 'api_req_started') {
        try {
          const request = str(obj(JSON.parse(text))?.request) ?? '';
          const c = CWD.exec(request);
          if (c) cwd = c[1];
        } catch {
          // not JSON: no request text
        }
      } else if ((m?.say === 'tool' || m?.ask === 'tool') && text.startsWith('{')) {
        try {
          const t = obj(JSON.parse(text));
          const rel = t && str(t.path);
          const abs = t && str(t.content);
          if (rel && abs && !path.isAbsolute(rel) && path.isAbsolute(abs) && !rel.startsWith('..')) {
            const suffix = `/${rel.replace(/\\/g, '/').replace(/^\.\//, '')}`.replace(/\/$/, '');
            const a = abs.replace(/\\/g, '/').replace(/\/$/, '');
            if (a.endsWith(suffix) && a.length > suffix.length) cwd = abs.slice(0, a.length - suffix.length);
          }
        } catch {
          // not a tool object
        }
      }
      return cwd === undefined && index < MAX_CWD_ITEMS;
    });
  } catch {
    // unreadable or truncated: what was found stands
  }
  return cwd;
}

/** The "Current Working Directory (PATH)" at the start of `api_conversation_history.json`, else {@link clineUiCwd}. */
export async function clineTaskCwd(taskDir: string): Promise<string | undefined> {
  let fh;
  try {
    fh = await openRegularForReading(path.join(taskDir, 'api_conversation_history.json'));
    const buf = Buffer.alloc(256 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead).toString('utf8');
    const m = CWD.exec(head);
    if (m) return m[1].replace(/\\\\/g, '\\');
  } catch {
    // no api_conversation_history.json: ask ui_messages.json
  } finally {
    await fh?.close().catch(() => undefined);
  }
  return clineUiCwd(path.join(taskDir, 'ui_messages.json'));
}
