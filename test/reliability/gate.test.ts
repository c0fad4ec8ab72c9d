/**
 * Reliability, "one gate" (issue 14, Done when): a handoff written by the engine and by the
 * CLI with one fake token in its topic, `from`, session id, branch name (git checkout -b),
 * an untracked file's name, a decision and a Claude Code transcript (--session-log) leaves
 * the token nowhere under the handoff root — no file's bytes, no file name, not even
 * lowercased or slugged — and in no state file (the CLI's XDG state folder); nor in the
 * itervox and Agent Zero copies, nor on the CLI's stdout and stderr. A file whose name holds
 * ESC and ^A reaches no file raw. Tokens: a GitHub personal access token of valid shape
 * (`ghp_` + 30 base62 + a 6-character base62 CRC32 checksum, GitHub's published format) and
 * an Anthropic API key (`sk-ant-api03-` + 93 of `[A-Za-z0-9_-]` + `AA`). Both generated.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { runCli } from '../../src/cli/main';
import { parseHandoff } from '../../src/core/handoff/parse';
import type { HandoverResult } from '../../src/core/handoff/schema';
import { handover } from '../../src/engine/handover/handover';
import { randomString } from '../helpers/fakeSecrets';
import { cleanupTempDirs, commitAll, git, initRepo, tempDir, write } from '../helpers/repo';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** GitHub's token format: `ghp_`, 30 random base62 characters, then their CRC32 in 6 base62 characters. */
function fakeGithubToken(seed: number): string {
  const body = randomString(seed, 30, BASE62);
  let n = crc32(Buffer.from(body));
  let check = '';
  for (let i = 0; i < 6; i++) {
    check = BASE62[n % 62] + check;
    n = Math.floor(n / 62);
  }
  return `ghp_${body}${check}`;
}

/** Anthropic's API key format: `sk-ant-api03-`, 93 of `[A-Za-z0-9_-]`, `AA`. */
function fakeAnthropicKey(seed: number): string {
  return `sk-ant-api03-${randomString(seed, 93, `${BASE62}_-`)}AA`;
}

const TOKENS = [fakeGithubToken(1401), fakeAnthropicKey(1402)];
/** A file name with ESC (a colour sequence) and ^A. */
const CONTROL_NAME = 'esc\u001b[31mred\u0001.txt';

/** Every file under `dir`, recursively: its path relative to `dir` and its bytes. */
function filesUnder(dir: string): Array<{ rel: string; bytes: Buffer }> {
  if (!existsSync(dir)) return [];
  const out: Array<{ rel: string; bytes: Buffer }> = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push({ rel: path.relative(dir, full), bytes: readFileSync(full) });
    }
  };
  walk(dir);
  return out;
}

/** The pieces of `token` whose presence is a leak: the token, and its random part in any case (a slug lowercases it). */
function needles(token: string): string[] {
  const random = token.replace(/^(ghp_|sk-ant-api03-)/, '');
  return [token, random.slice(0, 24).toLowerCase()];
}

/** Where `token` (or a piece of it) appears in `files` (bytes, any case) or their names. */
function leaks(files: Array<{ rel: string; bytes: Buffer }>, token: string): string[] {
  const found: string[] = [];
  for (const { rel, bytes } of files) {
    const text = bytes.toString('utf8').toLowerCase();
    for (const n of needles(token)) {
      if (rel.toLowerCase().includes(n.toLowerCase())) found.push(`file name ${rel}`);
      if (text.includes(n.toLowerCase()))
        found.push(`${rel}: …${text.slice(Math.max(0, text.indexOf(n.toLowerCase()) - 60), text.indexOf(n.toLowerCase()) + 20)}…`);
    }
  }
  return found;
}

/** Raw ESC or ^A bytes in any of `files`. */
function rawControls(files: Array<{ rel: string; bytes: Buffer }>): string[] {
  // eslint-disable-next-line no-control-regex
  return files.filter((f) => f.bytes.includes(0x1b) || f.bytes.includes(0x01) || /[\u0001\u001b]/.test(f.rel)).map((f) => f.rel);
}

