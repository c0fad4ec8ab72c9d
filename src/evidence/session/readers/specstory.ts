/**
 * SpecStory exports `.specstory/history/<time>-<title>.md` (its extension and CLI, for many agents), read as lines
 * from a byte offset. `_**User (…)**_` and `_**Agent (…)**_` / `_**Assistant**_` headings start turns (`- sidechain`:
 * a sub-agent's, its tools count, its words are no turn); `<tool-use …>` blocks are read by ./specstoryTools.ts.
 */
import { cleanTurnText, type SessionCommand, type TranscriptRead } from '../../../core/session/events';
import { forEachLine } from '../lines';
import { claimedTestResult } from '../../../core/session/claimedResult';
import { testRunner } from '../../../core/session/testDetection';
import { accumulator, relativePath, transcriptRead, unreadable, type ReaderOptions } from './common';
import { specStoryTool } from './specstoryTools';

const HEADING = /^_\*\*(User|Agent|Assistant|Cursor)\b([^*]*)\*\*_\s*$/;
/** The agent's words right after a block whose command the user did not let run. */
const SKIPPED = /^The user (?:has |have )?(?:skipped|rejected|declined|cancell?ed|chose not to run|did not (?:run|approve))\b/i;
const TOOL_START = /^<tool-use\b[^>]*\bdata-tool-type="([^"]*)"[^>]*\bdata-tool-name="([^"]*)"/;

/** `(2026-01-28 13:10:31Z)`, `(model 2026-01-28 13:10:31Z)`, `(2025-04-28 18:53Z)`, or a `-0700` offset. */
function headingTime(rest: string): string | undefined {
  const t = /(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:?\d{2})\)?\s*$/.exec(rest.replace(/\)\s*$/, ''));
  if (!t) return undefined;
  const zone = t[4] === 'Z' ? 'Z' : `${t[4].slice(0, 3)}:${t[4].slice(-2)}`;
  const ms = Date.parse(`${t[1]}T${t[2]}:${t[3] ?? '00'}${zone}`);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** From `opts.fromOffset`. Never throws. */
export async function readSpecStory(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  let role: 'user' | 'assistant' | undefined;
  let sidechain = false;
  let text: string[] = [];
  let inThink = false;
  let tool: { type: string; name: string; lines: string[] } | undefined;
  let time: string | undefined;
  /**
   * A command whose block shows no output, and the agent's words after it: they may say the user skipped it (the
   * Cursor extension's blocks carry no status), or be all that says how a test run ended (its claim).
   */
  let held: { command: SessionCommand; words: string[] } | undefined;
  const release = () => {
    if (!held) return;
    const { command, words } = held;
    held = undefined;
    const said = words.join('\n').trim();
    if (SKIPPED.test(said)) return acc.add({ ...command, ran: false });
    const claimed = testRunner(command.command) && command.exit_code === null ? claimedTestResult(said) : undefined;
    acc.add(claimed ? { ...command, claimed } : command);
  };

  const flushTurn = () => {
    if (role && text.length && !sidechain) {
      const cleaned = cleanTurnText(text.join('\n').replace(/\n?^---$\n?/gm, '\n'));
      if (cleaned) acc.add({ kind: 'turn', role, text: cleaned, ...(time ? { time } : {}) });
    }
    text = [];
  };
  const flushTool = () => {
    if (!tool) return;
    const r = specStoryTool(tool.type, tool.name, tool.lines.join('\n'), time);
    const at = time ? { time } : {};
    for (const p of r.edits) acc.add({ kind: 'file_edit', path: relativePath(p.replace(/^\.\//, ''), opts.workspaceRoot), tool: tool.name, ...at });
    if (r.command) {
      const c: SessionCommand = {
        kind: 'command',
        command: r.command.text,
        exit_code: r.command.exit,
        ran: r.command.ran,
        ...(r.command.output ? { output_tail: r.command.output } : {}),
        ...at,
      };
      if (c.ran && !c.output_tail) held = { command: c, words: [] };
      else acc.add(c);
    }
    if (r.plan && !sidechain) acc.add(r.plan);
    tool = undefined;
  };

  try {
    const { endOffset, stats } = await forEachLine(file, opts.fromOffset ?? 0, (line, info) => {
      if (info.partial) return false;
      const h = HEADING.exec(line);
      if (tool && !h) {
        tool.lines.push(line);
        if (line.includes('</tool-use>')) flushTool();
        return true;
      }
      if (h) {
        // A heading ends a block never closed (a cut export): what it holds is read.
        flushTool();
        if (h[1] === 'User') release();
        flushTurn();
        role = h[1] === 'User' ? 'user' : 'assistant';
        sidechain = /^\s*-\s*sidechain\b/.test(h[2]);
        time = headingTime(h[2]);
        inThink = false;
        return true;
      }
      const start = TOOL_START.exec(line);
      if (start) {
        release();
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
      if (held && line.trim() && line.trim() !== '---' && !sidechain) held.words.push(line);
      if (role) text.push(line);
      return true;
    });
    flushTool();
    release();
    flushTurn();
    return transcriptRead('specstory', file, acc, stats, endOffset);
  } catch (err) {
    return unreadable('specstory', file, err);
  }
}
