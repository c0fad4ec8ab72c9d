/**
 * YAML frontmatter (`---` fenced YAML at the top of a Markdown file), read and written
 * with the `yaml` library (YAML 1.2 core schema: no implicit dates, so strings such as
 * `2026-05-26` stay strings and round-trip unchanged).
 */
import { parseDocument, stringify, type Document } from 'yaml';

/** Outcome of splitting a file into frontmatter data and body. Never throws. */
export type FrontmatterSplit =
  | { ok: true; data: unknown; body: string; hasFrontmatter: boolean }
  | { ok: false; message: string };

/**
 * Splits `text` into its YAML frontmatter (parsed) and the Markdown body after it.
 * A file without a leading `---` line has `data: undefined` and the whole text as body.
 * Fence lines are found by `\n` only — never by Unicode line or paragraph separators
 * (U+2028, U+2029), which a value inside the YAML may contain.
 *
 * @returns `{ok:false, message}` when the fence is not closed or the YAML is invalid
 *   (including alias bombs); the message says which and how to fix it. Never throws.
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const fence = locateFrontmatter(text);
  if (fence === undefined) {
    return { ok: true, data: undefined, body: text, hasFrontmatter: false };
  }
  if (fence === 'unclosed') {
    return { ok: false, message: 'frontmatter is not closed — add a line with only "---" after the YAML block' };
  }
  const yamlText = text.slice(fence.yamlStart, fence.closeStart);
  const body = text.slice(fence.closeEnd);
  try {
    const doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true });
    if (doc.errors.length > 0) {
      const err = doc.errors[0];
      const line = err.linePos?.[0]?.line;
      return {
        ok: false,
        message: `frontmatter is not valid YAML${line ? ` (line ${line + 1} of the file)` : ''}: ${err.message.split('\n')[0]}`,
      };
    }
    return { ok: true, data: doc.toJS({ maxAliasCount: 50 }) as unknown, body, hasFrontmatter: true };
  } catch (err) {
    return { ok: false, message: `frontmatter cannot be read: ${(err as Error).message.split('\n')[0]}` };
  }
}

/**
 * Edits the YAML frontmatter of `text` in place with the `yaml` Document API (keys,
 * order, comments and formatting of everything not edited are kept) and returns the new
 * text; the body's bytes are unchanged.
 *
 * @returns `{ok:false, message}` when there is no frontmatter or it is invalid YAML. Never throws.
 */
export function editFrontmatter(text: string, edit: (doc: Document) => void): { ok: true; text: string } | { ok: false; message: string } {
  const fence = locateFrontmatter(text);
  if (fence === undefined || fence === 'unclosed') {
    return { ok: false, message: fence === undefined ? 'no frontmatter to edit' : 'frontmatter is not closed' };
  }
  try {
    const doc = parseDocument(text.slice(fence.yamlStart, fence.closeStart), { prettyErrors: false, uniqueKeys: true });
    if (doc.errors.length > 0) {
      return { ok: false, message: `frontmatter is not valid YAML: ${doc.errors[0].message.split('\n')[0]}` };
    }
    edit(doc);
    const yamlText = doc.toString({ lineWidth: 0 });
    return { ok: true, text: text.slice(0, fence.yamlStart) + yamlText + text.slice(fence.closeStart) };
  } catch (err) {
    return { ok: false, message: `frontmatter cannot be edited: ${(err as Error).message.split('\n')[0]}` };
  }
}

/**
 * Offsets (UTF-16 code units) of the YAML between the fences of `text`: `yamlStart` after the
 * opening `---` line (a leading BOM skipped), `closeStart` / `closeEnd` the closing `---` line
 * (with its `\n`). Fence lines are found by `\n` only, as {@link splitFrontmatter} does.
 * @returns the offsets; undefined without a leading fence; `'unclosed'` without a closing one
 */
export function locateFrontmatter(text: string): { yamlStart: number; closeStart: number; closeEnd: number } | 'unclosed' | undefined {
  const start = text.startsWith('\uFEFF') ? 1 : 0;
  const firstEnd = text.indexOf('\n', start);
  const firstLine = text.slice(start, firstEnd < 0 ? text.length : firstEnd).replace(/\r$/, '');
  if (firstEnd < 0 || !/^---[ \t]*$/.test(firstLine)) {
    return undefined;
  }
  const yamlStart = firstEnd + 1;
  let lineStart = yamlStart;
  let closeStart = -1;
  let closeEnd = -1;
  while (lineStart <= text.length) {
    const nl = text.indexOf('\n', lineStart);
    const lineEnd = nl < 0 ? text.length : nl;
    if (text.startsWith('---', lineStart) && /^---[ \t]*\r?$/.test(text.slice(lineStart, lineEnd))) {
      closeStart = lineStart;
      closeEnd = nl < 0 ? text.length : nl + 1;
      break;
    }
    if (nl < 0) {
      break;
    }
    lineStart = nl + 1;
  }
  if (closeStart < 0) {
    return 'unclosed';
  }
  return { yamlStart, closeStart, closeEnd };
}

/** Options of every frontmatter rendering (one pair or the whole map): no folding, plain strings where YAML reads them back as strings, no anchors. */
const YAML_OPTIONS = { lineWidth: 0, defaultStringType: 'PLAIN', aliasDuplicateObjects: false } as const;

/** Most `key: value` renderings remembered: 4,096 (the cache starts over past it). */
const PAIR_CACHE_ENTRIES = 4096;
const pairCache = new Map<string, string>();

/** Whether `v` is made only of plain objects, arrays, strings, booleans, null and finite numbers other than -0 (JSON then names it exactly). */
function jsonExact(v: unknown, depth = 0): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (depth > 8 || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.every((x) => jsonExact(x, depth + 1));
  if (Object.getPrototypeOf(v) !== Object.prototype) return false;
  return Object.values(v).every((x) => x !== undefined && jsonExact(x, depth + 1));
}

/** One top-level `key: value` of the block (with its line feed), remembered by key and JSON value. */
function renderPair(key: string, value: unknown): string {
  const render = () => stringify({ [key]: value }, YAML_OPTIONS);
  if (!jsonExact(value)) return render();
  const id = `${key}\0${JSON.stringify(value)}`;
  let text = pairCache.get(id);
  if (text === undefined) {
    text = render();
    if (pairCache.size >= PAIR_CACHE_ENTRIES) pairCache.clear();
    pairCache.set(id, text);
  }
  return text;
}

/**
 * Renders `data` as a frontmatter block: `---\n<yaml>---\n`. Keys keep insertion order;
 * `undefined` values are left out; strings that YAML would read as another type are quoted.
 * A top-level block map is its pairs one after another, so each `key: value` is rendered on
 * its own and remembered (fit-to-budget renders dozens of frontmatters that differ in one
 * field) — the same text as rendering the map at once
 * (test/unit/core/handoff/frontmatter.test.ts compares both).
 */
export function renderFrontmatter(data: Record<string, unknown>): string {
  let yamlText = '';
  for (const [k, v] of Object.entries(data)) {
    if (v !== undefined) yamlText += renderPair(k, v);
  }
  return `---\n${yamlText || stringify({}, YAML_OPTIONS)}---\n`;
}
