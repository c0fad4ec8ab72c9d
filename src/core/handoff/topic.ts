/**
 * Topic slugs (docs/DESIGN.md §4): the `topic` of a handoff is a file-name-safe slug of at
 * most 64 characters and 120 bytes ({@link TOPIC_SLUG_PATTERN}), derived from free text
 * when the user types a phrase. A topic in any script gets a slug of its own.
 */
import { composeError, type ErrorParts } from './errors';
import { TOPIC_SLUG_PATTERN } from './schema';

/** Maximum slug length in characters (docs/DESIGN.md §4). */
export const MAX_TOPIC_SLUG_CHARS = 64;

/** Outcome of turning a user's topic into a slug. `fallback` says the text had no letter or digit to keep (the slug is `topic-<hash>`). */
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

/** Most UTF-8 bytes of a slug: 120, so `<specialist>-<slug>-<YYYY-MM-DD>.md` stays under the 255-byte file-name limit of Linux and macOS (Windows counts 255 UTF-16 units, fewer). */
export const MAX_TOPIC_SLUG_BYTES = 120;

/** Hex digits of the title hash a slug carries when it had to be cut or had nothing to keep: 10 (40 bits). */
export const TOPIC_HASH_HEX = 10;

/**
 * 64-bit FNV-1a of the UTF-8 bytes of `text`, as 16 hex digits. Pure, the same on every
 * platform; used only to tell titles apart in slugs, never for security.
 */
export function titleHash(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(text)) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;
const LATIN = /\p{Script=Latin}/u;
const ASCII_ALNUM = /[A-Za-z0-9]/;

/**
 * Whether a character (NFC) is kept as itself in a slug: a letter or digit of a script other
 * than Latin whose compatibility decomposition has no ASCII letter or digit (`日`, `р`, `ー`
 * but not `ß`, `²` or a fullwidth `Ａ`, which keep the ASCII rule so Latin slugs never change).
 */
function keptAsIs(ch: string): boolean {
  return LETTER_OR_NUMBER.test(ch) && !LATIN.test(ch) && !ASCII_ALNUM.test(ch.normalize('NFKD'));
}

/** The ASCII rule of every slug written before Unicode letters were kept: NFKD, accents dropped, lower case, other runs → `-`. */
function asciiPart(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
}

/** UTF-8 length of `text` in bytes. */
function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** The longest start of `slug` (whole code points, never a mark cut from its letter) within `maxChars` and `maxBytes`. */
function cutSlug(slug: string, maxChars: number, maxBytes: number): string {
  const chars = [...slug];
  let out = '';
  let bytes = 0;
  for (let i = 0; i < chars.length && i < maxChars; i++) {
    const size = utf8Bytes(chars[i]);
    if (bytes + size > maxBytes) break;
    out += chars[i];
    bytes += size;
  }
  // Do not end on a base letter whose combining marks were cut off.
  const rest = chars.slice([...out].length);
  while (rest.length && MARK.test(rest[0]) && out) {
    const last = [...out];
    rest.unshift(last.pop() as string);
    out = last.join('');
  }
  return out.replace(/-+$/, '');
}

/**
 * Derives a topic slug from free text (docs/DESIGN.md §4), safe as part of a file name on
 * Windows, macOS and Linux:
 * - Latin letters and digits follow the rule every earlier slug was made with, so
 *   existing briefings keep their names: Unicode-normalised (NFKD) with diacritics removed,
 *   lower-cased, every other run turned into one `-`, trimmed of `-`
 *   (`Auth: refresh tokens (v2)` → `auth-refresh-tokens-v2`); one longer than 64 characters
 *   is cut at a word boundary where possible and ends with `-` and {@link TOPIC_HASH_HEX}
 *   hex digits of the title's hash, so two long titles sharing a start do not collide;
 * - letters and digits of other scripts are kept, lower-cased, with their combining marks,
 *   and the slug is NFC (`Рефакторинг` → `рефакторинг`, `日本語のトピック` → `日本語のトピック`):
 *   no path separator, no character Windows reserves (`<>:"/\|?*`), no dot, no control
 *   character, so no reserved device name (`CON`, `NUL`) can be formed;
 * - a slug with such letters that is longer than 64 characters or
 *   {@link MAX_TOPIC_SLUG_BYTES} bytes is cut and ends with `-` and {@link TOPIC_HASH_HEX}
 *   hex digits of the title's hash, so two long titles sharing a start do not collide;
 * - text with nothing to keep (only emoji or punctuation) becomes `topic-<hash>`
 *   (`fallback: true`), a different slug for every different title.
 *
 * @param text the user's topic
 * @returns `{ok:false}` for empty text or text that looks like a path (`../../x`,
 *   `/etc/passwd`, `C:\x`); otherwise the slug, the one-line title and `fallback`.
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
  let raw = '';
  let run = '';
  let unicode = false;
  let afterKept = false;
  for (const ch of title.normalize('NFC')) {
    const kept: boolean = keptAsIs(ch) || (afterKept && MARK.test(ch));
    if (kept) {
      raw += asciiPart(run) + ch.toLowerCase();
      run = '';
      unicode = true;
    } else {
      run += ch;
    }
    afterKept = kept;
  }
  raw += asciiPart(run);
  let slug = raw.normalize('NFC').replace(/-{2,}/g, '-').replace(/^-+|-+$/g, '');
  const hash = titleHash(title.normalize('NFC')).slice(0, TOPIC_HASH_HEX);
  if (!slug) {
    return { ok: true, slug: `topic-${hash}`, title, fallback: true };
  }
  if (!unicode) {
    if (slug.length > MAX_TOPIC_SLUG_CHARS) {
      // Cut at a word boundary, then the title's hash: two long titles sharing their first 64 characters never share a briefing.
      const room = MAX_TOPIC_SLUG_CHARS - TOPIC_HASH_HEX - 1;
      const cut = slug.slice(0, room);
      const lastDash = cut.lastIndexOf('-');
      slug = `${(lastDash >= 16 ? cut.slice(0, lastDash) : cut).replace(/-+$/, '')}-${hash}`;
    }
  } else if ([...slug].length > MAX_TOPIC_SLUG_CHARS || utf8Bytes(slug) > MAX_TOPIC_SLUG_BYTES) {
    slug = `${cutSlug(slug, MAX_TOPIC_SLUG_CHARS - TOPIC_HASH_HEX - 1, MAX_TOPIC_SLUG_BYTES - TOPIC_HASH_HEX - 1)}-${hash}`.replace(/^-/, 'topic-');
  }
  if (!TOPIC_SLUG_PATTERN.test(slug)) {
    // Unreachable by construction; kept so a future change to the rules fails loudly.
    return { ok: false, message: `ERROR: topic could not be turned into a valid slug (got "${slug}")` };
  }
  return { ok: true, slug, title, fallback: false };
}
