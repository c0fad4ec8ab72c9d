/**
 * YAML frontmatter (`---` fenced YAML at the top of a Markdown file), read and written
 * with the `yaml` library (YAML 1.2 core schema: no implicit dates, so strings such as
 * `2026-05-26` stay strings and round-trip unchanged).
 */
import { parseDocument, stringify } from 'yaml';

/** Outcome of splitting a file into frontmatter data and body. Never throws. */
export type FrontmatterSplit =
  | { ok: true; data: unknown; body: string; hasFrontmatter: boolean }
  | { ok: false; message: string };

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*$/m;

/**
 * Splits `text` into its YAML frontmatter (parsed) and the Markdown body after it.
 * A file without a leading `---` line has `data: undefined` and the whole text as body.
 *
 * @returns `{ok:false, message}` when the fence is not closed or the YAML is invalid;
 *   the message says which and how to fix it.
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const open = OPEN.exec(text);
  if (!open) {
    return { ok: true, data: undefined, body: text, hasFrontmatter: false };
  }
  const rest = text.slice(open[0].length);
  const close = findClose(rest);
  if (!close) {
    return { ok: false, message: 'frontmatter is not closed — add a line with only "---" after the YAML block' };
  }
  const yamlText = rest.slice(0, close.index);
  let body = rest.slice(close.index + close.length);
  body = body.replace(/^\r?\n/, '');
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
}

function findClose(rest: string): { index: number; length: number } | undefined {
  const m = CLOSE.exec(rest);
  if (!m) {
    return undefined;
  }
  return { index: m.index, length: m[0].length };
}

/**
 * Renders `data` as a frontmatter block: `---\n<yaml>---\n`. Keys keep insertion order;
 * `undefined` values are left out; strings that YAML would read as another type are quoted.
 */
export function renderFrontmatter(data: Record<string, unknown>): string {
  const clean: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    if (v !== undefined) {
      clean[k] = v;
    }
  }
  const yamlText = stringify(clean, { lineWidth: 0, defaultStringType: 'PLAIN', aliasDuplicateObjects: false });
  return `---\n${yamlText}---\n`;
}
