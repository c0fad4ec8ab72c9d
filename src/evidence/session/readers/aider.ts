// Aider's `.aider.chat.history.md` (Markdown, appended to), read as lines from a byte offset:
// - `#### ` lines are the user's words (consecutive ones one turn); other text is the assistant's (edit blocks shortened)
// - `> ` lines are Aider's console: "Applied edit to PATH" is an edit; a proposed command ("> CMD" then "> Run shell
//   command? … : y") ran when answered yes; `/run`, `/test`, `!` ran. No exit codes: the printed summary gives the result.
import { cleanTurnText, outputTail, type SessionCommand, type SessionTurn, type TranscriptRead } from '../../../core/session/events';
import { forEachLine } from '../lines';
import { accumulator, relativePath, transcriptRead, unreadable, type ReaderOptions } from './common';

const RUN_QUESTION = /^Run shell commands?\? .*?:\s*(\w+)?\s*$/;
const SESSION_START = /^# aider chat started at (.+?)\s*$/;

/** `/ask`, `/code`, `/architect`, `/context` send their text to the model; `/copy-context TEXT` is a web chat's instruction. */
const MESSAGE_COMMANDS = new Set(['ask', 'code', 'architect', 'context', 'copy-context']);

/**
 * `/run CMD`, `/test CMD`, `!CMD` run a command; the message commands carry the request; any other `/cmd` (`/add a.py`,
 * `/drop`, `/undo`, …) is an instruction to Aider, never a user turn. Undefined when not a command.
 */
export function slashCommand(text: string): { run?: string; message?: string } | undefined {
  const bang = /^!\s*([\s\S]+)$/.exec(text);
  if (bang) return { run: bang[1].trim() };
  const m = /^\/([a-z][\w-]*)\b\s*([\s\S]*)$/.exec(text);
  if (!m) return undefined;
  const rest = m[2].trim();
  if ((m[1] === 'run' || m[1] === 'test') && rest) return { run: rest };
  if (MESSAGE_COMMANDS.has(m[1]) && rest) return { message: rest };
  return {};
}

const squashed = (t: string) => t.replace(/\s+/g, ' ').trim();

