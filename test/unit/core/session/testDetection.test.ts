import assert from 'node:assert/strict';
import type { SessionCommand } from '../../../../src/core/session/events';
import {
  exitIsAnotherCommands,
  parseTestCounts,
  parseTestSummary,
  resultFromOutput,
  testRunner,
  testRunsFrom,
} from '../../../../src/core/session/testDetection';
import { failuresAfterLastPass } from '../../../../src/core/receive/handBackPolicy';
import { renderTestRun } from '../../../../src/core/handoff/render';

describe('test-command detection', () => {
  const tests = [
    'npm test',
    'npm t',
    'npm run test',
    'npm run test:unit -- --grep x',
    'yarn test',
    'yarn test:e2e',
    'pnpm test',
    'pnpm run test:ci',
    'bun test',
    'npx jest --ci',
    'npx --yes vitest run',
    'CI=1 npx vitest run src',
    'node_modules/.bin/mocha',
    'mocha test/**/*.test.ts',
    'node --test',
    'node --experimental-strip-types --test test/',
    'deno test -A',
    'pytest -q tests/',
    'python -m pytest -x',
    'python3 -m unittest discover',
    'uv run pytest',
    'poetry run pytest',
    'tox -e py311',
    'go test ./...',
    'cargo test --workspace',
    'cargo nextest run',
    'mvn -q test',
    './mvnw verify',
    'gradle test',
    './gradlew :app:test',
    'dotnet test',
    'bundle exec rspec',
    'rspec spec/models',
    'vendor/bin/phpunit',
    'ctest --output-on-failure',
    'make test',
    'make check',
    'swift test',
    'mix test',
    'flutter test',
    'cd app && npm test',
    'cd /x && CI=true npm test -- --watchAll=false 2>&1 | tail -20',
    'time pytest',
    'npx playwright test',
  ];
  for (const cmd of tests) {
    it(`"${cmd}" is a test run`, () => assert.ok(testRunner(cmd), cmd));
  }
  const notTests = [
    'npm install',
    'npm run build',
    'git commit -m "add tests"',
    'ls test/',
    'cat test.txt',
    'echo npm test',
    'npm run lint',
    'grep -r pytest .',
    'node script.js --testing',
    'make',
    'go build ./...',
    'cargo build',
    'python train.py',
    'vim test_file.py',
  ];
  for (const cmd of notTests) {
    it(`"${cmd}" is not a test run`, () => assert.equal(testRunner(cmd), undefined, cmd));
  }
});

