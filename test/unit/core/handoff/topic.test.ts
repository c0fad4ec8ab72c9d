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

  it('cuts long topics to 64 characters at a word boundary', () => {
    const r = slugifyTopic('word '.repeat(40));
    assert.ok(r.ok);
    assert.ok(r.slug.length <= 64);
    assert.match(r.slug, TOPIC_SLUG_PATTERN);
    assert.ok(!r.slug.endsWith('-'));
    assert.ok(r.slug.endsWith('word'));
  });

  it('falls back to "untitled" for text without ASCII letters or digits', () => {
    const r = slugifyTopic('認証の見直し');
    assert.ok(r.ok);
    assert.equal(r.slug, 'untitled');
    assert.equal(r.fallback, true);
    assert.equal(r.title, '認証の見直し');
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
