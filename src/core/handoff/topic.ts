// Topic slugs: file-name-safe, at most 64 characters and 120 bytes, derived from the user's phrase in any script.
import { composeError, type ErrorParts } from './errors';
import { TOPIC_SLUG_PATTERN } from './schema';

export const MAX_TOPIC_SLUG_CHARS = 64;

/** `fallback`: the text had no letter or digit to keep (the slug is `topic-<hash>`). */
export type TopicSlugResult = { ok: true; slug: string; title: string; fallback: boolean } | { ok: false; message: string; parts?: ErrorParts };

const TOPIC_REQUIRED: ErrorParts = { path: ['topic'], subject: 'topic', problem: 'is required', fix: 'give a short phrase such as "auth refactor"' };

/** Path-like topics (`..`, a leading `/`, `\` or `~`, `C:`, control characters) are refused, not slugged, so an attempt to write outside the handoff folder is visible. */
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

/** Hex digits (40 bits) of the title hash a slug carries when it was cut or had nothing to keep. */
export const TOPIC_HASH_HEX = 10;

/** 64-bit FNV-1a of the UTF-8 bytes, 16 hex digits: tells titles apart in slugs, never for security. */
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

/** Letters and digits of non-Latin scripts with no ASCII in their NFKD (`日`, `р`; not `ß`, `²`, `Ａ`), so Latin slugs never change. */
function keptAsIs(ch: string): boolean {
  return LETTER_OR_NUMBER.test(ch) && !LATIN.test(ch) && !ASCII_ALNUM.test(ch.normalize('NFKD'));
}

/** NFKD, accents dropped, lower case, other runs → `-`: the rule Latin slugs keep, so existing briefings keep their names. */
function asciiPart(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
}

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
 * Latin letters and digits follow the ASCII rule (`Auth: refresh tokens (v2)` → `auth-refresh-tokens-v2`); other scripts keep
 * their letters and marks, NFC (`日本語のトピック`), with no separator, reserved character, dot or control, so no device name
 * (`CON`) can form. A long slug is cut and ends with `-<hash>` so long titles sharing a start do not collide; text with nothing
 * to keep becomes `topic-<hash>`. `{ok:false}` for empty or path-like text.
 */
export function slugifyTopic(text: string | undefined): TopicSlugResult {
  // The title goes into headings and frontmatter: line breaks and other control characters become spaces.
  const title = (text ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
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
  let slug = raw
    .normalize('NFC')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
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
