// One tool-use block of a SpecStory export, as specstory-cli (`pkg/session/markdown.go` `renderToolInfo`, Markdown
// v2.1.0) and the Cursor extension's older v2.0 blocks write it. A block the user refused or skipped did not run.
import { outputTail, type PlanItemStatus, type SessionPlan } from '../../../core/session/events';
import { planOf } from './planTools';

export interface SpecStoryTool {
  readonly command?: { readonly text: string; readonly ran: boolean; readonly exit: number | null; readonly output?: string };
  readonly edits: readonly string[];
  readonly plan?: SessionPlan;
}

const REFUSED =
  /The user doesn't want to (?:proceed with this tool use|take this action)|tool use was rejected|\[Request interrupted by user|Permission to use \S+ (?:has been )?denied|The user (?:has )?(?:skipped|rejected|cancell?ed)|User (?:chose to )?(?:skip|skipped|rejected|cancell?ed)/i;
const SHELL_NAMES = /bash|shell|terminal|command|exec/i;
const WRITE_NAMES =
  /^(?:Write|Edit|MultiEdit|NotebookEdit|apply_patch|edit_file|search_replace|write|edit|replace|create_file|write_file|str_replace\w*|multi_edit|insert_edit_into_file)$/;

function fences(text: string): Array<{ lang: string; body: string; start: number }> {
  const out: Array<{ lang: string; body: string; start: number }> = [];
  const re = /^(`{3,}|~{3,})([^\n`]*)\n([\s\S]*?)^\1[ \t]*$/gm;
  for (const m of text.matchAll(re)) out.push({ lang: m[2].trim(), body: m[3].replace(/\n$/, ''), start: m.index ?? 0 });
  return out;
}

/** Claude Code's "Exit code N" first line, Codex's "Process exited with code N" / "Exit code: N" line. */
function exitOf(output: string): number | null {
  const first = /^\s*Exit code:? (-?\d+)\s*$/m.exec(output.split('\n', 1)[0] ?? '');
  if (first) return Number(first[1]);
  const codex = /^(?:Process exited with code|Exit code:)\s*(-?\d+)\s*$/m.exec(output);
  return codex ? Number(codex[1]) : null;
}

const CHECK = /^\s*[-*]\s*\[(X|x| |⚡|-|~)\]\s*(?:(?:🔥|🌡️|🌡|❄️|❄)\s*)?(.+?)\s*$/u;

/** `- [X]` done, `- [⚡]` in progress, `- [ ]` open (Claude Code TodoWrite, Codex update_plan). */
function taskList(body: string, tool: string, time?: string): SessionPlan | undefined {
  const at = body.indexOf('**Agent task list:**');
  if (at < 0) return undefined;
  const items: Array<{ text: string; status: PlanItemStatus }> = [];
  for (const line of body.slice(at).split('\n').slice(1)) {
    const m = CHECK.exec(line);
    if (!m) {
      if (line.trim() && items.length) break;
      continue;
    }
    items.push({ text: m[2], status: m[1] === 'X' || m[1] === 'x' ? 'completed' : m[1] === ' ' ? 'pending' : 'in_progress' });
  }
  return planOf(tool, items, { time });
}

/** Claude Code's results ("File created successfully at: PATH"), Codex's `**Update: \`PATH\`**`, patch headers, `file_path`. */
function writtenPaths(summary: string, body: string): string[] {
  const out: string[] = [];
  const add = (p: string | undefined) => {
    const t = p?.trim().replace(/^`(.*)`$/, '$1');
    if (t && !out.includes(t)) out.push(t);
  };
  add(/Edit file:\s*(.+?)\s*$/m.exec(summary)?.[1]);
  for (const m of body.matchAll(/^\*\*(?:Add|Update|Modify|Delete|Move(?: to)?): `([^`]+)`\*\*\s*$/gm)) add(m[1]);
  for (const m of body.matchAll(/^\*\*\* (?:(?:Add|Update|Delete) File|Move to): (.+?)\s*$/gm)) add(m[1]);
  for (const m of body.matchAll(
    /^(?:File created successfully at:\s*(.+?)|The file (.+?) has been (?:updated|created|written)\b.*?|Applied \d+ edits? to (.+?):?)\s*$/gm,
  ))
    add(m[1] ?? m[2] ?? m[3]);
  for (const m of body.matchAll(/^- (?:file_path|filePath|path|target_file|notebook_path): `([^`]+)`\s*$/gm)) add(m[1]);
  return out;
}

