/**
 * A long Claude Code transcript for the full-history tests (issue 18), built only from the
 * lines of a real one (../shared/fixtures/session-logs/claude-code/pyrycode-clean-trimmed.jsonl,
 * read in place): the file's lines repeated `copies` times, each copy with fresh `uuid` /
 * `parentUuid` chains, fresh `toolu_…` tool-use ids, its own `sessionId` and `cwd`, and
 * timestamps shifted so the copies follow one another — the published shape of a Claude Code
 * session that went on for hours. Written in a temporary folder only.
 *
 * Secrets are planted in real formats (AWS access key id `AKIA` + 16, GitHub classic token
 * `ghp_` + 36, GitHub OAuth token `gho_` + 36: test/helpers/fakeSecrets.ts): in the first user
 * turn, in the latest assistant turn, and in a Bash command and its output in the middle.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { fakeSecrets } from './fakeSecrets';

/** The real transcript the long one is made of. */
export const REAL_CLAUDE_TRANSCRIPT = path.resolve(
  __dirname,
  '..',
  '..',
  '..',
  'shared',
  'fixtures',
  'session-logs',
  'claude-code',
  'pyrycode-clean-trimmed.jsonl',
);

/** The planted secrets (real formats) and what each is redacted as. */
export function plantedSecrets(): { aws: string; github: string; oauth: string } {
  const all = fakeSecrets();
  const pick = (format: string) => {
    const f = all.find((x) => x.format === format);
    if (!f) throw new Error(`no fake secret "${format}"`);
    return f.value;
  };
  return { aws: pick('AWS access key id'), github: pick('GitHub classic personal access token'), oauth: pick('GitHub OAuth access token') };
}

/** A turn of the transcript as the test expects it back: its time and its text (as written, secrets in place). */
export interface ExpectedTurn {
  readonly time: string;
  readonly text: string;
}

/** What {@link writeLongTranscript} wrote: the file, its line count, the first and the latest turns, the session id. */
export interface LongTranscript {
  readonly file: string;
  readonly lines: number;
  readonly first: ExpectedTurn;
  readonly latest: ExpectedTurn;
  readonly sessionId: string;
}

type Line = Record<string, unknown> & { message?: { content?: unknown } };

/** The real file's lines, parsed. */
function realLines(): Line[] {
  return readFileSync(REAL_CLAUDE_TRANSCRIPT, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Line);
}

/** The copies of the real lines starting at `startMs`, and the time just after the last. */
function copiesOf(
  lines: readonly Line[],
  copies: number,
  startMs: number,
  cwd: string,
  sessionId: string,
  tag: string,
  withinMs?: number,
): { out: Line[]; endMs: number } {
  const times = lines.map((l) => (typeof l.timestamp === 'string' ? Date.parse(l.timestamp) : NaN)).filter((t) => !Number.isNaN(t));
  const t0 = Math.min(...times);
  const real = Math.max(...times) - t0 + 60_000;
  // `withinMs`: the copy's times squeezed into that many milliseconds, in the same order.
  const scale = withinMs ? withinMs / (real * copies) : 1;
  const span = real * scale;
  const out: Line[] = [];
  let previous: string | null = null;
  for (let k = 0; k < copies; k++) {
    const ids = new Map<string, string>();
    const fresh = (id: unknown) => {
      if (typeof id !== 'string') return id;
      if (!ids.has(id)) ids.set(id, randomUUID());
      return ids.get(id);
    };
    for (const line of lines) {
      // Fresh tool-use ids per copy (the result finds its use by id), as Claude Code gives each call its own.
      const text = JSON.stringify(line).replace(/toolu_([A-Za-z0-9]+)/g, (_, id: string) => `toolu_${tag}${k}x${id}`);
      const l = JSON.parse(text) as Line;
      if (typeof l.uuid === 'string') l.uuid = fresh(l.uuid);
      if (typeof l.parentUuid === 'string') l.parentUuid = ids.has(l.parentUuid) ? ids.get(l.parentUuid) : fresh(l.parentUuid);
      else if ('parentUuid' in l && l.parentUuid === null && previous) l.parentUuid = previous;
      if (typeof l.timestamp === 'string') l.timestamp = new Date(Math.round((Date.parse(l.timestamp) - t0) * scale) + startMs + k * span).toISOString();
      if ('sessionId' in l) l.sessionId = sessionId;
      if ('cwd' in l) l.cwd = cwd;
      if (typeof l.uuid === 'string') previous = l.uuid;
      out.push(l);
    }
  }
  return { out, endMs: startMs + copies * span };
}

