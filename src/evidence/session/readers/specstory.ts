/**
 * SpecStory exports: `.specstory/history/<time>-<title>.md` in the workspace (Markdown,
 * written by the SpecStory extension for Cursor / VS Code chats). Read line by line from
 * a byte offset.
 *
 * - `_**User (…)**_` and `_**Agent (…)**_` / `_**Assistant**_` headings start turns; the
 *   text under them, without `<think>` blocks, tool-use blocks and `---` rules, is the turn.
 * - Tool-use blocks: a `write` tool's "Edit file: PATH" is a file edit; a `shell` /
 *   terminal tool's "Run command: CMD" (or its first code line) is a command whose output
 *   is the block's code. SpecStory records no exit codes: they stay unknown.
 */
import { cleanTurnText, outputTail, type TranscriptRead } from '../../../core/session/events';
import { forEachLine } from '../lines';
import { accumulator, relativePath, transcriptRead, unreadable, type ReaderOptions } from './common';

const HEADING = /^_\*\*(User|Agent|Assistant|Cursor)\b[^*]*\*\*_\s*$/;

/** Reads one SpecStory export from `opts.fromOffset`. Never throws. */
export async function readSpecStory(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  let role: 'user' | 'assistant' | undefined;
  let text: string[] = [];
  let inThink = false;
  let tool: { type: string; name: string; lines: string[] } | undefined;
  let time: string | undefined;

  const flushTurn = () => {
    if (role && text.length) {
      const cleaned = cleanTurnText(text.join('\n').replace(/\n?^---$\n?/gm, '\n'));
      if (cleaned) acc.add({ kind: 'turn', role, text: cleaned, ...(time ? { time } : {}) });
    }
    text = [];
  };
  const flushTool = () => {
    if (!tool) return;
    const body = tool.lines.join('\n');
    const summary = /<summary>([\s\S]*?)<\/summary>/.exec(body)?.[1] ?? '';
    const edit = /Edit file:\s*(.+?)\s*$/m.exec(summary);
    if (tool.type === 'write' && edit) {
      acc.add({ kind: 'file_edit', path: relativePath(edit[1], opts.workspaceRoot), tool: tool.name, ...(time ? { time } : {}) });
    } else if (tool.type === 'shell' || /terminal|shell|command/i.test(tool.name)) {
      const code = [...body.matchAll(/```\w*\n([\s\S]*?)```/g)].map((m) => m[1]);
      const command = /Run command:\s*(.+?)\s*$/m.exec(summary)?.[1] ?? code[0]?.split('\n')[0]?.replace(/^\$\s*/, '');
      if (command) {
        const rejected = /cancel+ed|rejected|skipped|not run/i.test(summary);
        acc.add({ kind: 'command', command, exit_code: null, ran: !rejected, output_tail: outputTail(code.slice(1).join('\n') || undefined), ...(time ? { time } : {}) });
      }
    }
    tool = undefined;
  };

  try {
    const { endOffset, stats } = await forEachLine(file, opts.fromOffset ?? 0, (line, info) => {
      if (info.partial) return false;
      const h = HEADING.exec(line);
      if (h) {
        flushTool();
        flushTurn();
        role = h[1] === 'User' ? 'user' : 'assistant';
        const t = /\((\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})Z\)/.exec(line);
        time = t ? `${t[1]}T${t[2]}:00Z` : undefined;
        return true;
      }
      if (tool) {
        tool.lines.push(line);
        if (line.startsWith('</tool-use>')) flushTool();
        return true;
      }
      const start = /^<tool-use data-tool-type="([^"]*)" data-tool-name="([^"]*)"/.exec(line);
      if (start) {
        tool = { type: start[1], name: start[2], lines: [line] };
        if (line.includes('</tool-use>')) flushTool();
        return true;
      }
      if (line.startsWith('<think>')) inThink = true;
      if (inThink) {
        if (line.includes('</think>')) inThink = false;
        return true;
      }
      if (line.startsWith('<!--')) return true;
      if (role) text.push(line);
      return true;
    });
    flushTool();
    flushTurn();
    return transcriptRead('specstory', file, acc, stats, endOffset);
  } catch (err) {
    return unreadable('specstory', file, err);
  }
}