/**
 * `type` and `name` are the block's `data-tool-type` and `data-tool-name`; `text` its lines:
 *
 *     <tool-use data-tool-type="shell" data-tool-name="Bash"><details>
 *     <summary>Tool use: **Bash**</summary>
 *     Run all tests                 ← description (Claude Code)
 *     `go test ./...`               ← the command (a ```bash fence when multi-line)
 *     ```text
 *     ok  github.com/…              ← the result ("Exit code N" first on failure)
 *     ```
 *     </details></tool-use>
 *
 * Codex puts a one-line command in the summary (`Tool use: **exec_command** \`cmd\``); Cursor writes `Run command: CMD`
 * / `Edit file: PATH` there, then the command in a ```bash fence, then the output.
 */
export function specStoryTool(type: string, name: string, text: string, time?: string): SpecStoryTool {
  const summaryMatch = /<summary>([\s\S]*?)<\/summary>/.exec(text);
  const summary = summaryMatch?.[1] ?? '';
  const afterSummary = summaryMatch ? text.slice((summaryMatch.index ?? 0) + summaryMatch[0].length) : text.replace(/^<tool-use[^>]*>/, '');
  const body = afterSummary
    .replace(/<\/details>\s*<\/tool-use>\s*$/, '')
    .replace(/<\/details>\s*$/, '')
    .replace(/<\/tool-use>\s*$/, '');
  // Refused, skipped or interrupted: said in the summary, a result fence or a status line, never the agent's description.
  const refused =
    REFUSED.test(summary) ||
    fences(body).some((f) => REFUSED.test(f.body)) ||
    /^Status: \*\*(?:cancell?ed|rejected|skipped)\*\*/im.test(body) ||
    /^\s*Cancell?ed\s*$/.test(body);
  const plan = taskList(body, name, time);
  if (plan) return { edits: [], plan };
  if (type === 'write' || WRITE_NAMES.test(name)) return { edits: refused ? [] : writtenPaths(summary, body) };
  if (type !== 'shell' && (type === 'read' || type === 'search' || !SHELL_NAMES.test(name))) return { edits: [] };

  const blocks = fences(body);
  let command = /Run command:\s*([\s\S]+?)\s*$/.exec(summary)?.[1] ?? /Tool use: \*\*[^*]+\*\*\s+`([^`\n]+)`\s*$/.exec(summary)?.[1];
  let rest = blocks;
  if (!command) {
    // Claude Code: the command in backticks before the first fence; else a ```bash fence.
    const beforeFence = body.slice(0, blocks[0]?.start ?? body.length);
    command = /^`([^`\n]+)`\s*$/m.exec(beforeFence)?.[1];
    if (!command && blocks[0] && /^(?:bash|sh|shell|zsh|console|powershell|ps1)?$/.test(blocks[0].lang)) {
      command = blocks[0].body.replace(/^\$ /, '');
      rest = blocks.slice(1);
    }
  } else if (blocks[0] && blocks[0].body.replace(/^\$ /, '').trim().startsWith(command.trim().split('\n')[0])) {
    // The command repeated in a fence (Cursor), before its output.
    rest = blocks.slice(1);
  }
  if (!command?.trim()) return { edits: [] };
  const output = rest.map((b) => b.body).join('\n');
  return {
    edits: [],
    command: { text: command.trim(), ran: !refused, exit: refused ? null : exitOf(output), ...(output.trim() ? { output: outputTail(output) } : {}) },
  };
}
