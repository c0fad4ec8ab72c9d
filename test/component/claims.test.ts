/**
 * Issue 18, "Claims and their evidence", through the real CLI on a real temporary git
 * repository and a Claude Code transcript written as Claude Code writes one (Bash `tool_use`,
 * its `tool_result` with `is_error` and "Error: Exit code N" for a failure): the agent says
 * "All tests pass and lint is clean." after `npm test` passed, `npm run lint` exited 0 and
 * `npm test` then failed — the handoff file shows the tests claim contradicted and the lint
 * claim backed, counts them in its frontmatter, `--json` carries them in the package, and the
 * briefing names what is contradicted. Without any session log the same words have no evidence.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseHandoff } from '../../src/core/handoff/parse';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { cli } from '../helpers/cli';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';

/** A Claude Code transcript: the user's request, `npm test` passing, `npm run lint` exit 0, `npm test` failing, the agent's last word. */
function transcript(dir: string, cwd: string): string {
  const base = {
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd,
    sessionId: '5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    version: '2.0.14',
    gitBranch: 'main',
  };
  let n = 0;
  const at = () => `2026-12-01T11:${String(n++).padStart(2, '0')}:00.000Z`;
  const user = (content: unknown, extra: Record<string, unknown> = {}) => ({
    ...base,
    type: 'user',
    message: { role: 'user', content },
    uuid: `u${n}`,
    timestamp: at(),
    ...extra,
  });
  const assistant = (content: unknown[]) => ({
    ...base,
    type: 'assistant',
    message: { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: null },
    uuid: `a${n}`,
    timestamp: at(),
  });
  const bash = (id: string, command: string, error: boolean, output: string) => [
    assistant([{ type: 'tool_use', id, name: 'Bash', input: { command, description: command } }]),
    user([{ type: 'tool_result', tool_use_id: id, content: error ? `Error: ${output}` : output, is_error: error }], {
      toolUseResult: { stdout: output, stderr: '', interrupted: false },
    }),
  ];
  const lines = [
    user('Make all tests pass and fix lint, please. Can you also check the build?'),
    ...bash('toolu_t1', 'npm test', false, 'Tests:       12 passed, 12 total'),
    ...bash('toolu_l1', 'npm run lint', false, '> shop@1.0.0 lint\n> eslint src'),
    ...bash('toolu_t2', 'npm test', true, 'Exit code 1\nTests:       1 failed, 11 passed, 12 total'),
    assistant([{ type: 'text', text: 'All tests pass and lint is clean.' }]),
  ];
  const file = path.join(dir, `${base.sessionId}.jsonl`);
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return file;
}