describe('test summary parsing', () => {
  const cases: Array<[string, string, ReturnType<typeof parseTestCounts>]> = [
    ['pytest', '..F.\n==================== 1 failed, 10 passed, 2 skipped in 0.42s ====================', { passed: 10, failed: 1, skipped: 2 }],
    ['pytest with errors', '===== 3 passed, 1 error in 1.10s =====', { passed: 3, failed: 1 }],
    [
      'jest',
      'Test Suites: 1 failed, 3 passed, 4 total\nTests:       1 failed, 2 skipped, 10 passed, 13 total\nSnapshots:   0 total',
      { passed: 10, failed: 1, skipped: 2 },
    ],
    [
      'vitest',
      ' Test Files  1 failed | 2 passed (3)\n      Tests  2 failed | 10 passed | 1 skipped (13)\n   Start at  10:00:00',
      { passed: 10, failed: 2, skipped: 1 },
    ],
    ['mocha', '  12 passing (2s)\n  1 pending\n  3 failing\n', { passed: 12, failed: 3, skipped: 1 }],
    ['node --test (TAP)', '# tests 5\n# suites 1\n# pass 4\n# fail 1\n# cancelled 0\n# skipped 0', { passed: 4, failed: 1, skipped: 0 }],
    ['node --test (spec)', 'ℹ tests 3\nℹ pass 3\nℹ fail 0', { passed: 3, failed: 0 }],
    [
      'cargo (two crates)',
      'test result: ok. 10 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out\ntest result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured',
      { passed: 12, failed: 1, skipped: 1 },
    ],
    ['go test -v', '=== RUN   TestA\n--- PASS: TestA (0.00s)\n--- FAIL: TestB (0.00s)\n--- SKIP: TestC (0.00s)\nFAIL', { passed: 1, failed: 1, skipped: 1 }],
    ['go test', 'ok  \texample.com/a\t0.01s\nFAIL\texample.com/b\t0.02s\n', { passed: 1, failed: 1 }],
    ['maven', '[INFO] Tests run: 12, Failures: 1, Errors: 1, Skipped: 2', { passed: 8, failed: 2, skipped: 2 }],
    ['dotnet test', 'Failed!  - Failed:     1, Passed:    40, Skipped:     0, Total:    41, Duration: 2 s', { passed: 40, failed: 1, skipped: 0 }],
    ['xUnit report', 'Total:  41\nPassed: 41\nFailed: 0\n', { passed: 41, failed: 0 }],
    ['rspec', 'Finished in 0.5 seconds\n10 examples, 2 failures, 1 pending', { passed: 7, failed: 2, skipped: 1 }],
    ['phpunit ok', 'OK (10 tests, 20 assertions)', { passed: 10, failed: 0 }],
    ['ctest', '100% tests passed, 0 tests failed out of 12', { passed: 12, failed: 0 }],
    ['generic', 'Done: 7 tests passed, 1 failed', { passed: 7, failed: 1 }],
  ];
  for (const [name, output, expected] of cases) {
    it(name, () => assert.deepEqual(parseTestCounts(output), expected));
  }
  it('says nothing for output without a summary', () => {
    assert.equal(parseTestCounts('compiling...\ndone'), undefined);
    assert.equal(parseTestCounts(''), undefined);
  });
  it('marks the loose "N passed" form as not specific', () => {
    assert.equal(parseTestSummary('3 passed')?.specific, false);
    assert.equal(parseTestSummary('===== 3 passed in 0.1s =====')?.specific, true);
  });
});

