/**
 * Our receiving prompt is recognized in any message that holds it — every built-in specialist's,
 * with and without a handoff, with CRLF line ends, with the user's own words above it — and a
 * message that only looks like one (a Markdown heading, "You are the …") is left alone. A chat's
 * sign-in notice is told from an agent's words.
 */
import assert from 'node:assert/strict';
import { holdsReceivingPrompt, isChatNotice, withoutReceivingPrompt } from '../../../../src/core/receive/ownPrompt';
import { buildSpecialistPrompt } from '../../../../src/core/receive/receiverPrompt';
import { BUILTIN_SPECIALISTS } from '../../../../src/core/specialists/registry';

function promptFor(i: number, withHandoff: boolean): string {
  const s = BUILTIN_SPECIALISTS[i];
  return buildSpecialistPrompt({
    specialist: { id: s.id, label: s.label, personaMarker: s.personaMarker, mandate: s.mandate, returnCondition: s.returnCondition },
    handoff: withHandoff ? { id: 'h1', relativePath: '.handoff/handoffs/h1.md', returnCondition: '' } : null,
    priorHandoffs: '',
    staleness: [],
    runContext: { timestamp: '2026-12-01T10:00:00.000Z', deliverablePath: '.handoff/handoffs/x.md' },
  });
}

describe('core/receive/ownPrompt', () => {
  it('recognizes every built-in specialist’s prompt, with and without a handoff, and leaves nothing of it', () => {
    BUILTIN_SPECIALISTS.forEach((_, i) => {
      for (const withHandoff of [false, true]) {
        const p = promptFor(i, withHandoff);
        assert.ok(holdsReceivingPrompt(p), p.slice(0, 80));
        assert.equal(withoutReceivingPrompt(p), '');
        assert.equal(withoutReceivingPrompt(p.replace(/\n/g, '\r\n')), '');
      }
    });
  });

  it('keeps the user’s own words typed above the pasted prompt', () => {
    assert.equal(withoutReceivingPrompt(`Please take this over:\n\n${promptFor(0, true)}`), 'Please take this over:');
  });

  it('leaves a message that only looks like a prompt as it is', () => {
    for (const text of [
      '# Plan\n\nYou are the best. Add the cart total.',
      '# [reviewer] Reviewer\n\nYou are the Reviewer specialist (`reviewer`).\n\nReview the diff, no sections here.',
      '## Mandate\n\n## Receive rules\n\nwhat do these headings mean?',
    ]) {
      assert.equal(holdsReceivingPrompt(text), false, text);
      assert.equal(withoutReceivingPrompt(text), text);
    }
  });

  it('tells a chat’s sign-in notice from the agent’s words', () => {
    assert.equal(isChatNotice('You need to set up GitHub Copilot and be signed in to use Chat.'), true);
    assert.equal(isChatNotice('  You need to trust this workspace to use Chat.\n'), true);
    assert.equal(isChatNotice('You need to set up GitHub Copilot and be signed in to use Chat. Then I can fix the test.'), false);
    assert.equal(isChatNotice('The tests pass now.'), false);
  });
});
