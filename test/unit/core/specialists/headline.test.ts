/**
 * mandateHeadline: the palette's one-line description of a specialist (issue 17: the rows
 * truncated the first sentence of the mandate). Every built-in's headline fits the quick
 * pick's detail line and is the head of its own mandate, cut at a clause, never mid-word.
 */
import assert from 'node:assert/strict';
import { MANDATE_HEADLINE_CHARS, mandateHeadline } from '../../../../src/core/specialists/headline';
import { BUILTIN_SPECIALISTS } from '../../../../src/core/specialists/registry';

describe('mandateHeadline', () => {
  it('every built-in specialist gets a headline that fits, taken from the start of its mandate at a clause boundary', () => {
    for (const s of BUILTIN_SPECIALISTS) {
      const line = mandateHeadline(s.mandate);
      assert.ok(line.length >= 12 && line.length <= MANDATE_HEADLINE_CHARS, `${s.id}: "${line}" (${line.length} characters)`);
      assert.ok(s.mandate.startsWith(line), `${s.id}: "${line}" is the start of the mandate`);
      assert.match(s.mandate.slice(line.length), /^[:;,.—]/, `${s.id}: cut at a clause boundary, not mid-word: "${line}"`);
    }
  });

  it('cuts at the colon that introduces details, else at the first comma; keeps a short sentence whole', () => {
    assert.equal(
      mandateHeadline('Reviews the change against its intent: real bugs, regressions, missing tests, unclear code and scope creep.'),
      'Reviews the change against its intent',
    );
    assert.equal(
      mandateHeadline('Implements the smallest complete change that satisfies the task, following the patterns already in the codebase, and writes the tests.'),
      'Implements the smallest complete change that satisfies the task',
    );
    assert.equal(mandateHeadline('Gets something working fast. Then more.'), 'Gets something working fast');
    assert.equal(mandateHeadline('  Spaces\n  collapse.  '), 'Spaces collapse');
  });

  it('keeps a long first sentence whole when no clause boundary is early enough (never cuts mid-word)', () => {
    const long = `${'word '.repeat(30).trim()}.`;
    assert.equal(mandateHeadline(long), long.slice(0, -1));
  });
});
