// Copilot Chat sessions in VS Code's `workspaceStorage/<hash>/chatSessions/`: `<session>.json` (`requests` streamed)
// or `<session>.jsonl`, a mutation log (`{kind: 0, v}` the session, then `kind` 1 set, 2 push (optionally truncating),
// 3 delete, at key path `k`) of which only `requests` is replayed. Per request: `message.text`, the `response` parts,
// `toolInvocationSerialized` (terminal commands, todo lists), `textEditGroup` edits, `result.metadata.summary` a compaction.
import { fileURLToPath } from 'node:url';
import { cleanTurnText, countBadRecord, emptyStats, outputTail, type ReadStats, type TranscriptRead } from '../../../core/session/events';
import { forEachJsonArrayItem } from '../jsonStream';
import { forEachJsonLine, readFirstLine } from '../lines';
import { accumulator, obj, relativePath, str, transcriptRead, unreadable, type ReaderOptions } from './common';
import { copilotTodoListPlan } from './planTools';
import type { SessionAccumulator } from '../../../core/session/events';

function uriPath(u: unknown): string | undefined {
  const o = obj(u);
  if (typeof u === 'string') {
    try {
      return u.startsWith('file:') ? fileURLToPath(u) : u;
    } catch {
      return u;
    }
  }
  return o ? (str(o.fsPath) ?? str(o.path)) : undefined;
}

function markdownText(part: Record<string, unknown>): string | undefined {
  if (part.kind === undefined || part.kind === 'markdownContent') {
    const v = part.value ?? obj(part.content)?.value;
    return typeof v === 'string' ? v : undefined;
  }
  return undefined;
}

/** Commands come from terminal data (`terminalCommandState` exit code; not confirmed: did not run). */
function addRequest(acc: SessionAccumulator, req: Record<string, unknown>, opts: ReaderOptions, stats: ReadStats): number {
  const ts = typeof req.timestamp === 'number' ? req.timestamp : 0;
  if (opts.sinceTime !== undefined && ts <= opts.sinceTime) {
    return ts;
  }
  const time = ts ? new Date(ts).toISOString() : undefined;
  const userText = cleanTurnText(str(obj(req.message)?.text) ?? '');
  if (userText) acc.add({ kind: 'turn', role: 'user', text: userText, ...(time ? { time } : {}) });
  const reply: string[] = [];
  const parts = Array.isArray(req.response) ? req.response : [];
  for (const raw of parts) {
    const part = obj(raw);
    if (!part) continue;
    const md = markdownText(part);
    if (md) {
      reply.push(md);
      continue;
    }
    if (part.kind === 'toolInvocationSerialized') {
      const data = obj(part.toolSpecificData);
      if (data?.kind === 'todoList') {
        // manage_todo_list: the list the call wrote (or read), unless the user refused it.
        const confirmed = part.isConfirmed;
        const plan = confirmed === false || obj(confirmed)?.type === 0 ? undefined : copilotTodoListPlan(data, time);
        if (plan) acc.add(plan);
      } else if (data?.kind === 'terminal') {
        const line = obj(data.commandLine);
        const command = str(line?.userEdited) ?? str(line?.toolEdited) ?? str(line?.original) ?? str(data.command);
        if (!command) continue;
        const state = obj(data.terminalCommandState);
        const exit = typeof state?.exitCode === 'number' ? state.exitCode : null;
        const confirmed = part.isConfirmed;
        const denied = confirmed === false || obj(confirmed)?.type === 0;
        acc.add({
          kind: 'command',
          command,
          cwd: uriPath(data.cwd) ?? null,
          exit_code: denied ? null : exit,
          ran: !denied && part.isComplete !== false,
          output_tail: outputTail(str(obj(data.terminalCommandOutput)?.text)),
          duration_ms: typeof state?.duration === 'number' ? state.duration : null,
          ...(time ? { time } : {}),
        });
      }
    } else if (part.kind === 'textEditGroup') {
      const p = uriPath(part.uri);
      if (p) acc.add({ kind: 'file_edit', path: relativePath(p, opts.workspaceRoot), tool: 'copilot', ...(time ? { time } : {}) });
    }
  }
  // VS Code's chat setup answers in the model's place until Copilot is signed in (`setup.*` agents): not the agent's words.
  const setup = str(obj(req.agent)?.id)?.startsWith('setup.') === true;
  const replyText = setup ? undefined : cleanTurnText(reply.join(''));
  if (replyText) acc.add({ kind: 'turn', role: 'assistant', text: replyText, ...(time ? { time } : {}) });
  const summary = str(obj(obj(obj(req.result)?.metadata)?.summary)?.text)?.trim();
  if (summary) acc.add({ kind: 'compaction', text: summary, ...(time ? { time } : {}) });
  if (!userText && !replyText && parts.length === 0) stats.skipped++;
  return ts;
}