describe('test runs from session commands', () => {
  const cmd = (over: Partial<SessionCommand>): SessionCommand => ({ kind: 'command', command: 'npm test', exit_code: null, ran: true, ...over });

  it('the exit code decides: 0 passed, other failed, none unknown — never guessed', () => {
    const runs = testRunsFrom([cmd({ exit_code: 0 }), cmd({ exit_code: 1 }), cmd({ exit_code: null }), cmd({ exit_code: null, failed: true })], 'recorder');
    assert.deepEqual(
      runs.map((r) => [r.result, r.exit_code]),
      [
        ['passed', 0],
        ['failed', 1],
        ['unknown', null],
        ['failed', null],
      ],
    );
    assert.ok(runs.every((r) => r.source === 'recorder'));
  });

  it('counts add detail but do not override the exit code', () => {
    const [r] = testRunsFrom([cmd({ exit_code: 0, output_tail: 'Tests:       1 failed, 4 passed, 5 total' })], 'claude-code');
    assert.equal(r.result, 'passed');
    assert.deepEqual(r.counts, { passed: 4, failed: 1 });
  });

  it('commands that did not run are no test results; non-test commands are left out', () => {
    assert.deepEqual(testRunsFrom([cmd({ ran: false, exit_code: 1 }), cmd({ command: 'npm run build', exit_code: 0 })], 'codex'), []);
  });

  it('a command printing a known test summary counts even when its name is not a runner', () => {
    const [r] = testRunsFrom([cmd({ command: 'dotnet run --project golden_tests', output_tail: 'Total:  41\nPassed: 41\nFailed: 0' })], 'cline');
    // Issue 16 changed this: with no exit code, the printed summary decides (marked as such).
    assert.equal(r.result, 'passed');
    assert.equal(r.basis, 'output');
    assert.deepEqual(r.counts, { passed: 41, failed: 0 });
    assert.deepEqual(testRunsFrom([cmd({ command: 'cat notes.txt', output_tail: '3 passed' })], 'cline'), []);
  });

  it("sbt with options and a quoted test task is a runner; a status that is another command's (| tail, ||, ;) does not decide, the output does", () => {
    const sbt = './sbt -Dsbt.color=false -Dsbt.supershell=false "testOnly SecurityScannerIntegrationSpec" 2>&1 | tail -120';
    assert.equal(testRunner(sbt), 'sbt');
    assert.equal(testRunner('sbtn "testOnly a.B -- -z x"'), 'sbt');
    assert.equal(testRunner('sbt compile'), undefined);
    const hidden = [
      'npm test | tail -20',
      'npm test |& tee log',
      'npm test || true',
      'go test ./...; echo done',
      'pytest\necho $?',
      sbt,
      '(cd app && npm test) | tail',
    ];
    const stands = [
      'set -o pipefail; npm test | tail',
      'cd app && npm test',
      'npm test && echo ok',
      'echo x | npm test',
      'pytest -k "a|b"',
      'npm test;',
      'npm test | tail; npm test',
      'npm test -- --grep "a; b || c"',
      'npm test 2>&1 && echo ok | tee log',
    ];
    assert.deepEqual(
      hidden.map((c) => [c, exitIsAnotherCommands(c)]),
      hidden.map((c) => [c, true]),
    );
    assert.deepEqual(
      stands.map((c) => [c, exitIsAnotherCommands(c)]),
      stands.map((c) => [c, false]),
    );
    const runs = testRunsFrom(
      [
        cmd({
          command: sbt,
          exit_code: 0,
          output_tail: '1 tests passed. 1 tests failed. 0 tests ignored.\n[info] Completed tests\n[error] Failed tests:\n[error] \tSpec',
        }),
        cmd({ command: sbt, exit_code: 0, output_tail: '\tat Spec.scala:15\n[error] (Test / testOnly) sbt.TestsFailedException: Tests unsuccessful' }),
        cmd({ command: sbt, exit_code: 0, output_tail: '3 tests passed. 0 tests failed. 0 tests ignored.\n[success] Total time: 15 s' }),
        cmd({ command: 'npm test | tail -3', exit_code: 0 }),
        cmd({ command: 'npm test && echo ok', exit_code: 0 }),
      ],
      'kiro',
    );
    assert.deepEqual(
      runs.map((r) => [r.result, r.exit_code, r.basis ?? null]),
      [
        ['failed', null, 'output'],
        ['failed', null, 'output'],
        ['passed', null, 'output'],
        ['unknown', null, null],
        ['passed', 0, 'exit code'],
      ],
    );
  });
});

