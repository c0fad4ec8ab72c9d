/**
 * The head of a handoff: the few frontmatter fields the timeline's chain links and the
 * insights' figures need (docs/DESIGN.md §5), read without a full YAML parse when the
 * frontmatter is in the plain block form our renderer writes (`renderFrontmatter` in
 * `frontmatter.ts`: the `yaml` library's `stringify`, `lineWidth: 0`, plain strings where
 * they can be). Anything else — a line the fast path does not recognise anywhere in the
 * frontmatter (comments, blank lines, tabs, CRLF, a BOM, flow collections other than `[]` /
 * `{}`, anchors, aliases, tags, quoted forms with escapes other than `\\` and `\"`, block
 * scalars in a needed field, duplicate keys, multi-line plain scalars …) — is read by the
 * `yaml` library ({@link splitFrontmatter}), so the answer is always the library's.
 *
 * The fast path never resolves a scalar's type itself: plain scalars of the needed fields go
 * through the `yaml` library's own YAML 1.2 core-schema tags (`Schema.tags`: their `test`
 * and `resolve`), the same ones `parseDocument` uses. The fields are then validated by
 * {@link HandoffHeadSchema} (picked from `HandoffFrontmatterSchema`), so an invalid value is
 * refused as the full parse refuses it. test/unit/core/frontmatterHead.test.ts runs both on
 * many frontmatters and asserts equal results. Pure: no I/O. Never throws.
 */
import { Schema, isScalar, type ScalarTag } from 'yaml';
import type { z } from 'zod';
import { locateFrontmatter, splitFrontmatter } from './frontmatter';
import { HandoffFrontmatterSchema } from './schema';

/**
 * The head's fields, validated exactly as `HandoffFrontmatterSchema` validates them (same
 * defaults: `kind` `handoff`, `status_history` `[]`, `hop_guard` null); other keys are dropped.
 * `schema` is kept so a file that is not ours (no `schema: 1`) is refused as before.
 */
export const HandoffHeadSchema = HandoffFrontmatterSchema.pick({
  schema: true,
  id: true,
  kind: true,
  specialist: true,
  from: true,
  to: true,
  created: true,
  status: true,
  status_history: true,
  root_id: true,
  parent_id: true,
  hop: true,
  chain: true, // the chain's depth for the insights (the larger of hop and its length)
  hop_guard: true,
  topic: true,
  topic_title: true,
  tests_run_count: true,
  tests_failed_count: true, // tests failing at hand-back
}).strip();

/** A handoff's head: the fields of {@link HandoffHeadSchema} as its frontmatter says them (status events not applied). */
export type HandoffHead = z.infer<typeof HandoffHeadSchema>;

/** The top-level keys {@link parseHandoffHead} builds values for (the others are only checked to be well-formed). */
export const HEAD_KEYS: ReadonlySet<string> = new Set(Object.keys(HandoffHeadSchema.shape));

/** How a head was read: `fast` (the block-form reader) or `yaml` (the library's full parse). */
export type HeadReadPath = 'fast' | 'yaml';

/**
 * Reads the head of a handoff file from its start (at least up to the frontmatter's closing
 * `---` line): the fast path where every line of the frontmatter is in the recognised block
 * form, else the `yaml` library ({@link parseHandoffHeadWithYaml}).
 * @returns the validated head, or undefined when the file has no frontmatter, it is not
 *   closed, not valid YAML, or a head field is missing or invalid. Never throws.
 */
export function parseHandoffHead(text: string): HandoffHead | undefined {
  return readHead(text).head;
}

/**
 * {@link parseHandoffHead}, also saying which path answered (for the differential test and
 * the bench's note).
 */
