/**
 * Topic slugs (docs/DESIGN.md §4): the `topic` of a handoff is a file-name-safe slug
 * `^[a-z0-9][a-z0-9-]{0,63}$`, derived from free text when the user types a phrase.
 */
import { composeError, type ErrorParts } from './errors';
import { TOPIC_SLUG_PATTERN } from './schema';

/** Maximum slug length in characters (docs/DESIGN.md §4). */
export const MAX_TOPIC_SLUG_CHARS = 64;

/** Slug used when free text has no ASCII letters or digits (e.g. a topic written only in CJK). */
export const FALLBACK_TOPIC_SLUG = 'untitled';

/** Outcome of turning a user's topic into a slug. `fallback` says the text had nothing to slug. */
export type TopicSlugResult =
  | { ok: true; slug: string; title: string; fallback: boolean }
  | { ok: false; message: string; parts?: ErrorParts };

/** The parts of "topic is required" (src/core/handoff/errors.ts): a surface names the field its own way. */
const TOPIC_REQUIRED: ErrorParts = { path: ['topic'], subject: 'topic', problem: 'is required', fix: 'give a short phrase such as "auth refactor"' };

/**
 * Recognises topics that look like a file path rather than a phrase: a `..` segment,
 * a leading `/`, `\` or `~`, a drive letter (`C:`), or a NUL or other control character.
 * Such topics are refused instead of slugged, so an attempt to write outside the
 * handoff folder is visible to the user rather than silently rewritten.
 */
export function looksLikePath(text: string): boolean {
  return (
    /(^|[\\/])\.\.([\\/]|$)/.test(text) ||
    /^[\\/~]/.test(text.trim()) ||
    /^[a-zA-Z]:([\\/]|$)/.test(text.trim()) ||
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)
  );
}

/**
 * Derives a topic slug from free text: Unicode-normalised (NFKD) with diacritics
 * removed, lower-cased, every run of other characters turned into one `-`, trimmed of
 * `-`, and cut to 64 characters at a word boundary where possible.
 *
 * @param text the user's topic, e.g. "Auth: refresh tokens (v2)" → `auth-refresh-tokens-v2`
 * @returns `{ok:false}` for empty text or text that looks like a path (`../../x`,
 *   `/etc/passwd`, `C:\x`); `fallback: true` with slug `untitled` when nothing is left.
 */
export function slugifyTopic(text: string | undefined): TopicSlugResult {
  // The title goes into headings and frontmatter: line breaks and other control characters become spaces.
  // eslint-disable-next-line no-control-regex
  const title = (text ?? '').replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').replace(/ {2,}/g, ' ').trim();
  if (!title) {
    return { ok: false, message: composeError(TOPIC_REQUIRED), parts: TOPIC_REQUIRED };
  }
  if (looksLikePath(text ?? '')) {
    return {
      ok: false,
      message: `ERROR: topic "${title.slice(0, 60)}" looks like a file path — the topic names the work, not a file; use a short phrase such as "auth refactor"`,
    };
  }
  let slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length > MAX_TOPIC_SLUG_CHARS) {
    const cut = slug.slice(0, MAX_TOPIC_SLUG_CHARS);
    const lastDash = cut.lastIndexOf('-');
    slug = (lastDash >= 16 ? cut.slice(0, lastDash) : cut).replace(/-+$/, '');
  }
  if (!slug) {
    return { ok: true, slug: FALLBACK_TOPIC_SLUG, title, fallback: true };
  }
  if (!TOPIC_SLUG_PATTERN.test(slug)) {
    // Unreachable by construction; kept so a future change to the rules fails loudly.
    return { ok: false, message: `ERROR: topic could not be turned into a valid slug (got "${slug}")` };
  }
  return { ok: true, slug, title, fallback: false };
}
