import assert from 'node:assert/strict';
import { SUMMARY_TRUNCATED_MARKER, composePackage, composeUnjudgedPackage, fitToBudget, measurePackage } from '../../../../src/core/handoff/compose';
import { claimsOfPackage } from '../../../../src/core/receive/claims';
import { capHeadTail, renderHistory } from '../../../../src/core/handoff/history';
import { renderHandoff } from '../../../../src/core/handoff/render';
import { parseHandoverRequest, trimRecentTurns } from '../../../../src/core/handoff/request';
import type { HandoffPackage, TestRun } from '../../../../src/core/handoff/schema';
import { counterFor } from '../../../../src/engine/tokenizer';
import { META, evidence, files, pkgFrom, reviewer } from '../../../helpers/packages';

const counter = counterFor('o200k_base');
const tokensOf = (p: HandoffPackage, meta = META) => counter.count(renderHandoff(p, meta, reviewer)).tokens;
const metaH = { ...META, historyFile: `history/${META.id}.md` };

function test(i: number, result: TestRun['result']): TestRun {
  return { command: `npm test -- --grep case-${i}`, cwd: null, exit_code: result === 'failed' ? 1 : 0, result, source: 'recorder', started_at: null, duration_ms: null };
}

const turns = (n: number) => Array.from({ length: n }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', text: `Turn ${i}: ${'discussion '.repeat(60)}` }));
const diff = (lines: number) => Array.from({ length: lines }, (_, i) => `+const value${i} = compute(${i}); // ${'x'.repeat(20)}`).join('\n') + '\n';

describe('recent-turn trimming', () => {
  it('keeps the newest N turns', () => {
    assert.deepEqual(trimRecentTurns([1, 2, 3, 4, 5, 6, 7], 5), [3, 4, 5, 6, 7]);
    assert.deepEqual(trimRecentTurns([1, 2], 5), [1, 2]);
    assert.deepEqual(trimRecentTurns([1, 2, 3], 0), []);
  });

  it('is applied when composing (include_recent_turns), plain strings become assistant turns', () => {
    const pkg = pkgFrom({ recent_turns: ['a', 'b', { role: 'user', text: 'c' }, 'd'], include_recent_turns: 2 });
    assert.deepEqual(pkg.recent_turns, [{ role: 'user', text: 'c' }, { role: 'assistant', text: 'd' }]);
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

describe('budget policy and fit-to-budget', () => {
  it('under budget: nothing is cut and no warning', () => {
    const pkg = measurePackage(pkgFrom({ summary: 'short' }), META, reviewer, counter);
    assert.equal(pkg.oversize_warning, false);
    assert.equal(pkg.estimated_tokens, tokensOf(pkg));
    const fit = fitToBudget(pkg, META, reviewer, counter);
    assert.equal(fit.fits, true);
    assert.deepEqual(fit.pkg.dropped, []);
  });

  it('over budget: measured with oversize_warning', () => {
    const pkg = measurePackage(pkgFrom({ summary: 'word '.repeat(4000) }), META, reviewer, counter);
    assert.equal(pkg.oversize_warning, true);
    assert.ok(pkg.estimated_tokens > 3000);
    assert.equal(pkg.estimated_tokens, tokensOf(pkg));
  });

  it('cuts recent turns first, oldest first, and only as many as needed', () => {
    const base = pkgFrom({ recent_turns: turns(5), max_context_tokens: 1 }, evidence());
    const budget = tokensOf({ ...base, recent_turns: base.recent_turns.slice(2) }, metaH) + 60;
    const fit = fitToBudget({ ...base, max_context_tokens: budget }, metaH, reviewer, counter);
    assert.equal(fit.fits, true);
    assert.deepEqual(fit.pkg.recent_turns.map((t) => t.text.slice(0, 7)), ['Turn 2:', 'Turn 3:', 'Turn 4:']);
    assert.equal(fit.pkg.dropped.length, 1);
    assert.equal(fit.pkg.dropped[0].section, 'recent_turns');
    assert.equal(fit.pkg.dropped[0].count, 2);
    assert.ok(fit.pkg.dropped[0].tokens > 100);
    assert.ok(fit.pkg.estimated_tokens <= budget);
  });

  it('then the diff excerpt (by lines from its end), before any touched file', () => {
    const base = pkgFrom({ recent_turns: turns(2) }, evidence({ diffExcerpt: diff(400), touchedFiles: files(30) }));
    const noTurns = { ...base, recent_turns: [] };
    const budget = tokensOf({ ...noTurns, diff_excerpt: diff(100).replace(/\n$/, ''), diff_excerpt_truncated: true }, metaH) + 60;
    const fit = fitToBudget({ ...base, max_context_tokens: budget }, metaH, reviewer, counter);
    assert.equal(fit.fits, true);
    assert.deepEqual(fit.pkg.dropped.map((d) => d.section), ['recent_turns', 'diff_excerpt']);
    assert.equal(fit.pkg.touched_files.length, 30);
    const keptLines = fit.pkg.diff_excerpt?.split('\n').length ?? 0;
    assert.ok(keptLines > 50 && keptLines < 401, `kept ${keptLines}`);
    assert.equal(fit.pkg.dropped[1].count, 401 - keptLines);
    assert.equal(fit.pkg.diff_excerpt_truncated, true);
  });

  it('then collapses the touched-file list to "… and N more"', () => {
    const base = pkgFrom({}, evidence({ diffExcerpt: diff(50), touchedFiles: files(200), touchedFilesOmitted: 7 }));
    const budget = tokensOf({ ...base, diff_excerpt: null, touched_files: base.touched_files.slice(0, 40), touched_files_omitted: 167 }, metaH) + 80;
    const fit = fitToBudget({ ...base, max_context_tokens: budget }, metaH, reviewer, counter);
    assert.equal(fit.fits, true);
    assert.deepEqual(fit.pkg.dropped.map((d) => d.section), ['diff_excerpt', 'touched_files']);
    assert.equal(fit.pkg.diff_excerpt, null);
    const kept = fit.pkg.touched_files.length;
    assert.ok(kept >= 40 && kept < 200, `kept ${kept}`);
    assert.equal(fit.pkg.touched_files_omitted, 7 + 200 - kept);
    assert.equal(fit.pkg.dropped[1].count, 200 - kept);
    assert.match(renderHandoff(fit.pkg, metaH, reviewer), new RegExp(`… and ${7 + 200 - kept} more \\(${200 - kept} cut to fit the token budget`));
  });

  it('then tests, keeping every failure', () => {
    const tests = Array.from({ length: 60 }, (_, i) => test(i, i % 10 === 0 ? 'failed' : 'passed'));
    const base = { ...pkgFrom({ tests_run: tests }, evidence({ touchedFiles: [] })) };
    const failures = tests.filter((t) => t.result === 'failed');
    const budget = tokensOf({ ...base, tests_run: failures, tests_run_omitted: 54 }, metaH) + 60;
    const fit = fitToBudget({ ...base, max_context_tokens: budget }, metaH, reviewer, counter);
    assert.equal(fit.fits, true);
    assert.deepEqual(fit.pkg.dropped.map((d) => d.section), ['tests_run']);
    for (const f of failures) {
      assert.ok(fit.pkg.tests_run.some((t) => t.command === f.command), `failure ${f.command} kept`);
    }
    assert.equal(fit.pkg.tests_run.length + fit.pkg.tests_run_omitted, 60);
    assert.equal(fit.pkg.dropped[0].count, fit.pkg.tests_run_omitted);
  });

  it('then the summary, marked [truncated]', () => {
    const summary = 'Sentence about the work. '.repeat(400);
    const base = pkgFrom({ summary }, evidence());
    const budget = tokensOf({ ...base, summary: summary.slice(0, 2000) }, metaH) + 60;
    const fit = fitToBudget({ ...base, max_context_tokens: budget }, metaH, reviewer, counter);
    assert.equal(fit.fits, true);
    assert.deepEqual(fit.pkg.dropped.map((d) => d.section), ['summary']);
    assert.ok(fit.pkg.summary.endsWith(SUMMARY_TRUNCATED_MARKER));
    assert.ok(fit.pkg.summary.length < summary.length);
    assert.equal(fit.pkg.dropped[0].count, summary.trim().length - (fit.pkg.summary.length - SUMMARY_TRUNCATED_MARKER.length));
  });

  it('uses the fixed order across all five sections and never cuts header fields, decisions or next steps', () => {
    const base = pkgFrom(
      {
        summary: 'Long summary. '.repeat(300),
        recent_turns: turns(5),
        tests_run: [test(1, 'passed'), test(2, 'failed')],
        decisions: ['Keep the API stable'],
        next_steps: ['Review the auth module'],
        return_condition: 'When the review is done',
      },
      evidence({ diffExcerpt: diff(300), touchedFiles: files(100) }),
    );
    const fit = fitToBudget({ ...base, max_context_tokens: 700 }, metaH, reviewer, counter);
    assert.deepEqual(fit.pkg.dropped.map((d) => d.section), ['recent_turns', 'diff_excerpt', 'touched_files', 'tests_run', 'summary']);
    assert.equal(fit.pkg.specialist, 'quality_reviewer');
    assert.equal(fit.pkg.topic, 'auth');
    assert.equal(fit.pkg.return_condition, 'When the review is done');
    assert.deepEqual(fit.pkg.decisions, [{ id: 'D1', text: 'Keep the API stable' }]);
    assert.deepEqual(fit.pkg.next_steps, ['Review the auth module']);
    assert.deepEqual(fit.pkg.tests_run.map((t) => t.result), ['failed']);
    assert.equal(fit.fits, fit.pkg.estimated_tokens <= 700);
    assert.equal(fit.original, fit.original);
    assert.equal(fit.original.recent_turns.length, 5, 'the original is untouched');
  });

  it('still over budget after every cut: oversize_warning stays true', () => {
    const base = pkgFrom({ decisions: Array.from({ length: 200 }, (_, i) => `Decision number ${i} that cannot be cut`) });
    const fit = fitToBudget({ ...base, max_context_tokens: 300 }, metaH, reviewer, counter);
    assert.equal(fit.fits, false);
    assert.equal(fit.pkg.oversize_warning, true);
    assert.ok(fit.pkg.estimated_tokens > 300);
  });

  it('the drop manifest is rendered in the frontmatter', () => {
    const base = pkgFrom({ recent_turns: turns(5) });
    const fit = fitToBudget({ ...base, max_context_tokens: tokensOf(base) - 200 }, metaH, reviewer, counter);
    const text = renderHandoff(fit.pkg, metaH, reviewer);
    assert.match(text, /dropped:\n {2}- section: recent_turns\n {4}count: \d+\n {4}tokens: \d+/);
    assert.match(text, /older turns were cut to fit the token budget/);
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