describe('results from output where no exit code exists (issue 16)', () => {
  const cmd = (command: string, output: string): SessionCommand => ({ kind: 'command', command, exit_code: null, ran: true, output_tail: output });
  // Each runner's real summary / failure lines, as the runner prints them.
  const cases: Array<[runner: string, command: string, output: string, result: 'passed' | 'failed']> = [
    [
      'jest failed',
      'npx jest',
      'FAIL src/sum.test.js\n  ● sum › adds\n\nTest Suites: 1 failed, 1 total\nTests:       1 failed, 3 passed, 4 total\nSnapshots:   0 total\nTime:        0.512 s\nRan all test suites.',
      'failed',
    ],
    [
      'jest suite failed to run, tests passed',
      'npx jest',
      'FAIL src/b.test.ts\n  ● Test suite failed to run\n\nTest Suites: 1 failed, 2 passed, 3 total\nTests:       8 passed, 8 total',
      'failed',
    ],
    ['jest passed', 'npm test', 'PASS src/sum.test.js\nTest Suites: 1 passed, 1 total\nTests:       4 passed, 4 total', 'passed'],
    [
      'vitest failed',
      'npx vitest run',
      ' Test Files  1 failed | 3 passed (4)\n      Tests  1 failed | 20 passed (21)\n   Start at  10:11:12\n   Duration  1.20s',
      'failed',
    ],
    ['vitest passed', 'npx vitest run', ' ✓ src/a.test.ts (3 tests) 4ms\n\n Test Files  1 passed (1)\n      Tests  3 passed (3)', 'passed'],
    ['mocha failing', 'npx mocha', '  3 passing (12ms)\n  1 failing\n\n  1) adds:\n     AssertionError', 'failed'],
    ['mocha passing', 'npx mocha', '  12 passing (30ms)', 'passed'],
    ['pytest failed', 'pytest -q', '..F.\nFAILED tests/test_a.py::test_x - assert 1 == 2\n1 failed, 3 passed in 0.05s', 'failed'],
    ['pytest failed (banner)', 'python -m pytest', '=========================== 1 failed, 10 passed in 0.42s ===========================', 'failed'],
    [
      'pytest collection error',
      'pytest',
      '==================================== ERRORS ====================================\n_____________________ ERROR collecting tests/test_a.py _____________________\n!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!!\n=============================== 1 error in 0.10s ===============================',
      'failed',
    ],
    ['pytest passed', 'pytest', '============================== 5 passed in 0.02s ===============================', 'passed'],
    ['go test failed', 'go test ./...', '--- FAIL: TestAdd (0.00s)\n    add_test.go:9: got 3\nFAIL\nFAIL\texample.com/calc\t0.002s\nFAIL', 'failed'],
    ['go test passed', 'go test ./...', 'ok  \texample.com/calc\t0.002s', 'passed'],
    [
      'cargo test failed',
      'cargo test',
      'test tests::adds ... FAILED\n\nfailures:\n    tests::adds\n\ntest result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\nerror: test failed, to rerun pass `--lib`',
      'failed',
    ],
    [
      'cargo does not compile',
      'cargo test',
      'error[E0425]: cannot find value `x` in this scope\nerror: could not compile `calc` (lib test) due to 1 previous error',
      'failed',
    ],
    ['cargo test passed', 'cargo test', 'test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s', 'passed'],
    ['npm 6 Test failed', 'npm test', '> calc@1.0.0 test /app\n> node test.js\n\nnpm ERR! Test failed.  See above for more details.', 'failed'],
    [
      'npm 10 error',
      'npm test',
      '> calc@1.0.0 test\n> node test.js\n\nnpm error Lifecycle script `test` failed with error:\nnpm error code 1\nnpm error path /app\nnpm error command failed\nnpm error command sh -c node test.js',
      'failed',
    ],
  ];
  for (const [name, command, output, expected] of cases) {
    it(`${name}: ${expected}, read from the output`, () => {
      assert.equal(resultFromOutput(output), expected);
      const [r] = testRunsFrom([cmd(command, output)], 'aider');
      assert.equal(r.result, expected);
      assert.equal(r.basis, 'output');
      assert.equal(r.exit_code, null, 'never mistaken for an exit code');
    });
  }

  it('an exit code still decides, with basis "exit code"; no summary stays unknown with no basis', () => {
    const [byExit] = testRunsFrom([{ ...cmd('npm test', 'Tests: 1 failed, 1 total'), exit_code: 0 }], 'claude-code');
    assert.deepEqual([byExit.result, byExit.basis], ['passed', 'exit code']);
    const [none] = testRunsFrom([cmd('npm test', 'compiling…')], 'aider');
    assert.deepEqual([none.result, none.basis], ['unknown', undefined]);
  });

  it('the hand-back policy sees a failure read from the output', () => {
    const runs = testRunsFrom([cmd('pytest', '1 failed, 3 passed in 0.05s')], 'aider');
    assert.equal(failuresAfterLastPass(runs).failures.length, 1);
    assert.match(renderTestRun(runs[0]), /❌ failed `pytest` \(no exit code: result read from the output; 3 passed, 1 failed; source: aider\)/);
  });
});