export function readHead(text: string): { head: HandoffHead | undefined; path: HeadReadPath } {
  const fence = text.charCodeAt(0) === 0xfeff ? undefined : locateFrontmatter(text);
  if (fence === undefined || fence === 'unclosed') {
    // No frontmatter, a BOM, or not closed: the library decides (no frontmatter and unclosed both read as none).
    return { head: parseHandoffHeadWithYaml(text), path: 'yaml' };
  }
  const yamlText = text.slice(fence.yamlStart, fence.closeStart);
  const data = !FAST_PATH_USABLE || yamlText.includes('\r') ? FAIL : parseBlockFrontmatter(yamlText);
  if (data === FAIL) return { head: parseHandoffHeadWithYaml(text), path: 'yaml' };
  const parsed = HandoffHeadSchema.safeParse(data);
  return { head: parsed.success ? parsed.data : undefined, path: 'fast' };
}

/**
 * The reference reading of a head: the whole frontmatter parsed by the `yaml` library
 * ({@link splitFrontmatter}, as `parseHandoff` does), then {@link HandoffHeadSchema}.
 * @returns the head, or undefined as {@link parseHandoffHead}. Never throws.
 */
export function parseHandoffHeadWithYaml(text: string): HandoffHead | undefined {
  const split = splitFrontmatter(text);
  if (!split.ok || !split.hasFrontmatter) return undefined;
  const parsed = HandoffHeadSchema.safeParse(split.data);
  return parsed.success ? parsed.data : undefined;
}

/** Marks a frontmatter the fast path does not recognise: the library reads it. */
const FAIL: unique symbol = Symbol('not recognised');
type Fail = typeof FAIL;

/** The `yaml` library's default scalar tags of its YAML 1.2 core schema (what `parseDocument` resolves plain scalars with), in its order. */
const CORE_TAGS: readonly ScalarTag[] = (new Schema({}).tags as ScalarTag[]).filter((t) => t.default === true && t.test !== undefined);

/** Longest mapping key the fast path takes: 200 characters (YAML limits implicit keys to 1,024). */
const MAX_KEY = 200;

/**
 * Where the key of a `key:` / `key: value` line ends (the index of its `:`), or -1 when the
 * line is not one the fast path takes: a key of a lower-case ASCII letter, then letters,
 * digits, `_` or `-` (ours, and redaction kinds), at most {@link MAX_KEY}, then `:` and the
 * end of the line or one space and a value. Also sets {@link keyHash} (FNV-1a of the key, 30 bits).
 */
function keyEnd(text: string): number {
  const c0 = text.charCodeAt(0);
  if (!(c0 >= 0x61 && c0 <= 0x7a)) return -1;
  let h = Math.imul(0x811c9dc5 ^ c0, 0x01000193);
  const max = Math.min(text.length, MAX_KEY + 1);
  for (let k = 1; k < max; k++) {
    const c = text.charCodeAt(k);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d) {
      h = Math.imul(h ^ c, 0x01000193);
      continue;
    }
    if (c !== 0x3a) return -1;
    keyHash = h & 0x3fffffff; // a small integer: cheap in a Set
    return k + 1 === text.length || text.charCodeAt(k + 1) === 0x20 ? k : -1;
  }
  return -1;
}

/** The hash {@link keyEnd} computed of the last key it took. */
let keyHash = 0;

/** FNV-1a of a key, 30 bits, as {@link keyEnd} computes it. */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < key.length; k++) h = Math.imul(h ^ key.charCodeAt(k), 0x01000193);
  return h & 0x3fffffff;
}

/** Keys the core schema would resolve as something other than a string (`null`, `true`, `false`: the only lower-case words its tags match), by hash (a key with one of these hashes goes to the library). */
const NOT_STRING_HASHES: ReadonlySet<number> = new Set(['null', 'true', 'false'].map(hashOf));

/**
 * One non-space character the fast path takes in a scalar: printable (YAML 1.2 §5.1) minus
 * what it does not try to reason about — controls, tab, NEL, NBSP, U+2028/2029, BOM,
 * non-characters and lone surrogates.
 */
const NS = String.raw`[\x21-\x7E\u00A1-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD\u{10000}-\u{10FFFF}]`;
/**
 * A single-line plain scalar in block context (YAML 1.2 §7.3.3): not starting with an
 * indicator (`-` only before a non-space), no `: ` or final `:` (a mapping), no ` #` (a
 * comment), single spaces only between words, no leading or trailing space.
 */
