/** Which commands are test runs. The exit code decides the result; without one the runner's summary (`basis: 'output'`); else `unknown`, never guessed. */
import { TestRunSchema, type TestRun } from '../handoff/schema';
import type { SessionCommand, SessionSource } from './events';
import { statusMasksRunner } from './shellWords';

export interface TestCounts {
  passed?: number;
  failed?: number;
  skipped?: number;
}

const WRAPPERS =
  /^(?:(?:[A-Za-z_][A-Za-z0-9_]*=\S*|time|sudo|env|nice|command|exec|xvfb-run|npx(?:\s+--?\S+)*|bunx|pnpx|pnpm\s+(?:exec|dlx)|yarn\s+(?:exec|dlx)|uv\s+run|poetry\s+run|pipenv\s+run|hatch\s+run|pdm\s+run|bundle\s+exec|dotenv\s+--)\s+)+/;

const RUNNERS: Array<[RegExp, string]> = [
  [/^npm\s+(?:test|t|tst)\b/, 'npm test'],
  [/^npm\s+(?:run|run-script)\s+(test[\w:.-]*)/, 'npm run test'],
  [/^(?:yarn|pnpm|bun)\s+(?:run\s+)?(test[\w:.-]*)\b/, 'package script test'],
  [/^bun\s+test\b/, 'bun test'],
  [/^(?:jest|vitest(?:\s+run)?|mocha|ava|tap|jasmine|c8\s+mocha|nyc\s+mocha)\b/, 'javascript test runner'],
  [/^(?:playwright\s+test|cypress\s+run|karma\s+start|wdio\s+run)\b/, 'browser test runner'],
  [/^node\s+(?:\S+\s+)*--test\b/, 'node --test'],
  [/^deno\s+test\b/, 'deno test'],
  [/^(?:pytest|py\.test)\b/, 'pytest'],
  [/^python[\d.]*\s+(?:-\S+\s+)*-m\s+(?:pytest|unittest|nose2?|green)\b/, 'python test module'],
  [/^(?:tox|nox)\b/, 'tox / nox'],
  [/^go\s+test\b/, 'go test'],
  [/^cargo\s+(?:\+\S+\s+)?(?:test|nextest\s+run)\b/, 'cargo test'],
  [/^(?:\.\/)?mvnw?\s+(?:-\S+\s+)*(?:\S+:)?(?:test|verify|integration-test)\b/, 'maven'],
  [/^(?:\.\/)?gradlew?\s+(?:-\S+\s+)*(?:\S*:)?(?:test|check|connectedCheck)\b/, 'gradle'],
  [/^dotnet\s+test\b/, 'dotnet test'],
  [/^(?:rspec|rake\s+(?:test|spec)|rails\s+test)\b/, 'ruby tests'],
  [/^(?:(?:\.\/)?vendor\/bin\/)?(?:phpunit|pest)\b/, 'phpunit'],
  [/^ctest\b/, 'ctest'],
  [/^make\s+(?:-\S+\s+)*(?:test|tests|check|test-\S+)\b/, 'make test'],
  [/^(?:swift\s+test|mix\s+test|flutter\s+test|dart\s+test|zig\s+build\s+test|stack\s+test|cabal\s+test)\b/, 'test runner'],
  // sbt (or its launcher script `./sbt`, the client `sbtn`) with options, then a test task, maybe quoted with its arguments.
  [/^(?:\.\/)?sbtn?\s+(?:-\S+\s+)*["']?(?:[\w-]+\/)?(?:test|testOnly|testQuick|[\w-]*:test)\b/, 'sbt'],
];

/**
 * Whether the exit status is another command's than the runner's: one after it in a pipeline (`pytest | tail`, unless
 * `pipefail`), after `||` (`npm test || true`) or after `;` / a new line (`go test; echo done`). After `&&` it stands:
 * that command runs only when the tests passed. Read from the shell's syntax tree, so quoted separators are text.
 */
export function exitIsAnotherCommands(command: string): boolean {
  return statusMasksRunner(command, (simple) => testRunner(simple) !== undefined);
}

function segments(command: string): string[] {
  return command
    .split(/&&|\|\||[;|\n]/)
    .map((s) => s.trim().replace(/^\(+\s*/, ''))
    .filter(Boolean);
}

/** Any simple command of the line counts (`cd app && npm test`), after env assignments and wrappers. */
export function testRunner(command: string): string | undefined {
  for (const seg of segments(command)) {
    const bare = seg.replace(WRAPPERS, '').replace(/^(?:\S*\/)?(?=(?:jest|vitest|mocha|pytest|phpunit|pest|rspec)\b)/, '');
    for (const [re, label] of RUNNERS) {
      if (re.test(bare)) {
        return label;
      }
    }
  }
  return undefined;
}

function num(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number.parseInt(s.replace(/,/g, ''), 10);
  return Number.isNaN(n) ? undefined : n;
}

function lastMatch(text: string, re: RegExp): RegExpExecArray | undefined {
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  let last: RegExpExecArray | undefined;
  for (let m = g.exec(text); m; m = g.exec(text)) {
    last = m;
  }
  return last;
}

function wordCounts(list: string, words: Record<keyof TestCounts, RegExp>): TestCounts | undefined {
  const out: TestCounts = {};
  let any = false;
  for (const [key, re] of Object.entries(words) as Array<[keyof TestCounts, RegExp]>) {
    let total: number | undefined;
    for (const m of list.matchAll(new RegExp(`(\\d[\\d,]*)\\s+(?:${re.source})`, 'gi'))) {
      total = (total ?? 0) + (num(m[1]) ?? 0);
    }
    if (total !== undefined) {
      out[key] = total;
      any = true;
    }
  }
  return any ? out : undefined;
}

type Parser = (text: string) => TestCounts | undefined;

const PARSERS: Parser[] = [
  // pytest: "===== 2 failed, 10 passed, 1 skipped in 0.12s ====="
  (t) => {
    const m = lastMatch(t, /^=+ (.*\b(?:passed|failed|error|errors|skipped|deselected)\b.*) in [\d.]+s(?: \([^)]*\))? =+\s*$/m);
    return m ? wordCounts(m[1], { passed: /passed|xpassed/, failed: /failed|errors?/, skipped: /skipped|deselected|xfailed/ }) : undefined;
  },
  // jest: "Tests:       1 failed, 2 skipped, 10 passed, 13 total"
  (t) => {
    const m = lastMatch(t, /^Tests:\s+(.*\btotal)\s*$/m);
    return m ? wordCounts(m[1], { passed: /passed/, failed: /failed/, skipped: /skipped|todo/ }) : undefined;
  },
  // vitest: " Tests  2 failed | 10 passed | 1 skipped (13)"
  (t) => {
    const m = lastMatch(t, /^\s*Tests\s+(\d.*\(\d+\))\s*$/m);
    return m ? wordCounts(m[1], { passed: /passed/, failed: /failed/, skipped: /skipped|todo/ }) : undefined;
  },
  // cargo test: "test result: ok. 10 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out" (summed over crates)
  (t) => {
    const all = [...t.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/g)];
    if (!all.length) return undefined;
    return all.reduce<TestCounts>(
      (acc, m) => ({ passed: (acc.passed ?? 0) + Number(m[1]), failed: (acc.failed ?? 0) + Number(m[2]), skipped: (acc.skipped ?? 0) + Number(m[3]) }),
      {},
    );
  },
  // maven surefire: "Tests run: 12, Failures: 1, Errors: 0, Skipped: 2" (the last is the total)
  (t) => {
    const m = lastMatch(t, /Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)/);
    if (!m) return undefined;
    const [run, failures, errors, skipped] = [m[1], m[2], m[3], m[4]].map(Number);
    return { passed: Math.max(0, run - failures - errors - skipped), failed: failures + errors, skipped };
  },
  // dotnet test: "Failed!  - Failed:     1, Passed:    40, Skipped:     0, Total:    41"
  (t) => {
    const m = lastMatch(t, /Failed:\s+(\d+), Passed:\s+(\d+), Skipped:\s+(\d+), Total:\s+(\d+)/);
    return m ? { passed: Number(m[2]), failed: Number(m[1]), skipped: Number(m[3]) } : undefined;
  },
  // xUnit-style report lines: "Total: 41" / "Passed: 41" / "Failed: 0" / "Skipped: 0" (both Passed and Failed needed)
  (t) => {
    const passed = lastMatch(t, /^\s*Passed:\s*(\d+)\s*$/m);
    const failed = lastMatch(t, /^\s*Failed:\s*(\d+)\s*$/m);
    if (!passed || !failed) return undefined;
    const skipped = lastMatch(t, /^\s*Skipped:\s*(\d+)\s*$/m);
    return { passed: num(passed?.[1]), failed: num(failed?.[1]), ...(skipped ? { skipped: num(skipped[1]) } : {}) };
  },
  // mocha: "  10 passing (2s)", "  2 failing", "  1 pending"
  (t) => {
    const passing = lastMatch(t, /^\s*(\d+) passing\b/m);
    if (!passing) return undefined;
    const failing = lastMatch(t, /^\s*(\d+) failing\b/m);
    const pending = lastMatch(t, /^\s*(\d+) pending\b/m);
    return { passed: Number(passing[1]), failed: failing ? Number(failing[1]) : 0, ...(pending ? { skipped: Number(pending[1]) } : {}) };
  },
  // node --test (TAP or spec reporter): "# pass 10" / "ℹ pass 10"
  (t) => {
    const pass = lastMatch(t, /^(?:#|ℹ) pass (\d+)\s*$/m);
    if (!pass) return undefined;
    const fail = lastMatch(t, /^(?:#|ℹ) fail (\d+)\s*$/m);
    const skip = lastMatch(t, /^(?:#|ℹ) skipped (\d+)\s*$/m);
    return { passed: Number(pass[1]), failed: fail ? Number(fail[1]) : 0, ...(skip ? { skipped: Number(skip[1]) } : {}) };
  },
  // rspec: "10 examples, 2 failures, 1 pending"
  (t) => {
    const m = lastMatch(t, /(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?/);
    return m ? { passed: Number(m[1]) - Number(m[2]) - Number(m[3] ?? 0), failed: Number(m[2]), ...(m[3] ? { skipped: Number(m[3]) } : {}) } : undefined;
  },
  // phpunit: "OK (10 tests, 20 assertions)" / "Tests: 10, Assertions: 20, Failures: 2, Skipped: 1."
  (t) => {
    const ok = lastMatch(t, /^OK \((\d+) tests?, \d+ assertions?\)/m);
    if (ok) return { passed: Number(ok[1]), failed: 0 };
    const m = lastMatch(t, /^Tests: (\d+), Assertions: \d+(?:, Errors: (\d+))?(?:, Failures: (\d+))?(?:, \w+: \d+)*?(?:, Skipped: (\d+))?/m);
    if (!m) return undefined;
    const failed = Number(m[2] ?? 0) + Number(m[3] ?? 0);
    const skipped = Number(m[4] ?? 0);
    return { passed: Number(m[1]) - failed - skipped, failed, skipped };
  },
  // ctest: "100% tests passed, 0 tests failed out of 12"
  (t) => {
    const m = lastMatch(t, /\d+% tests passed, (\d+) tests? failed out of (\d+)/);
    return m ? { passed: Number(m[2]) - Number(m[1]), failed: Number(m[1]) } : undefined;
  },
  // go test -v: "--- PASS: TestX", "--- FAIL: TestY", "--- SKIP: TestZ"; without -v: "ok  pkg" / "FAIL pkg" lines
  (t) => {
    const pass = (t.match(/^\s*--- PASS: /gm) ?? []).length;
    const fail = (t.match(/^\s*--- FAIL: /gm) ?? []).length;
    const skip = (t.match(/^\s*--- SKIP: /gm) ?? []).length;
    if (pass + fail + skip > 0) return { passed: pass, failed: fail, ...(skip ? { skipped: skip } : {}) };
    const okPkgs = (t.match(/^ok\s+\S+\s/gm) ?? []).length;
    const failPkgs = (t.match(/^FAIL\s+\S+\s/gm) ?? []).length;
    return okPkgs + failPkgs > 0 ? { passed: okPkgs, failed: failPkgs } : undefined;
  },
];

/** Loose: they add counts to known test commands, never decide that a command was a test. */
const GENERIC_PARSERS: Parser[] = [
  // Generic: "12 tests passed, 1 failed" / "3 passed, 0 failed"
  (t) => {
    const m = lastMatch(t, /^.*\b\d+ (?:tests? )?passed\b.*$/m);
    return m ? wordCounts(m[0], { passed: /(?:tests? )?passed/, failed: /(?:tests? )?failed/, skipped: /(?:tests? )?skipped/ }) : undefined;
  },
];

/** `specific`: a known runner's format matched, strong enough to call a command a test run on its own. */
export function parseTestSummary(output: string | undefined): { counts: TestCounts; specific: boolean } | undefined {
  if (!output) {
    return undefined;
  }
  for (const [list, specific] of [
    [PARSERS, true],
    [GENERIC_PARSERS, false],
  ] as const) {
    for (const parse of list) {
      const counts = parse(output);
      if (counts) {
        return { counts, specific };
      }
    }
  }
  return undefined;
}

export function parseTestCounts(output: string | undefined): TestCounts | undefined {
  return parseTestSummary(output)?.counts;
}

/** Failure lines runners and npm print besides their counts. */
const FAILURE_LINES = [
  /^Test Suites:.*\b[1-9]\d* failed\b/m,
  /^\s*Test Files\s+[1-9]\d* failed\b/m,
  /^test result: FAILED\./m,
  /^error: (?:test failed|could not compile|\d+ targets? failed)/m,
  /^FAIL(?:\s|$)/m,
  /^(?:=+ )?(?:ERROR collecting|Interrupted: \d+ errors?)/m,
  /^npm (?:ERR!|error) (?:Test failed|code (?!0\b)\S+|command failed|Lifecycle script .* failed)/m,
  // sbt: "[error] Failed tests:", "[error] (Test / testOnly) sbt.TestsFailedException: Tests unsuccessful"
  /^\[error\] (?:Failed tests:|\(.*\) sbt\.TestsFailedException)/m,
];

/** For logs with no exit code: `failed` on a counted failure or a failure line, `passed` on counted passes, else undefined. */
export function resultFromOutput(output: string | undefined): 'passed' | 'failed' | undefined {
  if (!output) return undefined;
  const counts = parseTestSummary(output)?.counts;
  if ((counts?.failed ?? 0) > 0 || FAILURE_LINES.some((re) => re.test(output))) return 'failed';
  return (counts?.passed ?? 0) > 0 ? 'passed' : undefined;
}

/** Commands that ran and invoke a known runner or printed a known summary; result from the exit code, else the output, else the agent's claim. */
export function testRunsFrom(commands: readonly SessionCommand[], source: SessionSource): TestRun[] {
  const runs: TestRun[] = [];
  for (const c of commands) {
    if (!c.ran) {
      continue;
    }
    const summary = parseTestSummary(c.output_tail);
    if (!testRunner(c.command) && !summary?.specific) {
      continue;
    }
    // Logs are other programs' output: an out-of-range value is taken as unknown, not trusted. A pipeline's status is
    // its last command's, not the runner's before it.
    const exit = typeof c.exit_code === 'number' && Number.isSafeInteger(c.exit_code) && !exitIsAnotherCommands(c.command) ? c.exit_code : null;
    const counts =
      summary?.counts && Object.values(summary.counts).every((n) => n === undefined || (Number.isSafeInteger(n) && n >= 0)) ? summary.counts : undefined;
    const duration = typeof c.duration_ms === 'number' && Number.isFinite(c.duration_ms) && c.duration_ms >= 0 ? c.duration_ms : null;
    const fromOutput = exit === null && !c.failed ? resultFromOutput(c.output_tail) : undefined;
    const claimed = exit === null && !c.failed && !fromOutput && !c.output_tail?.trim() ? c.claimed : undefined;
    const result: TestRun['result'] = exit === 0 ? 'passed' : exit !== null || c.failed ? 'failed' : (fromOutput ?? claimed ?? 'unknown');
    const run = TestRunSchema.safeParse({
      command: c.command,
      cwd: c.cwd ?? null,
      exit_code: exit,
      result,
      ...(exit !== null || c.failed ? { basis: 'exit code' } : fromOutput ? { basis: 'output' } : claimed ? { basis: 'claim' } : {}),
      ...(counts ? { counts } : {}),
      source,
      started_at: c.time ?? null,
      duration_ms: duration,
    });
    if (run.success) {
      runs.push(run.data);
    }
  }
  return runs;
}
