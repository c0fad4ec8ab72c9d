import assert from 'node:assert/strict';
import { describeCuts } from '../../../../src/core/handoff/summary';

describe('"Cut to fit" in words (the summary notification)', () => {
  it('says one of each in the singular and more in the plural, shortened ones without their qualifier', () => {
    assert.equal(
      describeCuts([
        { section: 'recent_turns', count: 1, tokens: 40 },
        { section: 'commands_run', count: 2, shortened: 1, tokens: 90 },
        { section: 'user_requests', count: 1, shortened: 3, tokens: 120 },
        { section: 'summary', count: 1, shortened: 1, tokens: 3 },
        { section: 'touched_files', count: 1_200, tokens: 4_000 },
      ]),
      '1 turn, 2 commands run, 1 command run shortened, 1 older user request, 3 user requests shortened, 1 summary character, 1 character shortened, 1,200 files',
    );
  });

  it('names every section in words, never by its field name', () => {
    const sections = [
      'summary',
      'user_requests',
      'touched_files',
      'tests_run',
      'commands_run',
      'recent_turns',
      'diff_excerpt',
      'compaction',
      'completed',
    ] as const;
    const text = describeCuts(sections.map((section) => ({ section, count: 1, shortened: 2, tokens: 1 })));
    assert.doesNotMatch(text, /\w_\w/, text);
    // Each count with its noun in the right number: "1 diff line", "2 diff lines shortened".
    assert.match(
      text,
      /^1 summary character, 2 characters shortened, 1 older user request, 2 user requests shortened, 1 file, 2 files shortened, 1 passing test, 2 tests shortened, 1 command run, 2 commands run shortened, 1 turn, 2 turns shortened, 1 diff line, 2 diff lines shortened, /,
    );
  });
});