export const PLAIN = new RegExp(String.raw`^(?:(?![-?:,\[\]{}#&*!|>'"%@\x60])${NS}|-(?=${NS}))(?:(?!:)${NS}|:(?=${NS})| (?=(?!#)${NS}))*$`, 'u');
/** Per ASCII code unit: 1 when it is in {@link NS} (`!` to `~`), 2 more when it is one of {@link PLAIN}'s first-character indicators (`-?:,[]{}#&*!|>'"%@` and the backquote). */
const ASCII_CLASS: Uint8Array = (() => {
  const table = new Uint8Array(128);
  for (let c = 0x21; c <= 0x7e; c++) table[c] = 1;
  for (const ch of '-?:,[]{}#&*!|>\'"%@`') table[ch.charCodeAt(0)] |= 2;
  return table;
})();

/**
 * {@link PLAIN}'s answer, by one scan of the code units, for a text of ASCII only (the regex
 * for any other: `undefined` here). The same rules, position by position: the first
 * character is in {@link NS} and no indicator, or `-` before one in NS; then each is in NS
 * and no `:`, or `:` before one in NS, or a space before one in NS that is no `#`. Compared
 * with the regex on many texts in test/unit/core/handoff/frontmatterHead.test.ts.
 */
export function asciiPlain(text: string): boolean | undefined {
  const n = text.length;
  if (n === 0) return false;
  const c0 = text.charCodeAt(0);
  if (c0 >= 0x80) return undefined;
  const k0 = ASCII_CLASS[c0];
  if (k0 === 0) return false;
  if (k0 !== 1) {
    if (c0 !== 0x2d || n === 1) return false;
    const c1 = text.charCodeAt(1);
    if (c1 >= 0x80) return undefined;
    if (ASCII_CLASS[c1] === 0) return false;
  }
  // Past a position that fails, the regex fails whatever follows (each position has one way to match), so false is final.
  for (let k = 1; k < n; k++) {
    const c = text.charCodeAt(k);
    if (c >= 0x80) return undefined;
    if (c === 0x3a || c === 0x20) {
      const next = k + 1 < n ? text.charCodeAt(k + 1) : 0;
      if (next >= 0x80) return undefined;
      if (ASCII_CLASS[next] === 0 || (c === 0x20 && next === 0x23)) return false;
    } else if (ASCII_CLASS[c] === 0) return false;
  }
  return true;
}

/** Whether `text` is a single-line plain scalar ({@link PLAIN}): the ASCII scan, else the regex. */
export function isPlain(text: string): boolean {
  return asciiPlain(text) ?? PLAIN.test(text);
}

/** What may stand between quotes: a space or {@link NS}. */
const QUOTED_CHARS = new RegExp(String.raw`^(?: |${NS})*$`, 'u');
/** Block scalar headers the fast path skips in fields it does not need (no indentation indicator). */
const BLOCK_HEADERS: ReadonlySet<string> = new Set(['|', '|-', '|+', '>', '>-', '>+']);

/** The head keys by hash ({@link hashOf}). */
const HEAD_KEY_HASHES: ReadonlyMap<number, string> = new Map([...HEAD_KEYS].map((k) => [hashOf(k), k]));
/** Whether the fast path can tell the head keys apart by hash (two sharing one: every head is read by the library). */
export const FAST_PATH_USABLE = HEAD_KEY_HASHES.size === HEAD_KEYS.size;

interface Lines {
  readonly lines: readonly string[];
  /** Index of the next line to read. */
  i: number;
}

/**
 * Reads a frontmatter's YAML (between the fences) when every line is in the block form:
 * a top-level mapping at column 0 of keys ({@link keyEnd}) whose values are single-line
 * scalars (plain, `"…"`, `'…'`), `[]`, `{}`, block scalars (skipped, in fields not needed) or
 * nested block mappings and sequences indented below them.
 * @returns the needed fields ({@link HEAD_KEYS}) that are present, with the library's
 *   values, or FAIL for anything else (the library reads it then)
 */
