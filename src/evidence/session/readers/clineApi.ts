// A Cline / Roo / Kilo `api_conversation_history.json` read by itself: Anthropic Messages `{role, content}`. The user's
// words are in `<task>`, `<feedback>` or `<user_message>`; tools are `tool_use` blocks or XML in the text
// (`<execute_command><command>…</command>`), a command's result the next user message's `[execute_command for '…']
// Result:` ("The user denied this operation": did not run). No times, so it is read whole each time.
import { cleanTurnText, emptyStats, outputTail, type SessionCommand, type SessionSource, type TranscriptRead } from '../../../core/session/events';
import { forEachJsonArrayItem } from '../jsonStream';
import { accumulator, obj, relativePath, str, transcriptRead, unreadable, type ReaderOptions } from './common';
import { apiToolPlan, xmlTextPlan } from './planTools';

const EDIT_TOOLS = new Set(['write_to_file', 'replace_in_file', 'apply_diff', 'insert_content', 'search_and_replace', 'new_rule']);
const XML_TOOL = /<(execute_command|write_to_file|replace_in_file|attempt_completion)>([\s\S]*?)<\/\1>/g;
const XML_ARG = (name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`);

/** Never throws. */
export async function readClineApiHistory(file: string, opts: ReaderOptions & { source?: SessionSource } = {}): Promise<TranscriptRead> {
  const source = opts.source ?? 'cline';
  const acc = accumulator(opts);
  const stats = emptyStats();
  let pending: SessionCommand | undefined;
  const flushPending = (result?: string) => {
    if (!pending) return;
    if (result === undefined) {
      acc.add({ ...pending, ran: false });
    } else {
      const denied = /^The user denied this operation/m.test(result);
      const output = /\nOutput:\n([\s\S]*)$/.exec(result)?.[1] ?? result.replace(/^\[[^\n]*\] Result:\n?/, '');
      acc.add({ ...pending, ran: !denied, ...(denied ? {} : { output_tail: outputTail(output) }) });
    }
    pending = undefined;
  };
  const tool = (name: string, input: Record<string, unknown> | undefined) => {
    const plan = apiToolPlan(name, input);
    if (plan) acc.add(plan);
    if (name === 'execute_command') {
      const command = str(input?.command)?.trim();
      if (command) {
        flushPending();
        pending = { kind: 'command', command, exit_code: null, ran: false };
      }
    } else if (EDIT_TOOLS.has(name)) {
      const p = str(input?.absolutePath) ?? str(input?.path);
      if (p) acc.add({ kind: 'file_edit', path: relativePath(p, opts.workspaceRoot), tool: name });
    } else if (name === 'attempt_completion') {
      const text = cleanTurnText(str(input?.result) ?? '');
      if (text) acc.add({ kind: 'turn', role: 'assistant', text });
    }
  };
  try {
    await forEachJsonArrayItem(file, [], (item, index) => {
      stats.lines++;
      const m = obj(item);
      const role = m && str(m.role);
      if (!m || (role !== 'user' && role !== 'assistant')) {
        stats.skipped++;
        return;
      }
      const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content.map(obj) : [];
      if (role === 'user') {
        const results: string[] = [];
        for (const b of blocks) {
          const text = str(b?.text) ?? '';
          if (b?.type === 'tool_result') results.push(typeof b.content === 'string' ? b.content : '');
          else if (/^\[execute_command for /.test(text)) results.push(text);
          else {
            // The user's words are tagged; untagged text is Cline's own, except a first message given as a plain string.
            const said = /<(task|feedback|user_message)>([\s\S]*?)<\/\1>/.exec(text)?.[2] ?? (index === 0 && typeof m.content === 'string' ? text : undefined);
            const cleaned = said !== undefined ? cleanTurnText(said) : undefined;
            if (cleaned) acc.add({ kind: 'turn', role: 'user', text: cleaned });
          }
        }
        if (pending) flushPending(results.find((r) => r.startsWith('[execute_command for ')) ?? results[0]);
        return;
      }
      for (const b of blocks) {
        if (b?.type === 'text') {
          const text = str(b.text) ?? '';
          const said = cleanTurnText(text.replace(XML_TOOL, '').replace(/<(thinking|update_todo_list)>[\s\S]*?<\/\1>/g, ''));
          if (said) acc.add({ kind: 'turn', role: 'assistant', text: said });
          const plan = xmlTextPlan(text);
          if (plan) acc.add(plan);
          for (const x of text.matchAll(XML_TOOL)) {
            const args = x[2];
            const value = (n: string) => XML_ARG(n).exec(args)?.[1]?.trim();
            tool(x[1], { command: value('command'), path: value('path'), result: value('result') });
          }
        } else if (b?.type === 'tool_use') {
          tool(str(b.name) ?? '', obj(b.input));
        }
      }
    });
    flushPending();
    return transcriptRead(source, file, acc, stats, 0);
  } catch (err) {
    if (stats.lines > 0) {
      flushPending();
      stats.malformed++;
      return transcriptRead(source, file, acc, stats, 0);
    }
    return unreadable(source, file, err);
  }
}
