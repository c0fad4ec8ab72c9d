// The drafted sections of the handoff file (Done, User requests, Commands run), rendered and read back. Every line of a user
// request is quoted with `>`, so a request holding `## Heading`, a fence or `---` cannot add a section or break the file.
import { codeSpan } from './codeSpan';
import type { CommandRun, UserRequest } from './draftFields';
import type { Dropped, TestRun } from './fields';

const NONE = '_None._';

/** A short field (a source, a time) on one line: line breaks and control characters as one space. */
function flat(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim() || '?';
}

function count(n: number): string {
  return n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `text` as a Markdown block quote: each line (split at CRLF, CR or LF) prefixed `> `, an empty line `>`. */
export function quoteBlock(text: string): string {
  return text
    .trim()
    .split(/\r\n|\r|\n/)
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');
}

function unquote(lines: readonly string[]): string {
  return lines.map((l) => l.replace(/^> ?/, '')).join('\n');
}

/** The note of a fit-to-budget cut of `section`, or '' (also when it only shortened items). */
function cutNote(dropped: readonly Dropped[], section: Dropped['section']): { count: number; text: string } {
  const d = dropped.find((x) => x.section === section);
  return d && d.count > 0
    ? { count: d.count, text: ` (${count(d.count)} cut to fit the token budget, ${count(d.tokens)} token${d.tokens === 1 ? '' : 's'})` }
    : { count: 0, text: '' };
}

/** The note of items fit-to-budget shortened in `section`, or ''. */
function shortenedNote(dropped: readonly Dropped[], section: Dropped['section'], one: string, many: string): string {
  const n = dropped.find((x) => x.section === section)?.shortened ?? 0;
  return n > 0 ? `\n\n_${count(n)} ${n === 1 ? one : many} to fit the token budget._` : '';
}

export function renderDone(items: readonly string[]): string {
  return items.length ? items.map((t) => `- ${t.trim().replace(/\r\n|\r|\n/g, '\n  ')}`).join('\n') : NONE;
}

export function parseDone(section: string): string[] {
  const items: string[] = [];
  for (const line of section.split('\n')) {
    if (line.startsWith('- ')) items.push(line.slice(2));
    else if (line.startsWith('  ') && items.length) items[items.length - 1] += `\n${line.slice(2)}`;
  }
  return items;
}

const REQUEST_HEADER = /^\*\*Request (\d+)(, the latest)?\*\* \((.+?)(?:, (\S+))?\):$/;

/** Oldest first, the last marked `the latest`; numbering counts the requests not carried, so the latest's number is how many the handoff knows of. */
export function renderUserRequests(requests: readonly UserRequest[], omitted: number, dropped: readonly Dropped[]): string {
  if (!requests.length) return NONE;
  const blocks = requests.map((r, i) => {
    const latest = i === requests.length - 1 ? ', the latest' : '';
    return `**Request ${omitted + i + 1}${latest}** (${flat(r.source)}${r.time ? `, ${flat(r.time).replace(/\s+/g, '_')}` : ''}):\n\n${quoteBlock(r.text)}`;
  });
  const cut = cutNote(dropped, 'user_requests');
  if (omitted > 0) {
    blocks.push(`_${count(omitted)} older request${omitted === 1 ? ' is' : 's are'} not carried${cut.text}._`);
  }
  return (
    blocks.join('\n\n') +
    shortenedNote(
      dropped,
      'user_requests',
      'request shortened (an older one to its first line, the latest to its head)',
      'requests shortened (older ones to their first line, the latest to its head)',
    )
  );
}

/** Texts trimmed, line breaks as LF. */
export function parseUserRequests(section: string): UserRequest[] {
  const out: UserRequest[] = [];
  let quoted: string[] | undefined;
  const flush = () => {
    if (quoted && out.length) out[out.length - 1] = { ...out[out.length - 1], text: unquote(quoted) };
    quoted = undefined;
  };
  for (const line of section.split('\n')) {
    const h = REQUEST_HEADER.exec(line);
    if (h) {
      flush();
      out.push({ text: '', source: h[3], time: h[4] ?? null });
      quoted = [];
    } else if (quoted && (line === '>' || line.startsWith('> '))) {
      quoted.push(line);
    } else if (quoted && quoted.length && line.trim() === '') {
      flush();
    }
  }
  flush();
  return out.filter((r) => r.text.length > 0);
}

const COMMAND_MARK: Record<CommandRun['result'], string> = { succeeded: '✅', failed: '❌', unknown: '❔' };
const MARK_RESULT: Record<string, CommandRun['result']> = { '✅': 'succeeded', '❌': 'failed', '❔': 'unknown' };

/** Failures first, else as given (stable). */
export function failuresFirst(commands: readonly CommandRun[]): CommandRun[] {
  return [...commands.filter((c) => c.result === 'failed'), ...commands.filter((c) => c.result !== 'failed')];
}

/**
 * ``- ❌ `npm run build` (exit 2; in `packages/api`; ×3, 2 failed; build; source: claude-code; last at 2026-12-01T10:00:00Z)``;
 * `compact` drops the workspace folder or `sharedCwd`, the source and the time.
 */
export function renderCommandRun(c: CommandRun, compact = false, sharedCwd?: string): string {
  const details = [c.exit_code === null ? 'exit code unknown' : `exit ${c.exit_code}`];
  if (c.cwd && !(compact && (c.cwd === '.' || c.cwd === sharedCwd))) details.push(`in ${codeSpan(c.cwd)}`);
  // One run: its mark says whether it failed. Repeated: how many runs, how many of them failed.
  if (c.count > 1) details.push(`×${c.count}${c.failed_count > 0 ? `, ${c.failed_count} failed` : ''}`);
  details.push(c.kind);
  if (!compact) details.push(`source: ${flat(c.source)}`);
  if (c.last_at && !compact) details.push(`last at ${flat(c.last_at).replace(/\s+/g, '_')}`);
  return `- ${COMMAND_MARK[c.result]} ${codeSpan(c.command)} (${details.join('; ')})`;
}

/** Failures first, then "… and N more". */
export function renderCommandsRun(commands: readonly CommandRun[], omitted: number, dropped: readonly Dropped[], compact = false): string {
  // Compact, a folder other than the workspace that every command ran in is said once, under the list.
  const folder = commands[0]?.cwd;
  const shared = compact && commands.length > 1 && folder && folder !== '.' && commands.every((c) => c.cwd === folder) ? folder : undefined;
  const lines = failuresFirst(commands).map((c) => renderCommandRun(c, compact, shared));
  if (omitted > 0) lines.push(`- … and ${count(omitted)} more${cutNote(dropped, 'commands_run').text}`);
  const where = shared ? `\n\n_All run in ${codeSpan(shared)}._` : '';
  return lines.length
    ? lines.join('\n') + where + shortenedNote(dropped, 'commands_run', 'command shown as its first line', 'commands shown as their first line')
    : NONE;
}

function unCode(fence: string, inner: string): string {
  const body = fence.length > 1 && inner.startsWith(' ') && inner.endsWith(' ') ? inner.slice(1, -1) : inner;
  return body.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
}

const COMMAND_LINE =
  /^- (✅|❌|❔) (`+)(.*?)\2 \((?:exit (-?\d+)|exit code unknown)(?:; in (`+)(.*?)\5)?(?:; ×(\d+)(?:, (\d+) failed)?)?; (build|install|migration|deploy|git|other)(?:; source: (.+?))?(?:; last at (\S+))?\)$/u;