function parseBlockFrontmatter(yamlText: string): Record<string, unknown> | Fail {
  const lines = yamlText.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const ctx: Lines = { lines, i: 0 };
  const out = parseMap(ctx, 0, HEAD_KEY_HASHES, undefined);
  if (out === FAIL || ctx.i !== lines.length) return FAIL;
  return out as Record<string, unknown>;
}

function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  return n;
}

/**
 * A block mapping at column `col`. `build`: whether its values are built (else only checked),
 * or the keys whose values are built, by hash (the top level: {@link HEAD_KEY_HASHES}); `first` is the rest of a `- key: value`
 * line (a mapping inside a sequence item).
 * @returns the mapping (only built keys), `true` when nothing is built, or FAIL
 */
function parseMap(ctx: Lines, col: number, build: boolean | ReadonlyMap<number, string>, first: string | undefined): Record<string, unknown> | true | Fail {
  const out: Record<string, unknown> = {};
  // Keys seen, by hash: two keys with one hash read as a duplicate, so the library decides (never a wrong answer).
  const seen = new Set<number>();
  let text = first;
  for (;;) {
    if (text === undefined) {
      if (ctx.i >= ctx.lines.length) break;
      const line = ctx.lines[ctx.i];
      const indent = indentOf(line);
      if (indent < col && line !== '') break;
      if (indent !== col) return FAIL;
      text = line.slice(col);
    }
    const end = keyEnd(text);
    if (end < 0) return FAIL;
    const hash = keyHash;
    if (seen.has(hash) || NOT_STRING_HASHES.has(hash)) return FAIL;
    seen.add(hash);
    ctx.i++;
    // The key itself is sliced only where its value is built; at the top level, only a head key is (its constant string).
    let key: string | undefined;
    if (typeof build === 'boolean') key = build ? text.slice(0, end) : undefined;
    else {
      const candidate = build.get(hash);
      key = candidate !== undefined && candidate.length === end && text.startsWith(candidate) ? candidate : undefined;
    }
    const wanted = key !== undefined;
    const value = end + 1 === text.length ? parseNested(ctx, col, wanted) : parseInline(ctx, text.slice(end + 2), col, wanted);
    if (value === FAIL) return FAIL;
    if (key !== undefined) out[key] = value;
    text = undefined;
  }
  return build === false ? true : out;
}

/** The value after `key:` alone on its line: a block node indented deeper on the next lines, else null. */
function parseNested(ctx: Lines, col: number, build: boolean): unknown {
  if (ctx.i < ctx.lines.length) {
    const line = ctx.lines[ctx.i];
    const indent = indentOf(line);
    if (indent > col && indent < line.length) {
      const content = line.slice(indent);
      if (content === '-' || content.startsWith('- ')) return parseSeq(ctx, indent, build);
      return parseMap(ctx, indent, build, undefined);
    }
  }
  return null;
}

/** A block sequence at column `col` (`- item` lines). */
function parseSeq(ctx: Lines, col: number, build: boolean): unknown[] | true | Fail {
  const out: unknown[] = [];
  while (ctx.i < ctx.lines.length) {
    const line = ctx.lines[ctx.i];
    const indent = indentOf(line);
    if (indent < col && line !== '') break;
    if (indent !== col) return FAIL;
    const content = line.slice(col);
    let item: unknown;
    if (content === '-') {
      ctx.i++;
      item = parseNested(ctx, col, build);
    } else if (content.startsWith('- ')) {
      const rest = content.slice(2);
      if (rest.startsWith(' ') || rest === '-' || rest.startsWith('- ')) return FAIL;
      if (keyEnd(rest) >= 0) item = parseMap(ctx, col + 2, build, rest);
      else {
        ctx.i++;
        item = parseInline(ctx, rest, col, build);
      }
    } else return FAIL;
    if (item === FAIL) return FAIL;
    if (build) out.push(item);
  }
  return build ? out : true;
}