/** A Claude Code transcript (JSON lines) whose user and assistant turns carry `token`. */
function transcriptWith(token: string): string {
  const t = '2026-12-01T09:00:00.000Z';
  const file = path.join(tempDir('handoff-gate-transcript-'), 'session.jsonl');
  const lines = [
    { type: 'user', message: { role: 'user', content: `Deploy with my key ${token} please` }, timestamp: t },
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `Deployed using ${token}.` }] }, timestamp: t },
  ];
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return file;
}

/** A repository on a branch named after `token`, with an untracked file named after it, one named with controls, and the itervox / Agent Zero folders. */
function repoWith(token: string): string {
  const ws = initRepo(tempDir('handoff-gate-'));
  write(ws, 'src/a.ts', 'export const a = 1;\n');
  commitAll(ws, 'initial');
  git(ws, 'checkout', '-q', '-b', `feature/${token}`);
  write(ws, 'src/a.ts', 'export const a = 2;\n');
  write(ws, `notes-${token}.txt`, 'notes\n');
  write(ws, CONTROL_NAME, 'controls in my name\n');
  mkdirSync(path.join(ws, '.itervox'));
  mkdirSync(path.join(ws, '.a0proj'));
  return ws;
}

/** What must hold after a handoff with `token` everywhere: nothing under the handoff root, the copies and `extra` holds it or raw controls. */
function assertClean(ws: string, token: string, extra: Array<{ rel: string; bytes: Buffer }>): void {
  const root = filesUnder(path.join(ws, '.handoff'));
  assert.ok(root.some((f) => f.rel.startsWith('handoffs')) && root.some((f) => f.rel.startsWith('briefings')), 'a handoff and a briefing were written');
  const copies = [...filesUnder(path.join(ws, '.itervox')), ...filesUnder(path.join(ws, '.a0proj'))];
  assert.ok(copies.length >= 2, `the itervox and Agent Zero copies were written (${copies.map((c) => c.rel).join(', ')})`);
  const all = [...root, ...copies, ...extra];
  assert.deepEqual(leaks(all, token), [], 'the token reached a file');
  assert.deepEqual(rawControls(all), [], 'ESC or ^A reached a file raw');
  const handoff = root.find((f) => f.rel.startsWith('handoffs'))!.bytes.toString('utf8');
  const parsed = parseHandoff(handoff);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  assert.ok((parsed.ok ? Object.values(parsed.handoff.frontmatter.redactions).reduce((a, b) => a + b, 0) : 0) >= 5, 'the frontmatter counts the redactions');
  // The file with controls in its name is listed, readable, with its controls escaped.
  assert.ok(handoff.includes('esc\\u{1b}[31mred\\u{1}.txt'), 'the control characters of a path are shown as \\u{…} escapes');
  assert.match(handoff, /\[REDACTED:[a-z0-9-]+\]/);
}

