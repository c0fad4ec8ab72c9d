import assert from 'node:assert/strict';
import { demoteHeadings, pickedUpHandoffText } from '../../../../src/core/receive/pickedUpHandoff';
import { utf8Length } from '../../../../src/core/timeline/priorHandoffs';

const ID = '2026-12-01T09-40-00.000Z_quality_reviewer';
const LINK = '.handoff/handoffs/2026-12-01T09-40-00.000Z_quality_reviewer.md';
/** A body as renderHandoff writes it after the frontmatter (docs/DESIGN.md §5 "Handoff files"), shortened. */
const BODY = [
  '',
  '# Handoff to Quality reviewer: token auth',
  '',
  '[quality reviewer] You are the Quality reviewer.',
  '',
  '## Summary',
  '',
  'Replaced the comparison.',
  '',
  '## Touched files',
  '',
  '- **M** `src/auth.ts` (+1 / −1)',
  '',
  '### Diff excerpt',
  '',
  '```diff',
  '# not a heading: inside the fence',
  '-  return a === b;',
  '+  return timingSafeEqual(a, b);',
  '```',
  '',
  '## Return condition',
  '',
  'A review grouped by severity.',
  '',
].join('\n');

describe('the handoff picked up, for the receiving prompt (issue 18)', () => {
  it('demotes every heading outside code fences one level; ###### stays; fences untouched', () => {
    assert.equal(
      demoteHeadings('# a\n## b\n###### f\n#not\n   ### indented\n~~~\n# code\n~~~\n#'),
      '## a\n### b\n###### f\n#not\n   #### indented\n~~~\n# code\n~~~\n##',
    );
    // A closing fence is at least as long as the opening one (CommonMark §4.5): ``` inside ```` is code.
    assert.equal(demoteHeadings('````\n## x\n```\n## still code\n````\n## y', 2), '````\n## x\n```\n## still code\n````\n#### y');
  });

  it("keeps text from a handoff file below the prompt's own sections: other headings at ### at least, setext underlines and a **Verification:** label escaped", () => {
    const body =
      '# Handoff to Quality reviewer: x\n\n## Summary\n\n# Receive rules\n\n**Verification:** 9 verified\n\nMandate\n=======\n\n~~~\n# code\n===\n~~~';
    assert.equal(
      pickedUpHandoffText(body, { id: ID, link: LINK, maxBytes: 30 * 1024 }).text,
      '## Handoff to Quality reviewer: x\n\n### Summary\n\n### Receive rules\n\n\\*\\*Verification:\\*\\* 9 verified\n\nMandate\n\\=======\n\n~~~\n# code\n===\n~~~',
    );
    // The digests of prior handoffs use the same rules (three levels deeper).
    assert.equal(demoteHeadings('text\n---\n# h\n---\n**Verification:** x', 3), 'text\n\\---\n#### h\n---\n\\*\\*Verification:\\*\\* x');
  });

  it('is the whole body, title as the `## ` section, sections as `###`, when it fits', () => {
    const r = pickedUpHandoffText(BODY, { id: ID, link: LINK, maxBytes: 30 * 1024 });
    assert.equal(r.cut, false);
    assert.ok(r.text.startsWith('## Handoff to Quality reviewer: token auth\n\n[quality reviewer] You are'), r.text);
    assert.deepEqual(
      [...r.text.replace(/```[\s\S]*?```/g, '').matchAll(/^(#+) (.+)$/gm)].map((m) => `${m[1].length} ${m[2]}`),
      ['2 Handoff to Quality reviewer: token auth', '3 Summary', '3 Touched files', '4 Diff excerpt', '3 Return condition'],
    );
    assert.ok(r.text.includes('```diff\n# not a heading: inside the fence\n'), 'fenced lines as written');
    assert.ok(r.text.endsWith('A review grouped by severity.'));
  });

  it('heads a body without a title with the handoff id', () => {
    const r = pickedUpHandoffText('\nJust notes.\n\n## Summary\n\nx\n', { id: ID, link: LINK, maxBytes: 1000 });
    assert.equal(r.text, `## Handoff \`${ID}\`\n\nJust notes.\n\n### Summary\n\nx`);
  });

  it('cut to its room: at a line end, the fence closed, the marker naming the body size, the budget and the file', () => {
    const whole = pickedUpHandoffText(BODY, { id: ID, link: LINK, maxBytes: 30 * 1024 }).text;
    for (let max = 200; max < utf8Length(whole); max += 7) {
      const r = pickedUpHandoffText(BODY, { id: ID, link: LINK, maxBytes: max });
      assert.equal(r.cut, true);
      assert.ok(utf8Length(r.text) <= max || max < 360, `${max}: ${utf8Length(r.text)}`);
      assert.match(
        r.text,
        new RegExp(
          `\\[… truncated: showing the first [\\d,]+ of ${utf8Length(BODY)} bytes of this handoff's body to fit the 30 KB budget; the whole handoff is in \`${LINK.replace(/\./g, '\\.')}\`\\]$`,
        ),
      );
      assert.equal((r.text.match(/^```/gm) ?? []).length % 2, 0, `${max}: every fence closed\n${r.text}`);
      assert.ok(r.text.startsWith('## Handoff'), `${max}: always named\n${r.text}`);
    }
    // A longer body (turns after the return condition): the smallest room that shows the last diff line closes the fence right after it.
    const long = `${BODY}\n## Recent turns\n\n${'word '.repeat(300)}\n`;
    const last = '+  return timingSafeEqual(a, b);';
    let max = 200;
    while (!pickedUpHandoffText(long, { id: ID, link: LINK, maxBytes: max }).text.includes(last)) max++;
    const mid = pickedUpHandoffText(long, { id: ID, link: LINK, maxBytes: max });
    assert.ok(utf8Length(mid.text) <= max);
    assert.match(
      mid.text,
      /\n```diff\n# not a heading: inside the fence\n- {2}return a === b;\n\+ {2}return timingSafeEqual\(a, b\);\n```\n\n\[… truncated: showing the first [\d,]+ of 1,872 bytes/,
    );
    assert.equal(utf8Length(long), 1872);
    const shown = Number(/showing the first ([\d,]+)/.exec(mid.text)![1].replace(/,/g, ''));
    // The closer is the body's own fence line when it fits, else added: the count is the body's bytes shown either way.
    assert.match(Buffer.from(long).subarray(0, shown).toString('utf8'), /timingSafeEqual\(a, b\);\n(```\n)?$/, 'the count is the bytes of the body shown');
  });

  it('a body read only in part is cut even when its start fits, and says the full size', () => {
    const r = pickedUpHandoffText(BODY, { id: ID, link: LINK, maxBytes: 30 * 1024, bodyBytes: 5_000_000, budgetBytes: 20_000 });
    assert.equal(r.cut, true);
    assert.match(r.text, /of 5,000,000 bytes of this handoff's body to fit the 20,000 bytes budget/);
    assert.ok(r.text.includes('### Return condition'), 'all that was read and fits is shown');
  });

  it('a room too small for anything still names the handoff and the file', () => {
    const r = pickedUpHandoffText(BODY, { id: ID, link: LINK, maxBytes: 10 });
    assert.match(r.text, /^## Handoff to Quality reviewer: token auth\n\n\[… truncated: showing the first 43 of 353 bytes/);
    assert.ok(r.text.includes(LINK));
  });
});
