/**
 * Redaction rows of `npm run bench` (issue 14, docs/DESIGN.md §7 "Nothing leaked"):
 *
 * - `sanitizePackage` on a realistic 3,000-token HandoffPackage (summary, decisions, next
 *   steps, recent turns, test commands, a diff excerpt, a few secrets among them) beside
 *   counting the tokens of that package as rendered (gpt-tokenizer o200k_base, the budget's
 *   count), in the same run; goal: redaction at most 25× the count;
 * - `redactSecrets` on a 1 MB diff excerpt beside counting its tokens.
 *
 * Run alone: `npx tsx bench/redaction.ts`.
 */
import { composePackage } from '../src/core/handoff/compose';
import { emptyGitEvidence } from '../src/core/handoff/gitEvidence';
import { renderHandoff, type HandoffMeta } from '../src/core/handoff/render';
import { parseHandoverRequest } from '../src/core/handoff/request';
import type { HandoffPackage } from '../src/core/handoff/schema';
import { countTokens } from '../src/core/handoff/tokens';
import { sanitizePackage } from '../src/core/safety/packageGate';
import { redactSecrets } from '../src/core/safety/redact';
import { SpecialistRegistry } from '../src/core/specialists/registry';
import { loadEncoding } from '../src/engine/tokenizers/tokenizer';

/** One measured figure: ours (redaction) and the baseline (token counting), in milliseconds. */
export interface RedactionRow {
  readonly name: string;
  readonly ours: number;
  readonly baseline: number;
  readonly note?: string;
}

/** The goal of issue 14: redacting a 3,000-token package costs at most this many times counting its tokens. */
export const REDACTION_GOAL_RATIO = 25;

const META: HandoffMeta = {
  id: '2026-11-30T10-00-00.000Z_quality_reviewer',
  created: '2026-11-30T10:00:00.000Z',
  status: 'pending',
  briefingFile: 'briefings/quality-reviewer-bench-2026-11-30.md',
  historyFile: null,
};

/** A fixed pseudo-random string (a linear congruential generator), so runs compare. */
function noise(seed: number, n: number, cs = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let x = seed >>> 0;
  let s = '';
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    s += cs[x % cs.length];
  }
  return s;
}

/** A diff of ordinary code, `chars` long, with a secret every `every` lines (0: none). */
function diffOf(chars: number, every: number): string {
  const lines: string[] = ['diff --git a/src/auth/session.ts b/src/auth/session.ts', '--- a/src/auth/session.ts', '+++ b/src/auth/session.ts'];
  let size = 0;
  for (let i = 0; size < chars; i++) {
    const line =
      every > 0 && i % every === every - 1
        ? `+  const apiKey = "${noise(i, 32)}"; // TODO move to the vault`
        : i % 7 === 0
          ? `@@ -${i},7 +${i},9 @@ export class SessionStore {`
          : `${i % 3 === 0 ? '-' : '+'}    const token${i} = await this.refresh(user, { retries: 3, ttl: ${i * 60} }); // see https://docs.example.net/auth?page=${i}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n').slice(0, chars);
}

/** A realistic package of about `targetTokens` tokens (rendered), for the quality reviewer. */
function benchPackage(targetTokens: number, count: (text: string) => number): { pkg: HandoffPackage; rendered: string } {
  const specialist = (() => {
    const r = new SpecialistRegistry().lookup('quality_reviewer');
    if (!r.ok) throw new Error(r.message);
    return r.specialist;
  })();
  const build = (scale: number) => {
    const parsed = parseHandoverRequest({
      specialist: 'quality_reviewer',
      topic: 'Session refresh',
      summary: Array.from(
        { length: scale },
        (_, i) => `Step ${i}: moved the token refresh into the session middleware; the store now keeps the expiry per user and retries twice. `,
      ).join(''),
      decisions: Array.from(
        { length: Math.ceil(scale / 2) },
        (_, i) => `Decision ${i}: keep refresh tokens server-side; rotate on every use (RFC 6819 §5.2.2.3).`,
      ),
      next_steps: [
        'Review src/auth/session.ts for timing-safe comparison',
        'Add tests for expired refresh tokens',
        `Rotate the leaked key sk-ant-api03-${noise(7, 93, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_')}AA`,
      ],
      failed_approaches: ['Caching the token in localStorage (XSS exposure)'],
      recent_turns: Array.from({ length: 5 }, (_, i) => ({
        role: i % 2 === 0 ? 'user' : 'assistant',
        text: `Turn ${i}: ${i === 2 ? `export GITHUB_TOKEN=ghp_${noise(3, 36)} and run the tests; ` : ''}the refresh path works; the failing test was the clock skew. `.repeat(
          Math.ceil(scale / 4),
        ),
      })),
      tests_run: [{ command: 'npm test -- --grep session', result: 'passed', exit_code: 0 }],
      max_context_tokens: 100_000,
      include_recent_turns: 5,
    });
    if (!parsed.ok) throw new Error(parsed.message);
    const ev = {
      ...emptyGitEvidence('x'),
      notes: [],
      repoRoot: '/repo',
      branch: 'main',
      headCommit: 'a'.repeat(40),
      diffHash: 'f'.repeat(64),
      problem: null,
      diffExcerpt: diffOf(600 * scale, 40),
    };
    const pkg = composePackage(parsed.request, {
      specialist,
      topic: { slug: 'session-refresh', title: 'Session refresh' },
      evidence: ev,
      sessionId: 'session-bench',
    });
    return { pkg, rendered: renderHandoff(pkg, META, specialist) };
  };
  let scale = 1;
  let out = build(scale);
  while (count(out.rendered) < targetTokens && scale < 1000) out = build(++scale);
  return out;
}