describe('reliability: one gate (by field, file names, state files, outputs)', function () {
  this.timeout(120_000);
  const savedXdg = process.env.XDG_STATE_HOME;
  after(() => {
    if (savedXdg === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = savedXdg;
    cleanupTempDirs();
  });

  for (const [i, token] of TOKENS.entries()) {
    const kind = i === 0 ? 'a GitHub token (ghp_…)' : 'an Anthropic key (sk-ant-api03-…)';

    it(`engine: ${kind} in topic, from, session id, branch, an untracked file's name, a decision and the transcript reaches no file, no name, no state file`, async () => {
      const ws = repoWith(token);
      const state = path.join(tempDir('handoff-gate-state-'), 'session-log-state.json');
      const r: HandoverResult = await handover(
        {
          specialist: 'quality_reviewer',
          topic: `Rotate ${token} now`,
          from: `dev ${token}`,
          session_id: token,
          decisions: [`Keep ${token} out of git`],
          summary: 'Deploy key rotation.',
        },
        { workspaceRoot: ws, sessionLog: { mode: transcriptWith(token), statePath: state } },
      );
      assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
      assert.ok(existsSync(state), 'the session-log state was saved');
      const stateFile = { rel: 'state/session-log-state.json', bytes: readFileSync(state) };
      assert.ok(JSON.parse(stateFile.bytes.toString('utf8')).version === 1, 'the state file is still valid JSON');
      assertClean(ws, token, [stateFile]);
      assert.deepEqual(
        leaks([{ rel: 'result', bytes: Buffer.from(JSON.stringify(r)) }], token).filter((l) => !l.includes('notes-')),
        [],
        'the result object carries no token',
      );
    });

    it(`engine: ${kind} in the drafted fields — user requests and done items given, plan items, commands run and their folders from the session log — reaches no file`, async () => {
      const ws = repoWith(token);
      const session = {
        tests_run: [],
        recent_turns: [],
        file_edits: [],
        transcripts: [],
        notes: [],
        next_state: { version: 1 as const, files: {} },
        user_requests: [{ text: `Use the key ${token} for the deploy`, time: '2026-12-01T09:00:00.000Z', source: 'claude-code' as const, file: '/t.jsonl' }],
        plan: {
          items: [
            { text: `Rotated ${token}`, status: 'completed' as const },
            { text: `Revoke ${token}`, status: 'in_progress' as const },
          ],
          tool: 'TodoWrite',
          provenance: { reader: 'claude-code' as const, file: '/t.jsonl', time: null },
        },
        commands_run: [
          {
            command: `deploy --token ${token}`,
            cwd: `infra/${token}`,
            kind: 'deploy' as const,
            exit_code: 1,
            result: 'failed' as const,
            count: 2,
            failed_count: 2,
            source: 'claude-code',
            last_at: null,
          },
        ],
      };
      const r: HandoverResult = await handover(
        {
          specialist: 'security_data_engineer',
          topic: 'key rotation',
          draft: true,
          completed: [`Moved ${token} to the vault`],
          user_requests: [`And never paste ${token} again`, { text: `Check ${token} is revoked`, time: null, source: 'user' }],
        },
        { workspaceRoot: ws, sessionEvidence: session },
      );
      assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
      if (r.status !== 'ok') return;
      assert.ok(
        r.package.user_requests.length === 2 && r.package.next_steps.length === 1 && r.package.commands_run.length === 1,
        'the given requests, and the open plan item and the command from the session log',
      );
      assertClean(ws, token, []);
      assert.deepEqual(
        leaks([{ rel: 'result', bytes: Buffer.from(JSON.stringify(r)) }], token).filter((l) => !l.includes('notes-')),
        [],
        'the result object carries no token',
      );
      // …and nothing the draft job prints either (specialist-handoff draft --json).
      const out: string[] = [];
      const code = await runCli(['draft', '--json', '--session-log', transcriptWith(token)], { stdout: (t) => out.push(t), stderr: () => undefined, cwd: ws });
      assert.equal(code, 0);
      assert.ok(JSON.parse(out.join('\n')).draft.user_requests.length === 1, 'the draft carries the request');
      assert.deepEqual(
        leaks([{ rel: 'stdout', bytes: Buffer.from(out.join('\n')) }], token).filter((l) => !l.includes('notes-')),
        [],
      );
    });

    it(`CLI: ${kind} given with --topic, --from, --session-id, --decision, --session-log and in git reaches no file, no state file, no output`, async () => {
      const ws = repoWith(token);
      const xdg = tempDir('handoff-gate-xdg-');
      process.env.XDG_STATE_HOME = xdg;
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(
        [
          'handover',
          '-s',
          'security_data_engineer',
          '-t',
          `Rotate ${token}`,
          '--from',
          `dev ${token}`,
          '--session-id',
          token,
          '--decision',
          `Keep ${token} out of git`,
          '--session-log',
          transcriptWith(token),
          '--json',
        ],
        { stdout: (t) => out.push(t), stderr: (t) => err.push(t), cwd: ws },
      );
      assert.equal(code, 0, err.join('\n'));
      const result = JSON.parse(out.join('\n'));
      assert.equal(result.status, 'ok');
      const stateFiles = filesUnder(xdg);
      assert.ok(
        stateFiles.some((f) => f.rel.endsWith('session-log-state.json')),
        `the CLI saved its state in XDG_STATE_HOME (${stateFiles.map((f) => f.rel).join(', ')})`,
      );
      assertClean(ws, token, stateFiles);
      // The output boundary: stdout and stderr hold no token either (the untracked file's name is reported redacted too).
      assert.deepEqual(
        leaks(
          [
            { rel: 'stdout', bytes: Buffer.from(out.join('\n')) },
            { rel: 'stderr', bytes: Buffer.from(err.join('\n')) },
          ],
          token,
        ),
        [],
      );
    });
  }
});
