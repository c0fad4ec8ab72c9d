/**
 * Hostile values for the CLI's number flags (issue 15 attack pass): a count past what a
 * JavaScript number holds exactly is an error naming the flag and the fix, in the CLI's words
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
const BIG = '99999999999999999999999'; // a whole number past Number.MAX_SAFE_INTEGER

describe('CLI number flags given hostile values', function () {
  this.timeout(180_000);
  after(cleanupTempDirs);

  it('a number too large to hold exactly is an error naming the flag and its range', () => {
    for (const v of [HUGE, BIG]) {
      const r = integer(v, 'max-tokens');
      assert.ok(r && typeof r === 'object', `${v.slice(0, 30)} accepted as ${String(r)}`);
      assert.match(r.error, /^ERROR: --max-tokens must be a whole number up to 9007199254740991 \(got "\d{10}/);
      assert.doesNotMatch(r.error, /Infinity/);
      const u = userRequestTokens({ 'user-request-tokens': v });
      assert.ok(u && typeof u === 'object');
      assert.match(u.error, /^ERROR: --user-request-tokens must be a whole number up to/);
    }
    assert.equal(integer('9007199254740991', 'max-tokens'), Number.MAX_SAFE_INTEGER);
    assert.equal(integer(' 5', 'max-tokens'), 5);
  });

  it('draft and handover with --user-request-tokens past the range: one ERROR line naming the flag, exit 2, nothing written', () => {
    const dir = repoWithWork();
    for (const args of [['draft'], ['handover', '-s', 'hacker', '-t', 'x', '--draft']]) {
      const r = spawnSync(process.execPath, [...CLI_FROM_SOURCE, ...args, '--session-log', 'none', '--user-request-tokens', HUGE], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 2, `${args[0]}: ${r.stderr}`);
      assert.match(r.stderr, /^ERROR: --user-request-tokens must be a whole number up to 9007199254740991/);
      assert.doesNotMatch(r.stderr, /userRequestTokens|Infinity/);
      assert.equal(existsSync(path.join(dir, '.handoff', 'handoffs')), false, `${args[0]} wrote a handoff`);
    }
  });
});
