// YAML frontmatter via the `yaml` library's 1.2 core schema: no implicit dates, so `2026-05-26` stays a string and round-trips.
import type { Document } from 'yaml';
import { yaml } from './yamlLibrary';

export type FrontmatterSplit = { ok: true; data: unknown; body: string; hasFrontmatter: boolean } | { ok: false; message: string };

/** Fences are found by `\n` only, never U+2028/U+2029, which a YAML value may hold. `{ok:false}` when unclosed or invalid (alias bombs included). Never throws. */
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
    const doc = yaml().parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true });
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

/** Edits in place with the Document API, so keys, order and comments not edited are kept and the body's bytes are unchanged. Never throws. */
export function editFrontmatter(text: string, edit: (doc: Document) => void): { ok: true; text: string } | { ok: false; message: string } {
  const fence = locateFrontmatter(text);
  if (fence === undefined || fence === 'unclosed') {
    return { ok: false, message: fence === undefined ? 'no frontmatter to edit' : 'frontmatter is not closed' };
  }
  try {
    const doc = yaml().parseDocument(text.slice(fence.yamlStart, fence.closeStart), { prettyErrors: false, uniqueKeys: true });
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

/** UTF-16 offsets: `yamlStart` after the opening fence (a BOM skipped), `closeStart`/`closeEnd` the closing `---` line; undefined without an opening fence. */
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

/** The cache starts over past it. */
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
  const render = () => yaml().stringify({ [key]: value }, YAML_OPTIONS);
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

/** `---\n<yaml>---\n`, insertion order, `undefined` left out. Pairs are rendered one by one and remembered: fit-to-budget renders dozens of frontmatters that differ in one field. */
export function renderFrontmatter(data: Record<string, unknown>): string {
  let yamlText = '';
  for (const [k, v] of Object.entries(data)) {
    if (v !== undefined) yamlText += renderPair(k, v);
  }
  return `---\n${yamlText || yaml().stringify({}, YAML_OPTIONS)}---\n`;
}
