/**
 * Hostile values for the CLI's number flags (issue 15 attack pass): a count too long to be a
 * number (Infinity) is an error naming the flag and the fix, in the CLI's words
 * (never the engine's field name `userRequestTokens`, never "Infinity"), and nothing is written.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { integer, userRequestTokens } from '../../src/cli/args';
import { CLI_FROM_SOURCE, repoWithWork } from '../helpers/cli';
import { cleanupTempDirs } from '../helpers/repo';

const HUGE = '1'.repeat(400); // Number('1…1') is Infinity

describe('CLI number flags given hostile values', function () {
  this.timeout(180_000);
  after(cleanupTempDirs);

  it('a number too long to be a number (Infinity) is an error naming the flag, quoting the value cut, and the fix', () => {
    const r = integer(HUGE, 'max-tokens');
    assert.ok(r && typeof r === 'object', `accepted as ${String(r)}`);
    assert.match(r.error, /^ERROR: --max-tokens is too large to be a number \(got "1{10,59}…"\) — give a whole number with fewer digits$/);
    const u = userRequestTokens({ 'user-request-tokens': HUGE });
    assert.ok(u && typeof u === 'object');
    assert.match(u.error, /^ERROR: --user-request-tokens is too large to be a number/);
    // A finite one is left to the flag's own range check (--max-tokens: at most 10,000,000).
    assert.equal(integer('99999999999999999999999', 'max-tokens'), 1e23);
    assert.equal(integer(' 5', 'max-tokens'), 5);
  });

  it('draft and handover with --user-request-tokens past the range: one ERROR line naming the flag, exit 2, nothing written', () => {
    const dir = repoWithWork();
    for (const args of [['draft'], ['handover', '-s', 'hacker', '-t', 'x', '--draft']]) {
      const r = spawnSync(process.execPath, [...CLI_FROM_SOURCE, ...args, '--session-log', 'none', '--user-request-tokens', HUGE], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(r.status, 2, `${args[0]}: ${r.stderr}`);
      assert.match(r.stderr, /^ERROR: --user-request-tokens is too large to be a number .* — give a whole number with fewer digits\n$/);
      assert.doesNotMatch(r.stderr, /userRequestTokens|Infinity/);
      assert.equal(existsSync(path.join(dir, '.handoff', 'handoffs')), false, `${args[0]} wrote a handoff`);
    }
  });
});
