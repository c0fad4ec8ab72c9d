/**
 * Bounded texts of the session log are cut at a word (issue 15 attack pass): a user request
 * over MAX_REQUEST_CHARS and a plan item over MAX_PLAN_ITEM_CHARS used to be cut at a fixed
 * character, so a secret straddling the cut was left as its first characters — too short
 * for the redactor to recognise, so they reached the handoff, the prompt and `draft --json`.
 */
import assert from 'node:assert/strict';
import { MAX_PLAN_ITEM_CHARS } from '../../../../src/core/session/events';
import { boundRequest, MAX_REQUEST_CHARS } from '../../../../src/core/session/requests';
import { planOf } from '../../../../src/evidence/session/readers/planTools';
import { fakeSecrets } from '../../../helpers/fakeSecrets';

const token = fakeSecrets().find((f) => f.kind === 'github-token')!.value;

describe('bounded session-log texts are cut at a word, never inside a secret', () => {
  for (const offset of [6, 20, 30]) {
    it(`a user request whose token straddles the ${MAX_REQUEST_CHARS}-character cut (${offset} characters of it before the cut)`, () => {
      const pad = 'word '.repeat(Math.ceil(MAX_REQUEST_CHARS / 5));
      const head = pad.slice(0, MAX_REQUEST_CHARS - offset - 1).replace(/\S$/, ' ');
      const text = `${head.padEnd(MAX_REQUEST_CHARS - offset, ' ')}${token} and more`;
      const kept = boundRequest(text);
      assert.ok(!kept.includes(token.slice(0, 5)), kept.slice(-80));
      assert.match(kept, /\n\[… \d+ more characters left out\]$/);
      assert.ok(kept.split('\n[…')[0].length <= MAX_REQUEST_CHARS);
    });

    it(`a plan item whose token straddles the ${MAX_PLAN_ITEM_CHARS}-character cut (${offset} characters of it before the cut)`, () => {
      const text = `${'step '.repeat(MAX_PLAN_ITEM_CHARS).slice(0, MAX_PLAN_ITEM_CHARS - offset - 2)} ${token} tail`;
      const plan = planOf('TodoWrite', [{ text, status: 'pending' }]);
      const item = plan!.items[0].text;
      assert.ok(!item.includes(token.slice(0, 5)), item.slice(-80));
      assert.ok(item.endsWith('…') && item.length <= MAX_PLAN_ITEM_CHARS);
    });
  }

  it('one word longer than half the bound is still cut hard (the bound holds)', () => {
    const plan = planOf('TodoWrite', [{ text: `go ${'y'.repeat(5_000)}`, status: 'pending' }]);
    assert.equal(plan!.items[0].text.length, MAX_PLAN_ITEM_CHARS);
    assert.equal(boundRequest('z'.repeat(5_000)).split('\n')[0].length, MAX_REQUEST_CHARS);
  });
});
