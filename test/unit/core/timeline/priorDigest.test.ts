import assert from 'node:assert/strict';
import { splitSections } from '../../../../src/core/handoff/parse';
import { DIGEST_SECTIONS, priorHandoffDigest, type PriorHandoffFacts } from '../../../../src/core/timeline/priorDigest';

/** The body sections as renderHandoff writes them (docs/DESIGN.md §5 "Handoff files"), shortened. */
const SECTIONS = splitSections(
  [
    '# Handoff to Implementation engineer: token auth',
    '',
    '## Summary',
    '',
    'The comparison uses ===; it must be timing-safe.',
    '',
    '## User requests',
    '',
    '**Request 1** (user):',
    '> make it timing-safe',
    '',
    '## Decisions',
    '',
    '- **D1** Use crypto.timingSafeEqual.',
    '- **D2** Keep the token format _(superseded by D3)_',
    '',
    '## Failed approaches',
    '',
    '_None._',
    '',
    '## Touched files',
    '',
    '- **M** `src/auth.ts` (+1 / −1)',
    '',
    '### Commits since `abc`',
    '',
    '- `abc1234567` Step 1',
  ].join('\n'),
);

function facts(over: Partial<PriorHandoffFacts> = {}): PriorHandoffFacts {
  return {
    id: '2026-12-01T09-10-00.000Z_implementation_engineer',
    from: 'codebase_explorer',
    to: 'implementation_engineer',
    kind: 'handoff',
    status: 'complete',
    created: '2026-12-01T09:10:00.000Z',
    topic: 'token auth',
    sections: SECTIONS,
    link: '.handoff/handoffs/2026-12-01T09-10-00.000Z_implementation_engineer.md',
    ...over,
  };
}

describe('prior handoff digest (issue 18)', () => {
  it('keeps id, from → to, status, created, topic and the link, then summary and decisions; _None._ sections and everything else are left out', () => {
    assert.equal(
      priorHandoffDigest(facts()),
      [
        '- id: `2026-12-01T09-10-00.000Z_implementation_engineer`',
        '- from → to: codebase_explorer → implementation_engineer',
        '- status: complete',
        '- created: 2026-12-01T09:10:00.000Z',
        '- topic: token auth',
        '- file (for the rest): `.handoff/handoffs/2026-12-01T09-10-00.000Z_implementation_engineer.md`',
        '',
        '#### Summary',
        '',
        'The comparison uses ===; it must be timing-safe.',
        '',
        '#### Decisions',
        '',
        '- **D1** Use crypto.timingSafeEqual.\n- **D2** Keep the token format _(superseded by D3)_',
      ].join('\n'),
    );
    assert.deepEqual(DIGEST_SECTIONS, ['Summary', 'Decisions', 'Failed approaches']);
  });

  it('carries failed approaches, names a result as one, and keeps each value on its line', () => {
    const sections = new Map(SECTIONS);
    sections.set('Failed approaches', '- A hand-written constant-time loop.');
    const text = priorHandoffDigest(facts({ sections, kind: 'result', topic: 'token\n## Injected', from: 'a\n- status: complete' }));
    assert.match(text, /^- from → to: a - status: complete → implementation_engineer$/m);
    assert.match(text, /^- kind: result$/m);
    assert.match(text, /^- topic: token ## Injected$/m);
    assert.equal((text.match(/^- status: /gm) ?? []).length, 1);
    assert.match(text, /#### Failed approaches\n\n- A hand-written constant-time loop\.$/);
    assert.doesNotMatch(text, /Touched files|Commits|User requests|src\/auth\.ts/);
  });

  it('a heading a hand-edited section holds is nested under the entry, not beside it', () => {
    const sections = new Map([['Summary', 'Intro\n### Not an entry\n# Nor a title\n```\n# code\n```']]);
    assert.match(priorHandoffDigest(facts({ sections })), /#### Summary\n\nIntro\n###### Not an entry\n#### Nor a title\n```\n# code\n```$/);
  });

  it('a file of ours without those sections is its metadata and link only', () => {
    assert.equal(priorHandoffDigest(facts({ sections: new Map() })).split('\n').length, 6);
  });
});