const isTextTurn = (l: Line, role: 'user' | 'assistant') =>
  l.type === role &&
  (role === 'user'
    ? typeof l.message?.content === 'string'
    : Array.isArray(l.message?.content) && (l.message.content as Array<{ type?: string }>).some((b) => b.type === 'text'));

/**
 * Writes the long transcript into `dir` as `<session id>.jsonl` (Claude Code's file name):
 * `copies` copies of the real lines, ending before `endBefore`, with the secrets of
 * {@link plantedSecrets} planted. The first turn is the real file's first user message (of the
 * first copy), the latest its last assistant text (of the last copy).
 */
export function writeLongTranscript(dir: string, opts: { cwd: string; copies: number; endBefore: Date }): LongTranscript {
  const sessionId = randomUUID();
  const lines = realLines();
  const probe = copiesOf(lines, opts.copies, 0, opts.cwd, sessionId, 'p');
  const start = opts.endBefore.getTime() - probe.endMs - 3_600_000;
  const { out } = copiesOf(lines, opts.copies, start, opts.cwd, sessionId, 's');
  const secrets = plantedSecrets();
  const firstIdx = out.findIndex((l) => isTextTurn(l, 'user'));
  const first = out[firstIdx] as Line & { message: { content: string } };
  first.message.content = `${first.message.content}\n\nThe deploy user is AWS_ACCESS_KEY_ID=${secrets.aws} (rotate it after the review).`;
  let latestIdx = out.length - 1;
  while (!isTextTurn(out[latestIdx], 'assistant')) latestIdx--;
  const blocks = (out[latestIdx].message as { content: Array<{ type: string; text?: string }> }).content;
  const textBlock = blocks.find((b) => b.type === 'text') as { text: string };
  textBlock.text = `${textBlock.text}\n\nI used the token ${secrets.github} for the release; revoke it.`;
  // The middle: a Bash call and its output carry the OAuth token.
  const middle = Math.floor(out.length / 2);
  const bashIdx = out.findIndex((l, i) => i >= middle && JSON.stringify(l).includes('"name":"Bash"'));
  const bash = out[bashIdx].message as { content: Array<{ type: string; name?: string; input?: { command?: string } }> };
  const use = bash.content.find((b) => b.type === 'tool_use' && b.name === 'Bash');
  if (use?.input?.command) use.input.command = `GITHUB_TOKEN=${secrets.oauth} ${use.input.command}`;
  const file = path.join(dir, `${sessionId}.jsonl`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${out.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return {
    file,
    lines: out.length,
    first: { time: String(first.timestamp), text: first.message.content.trim() },
    latest: { time: String(out[latestIdx].timestamp), text: textBlock.text.trim() },
    sessionId,
  };
}

/**
 * Appends one more copy of the real lines, its times squeezed into the `withinMs` milliseconds
 * after `after` (the session went on after the handoff): none of it is in that handoff's history.
 * @returns the time of its last line
 */
export function appendLaterWork(t: LongTranscript, cwd: string, after: Date, withinMs: number): Date {
  const { out, endMs } = copiesOf(realLines(), 1, after.getTime() + 1, cwd, t.sessionId, 'later', withinMs);
  appendFileSync(t.file, `${out.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return new Date(endMs);
}