/**
 * Measures the redaction rows.
 * @param compare interleaved medians of ours and the baseline (the bench's)
 */
export async function redactionRows(
  say: (line: string) => void,
  compare: (ours: () => unknown, baseline: () => unknown, runs?: number) => Promise<{ ours: number; baseline: number }>,
): Promise<RedactionRow[]> {
  const o200k = loadEncoding('o200k_base');
  const count = (text: string) => countTokens(o200k, text).tokens;
  const { pkg, rendered } = benchPackage(3_000, count);
  const tokens = count(rendered);
  await redactSecrets('warm up: secretlint loads once');
  const r1 = await compare(
    () => sanitizePackage(pkg),
    () => count(rendered),
    15,
  );
  const ratio = r1.ours / r1.baseline;
  say(
    `redacting a ${tokens.toLocaleString('en')}-token package: ${ratio.toFixed(1)}× counting its tokens (goal ≤ ${REDACTION_GOAL_RATIO}×): ${ratio <= REDACTION_GOAL_RATIO ? 'met' : 'NOT met'}`,
  );

  const diff = diffOf(1024 * 1024, 200);
  const r2 = await compare(
    () => redactSecrets(diff),
    () => count(diff),
    5,
  );
  say(`redacting a 1 MB diff excerpt: ${r2.ours.toFixed(0)} ms (${(r2.ours / r2.baseline).toFixed(1)}× counting its tokens)`);
  return [
    {
      name: `redaction: ${tokens.toLocaleString('en')}-token package (sanitizePackage vs counting its tokens)`,
      ours: r1.ours,
      baseline: r1.baseline,
      note: `goal ≤ ${REDACTION_GOAL_RATIO}×: ${ratio <= REDACTION_GOAL_RATIO ? 'met' : 'NOT met'}`,
    },
    { name: 'redaction: 1 MB diff excerpt (redactSecrets vs counting its tokens)', ours: r2.ours, baseline: r2.baseline },
  ];
}

if (require.main === module) {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const time = async (fn: () => unknown) => {
    const t = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  const compare = async (ours: () => unknown, baseline: () => unknown, runs = 5) => {
    await ours();
    await baseline();
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < runs; i++) {
      a.push(await time(ours));
      b.push(await time(baseline));
    }
    return { ours: median(a), baseline: median(b) };
  };
  void redactionRows((l) => console.log(l), compare).then((rows) => {
    for (const r of rows)
      console.log(`${r.name}: ${r.ours.toFixed(1)} ms vs ${r.baseline.toFixed(1)} ms = ${(r.ours / r.baseline).toFixed(1)}×${r.note ? ` (${r.note})` : ''}`);
  });
}
