import assert from 'node:assert/strict';
import { TOPIC_SLUG_PATTERN } from '../../../../src/core/handoff/schema';
import { slugifyTopic } from '../../../../src/core/handoff/topic';

describe('topic slugs', () => {
  const cases: Array<[string, string]> = [
    ['Auth refactor', 'auth-refactor'],
    ['  Auth: refresh tokens (v2)  ', 'auth-refresh-tokens-v2'],
    ['Café résumé naïve', 'cafe-resume-naive'],
    ['A/B testing', 'a-b-testing'],
    ['already-a-slug', 'already-a-slug'],
    ['UPPER_and_lower', 'upper-and-lower'],
    ['---x---', 'x'],
    ['v1.2.3 release', 'v1-2-3-release'],
  ];
  for (const [input, slug] of cases) {
    it(`"${input}" → ${slug}`, () => {
      const r = slugifyTopic(input);
      assert.ok(r.ok);
      assert.equal(r.slug, slug);
      assert.equal(r.title, input.trim());
      assert.match(r.slug, TOPIC_SLUG_PATTERN);
    });
  }

  it("cuts long topics to 64 characters at a word boundary, then the title's hash (issue 16: no two topics share a slug)", () => {
    const r = slugifyTopic('word '.repeat(40));
    assert.ok(r.ok);
    assert.ok(r.slug.length <= 64);
    assert.match(r.slug, TOPIC_SLUG_PATTERN);
    assert.match(r.slug, /^(?:word-)+word-[0-9a-f]{10}$/);
    const a = slugifyTopic(`${'Migrate the billing service to the new payments provider '.repeat(2)}step one`);
    const b = slugifyTopic(`${'Migrate the billing service to the new payments provider '.repeat(2)}step two`);
    assert.ok(a.ok && b.ok);
    assert.notEqual(a.slug, b.slug, 'titles sharing their first 64 characters get slugs of their own');
    assert.equal(a.slug.replace(/-[0-9a-f]{10}$/, ''), b.slug.replace(/-[0-9a-f]{10}$/, ''), 'the readable start is the same');
    assert.equal(
      slugifyTopic(`${'Migrate the billing service to the new payments provider '.repeat(2)}step one`).ok && a.slug,
      a.slug,
      'the same title, the same slug',
    );
  });

  it('keeps letters of other scripts (NFC, lower case) instead of falling back to one shared slug', () => {
    const cases: Array<[string, string]> = [
      ['認証の見直し', '認証の見直し'],
      ['日本語のトピック', '日本語のトピック'],
      ['Рефакторинг', 'рефакторинг'],
      ['Мой план', 'мой-план'],
      ['Мои план', 'мои-план'],
      ['API の設計', 'api-の設計'],
      ['한국어 주제', '한국어-주제'],
      ['परीक्षण योजना', 'परीक्षण-योजना'],
      ['データ移行', 'データ移行'],
      // Decomposed input (as macOS file names and some keyboards give it) is composed.
      ['\u30ab\u3099イド', 'ガイド'],
    ];
    for (const [input, slug] of cases) {
      const r = slugifyTopic(input);
      assert.ok(r.ok, input);
      assert.equal(r.slug, slug, input);
      assert.equal(r.fallback, false, input);
      assert.equal(r.slug, r.slug.normalize('NFC'));
      assert.match(r.slug, TOPIC_SLUG_PATTERN, input);
    }
  });

  it('keeps the slugs of Latin topics as they always were (existing briefings keep their names)', () => {
    const cases: Array<[string, string]> = [
      ['Straße', 'stra-e'],
      ['Python³ migration', 'python3-migration'],
      ['Ｆｕｌｌ width', 'full-width'],
      ['🚀 Launch plan', 'launch-plan'],
      ['Ærø ferry', 'r-ferry'],
    ];
    for (const [input, slug] of cases) {
      const r = slugifyTopic(input);
      assert.ok(r.ok && r.slug === slug, `${input} → ${r.ok ? r.slug : r.message}`);
    }
  });

  it('gives text with no letter or digit (emoji, punctuation) a slug of its own: topic-<hash of the title>', () => {
    const slugs = ['🚀', '🔥', '🚀🚀', '?!', '…'].map((t) => {
      const r = slugifyTopic(t);
      assert.ok(r.ok && r.fallback, t);
      assert.match(r.slug, /^topic-[0-9a-f]{10}$/);
      return r.slug;
    });
    assert.equal(new Set(slugs).size, slugs.length);
    assert.equal((slugifyTopic('🚀') as { slug: string }).slug, slugs[0], 'the same title, the same slug');
  });

  it('bounds a long slug in other scripts to 64 characters and 120 bytes, with a hash so long titles sharing a start differ', () => {
    const a = slugifyTopic(`${'日本語'.repeat(30)}の一`);
    const b = slugifyTopic(`${'日本語'.repeat(30)}の二`);
    assert.ok(a.ok && b.ok);
    assert.notEqual(a.slug, b.slug);
    for (const s of [a.slug, b.slug]) {
      assert.ok([...s].length <= 64 && Buffer.byteLength(s) <= 120, `${s} ${Buffer.byteLength(s)}`);
      assert.match(s, /^日本語.*-[0-9a-f]{10}$/);
      assert.match(s, TOPIC_SLUG_PATTERN);
    }
    // A combining mark is never cut from its letter.
    const word = 'परीक्षण'.repeat(20);
    const marks = slugifyTopic(word);
    assert.ok(marks.ok);
    const kept = marks.slug.slice(0, marks.slug.lastIndexOf('-'));
    assert.ok(word.startsWith(kept) && kept.length > 0, kept);
    assert.doesNotMatch(word.slice(kept.length, kept.length + 1), /\p{M}/u, 'the next character is not a mark of the last one kept');
    assert.ok(Buffer.byteLength(marks.slug) <= 120);
  });

  it('refuses an empty topic', () => {
    for (const t of ['', '   ', undefined]) {
      const r = slugifyTopic(t);
      assert.ok(!r.ok && r.message.startsWith('ERROR: topic is required'));
    }
  });

  it('refuses topics that look like paths (traversal attempts)', () => {
    for (const t of ['../../x', '..', 'a/../../b', '..\\..\\x', '/etc/passwd', '\\\\server\\share', 'C:\\Windows', 'c:/x', '~/.ssh', 'x\0y', 'x\u0007']) {
      const r = slugifyTopic(t);
      assert.equal(r.ok, false, JSON.stringify(t));
      assert.match(!r.ok ? r.message : '', /^ERROR: topic .* looks like a file path/, JSON.stringify(t));
    }
  });

  it('never produces a slug with a path separator or dot, whatever the input', () => {
    const samples = ['a..b', '.hidden', 'x/y\\z', 'name.md', '%2e%2e%2f', 'a\tb\nc', '😀 emoji topic', 'ünïcödé'];
    for (const s of samples) {
      const r = slugifyTopic(s);
      if (r.ok) {
        assert.match(r.slug, TOPIC_SLUG_PATTERN, s);
      }
    }
  });
});