describe('CLI: claims and their evidence', function () {
  this.timeout(60_000);
  const savedXdg = process.env.XDG_STATE_HOME;
  beforeEach(() => {
    process.env.XDG_STATE_HOME = tempDir('handoff-claims-xdg-');
  });
  after(() => {
    if (savedXdg === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = savedXdg;
    cleanupTempDirs();
  });

  function repo(): string {
    const ws = initRepo(tempDir('handoff-claims-'));
    write(ws, 'src/cart.ts', 'export const total = 0;\n');
    commitAll(ws, 'Fix the cents rounding (#12)');
    write(ws, 'src/cart.ts', 'export const total = 1;\n');
    return ws;
  }

  it('the agent\'s "All tests pass and lint is clean." after a failing run: tests contradicted, lint backed; a done "Fixed #12" backed by the commit', async () => {
    const ws = repo();
    const log = transcript(tempDir('handoff-claims-log-'), ws);
    const r = await cli(['handover', '-s', 'quality_reviewer', '-t', 'cart', '--draft', '--json', '--session-log', log, '--done', 'Fixed #12'], ws);
    assert.equal(r.code, 0, r.err);
    const result = HandoverOkSchema.parse(JSON.parse(r.out));
    const claims = result.package.claims;
    assert.deepEqual(
      claims.map((c) => [c.kind, c.field, c.verdict, c.evidence?.command ?? null, c.evidence?.exit_code ?? null]),
      [
        ['tests', 'summary', 'contradicted', 'npm test', 1],
        ['lint', 'summary', 'backed', 'npm run lint', 0],
        ['fix', 'completed', 'backed', claims[2]?.evidence?.command ?? '', null],
      ],
    );
    assert.match(claims[2].evidence?.command ?? '', /^[0-9a-f]{10} Fix the cents rounding \(#12\)$/);
    // The user's request ("Make all tests pass and fix lint, please. Can you also check the build?") makes no claim.
    assert.ok(claims.every((c) => c.field !== 'user_requests'));

    const file = parseHandoff(readFileSync(result.handoff_file, 'utf8'));
    assert.ok(file.ok, file.ok ? '' : file.message);
    assert.deepEqual(file.handoff.frontmatter.claims, { backed: 2, contradicted: 1, no_evidence: 0 });
    const section = file.handoff.sections.get('Claims') ?? '';
    assert.match(
      section,
      /^- ❌ \*\*contradicted\*\* · tests: “.*All tests pass and lint is clean\..*” \(summary\) — `npm test` failed \(exit 1; .*source: claude-code\)$/m,
    );
    assert.match(section, /^- ✅ \*\*backed\*\* · lint: “.*” \(summary\) — `npm run lint` succeeded \(exit 0; .*source: claude-code\)$/m);
    assert.match(section, /^- ✅ \*\*backed\*\* · fix: “Fixed #12” \(done\) — commit `[0-9a-f]{10}` Fix the cents rounding \(#12\) \(\d{4}-\d\d-\d\d\)$/m);
    const keys = [...file.handoff.sections.keys()];
    assert.equal(keys.indexOf('Claims'), keys.indexOf('Summary') + 1);
    assert.match(readFileSync(result.package.briefing_file, 'utf8'), /^\*\*Claims:\*\* 1 contradicted, 2 backed — contradicted: tests “/m);
  });

  it('the one-screen summary after handover has a claims row naming what is contradicted', async () => {
    const ws = repo();
    const log = transcript(tempDir('handoff-claims-log-'), ws);
    const r = await cli(['handover', '-s', 'quality_reviewer', '-t', 'cart', '--draft', '--session-log', log], ws);
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /^ {2}claims {4}1 contradicted, 1 backed — contradicted: tests “.*All tests pass and lint is clean\..*” \(see Claims in the handoff\)$/m,
    );
    const lines = r.out.split('\n');
    assert.equal(
      lines.findIndex((l) => l.startsWith('  claims ')),
      lines.findIndex((l) => l.startsWith('  tokens ')) + 1,
      'right under the tokens row',
    );
    const none = await cli(['handover', '-s', 'quality_reviewer', '-t', 'cart', '--session-log', 'none', '--summary', 'Reworked the cart.'], ws);
    assert.equal(none.code, 0, none.err);
    assert.doesNotMatch(none.out, /^ {2}claims /m, 'no row without claims');
  });

  it('the same words with no session log: claimed, no evidence', async () => {
    const ws = repo();
    const r = await cli(
      ['handover', '-s', 'quality_reviewer', '-t', 'cart', '--json', '--session-log', 'none', '--summary', 'All tests pass and lint is clean.'],
      ws,
    );
    assert.equal(r.code, 0, r.err);
    const p = HandoverOkSchema.parse(JSON.parse(r.out)).package;
    assert.deepEqual(
      p.claims.map((c) => [c.kind, c.verdict, c.evidence]),
      [
        ['tests', 'no_evidence', null],
        ['lint', 'no_evidence', null],
      ],
    );
    const file = parseHandoff(readFileSync(HandoverOkSchema.parse(JSON.parse(r.out)).handoff_file, 'utf8'));
    assert.ok(file.ok);
    assert.deepEqual(file.handoff.frontmatter.claims, { backed: 0, contradicted: 0, no_evidence: 2 });
    assert.match(
      file.handoff.sections.get('Claims') ?? '',
      /^- ❔ \*\*claimed, no evidence\*\* · tests: “All tests pass and lint is clean\.” \(summary\) — no test run with a result was recorded$/m,
    );
  });
});
