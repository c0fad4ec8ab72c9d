/**
 * `request_full_history` end to end (issue 18, Done when: "on a handoff written from a long
 * transcript returns at most 50,000 tokens, the first and the latest turns intact, a marker
 * naming what was elided, no secret").
 *
 * A real git repository in a temporary folder; a long Claude Code transcript made of the lines
 * of a real one (../shared/fixtures, read in place: test/helpers/longTranscript.ts) in Claude
 * Code's own place (`$CLAUDE_CONFIG_DIR/projects/<workspace>/<session>.jsonl`), with keys planted
 * in their providers' formats; the handoff is written by the real CLI process
 * (`handover --session-log auto`), then the session goes on after it. The history is asked of
 * the real CLI process (`history`) and of the real MCP server process (`mcp`, through the MCP
 * SDK's client), and the tokens are counted again here with gpt-tokenizer (o200k_base, the
 * handoff's tokenizer).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { claudeProjectDirName } from '../../src/evidence/session/discovery';
import type { FullHistoryOk } from '../../src/engine/timeline/history';
import { CLI_FROM_SOURCE } from '../helpers/cli';
import { appendLaterWork, plantedSecrets, writeLongTranscript, type LongTranscript } from '../helpers/longTranscript';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Copies of the real transcript: 60 × 60 lines, about 12 MB and 150,000 tokens of turns and output. */
const COPIES = 60;

