/**
 * The latest user request of each real session log in ../shared/fixtures/session-logs, derived
 * from the file itself, independently of the readers: with `jq` over the JSON formats (Claude
 * Code, Codex CLI, Cline) and with `grep` / `awk` over the Markdown ones (Aider, SpecStory),
 * normalized as every turn is (blank-line runs collapsed, trimmed) and cut at the documented
 * 2,000-character bound (src/core/session/requests.ts `MAX_REQUEST_CHARS`). The same reference
 * as test/real/userRequests.test.ts (issue 15, "requests"), shared by the handoff-level check
 * test/real/latestRequestInHandoff.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** The shared folder of real session logs, read in place. */
export const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'shared', 'fixtures', 'session-logs');
const BOUND = 2000;

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const jq = (filter: string, file: string, slurp = false) => JSON.parse(run('jq', [...(slurp ? ['-s'] : []), '-c', filter, file])) as string;

/** Claude Code: the last `user` record that is not meta, a sub-agent's or a compaction summary, its string content or text blocks. */
const CLAUDE = `[.[] | select(.type == "user" and .isMeta != true and .isSidechain != true and .isCompactSummary != true)
  | (if (.message.content | type) == "string" then .message.content else ([.message.content[] | select(.type == "text") | .text] | join("\\n\\n")) end)
  | select(length > 0)] | last`;
/** Codex: the last user message item that is not the injected environment context or AGENTS.md. */
const CODEX = `[.[] | select(.type == "response_item" and .payload.type == "message" and .payload.role == "user")
  | [.payload.content[] | .text // empty] | join("\\n")
  | select((startswith("<environment_context>") or startswith("# AGENTS.md")) | not)] | last`;
/** Cline: the task (first `text` message) or the user's last `user_feedback`. */
const CLINE = `[to_entries[] | select(.value.say == "user_feedback" or (.key == 0 and .value.say == "text")) | .value.text] | last`;

/** The last `#### ` turn of an Aider chat history (consecutive lines form one turn; slash commands are not turns). */
function aiderChat(file: string): string {
  const turns: string[][] = [];
  let prev = -2;
  run('grep', ['-n', '^#### ', file])
    .split('\n')
    .filter(Boolean)
    .forEach((l) => {
      const [, n, text] = /^(\d+):#### ?(.*)$/.exec(l) as RegExpExecArray;
      if (Number(n) !== prev + 1) turns.push([]);
      turns[turns.length - 1].push(text.replace(/\s+$/, ''));
      prev = Number(n);
    });
  return turns
    .map((t) => t.join('\n'))
    .filter((t) => !t.startsWith('/'))
    .at(-1) as string;
}

/** The last entry of an Aider input history (`# time`, then `+line`s) that is not an answer to a yes/no question. */
function aiderInput(file: string): string {
  const entries = run('awk', [
    '/^# [0-9][0-9][0-9][0-9]-/{n++; next} /^\\+/{sub(/^\\+/, ""); e[n] = e[n] $0 "\\n"} END{for (i = 1; i <= n; i++) printf "%s\\x1e", e[i]}',
    file,
  ]).split('\x1e');
  return entries.filter((e) => e.trim() && !/^(y|yes|n|no|s|skip|d|a|all)$/i.test(e.trim()) && !e.startsWith('/')).at(-1) as string;
}

/** The text of the last `_**User …**_` section of a SpecStory file (up to its `---`). */
function specstory(file: string): string {
  return run('awk', [
    '/^_\\*\\*User/{buf = ""; inside = 1; next} /^---$/{if (inside) last = buf; inside = 0; next} inside{buf = buf $0 "\\n"} END{printf "%s", last}',
    file,
  ]);
}

export function expectedLatest(rel: string): string {
  const file = path.join(FIXTURES, rel);
  if (rel.startsWith('claude-code/')) return jq(CLAUDE, file, true);
  if (rel.startsWith('codex/')) return jq(CODEX, file, true);
  if (rel.startsWith('cline/')) return jq(CLINE, path.join(path.dirname(file), 'ui_messages.json'));
  if (rel.endsWith('.aider.chat.history.md')) return aiderChat(file);
  if (rel.endsWith('.aider.input.history')) return aiderInput(file);
  if (rel.startsWith('specstory/')) return specstory(file);
  throw new Error(`no reference for ${rel}: say how to find its latest user request`);
}

/** As every turn is cleaned (runs of blank lines collapsed, trimmed), then bounded. */
export function normalized(text: string): string {
  const t = text.replace(/\n{3,}/g, '\n\n').trim();
  if (t.length <= BOUND) return t;
  // Cut inside a word: back to the whitespace before it when that is in the second half.
  let cut = /[\ud800-\udbff]/.test(t[BOUND - 1]) ? BOUND - 1 : BOUND;
  const space = /\s/.test(t[cut]) ? -1 : t.slice(0, cut).search(/\s\S*$/);
  if (space >= BOUND / 2) cut = space;
  return `${t.slice(0, cut)}\n[… ${t.length - cut} more characters left out]`;
}

/** Every log file under `dir` (relative paths), SOURCES.md left out. */
export function logFiles(dir: string, rel = ''): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((d) => {
    const r = rel ? `${rel}/${d.name}` : d.name;
    return d.isDirectory() ? logFiles(dir, r) : r === 'SOURCES.md' ? [] : [r];
  });
}