function applyMutation(requests: unknown[], entry: Record<string, unknown>): unknown[] {
  const k = Array.isArray(entry.k) ? entry.k : [];
  if (entry.kind === 0) {
    const v = obj(entry.v);
    return Array.isArray(v?.requests) ? [...v.requests] : [];
  }
  if (k[0] !== 'requests') {
    return requests;
  }
  const rest = k.slice(1);
  if (rest.length === 0) {
    if (entry.kind === 1) return Array.isArray(entry.v) ? [...entry.v] : [];
    if (entry.kind === 2) {
      const kept = typeof entry.i === 'number' ? requests.slice(0, entry.i) : requests;
      return [...kept, ...(Array.isArray(entry.v) ? entry.v : [entry.v])];
    }
    if (entry.kind === 3) return [];
    return requests;
  }
  // Deeper paths: walk to the parent and set / push / delete there.
  let target: unknown = requests;
  for (const key of rest.slice(0, -1)) {
    target = (target as Record<string | number, unknown> | undefined)?.[key as string | number];
    if (target === null || typeof target !== 'object') return requests;
  }
  const last = rest[rest.length - 1] as string | number;
  const parent = target as Record<string | number, unknown>;
  if (entry.kind === 1) parent[last] = entry.v;
  else if (entry.kind === 3) delete parent[last];
  else if (entry.kind === 2) {
    const arr = Array.isArray(parent[last]) ? (parent[last] as unknown[]) : [];
    const kept = typeof entry.i === 'number' ? arr.slice(0, entry.i) : arr;
    parent[last] = [...kept, ...(Array.isArray(entry.v) ? entry.v : [entry.v])];
  }
  return requests;
}

/** The `.json` document or the `.jsonl` log, told apart by content. Never throws. */
export async function readCopilotSession(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  let lastTs = 0;
  try {
    // The mutation log by content (any name): its first line is a `{"kind": …}` record.
    if (file.endsWith('.jsonl') || /^\s*\{\s*"kind"\s*:\s*\d/.test((await readFirstLine(file, 4096)) ?? '')) {
      let requests: unknown[] = [];
      const { stats } = await forEachJsonLine(file, 0, (entry) => {
        requests = applyMutation(requests, entry);
        return true;
      });
      for (const r of requests) {
        const req = obj(r);
        if (req) lastTs = Math.max(lastTs, addRequest(acc, req, opts, stats));
      }
      return { ...transcriptRead('copilot', file, acc, stats, 0), last_time: lastTs };
    }
    const stats = emptyStats();
    try {
      await forEachJsonArrayItem(file, ['requests'], (item) => {
        stats.lines++;
        const req = obj(item);
        if (req) lastTs = Math.max(lastTs, addRequest(acc, req, opts, stats));
        else countBadRecord(stats, stats.lines, 'item');
      });
    } catch (err) {
      if (stats.lines === 0) throw err;
      stats.malformed++;
    }
    return { ...transcriptRead('copilot', file, acc, stats, 0), last_time: lastTs };
  } catch (err) {
    return unreadable('copilot', file, err);
  }
}