/** The text between a heading line and the next block (or the end). */
function blockAfter(text: string, headingLine: string): string | undefined {
  const at = text.indexOf(`${headingLine}\n\n`);
  if (at < 0) return undefined;
  const rest = text.slice(at + headingLine.length + 2);
  const end = rest.search(/\n\n(### |\[… )/);
  return (end < 0 ? rest : rest.slice(0, end)).trimEnd();
}

describe('request_full_history on a handoff written from a long real transcript (issue 18)', function () {
  this.timeout(240_000);
  let ws: string;
  let env: Record<string, string>;
  let transcript: LongTranscript;
  let created: string;
  let laterEnds: Date;
  const secrets = plantedSecrets();
  const run = (args: string[]) => {
    const r = spawnSync(process.execPath, [...CLI_FROM_SOURCE, ...args], { cwd: ws, env, encoding: 'utf8', timeout: 180_000, maxBuffer: 64 * 1024 * 1024 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  // A turn as every handoff shows it (cleanTurnText, src/core/session/events.ts: runs of 3+ line breaks become one blank line).
  const asTurn = (t: string) => t.replace(/\n{3,}/g, '\n\n').trim();
  const expectedFirst = () => asTurn(transcript.first.text.replace(secrets.aws, '[REDACTED:aws-access-key-id]'));
  const expectedLatest = () => asTurn(transcript.latest.text.replace(secrets.github, '[REDACTED:github-token]'));

  before(() => {
    ws = initRepo(tempDir('handoff-history-'));
    write(ws, 'internal/relay/ws_conn.go', 'package relay\n');
    commitAll(ws, 'relay skeleton');
    write(ws, 'internal/relay/ws_conn.go', 'package relay\n\n// WSConn adapts a websocket connection.\n');
    const claude = tempDir('handoff-history-claude-');
    env = { ...Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)), CLAUDE_CONFIG_DIR: claude };
    transcript = writeLongTranscript(path.join(claude, 'projects', claudeProjectDirName(ws)), { cwd: ws, copies: COPIES, endBefore: new Date() });
    const h = run([
      'handover',
      '--specialist',
      'quality_reviewer',
      '--topic',
      'wsconn review',
      '--summary',
      'Spec for the WSConn adapter written.',
      '--session-log',
      'auto',
      '--json',
    ]);
    assert.equal(h.code, 0, h.err);
    const written = JSON.parse(h.out) as { package: { created: string; session_sources: Array<{ file: string }> } };
    created = written.package.created;
    assert.deepEqual(
      written.package.session_sources.map((s) => s.file),
      [path.basename(transcript.file)],
      'the handoff names the transcript (outside the workspace and home: by its file name)',
    );
    // The session goes on after the handoff: none of that belongs to its history.
    laterEnds = appendLaterWork(transcript, ws, new Date(Date.parse(created)), 2000);
  });

  after(cleanupTempDirs);

  let cliResult: FullHistoryOk;

  it('the CLI returns at most 50,000 tokens with the first and the latest turns intact, a marker naming what was elided, and no secret', () => {
    const started = Date.now();
    const r = run(['history', '--json']);
    const ms = Date.now() - started;
    assert.equal(r.code, 0, r.err);
    const h = JSON.parse(r.out) as FullHistoryOk;
    cliResult = h;
    console.log(
      `      [history] ${transcript.lines.toLocaleString('en')} lines → ${h.tokens.toLocaleString('en')} tokens (${h.total.turns} turns, ${h.total.commands} commands; elided ${h.elided.turns} turns, ${h.elided.commands} commands, ${h.elided.outputs} outputs) in ${ms} ms`,
    );
    assert.equal(h.status, 'ok');
    assert.equal(h.max_tokens, 50_000);
    const counted = countTokens(h.text);
    assert.ok(counted <= 50_000, `${counted} tokens counted again with o200k_base`);
    assert.ok(h.tokens <= 50_000 && Math.abs(h.tokens - counted) <= 2, `reported ${h.tokens}, counted ${counted}`);
    assert.ok(counted > 40_000, `the cap is used, not a few lines (${counted})`);
    // The first turn: the user's ticket, whole (the planted key redacted in place).
    assert.equal(blockAfter(h.text, `### Turn 1 · user · ${transcript.first.time} · claude-code`), expectedFirst());
    // The latest turn before the handoff: the agent's last message, whole, numbered last and ending the history.
    assert.equal(blockAfter(h.text, `### Turn ${h.total.turns.toLocaleString('en')} · assistant · ${transcript.latest.time} · claude-code`), expectedLatest());
    assert.ok(h.text.trimEnd().endsWith(expectedLatest()), 'the latest turn ends the history');
    // The marker says what it left out, and its counts are the result's.
    const markers = [
      ...h.text.matchAll(
        /^\[… ([\d,]+) turns and ([\d,]+) commands elided here \(turns ([\d,]+)–([\d,]+), commands ([\d,]+)–([\d,]+), from (\S+) to (\S+)\) to stay within 50,000 tokens …\]$/gm,
      ),
    ];
    assert.equal(markers.length, 1, 'one elided run, in the middle');
    const [, turns, commands, t1, t2] = markers[0].map((x) => x.replace(/,/g, ''));
    assert.equal(Number(turns), h.elided.turns);
    assert.equal(Number(commands), h.elided.commands);
    assert.equal(Number(t2) - Number(t1) + 1, h.elided.turns);
    assert.ok(h.elided.turns > 0 && h.elided.commands > 0 && h.elided.outputs > 0, 'output dropped, then the middle elided');
    assert.match(h.text, /_Left out to stay within 50,000 tokens: the output of [\d,]+ commands/);
    // No secret: not in the history, not anywhere in the output; the kept ones are marked.
    for (const s of Object.values(secrets)) {
      assert.ok(!r.out.includes(s) && !r.err.includes(s), 'a planted key leaked');
    }
    assert.ok(h.text.includes('[REDACTED:aws-access-key-id]') && h.text.includes('[REDACTED:github-token]'));
    assert.ok((h.redactions['aws-access-key-id'] ?? 0) >= 1 && (h.redactions['github-token'] ?? 0) >= 2, JSON.stringify(h.redactions));
    // From the session's start (no handoff before) to the handoff: nothing the session did after it.
    assert.deepEqual(h.window, { from: null, to: created });
    const times = [...h.text.matchAll(/^### (?:Turn|Command) [\d,]+ · [^\n]*?(\d{4}-\d\d-\d\dT[\d:.]+Z)/gm)].map((m) => m[1]);
    assert.ok(times.length > 100 && times.every((t) => t <= created), 'every kept turn and command is from before the handoff');
    assert.deepEqual(h.sources, [path.basename(transcript.file)]);
  });

  it('the CLI prints the same history as Markdown without --json, and takes a smaller --max-tokens', () => {
    const plain = run(['history']);
    assert.equal(plain.code, 0, plain.err);
    assert.equal(plain.out.trimEnd(), cliResult.text.trimEnd());
    const small = run(['history', '--max-tokens', '5000', '--json']);
    assert.equal(small.code, 0, small.err);
    const h = JSON.parse(small.out) as FullHistoryOk;
    assert.ok(countTokens(h.text) <= 5000, `${countTokens(h.text)} tokens`);
    assert.equal(blockAfter(h.text, `### Turn 1 · user · ${transcript.first.time} · claude-code`), expectedFirst());
    assert.ok(h.text.trimEnd().endsWith(expectedLatest()));
  });

  it('the CLI refuses a --max-tokens outside 1,000–50,000 in its own words, and an unknown handoff', () => {
    const low = run(['history', '--max-tokens', '100']);
    assert.equal(low.code, 2);
    assert.equal(low.out, '');
    assert.equal(low.err.trim(), 'ERROR: --max-tokens must be a whole number from 1,000 to 50,000 (got 100) — leave it out for 50,000');
    const none = run(['history', '--handoff', 'no-such-handoff']);
    assert.equal(none.code, 2);
    assert.match(none.err, /^ERROR: handoff "no-such-handoff" not found in .* — pass a handoff id, its file name, or "latest"/);
  });

  it('the MCP server process answers request_full_history with the same history, redacted', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...CLI_FROM_SOURCE, 'mcp', '--cwd', ws],
      cwd: REPO_ROOT,
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'history-test-client', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'request_full_history'));
      const result = (await client.callTool({ name: 'request_full_history', arguments: { handoff: 'latest' } })) as CallToolResult;
      assert.notEqual(result.isError, true, JSON.stringify(result.content).slice(0, 300));
      const structured = result.structuredContent as unknown as FullHistoryOk;
      assert.equal(structured.text, cliResult.text, 'the same history as the CLI');
      assert.ok(countTokens(structured.text) <= 50_000);
      const first = result.content[0];
      assert.ok(first?.type === 'text' && first.text.startsWith(`# Full history behind handoff ${structured.handoff_id}`));
      assert.match(
        first.text,
        /\([\d,]+ of at most 50,000 tokens; [\d,]+ turns, [\d,]+ commands; output of [\d,]+ commands dropped, [\d,]+ turns and [\d,]+ commands elided\)/,
      );
      const all = JSON.stringify(result);
      for (const s of Object.values(secrets)) assert.ok(!all.includes(s), 'a planted key leaked over MCP');
      const bad = (await client.callTool({ name: 'request_full_history', arguments: { max_tokens: 60_000 } })) as CallToolResult;
      assert.equal(bad.isError, true);
      assert.deepEqual(bad.content, [{ type: 'text', text: 'ERROR: max_tokens must be at most 50,000' }]);
    } finally {
      await client.close();
    }
  });

  it("a later handoff's history starts where the previous handoff (its base commit's) left off", async () => {
    // The second handoff comes after the later work (its times end 2 s after the first handoff).
    while (Date.now() <= laterEnds.getTime()) await new Promise((r) => setTimeout(r, 100));
    commitAll(ws, 'WSConn adapter');
    const h = run([
      'handover',
      '--specialist',
      'implementation_engineer',
      '--topic',
      'wsconn build',
      '--summary',
      'Build it.',
      '--session-log',
      'auto',
      '--json',
    ]);
    assert.equal(h.code, 0, h.err);
    const second = JSON.parse(h.out) as { package: { id: string; created: string; base_commit: string | null } };
    const r = run(['history', '--handoff', second.package.id, '--json']);
    assert.equal(r.code, 0, r.err);
    const hist = JSON.parse(r.out) as FullHistoryOk;
    assert.deepEqual(hist.window, { from: created, to: second.package.created }, 'from the first handoff (whose HEAD is the base commit) to this one');
    const times = [...hist.text.matchAll(/^### (?:Turn|Command) [\d,]+ · [^\n]*?(\d{4}-\d\d-\d\dT[\d:.]+Z)/gm)].map((m) => m[1]);
    assert.ok(times.length > 0 && times.every((t) => t > created && t <= second.package.created), 'only the work done after the first handoff');
    assert.ok(hist.tokens < 50_000 && hist.elided.turns === 0, 'one copy of the session fits whole');
  });
});