const SHARED_FOLDER_NOTE = /^_All run in (`+)(.*?)\1\._$/;

/** Lines without a folder take the folder of the list's "All run in" note. */
export function parseCommandsRun(section: string): CommandRun[] {
  const out: CommandRun[] = [];
  const lines = section.split('\n');
  const note = lines.map((l) => SHARED_FOLDER_NOTE.exec(l.trim())).find((m) => m);
  const shared = note ? unCode(note[1], note[2]) : null;
  for (const line of lines) {
    const m = COMMAND_LINE.exec(line.trimEnd());
    if (!m) continue;
    out.push({
      command: unCode(m[2], m[3]),
      cwd: m[5] !== undefined ? unCode(m[5], m[6]) : shared,
      kind: m[9] as CommandRun['kind'],
      exit_code: m[4] !== undefined ? Number(m[4]) : null,
      result: MARK_RESULT[m[1]],
      count: m[7] !== undefined ? Number(m[7]) : 1,
      failed_count: m[8] !== undefined ? Number(m[8]) : m[7] === undefined && m[1] === '❌' ? 1 : 0,
      source: m[10] ?? 'user',
      last_at: m[11] ?? null,
    });
  }
  return out;
}

const TEST_MARK_RESULT: Record<string, TestRun['result']> = { '✅ passed': 'passed', '❌ failed': 'failed', '❔ unknown': 'unknown' };

const TEST_LINE =
  /^- (✅ passed|❌ failed|❔ unknown) (`+)(.*?)\2 \((?:exit (-?\d+)|(exit code unknown)|(no exit code: result read from the output)|(no exit code: the agent's claim))(?:; in (`+)(.*?)\8)?(?:; ×\d+(?:, \d+ failed)?)?(?:; ((?:\d+ (?:passed|failed|skipped))(?:, \d+ (?:passed|failed|skipped))*))?; source: (.+?)\)$/u;

/** The inverse of `renderTestRun` in render.ts; `started_at` and `duration_ms` are not in the line (null). */
export function parseTestsRun(section: string): TestRun[] {
  const out: TestRun[] = [];
  for (const line of section.split('\n')) {
    const m = TEST_LINE.exec(line.trimEnd());
    if (!m) continue;
    const counts: NonNullable<TestRun['counts']> = {};
    for (const part of m[10]?.split(', ') ?? []) {
      const [n, k] = part.split(' ');
      counts[k as 'passed' | 'failed' | 'skipped'] = Number(n);
    }
    out.push({
      command: unCode(m[2], m[3]),
      cwd: m[8] !== undefined ? unCode(m[8], m[9]) : null,
      exit_code: m[4] !== undefined ? Number(m[4]) : null,
      result: TEST_MARK_RESULT[m[1]],
      ...(m[6] !== undefined
        ? { basis: 'output' as const }
        : m[7] !== undefined
          ? { basis: 'claim' as const }
          : m[4] !== undefined
            ? { basis: 'exit code' as const }
            : {}),
      ...(m[10] !== undefined ? { counts } : {}),
      source: m[11],
      started_at: null,
      duration_ms: null,
    });
  }
  return out;
}
