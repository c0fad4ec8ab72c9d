/**
 * The panel's words for what fit-to-budget does: what it shortens (kept in a shorter form) and
 * what it cuts, each counted in its section's unit, from the drop manifest as the engine writes it.
 */
import assert from 'node:assert/strict';
import { describeFit } from '../../../../src/core/panel/lossReport';

describe('panel: what fit to budget shortens and cuts, in words', () => {
  it('names what is shortened apart from what is cut, each in its unit and number', () => {
    assert.equal(
      describeFit([
        { section: 'summary', count: 709, tokens: 150 },
        { section: 'user_requests', count: 20, shortened: 1, tokens: 1937 },
        { section: 'touched_files', count: 0, shortened: 2000, tokens: 212 },
        { section: 'commands_run', count: 0, shortened: 12, tokens: 801 },
        { section: 'recent_turns', count: 1, tokens: 782 },
        { section: 'compaction', count: 1200, tokens: 300 },
        { section: 'completed', count: 3, tokens: 50 },
      ]),
      'shortens 1 request, 2,000 paths (rolled up or without line counts), 12 commands; cuts 709 summary characters, 20 older requests, 1 turn, 1,200 characters of the agent’s compaction summary, 3 done items',
    );
  });

  it('says nothing when nothing is shortened or cut', () => {
    assert.equal(describeFit([]), undefined);
    assert.equal(describeFit([{ section: 'tests_run', count: 0, shortened: 0, tokens: 0 }]), undefined);
  });
});