/** A value on the line after `key: ` or `- ` (`ctx.i` already past that line); `col`: the key's or the dash's column. */
function parseInline(ctx: Lines, rest: string, col: number, build: boolean): unknown {
  if (rest === '[]') return build ? [] : true;
  if (rest === '{}') return build ? {} : true;
  const c = rest.charCodeAt(0);
  if ((c === 0x7c || c === 0x3e) && BLOCK_HEADERS.has(rest)) return build ? FAIL : skipBlockScalar(ctx, col);
  if (c === 0x22) return doubleQuoted(rest);
  if (c === 0x27) return singleQuoted(rest);
  if (!isPlain(rest)) return FAIL;
  return build ? resolvePlain(rest) : true;
}

/**
 * Skips a block scalar's content (a field not needed): the first line indented exactly two
 * columns deeper than its key, then lines at least that deep or empty.
 */
function skipBlockScalar(ctx: Lines, col: number): true | Fail {
  const depth = col + 2;
  const first = ctx.lines[ctx.i];
  if (first === undefined || indentOf(first) !== depth || first.length === depth) return FAIL;
  ctx.i++;
  while (ctx.i < ctx.lines.length) {
    const line = ctx.lines[ctx.i];
    if (line !== '' && indentOf(line) < depth) {
      if (line.trim() === '') return FAIL; // a line of spaces only: the library decides
      break;
    }
    ctx.i++;
  }
  return true;
}

/** A whole-line `"…"` scalar with no escape but `\\` and `\"`. */
function doubleQuoted(rest: string): string | Fail {
  if (rest.length < 2 || rest.charCodeAt(rest.length - 1) !== 0x22) return FAIL;
  const inner = rest.slice(1, -1);
  if (!QUOTED_CHARS.test(inner)) return FAIL;
  if (!inner.includes('\\') && !inner.includes('"')) return inner;
  let out = '';
  for (let k = 0; k < inner.length; k++) {
    const ch = inner[k];
    if (ch === '"') return FAIL;
    if (ch === '\\') {
      const next = inner[++k];
      if (next !== '\\' && next !== '"') return FAIL;
      out += next;
    } else out += ch;
  }
  return out;
}

/** A whole-line `'…'` scalar (`''` is one quote). */
function singleQuoted(rest: string): string | Fail {
  if (rest.length < 2 || rest.charCodeAt(rest.length - 1) !== 0x27) return FAIL;
  const inner = rest.slice(1, -1);
  if (!QUOTED_CHARS.test(inner)) return FAIL;
  if (!inner.includes("'")) return inner;
  if (inner.replace(/''/g, '').includes("'")) return FAIL;
  return inner.replace(/''/g, "'");
}

/** Plain scalars a core tag resolved (null, booleans, numbers: `null`, `1`, `false` repeat in every file), at most 1,000. */
const RESOLVED = new Map<string, unknown>();

/**
 * The first characters a plain scalar that a core tag matches can start with (the tags'
 * tests, `CORE_TAG_TESTS`: `~`, `n`/`N`ull, `t`/`T`rue, `f`/`F`alse, digits, `+`, `-`, `.`);
 * a plain scalar starting with any other is a string, without running the tests.
 */
const TAG_FIRST = /^[~nNtTfF0-9+\-.]/;

/** The sources of the core tags' tests {@link TAG_FIRST} was read from (a test checks the library still has these: test/unit/core/handoff/frontmatterHead.test.ts). */
export const CORE_TAG_TESTS: readonly string[] = CORE_TAGS.map((t) => t.test!.source);

/** A plain scalar's value as the library resolves it: the first core tag whose test matches, else the string. */
function resolvePlain(text: string): unknown {
  if (text.length > 0 && !TAG_FIRST.test(text)) return text;
  const known = RESOLVED.get(text);
  if (known !== undefined || RESOLVED.has(text)) return known;
  const tag = CORE_TAGS.find((t) => t.test!.test(text));
  if (!tag) return text;
  let failed = false;
  const resolved = tag.resolve(text, () => (failed = true), {});
  if (failed) return FAIL;
  const value = isScalar(resolved) ? resolved.value : resolved;
  if (value !== null && typeof value === 'object') return value; // not a primitive: not shared
  if (RESOLVED.size >= 1000) RESOLVED.clear();
  RESOLVED.set(text, value);
  return value;
}