/** From `opts.fromOffset`. Never throws. */
export async function readAider(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  let mode: 'none' | 'user' | 'assistant' | 'console' = 'none';
  let buf: string[] = [];
  let time: string | undefined;
  let proposed: string[] = [];
  let running: SessionCommand | undefined;
  let runningOutput: string[] = [];
  /** Aider writes a `/ask`-like command's text again as the next input. */
  let echoOf: string | undefined;
  /** In architect mode the model's reply comes back as the editor's input (white space squashed). */
  let lastReply: string | undefined;

  const flushTurn = () => {
    if ((mode === 'user' || mode === 'assistant') && buf.length) {
      let text = buf.join('\n');
      if (mode === 'assistant') {
        text = text.replace(/^(\S.*)\n(`{3,4})\w*\n<<<<<<< SEARCH[\s\S]*?>>>>>>> REPLACE\n\2/gm, '[edit block for $1]');
      }
      const cleaned = cleanTurnText(text);
      const slash = mode === 'user' && cleaned ? slashCommand(cleaned) : undefined;
      if (slash?.run) {
        running = { kind: 'command', command: slash.run, exit_code: null, ran: true, ...(time ? { time } : {}) };
        runningOutput = [];
      }
      const said = slash ? slash.message : cleaned;
      // Aider writes the text of `/ask X` (`/code`, `/architect` …) again as the next input line: one request.
      const echo = mode === 'user' && !slash && said !== undefined && said === echoOf;
      echoOf = slash?.message;
      // In architect mode the architect's reply comes again as `#### ` lines: the editor's input, not the user's words.
      const handOff = mode === 'user' && !slash && said !== undefined && lastReply !== undefined && squashed(said) === lastReply;
      if (mode === 'assistant' && said) lastReply = squashed(said);
      if (said && !echo && !handOff) {
        const turn: SessionTurn = { kind: 'turn', role: mode as 'user' | 'assistant', text: said, ...(time ? { time } : {}) };
        acc.add(turn);
      }
    }
    buf = [];
  };
  const flushRun = () => {
    if (running) {
      acc.add({ ...running, output_tail: outputTail(runningOutput.join('\n')) });
      running = undefined;
      runningOutput = [];
    }
  };

  try {
    const { endOffset, stats } = await forEachLine(file, opts.fromOffset ?? 0, (raw, info) => {
      if (info.partial) {
        return false; // Aider writes whole lines; a partial one is still being written
      }
      const line = raw.replace(/ {2}$/, '');
      const start = SESSION_START.exec(line);
      if (start) {
        flushTurn();
        flushRun();
        const t = Date.parse(start[1].replace(' ', 'T'));
        time = Number.isNaN(t) ? undefined : new Date(t).toISOString();
        mode = 'none';
        return true;
      }
      if (line.startsWith('#### ') || line === '####') {
        if (mode !== 'user') {
          flushTurn();
          flushRun();
          proposed = [];
          mode = 'user';
        }
        buf.push(line.replace(/^#### ?/, ''));
        return true;
      }
      if (line.startsWith('> ') || line === '>') {
        const text = line.replace(/^> ?/, '');
        if (mode !== 'console') {
          flushTurn();
          mode = 'console';
        }
        const edit = /^Applied edit to (.+)$/.exec(text);
        const answer = RUN_QUESTION.exec(text);
        if (edit) {
          acc.add({ kind: 'file_edit', path: relativePath(edit[1], opts.workspaceRoot), tool: 'aider', ...(time ? { time } : {}) });
        } else if (answer) {
          const yes = /^y/i.test(answer[1] ?? 'y');
          // The proposal is the line before the question: among proposals, or (after a command that ran) its last output line.
          const cmd = proposed.pop() ?? (running ? runningOutput.pop() : undefined);
          flushRun();
          if (cmd) {
            if (yes) {
              running = { kind: 'command', command: cmd, exit_code: null, ran: true, ...(time ? { time } : {}) };
            } else {
              acc.add({ kind: 'command', command: cmd, exit_code: null, ran: false, ...(time ? { time } : {}) });
            }
          }
          proposed = [];
        } else if (running) {
          runningOutput.push(text);
        } else if (
          text &&
          !/^(Tokens:|Commit [0-9a-f]+|You can use \/undo|Add .* to the chat\?|Create new file\?|Allow edits to|Git repo|Repo-map|Model:|Aider v|https?:)/.test(
            text,
          )
        ) {
          proposed.push(text);
          if (proposed.length > 50) proposed.shift();
        }
        return true;
      }
      if (mode === 'console' || mode === 'none') {
        if (!line.trim()) return true;
        flushRun();
        mode = 'assistant';
      }
      if (mode === 'user') {
        // A blank line ends what the user typed (a blank line inside a multi-line input is written as `#### `).
        flushTurn();
        mode = line.trim() ? 'assistant' : 'none';
        if (!line.trim()) return true;
      }
      buf.push(line);
      return true;
    });
    flushTurn();
    flushRun();
    return transcriptRead('aider', file, acc, stats, endOffset);
  } catch (err) {
    return unreadable('aider', file, err);
  }
}

/**
 * `.aider.input.history`, used when the chat history is not there: entries `# <time>` then `+<line>` lines. `/run` and
 * `/test` entries are commands (exit code unknown); yes/no answers and other slash commands are left out.
 */
export async function readAiderInputHistory(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  let time: string | undefined;
  let lines: string[] | undefined;
  const flush = () => {
    if (!lines) return;
    const text = lines.join('\n').trim();
    lines = undefined;
    if (!text || /^(y|yes|n|no|s|skip|d|a|all)$/i.test(text)) return;
    const slash = slashCommand(text);
    if (slash?.run) {
      acc.add({ kind: 'command', command: slash.run, exit_code: null, ran: true, ...(time ? { time } : {}) });
    } else if (!slash || slash.message) {
      acc.add({ kind: 'turn', role: 'user', text: slash?.message ?? text, ...(time ? { time } : {}) });
    }
  };
  try {
    const { endOffset, stats } = await forEachLine(file, opts.fromOffset ?? 0, (line, info) => {
      if (info.partial) return false;
      const stamp = /^# (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})/.exec(line);
      if (stamp) {
        flush();
        time = `${stamp[1]}T${stamp[2]}`;
        lines = [];
      } else if (line.startsWith('+')) {
        (lines ??= []).push(line.slice(1));
      } else if (line.trim()) {
        info.stats.skipped++;
      }
      return true;
    });
    flush();
    return transcriptRead('aider', file, acc, stats, endOffset);
  } catch (err) {
    return unreadable('aider', file, err);
  }
}
