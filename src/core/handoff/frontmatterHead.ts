/**
 * Reads a handoff's head (the fields the timeline and insights need) without a full YAML parse when the frontmatter is in the
 * plain block form `renderFrontmatter` writes; anything else goes to the `yaml` library, so the answer is always the library's.
 * Plain scalars resolve through the library's own core-schema tags, then {@link HandoffHeadSchema} validates. Pure.
 */
import type { ScalarTag } from 'yaml';
import type * as z from 'zod';
import { locateFrontmatter, splitFrontmatter } from './frontmatter';
import { HandoffFrontmatterSchema } from './schema';
import { yaml } from './yamlLibrary';

/** Validated as `HandoffFrontmatterSchema` does; `schema` is kept so a file that is not ours is refused. */
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

/** As the frontmatter says it (status events not applied). */
export type HandoffHead = z.infer<typeof HandoffHeadSchema>;

/** Keys the fast path builds values for; the others are only checked to be well-formed. */
export const HEAD_KEYS: ReadonlySet<string> = new Set(Object.keys(HandoffHeadSchema.shape));

export type HeadReadPath = 'fast' | 'yaml';

/** @returns undefined when there is no closed, valid frontmatter or a head field is missing or invalid. Never throws. */
export function parseHandoffHead(text: string): HandoffHead | undefined {
  return readHead(text).head;
}

/** Also says which path answered. */
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

/** The reference reading: the whole frontmatter parsed by the `yaml` library. Never throws. */
export function parseHandoffHeadWithYaml(text: string): HandoffHead | undefined {
  const split = splitFrontmatter(text);
  if (!split.ok || !split.hasFrontmatter) return undefined;
  const parsed = HandoffHeadSchema.safeParse(split.data);
  return parsed.success ? parsed.data : undefined;
}

/** A frontmatter the fast path does not recognise: the library reads it. */
const FAIL: unique symbol = Symbol('not recognised');
type Fail = typeof FAIL;

let coreTags: readonly ScalarTag[] | undefined;

/** The library's default core-schema scalar tags, in its order; read on first use (the library loads then). */
function coreScalarTags(): readonly ScalarTag[] {
  coreTags ??= (new (yaml().Schema)({}).tags as ScalarTag[]).filter((t) => t.default === true && t.test !== undefined);
  return coreTags;
}

/** Longest key the fast path takes (YAML allows 1,024). */
const MAX_KEY = 200;

/** Index of the `:` ending a key (a lower-case ASCII letter, then `[a-z0-9_-]`), or -1; also sets {@link keyHash} (FNV-1a, 30 bits). */
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

/** The hash of the last key {@link keyEnd} took. */
let keyHash = 0;

function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < key.length; k++) h = Math.imul(h ^ key.charCodeAt(k), 0x01000193);
  return h & 0x3fffffff;
}

/** `null`, `true`, `false`: the only lower-case keys the core schema resolves to non-strings; such keys go to the library. */
const NOT_STRING_HASHES: ReadonlySet<number> = new Set(['null', 'true', 'false'].map(hashOf));

/** A non-space scalar character: YAML 1.2 printable minus controls, tab, NEL, NBSP, U+2028/2029, BOM, non-characters, lone surrogates. */
const NS = String.raw`[\x21-\x7E\u00A1-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD\u{10000}-\u{10FFFF}]`;
/** A single-line plain scalar in block context (YAML 1.2 §7.3.3): no leading indicator, no `: ` or ` #`, single inner spaces only. */
export const PLAIN = new RegExp(String.raw`^(?:(?![-?:,\[\]{}#&*!|>'"%@\x60])${NS}|-(?=${NS}))(?:(?!:)${NS}|:(?=${NS})| (?=(?!#)${NS}))*$`, 'u');
/** Per ASCII unit: 1 when in {@link NS}, 2 more when one of {@link PLAIN}'s leading indicators. */
const ASCII_CLASS: Uint8Array = (() => {
  const table = new Uint8Array(128);
  for (let c = 0x21; c <= 0x7e; c++) table[c] = 1;
  for (const ch of '-?:,[]{}#&*!|>\'"%@`') table[ch.charCodeAt(0)] |= 2;
  return table;
})();

/** {@link PLAIN}'s answer by one scan when the text is ASCII; undefined otherwise (use the regex). */
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

export function isPlain(text: string): boolean {
  return asciiPlain(text) ?? PLAIN.test(text);
}

const QUOTED_CHARS = new RegExp(String.raw`^(?: |${NS})*$`, 'u');
/** Block scalar headers the fast path skips in fields it does not need (no indentation indicator). */
const BLOCK_HEADERS: ReadonlySet<string> = new Set(['|', '|-', '|+', '>', '>-', '>+']);

const HEAD_KEY_HASHES: ReadonlyMap<number, string> = new Map([...HEAD_KEYS].map((k) => [hashOf(k), k]));
/** False when two head keys share a hash: then every head is read by the library. */
export const FAST_PATH_USABLE = HEAD_KEY_HASHES.size === HEAD_KEYS.size;

interface Lines {
  readonly lines: readonly string[];
  i: number;
}

/** The head keys present, with the library's values, or FAIL when any line is outside the block form. */
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

/** `build`: build the values, only check them, or build the keys given by hash; `first`: the rest of a `- key: value` line. */
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

/** A skipped block scalar: the first line exactly two columns deeper than the key, then lines at least that deep or empty. */
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

/** The first characters of a plain scalar a core tag can match; any other start is a string, without running the tests. */
const TAG_FIRST = /^[~nNtTfF0-9+\-.]/;

/** The tests {@link TAG_FIRST} was read from, to check the library still has them. */
export function coreTagTests(): readonly string[] {
  return coreScalarTags().map((t) => t.test!.source);
}

/** A plain scalar's value as the library resolves it: the first core tag whose test matches, else the string. */
function resolvePlain(text: string): unknown {
  if (text.length > 0 && !TAG_FIRST.test(text)) return text;
  const known = RESOLVED.get(text);
  if (known !== undefined || RESOLVED.has(text)) return known;
  const tag = coreScalarTags().find((t) => t.test!.test(text));
  if (!tag) return text;
  let failed = false;
  const resolved = tag.resolve(text, () => (failed = true), {});
  if (failed) return FAIL;
  const value = yaml().isScalar(resolved) ? resolved.value : resolved;
  if (value !== null && typeof value === 'object') return value; // not a primitive: not shared
  if (RESOLVED.size >= 1000) RESOLVED.clear();
  RESOLVED.set(text, value);
  return value;
}
