import assert from 'node:assert/strict';
import { SUMMARY_TRUNCATED_MARKER, composePackage, composeUnjudgedPackage, fitToBudget, measurePackage } from '../../../../src/core/handoff/compose';
import { claimsOfPackage } from '../../../../src/core/receive/claims';
import { capHeadTail, renderHistory } from '../../../../src/core/handoff/history';
import { renderHandoff, renderHandoffBody } from '../../../../src/core/handoff/render';
import { parseHandoverRequest, trimRecentTurns } from '../../../../src/core/handoff/request';
import type { HandoffPackage, TestRun } from '../../../../src/core/handoff/schema';
import { counterFor } from '../../../../src/engine/tokenizers/tokenizer';
import { META, evidence, files, pkgFrom, reviewer } from '../../../helpers/packages';

const counter = counterFor('o200k_base');
const tokensOf = (p: HandoffPackage, meta = META) => counter.count(renderHandoff(p, meta, reviewer)).tokens;
const metaH = { ...META, historyFile: `history/${META.id}.md` };

function test(i: number, result: TestRun['result']): TestRun {
  return {
    command: `npm test -- --grep case-${i}`,
    cwd: null,
    exit_code: result === 'failed' ? 1 : 0,
    result,
    source: 'recorder',
    started_at: null,
    duration_ms: null,
  };
}

const turns = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', text: `Turn ${i}: ${'discussion '.repeat(60)}` }));
const diff = (lines: number) => Array.from({ length: lines }, (_, i) => `+const value${i} = compute(${i}); // ${'x'.repeat(20)}`).join('\n') + '\n';

describe('recent-turn trimming', () => {
  it('keeps the newest N turns', () => {
    assert.deepEqual(trimRecentTurns([1, 2, 3, 4, 5, 6, 7], 5), [3, 4, 5, 6, 7]);
    assert.deepEqual(trimRecentTurns([1, 2], 5), [1, 2]);
    assert.deepEqual(trimRecentTurns([1, 2, 3], 0), []);
  });

  it('is applied when composing (include_recent_turns), plain strings become assistant turns', () => {
    const pkg = pkgFrom({ recent_turns: ['a', 'b', { role: 'user', text: 'c' }, 'd'], include_recent_turns: 2 });
    assert.deepEqual(pkg.recent_turns, [
      { role: 'user', text: 'c' },
      { role: 'assistant', text: 'd' },
    ]);
  });
});

describe('request validation', () => {
  it('names the field at fault', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ topic: 't' }, /^ERROR: specialist is required/],
      [{ specialist: 'x' }, /^ERROR: topic is required/],
      [{ specialist: 'x', topic: 't', max_context_tokens: 0 }, /^ERROR: max_context_tokens must be positive/],
      [{ specialist: 'x', topic: 't', max_context_tokens: -5 }, /^ERROR: max_context_tokens must be positive/],
      [{ specialist: 'x', topic: 't', max_context_tokens: 1.5 }, /^ERROR: max_context_tokens must be a whole number/],
      [{ specialist: 'x', topic: 't', include_recent_turns: -1 }, /^ERROR: include_recent_turns must be 0 or more/],
      [{ specialist: 'x', topic: 't', tokenizer: 'p50k' }, /^ERROR: tokenizer must be one of: o200k_base, cl100k_base/],
      [{ specialist: 'x', topic: 't', reason_kind: 'boredom' }, /^ERROR: reason_kind must be one of/],
      [{ specialist: 'x', topic: 't', decisions: 'not a list' }, /^ERROR: decisions/],
    ];
    for (const [input, re] of cases) {
      const r = parseHandoverRequest(input);
      assert.equal(r.ok, false, JSON.stringify(input));
      assert.match(!r.ok ? r.message : '', re, JSON.stringify(input));
    }
  });

  it('applies the defaults of DESIGN §4', () => {
    const r = parseHandoverRequest({ specialist: 'hacker', topic: 't', decisions: [' a ', '', '  '] });
    assert.ok(r.ok);
    assert.equal(r.request.max_context_tokens, 3000);
    assert.equal(r.request.include_recent_turns, 5);
    assert.equal(r.request.tokenizer, 'o200k_base');
    assert.equal(r.request.reason_kind, 'end_of_session');
    assert.deepEqual(r.request.decisions, ['a']);
  });
});

