import assert from 'node:assert/strict';
import {
  addItem,
  budgetTokens,
  draftToRequest,
  editItem,
  emptyDraft,
  isDraftEmpty,
  moveItem,
  newerDraft,
  parseBudgetTokens,
  parseSavedDraft,
  removeItem,
  testKey,
  toggle,
  DraftSchema,
  type Draft,
} from '../../../../src/core/panel/draft';
import { MAX_ITEM_CHARS, MAX_LIST_ITEMS, MAX_SUMMARY_CHARS } from '../../../../src/core/handoff/limits';
import { HandoverRequestSchema } from '../../../../src/core/handoff/request';

const SETTINGS = { maxContextTokens: 3000, includeRecentTurns: 5, tokenizer: 'o200k_base' };

function draft(over: Partial<Draft> = {}): Draft {
  return { ...emptyDraft(), ...over };
}

describe('panel draft model', () => {
  it('an empty draft has every field at its default and counts as empty', () => {
    const d = emptyDraft();
    assert.deepEqual(d, {
      specialist: '',
      topic: '',
      summary: '',
      decisions: [],
      failed_approaches: [],
      next_steps: [],
      blockers: [],
      // Issue 15: the drafted fields and which of them are still as drafted or edited.
      completed: [],
      user_requests: [],
      commands_run: [],
      drafted: [],
      edited: [],
      return_condition: '',
      handover_reason: '',
      reason_kind: 'end_of_session',
      continue_chain: false,
      fit: false,
      fit_chosen: false,
      budget: 'default',
      hop_guard_confirmed: false,
      excluded: { files: [], tests: [], commits: [], turns: [] },
    });
    assert.equal(isDraftEmpty(d), true);
    assert.equal(isDraftEmpty(draft({ summary: '   ' })), true, 'whitespace is not content');
  });

  it('anything typed or chosen makes it non-empty', () => {
    for (const over of [
      { specialist: 'hacker' },
      { topic: 'x' },
      { summary: 'x' },
      { decisions: ['x'] },
      { next_steps: ['x'] },
      { blockers: ['x'] },
      { failed_approaches: ['x'] },
      { return_condition: 'x' },
      { handover_reason: 'x' },
    ]) {
      assert.equal(isDraftEmpty(draft(over as Partial<Draft>)), false, JSON.stringify(over));
    }
  });

  it('adds trimmed items and ignores empty ones', () => {
    assert.deepEqual(addItem(['a'], '  b  '), ['a', 'b']);
    assert.deepEqual(addItem(['a'], '   '), ['a']);
    const items = ['a'];
    addItem(items, 'b');
    assert.deepEqual(items, ['a'], 'the input list is not changed');
  });

  it('removes and edits by index; out of range changes nothing', () => {
    assert.deepEqual(removeItem(['a', 'b', 'c'], 1), ['a', 'c']);
    assert.deepEqual(removeItem(['a'], 5), ['a']);
    assert.deepEqual(removeItem(['a'], -1), ['a']);
    assert.deepEqual(editItem(['a', 'b'], 0, 'A'), ['A', 'b']);
    assert.deepEqual(editItem(['a', 'b'], 2, 'x'), ['a', 'b']);
  });

  it('reorders by keyboard: up, down, clamped at both ends', () => {
    assert.deepEqual(moveItem(['a', 'b', 'c'], 2, -1), ['a', 'c', 'b']);
    assert.deepEqual(moveItem(['a', 'b', 'c'], 0, 1), ['b', 'a', 'c']);
    assert.deepEqual(moveItem(['a', 'b', 'c'], 0, -1), ['a', 'b', 'c']);
    assert.deepEqual(moveItem(['a', 'b', 'c'], 2, 1), ['a', 'b', 'c']);
    assert.deepEqual(moveItem(['a', 'b', 'c'], 7, -1), ['a', 'b', 'c']);
    assert.deepEqual(moveItem([], 0, 1), []);
  });

  it('toggles exclusions without duplicates', () => {
    assert.deepEqual(toggle(['a'], 'b', true), ['a', 'b']);
    assert.deepEqual(toggle(['a', 'b'], 'b', true), ['a', 'b']);
    assert.deepEqual(toggle(['a', 'b'], 'a', false), ['b']);
    assert.deepEqual(toggle([1, 2], 3, false), [1, 2]);
  });

  it('keys a test run by source, start time and command', () => {
    assert.equal(testKey({ source: 'recorder', started_at: '2026-01-01T00:00:00Z', command: 'npm test' }), 'recorder|2026-01-01T00:00:00Z|npm test');
    assert.equal(testKey({ source: 'aider', started_at: null, command: 'pytest' }), 'aider||pytest');
  });

  it('becomes a handover request the engine accepts, with the settings, and without the panel-only fields', () => {
    const d = draft({
      specialist: 'quality_reviewer',
      topic: 'Token auth',
      summary: 'Done.',
      decisions: ['Use opaque tokens', '  '],
      next_steps: ['Review'],
      return_condition: '   ',
      handover_reason: 'needs review',
      reason_kind: 'specialization',
      fit: true,
      hop_guard_confirmed: true,
      excluded: { files: ['a.ts'], tests: [], commits: [], turns: [0] },
    });
    const req = draftToRequest(d, SETTINGS, 'parent-id');
    assert.equal('return_condition' in req, false, 'a blank return condition leaves the specialist default');
    assert.equal('parent' in req, false, 'continuing the chain is opt-in');
    assert.equal('excluded' in req, false);
    const parsed = HandoverRequestSchema.parse(req);
    assert.deepEqual(parsed.decisions, ['Use opaque tokens'], 'empty items are dropped');
    assert.equal(parsed.max_context_tokens, 3000);
    assert.equal(parsed.include_recent_turns, 5);
    assert.equal(parsed.fit_to_budget, true);
    assert.equal(parsed.hop_guard_confirmed, true);
    assert.equal(parsed.reason_kind, 'specialization');
  });

  it('asks for the budget chosen: default is the setting, small and large the shared presets, a number itself', () => {
    const tokens = (budget: Draft['budget'], setting = 5000) =>
      HandoverRequestSchema.parse(draftToRequest(draft({ specialist: 'hacker', topic: 't', budget }), { ...SETTINGS, maxContextTokens: setting }))
        .max_context_tokens;
    assert.equal(tokens('default'), 5000);
    assert.equal(tokens('small'), 1000);
    assert.equal(tokens('large'), 8000);
    assert.equal(tokens(4321), 4321);
    assert.equal(budgetTokens('default', 3000), 3000);
    // A draft saved before the choice existed keeps the setting.
    assert.equal(DraftSchema.parse({}).budget, 'default');
  });

  it('takes a custom budget only as a whole number of tokens from 1 to 10,000,000', () => {
    assert.equal(parseBudgetTokens('4000'), 4000);
    assert.equal(parseBudgetTokens(' 12,000 '), 12_000);
    assert.equal(parseBudgetTokens('10000000'), 10_000_000);
    for (const bad of ['', '0', '-5', '1.5', '2e3', 'abc', '10000001', '123456789']) assert.equal(parseBudgetTokens(bad), undefined, bad);
    for (const bad of [0, -1, 1.5, 10_000_001, 'huge', null]) assert.equal(DraftSchema.safeParse({ budget: bad }).success, false, String(bad));
    for (const good of ['small', 'default', 'large', 1, 10_000_000]) assert.equal(DraftSchema.safeParse({ budget: good }).success, true, String(good));
  });

  it('continues the latest chain only when asked and when there is one', () => {
    assert.equal(draftToRequest(draft({ continue_chain: true }), SETTINGS, 'h1').parent, 'h1');
    assert.equal('parent' in draftToRequest(draft({ continue_chain: true }), SETTINGS), false);
    assert.equal(draftToRequest(draft({ return_condition: 'When done' }), SETTINGS).return_condition, 'When done');
  });

  it('bounds every field like the request it becomes', () => {
    assert.equal(DraftSchema.safeParse({ summary: 'x'.repeat(MAX_SUMMARY_CHARS + 1) }).success, false);
    assert.equal(DraftSchema.safeParse({ decisions: ['x'.repeat(MAX_ITEM_CHARS + 1)] }).success, false);
    assert.equal(DraftSchema.safeParse({ next_steps: Array.from({ length: MAX_LIST_ITEMS + 1 }, () => 'x') }).success, false);
    assert.equal(DraftSchema.safeParse({ reason_kind: 'whim' }).success, false);
    assert.equal(DraftSchema.safeParse({ excluded: { turns: [-1] } }).success, false);
    assert.equal(DraftSchema.safeParse({ decisions: [42] }).success, false);
  });

  it('reads what the webview saved, and refuses what is not a draft (older versions, junk)', () => {
    const saved = { draft: draft({ summary: 'kept' }), revision: 7 };
    assert.deepEqual(parseSavedDraft(JSON.parse(JSON.stringify(saved))), saved);
    assert.deepEqual(parseSavedDraft({ draft: { summary: 'partial' }, revision: 1 })?.draft.summary, 'partial', 'missing fields take defaults');
    for (const junk of [
      undefined,
      null,
      'x',
      {},
      { draft: { summary: 'old shape, no revision' } },
      { draft: {}, revision: -1 },
      { draft: { decisions: 'x' }, revision: 1 },
    ]) {
      assert.equal(parseSavedDraft(junk), undefined, JSON.stringify(junk));
    }
  });

  it('after hiding, moving or reloading, the newer copy wins; on a tie the webview’s', () => {
    const web = { draft: draft({ summary: 'typed last' }), revision: 5 };
    const host = { draft: draft({ summary: 'debounced' }), revision: 4 };
    assert.equal(newerDraft(web, host), web, 'keystrokes the host has not seen yet are kept');
    assert.equal(newerDraft({ ...web, revision: 4 }, host).draft.summary, 'typed last');
    const cleared = { draft: emptyDraft(), revision: 6 };
    assert.equal(newerDraft(web, cleared), cleared, 'a draft the host cleared after a handoff stays cleared');
    assert.equal(newerDraft(undefined, host), host, 'no webview state (new view): the host copy');
  });
});
