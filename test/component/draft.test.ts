/**
 * Every non-panel way in drafts (issue 15): `specialist-handoff draft --json` prints the draft
 * and writes nothing, `handover --draft` fills every field not given on the command line, and
 * a field given is never replaced — on a real temporary git repository with a real Claude
 * Code transcript (TodoWrite, typed requests, a failing build, a passing test run).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseDone, parseUserRequests } from '../../src/core/handoff/draftSections';
import { parseHandoff } from '../../src/core/handoff/parse';
import { SessionDraftSchema } from '../../src/core/handoff/draftFields';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { cli } from '../helpers/cli';
import { SESSION_REQUESTS, writeClaudeSession } from '../helpers/claudeSession';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';

/** Every file under `dir` (`.git` left out) with its size and modification time: what "unchanged" compares. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      if (d === dir && name === '.git') continue;
      const full = path.join(d, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else out.push(`${path.relative(dir, full)} ${st.size} ${st.mtimeMs}`);
    }
  };
  walk(dir);
  return out;
}

function workspace(): { ws: string; transcript: string } {
  const ws = initRepo(tempDir('handoff-draft-cli-'));
  write(ws, 'src/checkout.ts', 'export const total = 0;\n');
  commitAll(ws, 'Render the checkout line items');
  write(ws, 'src/checkout.ts', 'export const total = 1;\n');
  commitAll(ws, 'Add the cart total in cents');
  write(ws, 'src/checkout.ts', 'export const total = 2;\n');
  return { ws, transcript: writeClaudeSession(tempDir('handoff-draft-transcripts-'), ws) };
}

describe('CLI: draft and handover --draft', function () {
  this.timeout(60_000);
  const savedXdg = process.env.XDG_STATE_HOME;
  let xdg: string;
  beforeEach(() => {
    xdg = tempDir('handoff-draft-xdg-');
    process.env.XDG_STATE_HOME = xdg;
  });
  after(() => {
    if (savedXdg === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = savedXdg;
    cleanupTempDirs();
  });

  it('draft --json prints the draft from the transcript and git, and writes nothing (no handoff root, no read offsets)', async () => {
    const { ws, transcript } = workspace();
    const before = snapshot(ws);
    const r = await cli(['draft', '--json', '--session-log', transcript], ws);
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out);
    assert.equal(out.status, 'ok');
    const draft = SessionDraftSchema.parse(out.draft);
    assert.deepEqual(
      draft.next_steps.map((s) => [s.text, s.in_progress === true]),
      [
        ['Add the cart total', true],
        ['Run the tests', false],
        ['Keep the old API format', false],
      ],
    );
    assert.deepEqual(
      draft.completed.map((s) => s.text),
      ['Read the checkout page', 'Show cents'],
    );
    assert.deepEqual(draft.next_steps[0].source, { reader: 'claude-code', file: transcript, time: draft.next_steps[0].source.time });
    assert.match(
      draft.summary.text,
      /^Done: 2 plan items completed \(Read the checkout page; Show cents\); the latest commits, no base commit yet \(/m,
      'no handoff yet, no upstream: the commits are named, not counted as done',
    );
    assert.match(draft.summary.text, /last test run `npm test` passed \(exit 0; 12 passed\)/);
    assert.match(draft.summary.text, /in progress: Add the cart total, 2 pending/);
    assert.match(draft.summary.text, /the agent's last message: "The total shows cents now; the old API format is next\."/);
    assert.deepEqual(draft.blockers, [], 'the last test run passed');
    // The user's typed requests verbatim (the slash command and the Stop hook's feedback left out), oldest first.
    assert.deepEqual(
      draft.user_requests.map((u) => [u.text, u.source, u.file]),
      SESSION_REQUESTS.map((t) => [t, 'claude-code', transcript]),
    );
    assert.match(draft.summary.text, /^Asked: "No — show the total in cents, and keep the old total format for the API\."$/m);
    // The build beside the tests, with its exit code; the test run is not listed twice.
    assert.deepEqual(
      draft.commands_run.map((c) => [c.command, c.kind, c.exit_code, c.result, c.count]),
      [['npm run build', 'build', 2, 'failed', 1]],
    );
    assert.equal(draft.left_out.older_requests, 0);
    assert.deepEqual(
      out.session_sources.map((s: { source: string }) => s.source),
      ['claude-code'],
    );
    assert.deepEqual(snapshot(ws), before, 'the workspace is unchanged');
    assert.equal(existsSync(path.join(ws, '.handoff')), false, 'no handoff root');
    assert.deepEqual(readdirSync(xdg), [], 'no read offsets saved in the state folder');
  });

  it('draft prints the draft for a person, with its sources', async () => {
    const { ws, transcript } = workspace();
    const r = await cli(['draft', '--session-log', transcript], ws);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^Draft from the session log and git \(nothing was written/);
    assert.match(r.out, /^Next steps:\n {2}1\. \(in progress\) Add the cart total \[claude-code 2026-12-01T10:\d\d:00\.000Z\]$/m);
    assert.match(r.out, /^Done:\n {2}- Read the checkout page \[claude-code/m);
    assert.equal(existsSync(path.join(ws, '.handoff')), false);
  });

  it('handover --draft fills every field not given from the draft, marks them drafted, and writes the Done and Next steps sections', async () => {
    const { ws, transcript } = workspace();
    const r = await cli(
      [
        'handover',
        '-s',
        'quality_reviewer',
        '-t',
        'cart total',
        '--draft',
        '--json',
        '--session-log',
        transcript,
        '--decision',
        'Totals are integers of cents',
      ],
      ws,
    );
    assert.equal(r.code, 0, r.err);
    const result = HandoverOkSchema.parse(JSON.parse(r.out));
    const p = result.package;
    assert.deepEqual(p.next_steps, ['(in progress) Add the cart total', 'Run the tests', 'Keep the old API format']);
    assert.deepEqual(p.completed, ['Read the checkout page', 'Show cents']);
    assert.deepEqual(
      p.decisions.map((d) => d.text),
      ['Totals are integers of cents'],
      'the decision given is kept',
    );
    assert.match(p.summary, /^Done: 2 plan items completed/m);
    assert.ok(
      ['summary', 'next_steps', 'completed'].every((f) => (p.drafted as string[]).includes(f)),
      `drafted: ${p.drafted.join(', ')}`,
    );
    assert.ok(!(p.drafted as string[]).includes('decisions'));
    assert.ok('left_out' in p && typeof p.left_out.turns === 'number', 'left_out is in --json');
    const file = parseHandoff(readFileSync(result.handoff_file, 'utf8'));
    assert.ok(file.ok, file.ok ? '' : file.message);
    assert.deepEqual(parseDone(file.handoff.sections.get('Done')!), ['Read the checkout page', 'Show cents']);
    assert.match(file.handoff.sections.get('Next steps')!, /^1\. \(in progress\) Add the cart total\n2\. Run the tests\n3\. Keep the old API format$/);
    assert.deepEqual(file.handoff.frontmatter.drafted, p.drafted);
    assert.equal(file.handoff.frontmatter.completed_count, 2);
    // The receiving prompt carries the drafted sections inside the handoff picked up (issue 18: the handoff in full, its sections under its heading).
    const prompt = await cli(['prompt', '--no-take'], ws);
    assert.equal(prompt.code, 0, prompt.err);
    const headings = [...prompt.out.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(headings.slice(0, headings.indexOf('Return condition') + 1), [
      'Mandate',
      'Receive rules',
      'Run Context',
      'Staleness',
      'Handoff to Quality reviewer: cart total',
      'Return condition',
    ]);
    const inHandoff = [...prompt.out.slice(prompt.out.indexOf('## Handoff to')).matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(inHandoff.slice(0, 9), [
      'Summary',
      'Claims',
      'User requests',
      'Decisions',
      'Failed approaches',
      'Done',
      'Touched files',
      'Tests run',
      'Commands run',
    ]);
    assert.match(prompt.out, /^### Done\n\n- Read the checkout page\n- Show cents\n/m);
    assert.match(prompt.out, /^### Commands run\n\n- ❌ `npm run build` \(exit 2;/m);
    assert.ok(prompt.out.includes(`> ${SESSION_REQUESTS[1]}`), 'the latest request, quoted');
  });

  it('handover --draft never replaces a field given on the command line; without --draft nothing prose is drafted', async () => {
    const { ws, transcript } = workspace();
    const given = await cli(
      [
        'handover',
        '-s',
        'hacker',
        '-t',
        'given',
        '--draft',
        '--json',
        '--session-log',
        transcript,
        '--summary',
        'My own summary.',
        '--next',
        'My step',
        '--done',
        'My done item',
      ],
      ws,
    );
    assert.equal(given.code, 0, given.err);
    const g = HandoverOkSchema.parse(JSON.parse(given.out)).package;
    assert.equal(g.summary, 'My own summary.');
    assert.deepEqual(g.next_steps, ['My step']);
    assert.deepEqual(g.completed, ['My done item']);
    assert.ok(!['summary', 'next_steps', 'completed'].some((f) => (g.drafted as string[]).includes(f)), `drafted: ${g.drafted.join(', ')}`);
    const plain = await cli(['handover', '-s', 'hacker', '-t', 'plain', '--json', '--session-log', transcript], ws);
    assert.equal(plain.code, 0, plain.err);
    const p = HandoverOkSchema.parse(JSON.parse(plain.out)).package;
    assert.deepEqual([p.summary, p.next_steps, p.completed], ['', [], []]);
  });

  it('refuses a negative --user-request-tokens and a flag draft does not take, naming them', async () => {
    const { ws } = workspace();
    const neg = await cli(['draft', '--user-request-tokens', '-1'], ws);
    assert.equal(neg.code, 2);
    assert.match(neg.err, /^ERROR: --user-request-tokens must be 0 or more tokens \(got -1\)/);
    const foreign = await cli(['draft', '--summary', 'x'], ws);
    assert.equal(foreign.code, 2);
    assert.match(foreign.err, /^ERROR: --summary is not an option of "draft"/);
    // The engine's field names (include_recent_turns, tokenizer) are the CLI's flags here, as for handover.
    const turns = await cli(['draft', '--recent-turns', '-1', '--json'], ws);
    assert.equal(turns.code, 2);
    assert.match(turns.err, /^ERROR: --recent-turns must be a whole number, 0 or more \(got -1\)/);
    assert.equal(JSON.parse(turns.out).field, 'include_recent_turns');
    const tokenizer = await cli(['draft', '--tokenizer', 'foo'], ws);
    assert.equal(tokenizer.code, 2);
    assert.match(tokenizer.err, /^ERROR: --tokenizer must be one of: o200k_base, cl100k_base \(got "foo"\)/);
  });

  it('says what fitting a tight budget shortened and cut in each section (characters of the summary, turns, requests, done items)', async () => {
    const { ws, transcript } = workspace();
    const r = await cli(['handover', '-s', 'hacker', '-t', 'tight', '--draft', '--session-log', transcript, '--max-tokens', '300'], ws);
    assert.equal(r.code, 0, r.err);
    const fits = r.out.split('\n').filter((l) => l.startsWith('  fit '));
    assert.ok(fits.length > 0, r.out);
    for (const line of fits) {
      assert.match(
        line,
        /^ {2}fit {7}[a-z ]+: (?:[\d,]+ (?:turns?|lines?|files?|passing tests?|command entr(?:y|ies)|characters?|older requests?|done items?) cut)?(?:, )?(?:[\d,]+ shortened)? \([\d,]+ tokens?\)$/,
      );
    }
    assert.ok(
      fits.some((l) => /^ {2}fit {7}summary: [\d,]+ characters? cut /.test(l)),
      fits.join('\n'),
    );
  });

  it('carries the typed requests verbatim, the latest always, whatever --recent-turns says', async () => {
    const { ws, transcript } = workspace();
    const r = await cli(
      ['handover', '-s', 'hacker', '-t', 'requests', '--json', '--session-log', transcript, '--recent-turns', '0', '--user-request-tokens', '0'],
      ws,
    );
    assert.equal(r.code, 0, r.err);
    const result = HandoverOkSchema.parse(JSON.parse(r.out));
    assert.deepEqual(result.package.recent_turns, []);
    const file = parseHandoff(readFileSync(result.handoff_file, 'utf8'));
    assert.ok(file.ok);
    assert.deepEqual(
      parseUserRequests(file.handoff.sections.get('User requests')!).map((u) => u.text),
      [SESSION_REQUESTS[1]],
    );
  });
});