describe('budget policy and fit-to-budget: compress first, then cut', () => {
  const bodyTokens = (p: HandoffPackage, meta = META) => counter.count(renderHandoffBody(p, meta, reviewer)).tokens;
  /** A long session's package: every kind of fact, each long. */
  const longSession = () =>
    pkgFrom(
      {
        summary: 'Ported the parser and the writer; the reader still drops tabs. '.repeat(40),
        recent_turns: turns(5),
        tests_run: [...Array.from({ length: 12 }, (_, i) => test(i % 3, i === 11 ? 'failed' : 'passed')), test(7, 'passed')],
        user_requests: Array.from({ length: 20 }, (_, i) => ({
          text: `Request ${i}: ${'please port the module and keep the API. '.repeat(i === 19 ? 60 : 8)}\nsecond line ${i}`,
          time: null,
          source: 'codex',
        })),
        commands_run: Array.from({ length: 12 }, (_, i) => ({
          command: `git commit -m "step ${i}" <<'EOF'\n${'body line\n'.repeat(10)}EOF`,
          cwd: '.',
          kind: 'git' as const,
          exit_code: 0,
          result: 'succeeded' as const,
          count: 1,
          failed_count: 0,
          source: 'codex',
          last_at: '2026-01-01T00:00:00Z',
        })),
        next_steps: ['Fix the tab handling', 'Review the writer'],
        decisions: ['Keep the API stable'],
        return_condition: 'When the review is done',
      },
      evidence({ diffExcerpt: diff(300), touchedFiles: files(120) }),
    );

  it('under budget: nothing is shortened or cut and no warning; the budget counts the body, not the frontmatter', () => {
    const pkg = measurePackage(pkgFrom({ summary: 'short' }), META, reviewer, counter);
    assert.equal(pkg.oversize_warning, false);
    assert.equal(pkg.estimated_tokens, bodyTokens(pkg));
    assert.ok(tokensOf(pkg) > pkg.estimated_tokens + 200, 'the frontmatter is not counted');
    const fit = fitToBudget(pkg, META, reviewer, counter);
    assert.equal(fit.fits, true);
    assert.deepEqual(fit.pkg.dropped, []);
  });

  it('over budget: measured with oversize_warning', () => {
    const pkg = measurePackage(pkgFrom({ summary: 'word '.repeat(4000) }), META, reviewer, counter);
    assert.equal(pkg.oversize_warning, true);
    assert.ok(pkg.estimated_tokens > 3000);
    assert.equal(pkg.estimated_tokens, bodyTokens(pkg));
  });

  for (const budget of [1000, 3000, 8000]) {
    it(`a long session at ${budget.toLocaleString('en')} tokens: every kind of fact survives, shortened before anything is cut`, () => {
      const base = longSession();
      const input = { ...base, max_context_tokens: budget };
      const fit = fitToBudget(input, metaH, reviewer, counter);
      assert.equal(fit.fits, true, `${fit.pkg.estimated_tokens} tokens`);
      assert.ok(fit.pkg.estimated_tokens <= budget);
      assert.equal(fit.pkg.estimated_tokens, bodyTokens(fit.pkg, metaH));
      const text = renderHandoff(fit.pkg, metaH, reviewer);
      // The summary: never empty, the drafted one's head.
      assert.ok(fit.pkg.summary.startsWith('Ported the parser'), fit.pkg.summary.slice(0, 80));
      // Every changed path, as itself or in its folder with a count.
      const listed = text.slice(text.indexOf('## Touched files'), text.indexOf('## Tests run'));
      for (const f of base.touched_files) assert.ok(listed.includes(f.path) || /`src\/(\S*\/)?` — [\d,]+ files/.test(listed), f.path);
      assert.doesNotMatch(listed, /… and \d+ more/);
      // The latest request, its head at least; the older ones counted.
      assert.ok(text.includes('Request 19: please port the module'), 'the latest request');
      assert.match(text, /older requests? (?:is|are) not carried|Request 18/);
      // Every test command with its outcome, the failure first.
      const tests = text.slice(text.indexOf('## Tests run'), text.indexOf('## Commands run'));
      for (const t of base.tests_run) assert.ok(tests.includes(t.command), t.command);
      if (fit.pkg.tests_run_form === 'grouped') assert.ok(tests.indexOf('❌ failed') < tests.indexOf('✅ passed'), 'failures first');
      // The open plan items and the decisions, whole.
      assert.deepEqual(fit.pkg.next_steps, base.next_steps);
      assert.deepEqual(fit.pkg.decisions, base.decisions);
      // Every command's first line.
      for (const c of base.commands_run) assert.ok(text.includes(c.command.split('\n')[0]), c.command.split('\n')[0]);
      // The last assistant message, its head at least.
      assert.ok(text.includes('Turn 3: discussion'), 'the last assistant turn');
      // The manifest says what was shortened; nothing above the floor was cut.
      for (const d of fit.pkg.dropped) assert.ok(d.count > 0 || (d.shortened ?? 0) > 0, JSON.stringify(d));
      assert.equal(fit.pkg.commands_run_omitted, 0, 'no command cut');
      assert.equal(fit.pkg.tests_run_omitted, 0, 'no test run cut');
      assert.equal(fit.original, input, 'the original is untouched');
    });
  }

  it('grows back in order: a roomier budget keeps more of each kind, and the file always fits', () => {
    const base = longSession();
    const sizes = [1000, 2000, 3000, 5000, 8000, 20000].map((budget) => fitToBudget({ ...base, max_context_tokens: budget }, metaH, reviewer, counter).pkg);
    for (let i = 1; i < sizes.length; i++) {
      const [a, b] = [sizes[i - 1], sizes[i]];
      assert.ok(b.summary.length >= a.summary.length, 'the summary');
      assert.ok(b.user_requests.length >= a.user_requests.length, 'the requests');
      assert.ok((b.diff_excerpt?.length ?? 0) >= (a.diff_excerpt?.length ?? 0), 'the diff excerpt');
    }
    for (const p of sizes) assert.ok(p.estimated_tokens <= p.max_context_tokens, `${p.estimated_tokens} <= ${p.max_context_tokens}`);
    assert.deepEqual(sizes.at(-1)?.dropped, [], 'at 20,000 tokens nothing is shortened');
  });

  it('rolls more than 40 changed paths up into folders with counts, never "… and N more" alone', () => {
    // 2,000 files in 50 folders of 40, the first 3 at the top level.
    const many = files(2000).map((f, i) => ({ ...f, path: i < 3 ? `top-${i}.ts` : `src/mod-${i % 50}/file-${i}.ts` }));
    const base = pkgFrom({}, evidence({ touchedFiles: many, diffExcerpt: diff(50) }));
    const fit = fitToBudget({ ...base, max_context_tokens: 1000 }, metaH, reviewer, counter);
    assert.equal(fit.fits, true, `${fit.pkg.estimated_tokens}`);
    assert.equal(fit.pkg.touched_files_form, 'folders');
    const text = renderHandoff(fit.pkg, metaH, reviewer);
    const counts = [...text.matchAll(/— ([\d,]+) files \(/g)].reduce((n, m) => n + Number(m[1].replace(/,/g, '')), 0);
    const singles = (text.slice(text.indexOf('## Touched files'), text.indexOf('### Commits')).match(/^- \*\*[A-Z?]\*\* `/gm) ?? []).length;
    assert.equal(counts + singles, 2000, 'every path counted');
    assert.equal(fit.pkg.touched_files.length, 2000, 'the package keeps every file');
    assert.deepEqual(
      fit.pkg.dropped.find((d) => d.section === 'touched_files'),
      { section: 'touched_files', count: 0, shortened: 2000, tokens: fit.pkg.dropped.find((d) => d.section === 'touched_files')?.tokens },
    );
  });

  it('the summary is shortened, never replaced: its head stays, marked [truncated]', () => {
    const summary = 'Sentence about the work. '.repeat(400);
    const fit = fitToBudget({ ...pkgFrom({ summary }, evidence()), max_context_tokens: 900 }, metaH, reviewer, counter);
    assert.equal(fit.fits, true);
    assert.ok(fit.pkg.summary.startsWith('Sentence about the work.'));
    assert.ok(fit.pkg.summary.endsWith(SUMMARY_TRUNCATED_MARKER));
    assert.equal(
      fit.pkg.dropped.find((d) => d.section === 'summary')?.count,
      summary.trim().length - (fit.pkg.summary.length - SUMMARY_TRUNCATED_MARKER.length),
    );
  });

  it('below the floor it cuts, least useful first, and never the header fields, decisions or next steps', () => {
    const base = longSession();
    const fit = fitToBudget({ ...base, max_context_tokens: 500 }, metaH, reviewer, counter);
    assert.equal(fit.pkg.specialist, 'quality_reviewer');
    assert.equal(fit.pkg.return_condition, 'When the review is done');
    assert.deepEqual(fit.pkg.decisions, [{ id: 'D1', text: 'Keep the API stable' }]);
    assert.deepEqual(fit.pkg.next_steps, base.next_steps);
    assert.deepEqual(fit.pkg.tests_run.filter((t) => t.result === 'failed').length, 1, 'failures stay');
    assert.ok(fit.pkg.summary.length > 0 && fit.pkg.user_requests.length === 1);
    assert.equal(fit.fits, fit.pkg.estimated_tokens <= 500);
  });

  it('below the floor the touched files are rolled up into folders first (every path still counted), then the oldest done items are cut, the newest kept', () => {
    const completed = Array.from({ length: 40 }, (_, i) => `Ported module ${i} of the parser and its tests, keeping the API stable\nwith a second line`);
    const base = pkgFrom(
      { completed, user_requests: [{ text: 'Port the parser.', time: null, source: 'codex' }], next_steps: ['Review the writer'] },
      evidence({ touchedFiles: files(30) }),
    );
    const fit = fitToBudget(
      {
        ...base,
        session_edits: Array.from({ length: 12 }, (_, i) => ({ path: `/elsewhere/lib/part-${i % 3}/f${i}.ts`, tool: 'Edit', source: 'codex' })),
        max_context_tokens: 1000,
      },
      metaH,
      reviewer,
      counter,
    );
    assert.equal(fit.fits, true, `${fit.pkg.estimated_tokens} tokens`);
    assert.equal(fit.pkg.touched_files_form, 'folders');
    const text = renderHandoff(fit.pkg, metaH, reviewer);
    assert.match(text, /Also edited in the session \(not changed against HEAD now, or outside the repository\): `\/elsewhere\/lib\/part-\d\/` \(4\)/);
    const done = fit.pkg.dropped.find((d) => d.section === 'completed');
    assert.ok(done && done.count > 0 && done.count < 40, JSON.stringify(done));
    assert.deepEqual(
      fit.pkg.completed,
      completed.slice(40 - fit.pkg.completed.length).map((t) => `${t.split('\n')[0]} …`),
      'the newest kept, each as its first line',
    );
    assert.match(text, new RegExp(`_${done.count} older done items were cut to fit the token budget`));
    assert.deepEqual(fit.pkg.next_steps, ['Review the writer']);
  });

  it('last of all it cuts the commands whose every test run passed, whole; a command that ever failed keeps its line and its count of runs', () => {
    const run = (command: string, result: TestRun['result'], i: number): TestRun => ({
      command,
      cwd: null,
      exit_code: result === 'failed' ? 1 : 0,
      result,
      source: 'claude-code',
      started_at: `2026-01-01T00:${String(i).padStart(2, '0')}:00Z`,
      duration_ms: null,
    });
    const flaky = Array.from({ length: 40 }, (_, i) => run('npm test', i % 4 === 1 ? 'failed' : 'passed', i));
    const green = Array.from({ length: 30 }, (_, i) => run(`npx vitest run packages/pkg-${i}/src/very/long/path/to/a/suite/that/takes/room`, 'passed', i));
    const base = pkgFrom({
      tests_run: [...flaky, ...green],
      decisions: Array.from({ length: 12 }, (_, i) => `Decision ${i} that stays whole whatever the budget says`),
    });
    const fit = fitToBudget({ ...base, max_context_tokens: 700 }, metaH, reviewer, counter);
    assert.deepEqual(fit.pkg.tests_run.filter((t) => t.command === 'npm test').length, 40, 'every run of the command that failed is still counted');
    const kept = new Set(fit.pkg.tests_run.map((t) => t.command));
    assert.ok(kept.size < 31, 'some always-passing commands were cut');
    assert.equal(fit.pkg.tests_run_omitted, 70 - fit.pkg.tests_run.length, 'counted by their runs');
    assert.match(renderHandoff(fit.pkg, metaH, reviewer), /`npm test` \(exit 0; ×40, 10 failed/);
  });

  it('still over budget after every cut: oversize_warning stays true', () => {
    const base = pkgFrom({ decisions: Array.from({ length: 200 }, (_, i) => `Decision number ${i} that cannot be cut`) });
    const fit = fitToBudget({ ...base, max_context_tokens: 300 }, metaH, reviewer, counter);
    assert.equal(fit.fits, false);
    assert.equal(fit.pkg.oversize_warning, true);
    assert.ok(fit.pkg.estimated_tokens > 300);
  });

  it('the drop manifest is rendered in the frontmatter, and each section says what was shortened and cut', () => {
    const base = longSession();
    const fit = fitToBudget({ ...base, max_context_tokens: 1500 }, metaH, reviewer, counter);
    const text = renderHandoff(fit.pkg, metaH, reviewer);
    assert.match(text, /dropped:\n {2}- section: \w+\n {4}count: \d+\n( {4}shortened: \d+\n)? {4}tokens: \d+/);
    assert.match(text, /shown as their first line to fit the token budget/);
    assert.match(text, /to fit the token budget/);
  });
});

describe('the agent’s compaction summary: its own section, marked the agent’s, cut first', () => {
  const summaryText = `Primary Request and Intent: port the parser.\nPending Tasks: ${'fix the tab handling in the reader and review the writer. '.repeat(40)}`;
  const compacted = (budget: number) =>
    fitToBudget(
      {
        ...pkgFrom({
          summary: 'Ported the parser.',
          user_requests: [{ text: 'Port the parser to Rust.', time: null, source: 'claude-code' }],
          next_steps: ['Fix the tab handling'],
        }),
        compaction: { source: 'claude-code', file: 'session.jsonl', time: '2026-05-02T10:00:08Z', trigger: 'auto', count: 2, text: summaryText },
        max_context_tokens: budget,
      },
      metaH,
      reviewer,
      counter,
    );

  it('renders the summary quoted under "Compaction summary", before the recent turns, saying whose words they are and how many compactions there were', () => {
    const fit = compacted(20_000);
    const text = renderHandoff(fit.pkg, metaH, reviewer);
    const section = /## Compaction summary\n\n([\s\S]*?)\n## Recent turns/.exec(text)?.[1] ?? '';
    assert.match(
      section,
      /^_The agent's own summary when claude-code compacted the conversation \(auto, 2026-05-02T10:00:08Z\); the latest of 2: its words, not the user's\. The other sections are read from the whole log\._/,
    );
    assert.ok(section.includes('> Primary Request and Intent: port the parser.'), section.slice(0, 400));
    assert.ok(!/## User requests[\s\S]*Primary Request and Intent[\s\S]*## Decisions/.test(text), 'never among the user requests');
  });

  it('a compaction the transcript keeps no summary of says so', () => {
    const pkg = { ...pkgFrom({}), compaction: { source: 'codex', file: null, time: null, trigger: null, count: 1, text: '' } };
    assert.match(
      renderHandoff(pkg, META, reviewer),
      /## Compaction summary\n\n_The agent's own summary when codex compacted the conversation: [^\n]*\n\n_The transcript keeps no readable summary of it/,
    );
  });

  it('no section when the session did not compact', () => {
    assert.ok(!renderHandoff(pkgFrom({}), META, reviewer).includes('## Compaction summary'));
  });

  it('over budget it is the first thing shortened below the floor, and the manifest counts its characters; the facts stay', () => {
    const roomy = compacted(2_000);
    assert.equal(roomy.pkg.compaction?.text, summaryText, 'whole when it fits');
    const tight = compacted(600);
    assert.equal(tight.fits, true);
    const kept = tight.pkg.compaction?.text ?? '';
    assert.ok(kept.length < summaryText.length, `${kept.length} characters kept`);
    const cut = tight.pkg.dropped.find((d) => d.section === 'compaction');
    assert.equal(cut?.count, summaryText.length - kept.replace(' …', '').length);
    assert.equal(tight.pkg.summary, 'Ported the parser.', 'the summary is not shortened before it');
    assert.deepEqual(tight.pkg.next_steps, ['Fix the tab handling']);
    assert.match(renderHandoff(tight.pkg, metaH, reviewer), /characters? of the agent's summary (was|were) cut to fit the token budget/);
  });
});

describe('stage-2 history', () => {
  it('keeps the uncut package', () => {
    const base = pkgFrom({ recent_turns: turns(5) }, evidence({ diffExcerpt: diff(50) }));
    const text = renderHistory(base, metaH, reviewer, counter);
    assert.match(text, /Full history of handoff/);
    assert.equal((text.match(/Turn \d:/g) ?? []).length, 5);
    assert.match(text, /value49/);
  });

  it('caps at 50,000 tokens by head and tail with an elision marker', () => {
    const big = Array.from({ length: 30_000 }, (_, i) => `line ${i} ${'lorem ipsum '.repeat(3)}`).join('\n');
    const capped = capHeadTail(big, counter, 50_000);
    assert.ok(counter.count(capped).tokens <= 50_000);
    assert.match(capped, /^line 0 /);
    assert.match(capped, /line 29999 /);
    assert.match(capped, /\[… [\d,]+ lines elided to stay within 50,000 tokens …\]/);
  });

  it('keeps nearly the whole cap when the item cut is one long line (a 199,999-character summary)', function () {
    // Tokenizes about a million characters (the uncut file, the cut, the checks): more than the 2 s default on a busy machine.
    this.timeout(30_000);
    let summary = '';
    for (let i = 0; summary.length < 199_999; i++) summary += `w${i * 7919} `;
    summary = summary.slice(0, 199_998) + 'Z';
    const text = renderHistory(pkgFrom({ summary, next_steps: ['Ship the parser'] }), metaH, reviewer, counter);
    const whole = renderHandoff(pkgFrom({ summary, next_steps: ['Ship the parser'] }), { ...metaH, historyFile: null }, reviewer);
    assert.ok(counter.count(whole).tokens > 50_000, 'the uncut file is over the cap');
    const tokens = counter.count(text).tokens;
    assert.ok(tokens <= 50_000, `${tokens}`);
    assert.ok(tokens >= 49_000, `kept ${tokens} tokens (${Buffer.byteLength(text)} bytes) of a 50,000-token cap`);
    assert.match(text, /^---\n/);
    assert.match(text, /# Full history of handoff/);
    assert.ok(text.includes(summary.slice(0, 20_000)), 'the start of the summary is kept');
    assert.ok(text.includes('Ship the parser'), 'the sections after the long line are kept');
    assert.match(text, /\[… [\d,]+ characters elided to stay within 50,000 tokens …\]/);
  });

  it('caps a single enormous line by characters', () => {
    const capped = capHeadTail('z '.repeat(200_000), counter, 1_000);
    assert.ok(counter.count(capped).tokens <= 1_000);
    assert.match(capped, /characters elided/);
  });
});

describe('composing without judging the claims (issue 19)', () => {
  it('is composePackage with claims left to the caller: every other field the same, claims judged by claimsOfPackage equal composePackage’s', () => {
    const parsed = parseHandoverRequest({
      specialist: 'quality_reviewer',
      topic: 'auth',
      summary: 'All tests pass now. Lint is clean and the build succeeds.',
      decisions: ['Fixed #42 by checking the header length first.'],
      completed: ['Make all tests pass'],
      tests_run: [test(1, 'passed')],
    });
    assert.ok(parsed.ok);
    const ctx = { specialist: reviewer, topic: { slug: 'auth', title: 'Auth' }, evidence: evidence(), sessionId: 'session-1' };
    const judged = composePackage(parsed.request, ctx);
    const unjudged = composeUnjudgedPackage(parsed.request, ctx);
    assert.ok(judged.claims.length >= 2, `the summary states claims: ${JSON.stringify(judged.claims)}`);
    assert.deepEqual(unjudged.claims, []);
    assert.deepEqual({ ...unjudged, claims: judged.claims }, judged);
    assert.deepEqual(claimsOfPackage(unjudged), judged.claims);
  });
});
