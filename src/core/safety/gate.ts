/**
 * The one gate every byte written or output passes. Its {@link Sanitized} type makes store writers refuse a raw string
 * at compile time; at run time {@link ensureSanitized} sanitizes any string this module does not remember producing.
 */
import { redactKnown, redactSecrets, redactTexts } from './redact';
import { stripInvisible } from './invisible';
import { recurrences, type KnownSecrets } from './recurrence';

declare const SANITIZED: unique symbol;

/** No secret the rules know, no raw invisible or control character but tab, LF and CR. */
export type Sanitized = string & { readonly [SANITIZED]: true };

/** `escape` (files) makes each a visible `\u{…}`, so a bidi trick in a diff stays visible; `strip` keeps a terminal, JSON or chat valid. */
export type InvisibleMode = 'escape' | 'strip';

export interface GateResult {
  readonly text: Sanitized;
  readonly found: Record<string, number>;
  readonly invisible: number;
  readonly notes: string[];
  /** value → kind, for the job's later texts. Never printed or written. */
  readonly secrets: Map<string, string>;
}

const REGISTRY_ENTRIES = 512;
/** Bounds the memory a long-lived host keeps; a text forgotten is only scanned again, never let through. */
const REGISTRY_CHARS = 4_000_000;
const registry = new Set<string>();
let registryChars = 0;

function remember(text: string): Sanitized {
  if (text.length > REGISTRY_CHARS) return text as Sanitized;
  if (registry.has(text)) {
    registry.delete(text); // moves to the newest end
    registry.add(text);
    return text as Sanitized;
  }
  registry.add(text);
  registryChars += text.length;
  for (const old of registry) {
    if (registry.size <= REGISTRY_ENTRIES && registryChars <= REGISTRY_CHARS) break;
    registry.delete(old);
    registryChars -= old.length;
  }
  return text as Sanitized;
}

export function isSanitized(text: string): text is Sanitized {
  return text === '' || registry.has(text);
}

/** `\u{1b}`, the form `stalenessReport.ts` uses for paths too. */
export function escapeCodePoint(ch: string): string {
  return `\\u{${ch.codePointAt(0)!.toString(16)}}`;
}

/** Escapes (`\u{202e}`) or removes what `stripInvisible` would remove; `count` is in code points. */
export function neutralizeInvisible(text: string, mode: InvisibleMode = 'escape'): { text: string; count: number } {
  const stripped = stripInvisible(text);
  if (stripped.removed === 0 || mode === 'strip') return { text: stripped.text, count: stripped.removed };
  const out: string[] = [];
  let j = 0;
  let count = 0;
  for (const ch of text) {
    if (stripped.text.startsWith(ch, j)) {
      out.push(ch);
      j += ch.length;
    } else {
      out.push(escapeCodePoint(ch));
      count++;
    }
  }
  return { text: out.join(''), count };
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---(?=\r?\n|$)/;
const FRONTMATTER_LINE = /^(\s*(?:-\s+)?(?:[A-Za-z0-9_.-]+:(?:\s+|$))?)(.*)$/;

/** Each value scanned alone (`secret-assignment: 2` in `redactions` is no assignment) and double-quoted if changed; a `\u{…}` escape is not YAML, so invisible characters are removed. */
async function sanitizeFrontmatter(
  block: string,
  known: KnownSecrets,
): Promise<{ text: string; found: Record<string, number>; invisible: number; notes: string[]; secrets: Map<string, string> }> {
  const lines = block.split('\n').map((l) => FRONTMATTER_LINE.exec(l) ?? ['', '', l]);
  // Keys are scanned too: a line of a block scalar may look like a key.
  let invisible = 0;
  const visible = (t: string): string => {
    const x = stripInvisible(t);
    invisible += x.removed;
    return x.text;
  };
  const r = await redactTexts([...lines.map((m) => visible(m[2])), ...lines.map((m) => visible(m[1]))], { known });
  const text = lines
    .map((m, i) => {
      let value = r.texts[i];
      if (value !== m[2] && !(value.startsWith('"') && value.endsWith('"') && value.length > 1)) value = JSON.stringify(value);
      return r.texts[lines.length + i] + value;
    })
    .join('\n');
  return { text, found: r.found, invisible, notes: r.notes, secrets: r.secrets };
}

const total = (found: Record<string, number>): number => Object.values(found).reduce((x, y) => x + y, 0);

/** The frontmatter is scanned value by value, the rest as one text; a secret found in either, or in `known`, is redacted in both. Never throws. */
export async function sanitizeText(text: string, mode: InvisibleMode = 'escape', known?: KnownSecrets): Promise<GateResult> {
  if (mode === 'escape' && isSanitized(text) && !(known && recurrences(text, known).length > 0))
    return { text, found: {}, invisible: 0, notes: [], secrets: new Map(known ?? []) };
  const fm = FRONTMATTER.exec(text);
  const body = fm ? text.slice(fm[0].length) : text;
  let r = await redactSecrets(mode === 'strip' ? stripInvisible(body).text : body, { known });
  const head = fm ? await sanitizeFrontmatter(fm[1], r.secrets) : undefined;
  let secrets = head?.secrets ?? r.secrets;
  let bodyText = r.text;
  const bodyFound = { ...r.found };
  if (head && head.secrets.size > r.secrets.size) {
    const again = redactKnown([bodyText], head.secrets);
    bodyText = again.texts[0];
    for (const [k, c] of Object.entries(again.found)) bodyFound[k] = (bodyFound[k] ?? 0) + c;
  }
  let n = neutralizeInvisible(bodyText, mode);
  let found = bodyFound;
  if (mode === 'escape' && n.count > 0) {
    // A zero-width character can split a token: keep the stripped text if scanning it finds more.
    const stripped = stripInvisible(body);
    const again = await redactSecrets(stripped.text, { known: secrets });
    if (total(again.found) > total(found)) {
      r = again;
      secrets = again.secrets;
      found = { ...again.found };
      n = { text: again.text, count: stripped.removed };
    }
  }
  for (const [k, c] of Object.entries(head?.found ?? {})) found[k] = (found[k] ?? 0) + c;
  const joined = head ? `---\n${head.text}\n---${n.text}` : n.text;
  return {
    text: remember(joined),
    found,
    invisible: n.count + (head?.invisible ?? 0),
    notes: [...(head?.notes ?? []), ...r.notes.filter((x) => !head?.notes.includes(x))],
    secrets,
  };
}

/** Every string, keys included, in one batch. JSON text is never redacted as text: a marker replacing an unquoted value would break it. */
export async function sanitizeValue<T>(value: T, mode: InvisibleMode = 'escape'): Promise<T> {
  const strings: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        strings.push(k);
        collect(x);
      }
    }
  };
  collect(value);
  if (strings.length === 0) return value;
  const safe = (await sanitizeTexts(strings, mode)).texts;
  let i = 0;
  const rebuild = (v: unknown): unknown => {
    if (typeof v === 'string') return safe[i++];
    if (Array.isArray(v)) return v.map(rebuild);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [, x] of Object.entries(v)) {
        const key = safe[i++];
        out[key] = rebuild(x);
      }
      return out;
    }
    return v;
  };
  return rebuild(value) as T;
}

export async function sanitizedJson(value: unknown): Promise<Sanitized> {
  return remember(JSON.stringify(await sanitizeValue(value)));
}

export async function sanitizeTexts(
  texts: readonly string[],
  mode: InvisibleMode = 'escape',
  known?: KnownSecrets,
): Promise<{ texts: Sanitized[]; found: Record<string, number>; invisible: number; notes: string[]; secrets: Map<string, string> }> {
  const r = await redactTexts(texts, { known });
  let invisible = 0;
  const out = r.texts.map((t) => {
    const n = neutralizeInvisible(t, mode);
    invisible += n.count;
    return remember(n.text);
  });
  return { texts: out, found: r.found, invisible, notes: r.notes, secrets: r.secrets };
}

/** A text the gate produced passes as it is; anything else (a cast, a file read back) is sanitized now. */
export async function ensureSanitized(text: string): Promise<Sanitized> {
  return isSanitized(text) ? text : (await sanitizeText(text)).text;
}

/** For one path segment built from user text. Apply it before slugging or lowercasing: a slugged token no longer looks like one. */
export async function sanitizeFileName(name: string, known?: KnownSecrets): Promise<Sanitized> {
  if (isSanitized(name) && !(known && recurrences(name, known).length > 0)) return name;
  const r = await redactSecrets(name, { known });
  const text = stripInvisible(r.text).text.replace(/\[REDACTED:([a-z0-9-]+)\]/g, 'redacted-$1');
  return remember(text);
}

export async function isSafeFileName(name: string): Promise<boolean> {
  return (await sanitizeFileName(name)) === name;
}

/** What a writer's gate passes found in an already sanitized package; the job's secrets carry from one file to the next. */
export class GateTally {
  readonly found: Record<string, number> = {};
  invisible = 0;
  readonly notes: string[] = [];
  /** value → kind. Never printed or written. */
  readonly secrets: Map<string, string>;

  constructor(known?: KnownSecrets) {
    this.secrets = new Map(known ?? []);
  }

  async text(text: string): Promise<Sanitized> {
    const r = await sanitizeText(text, 'escape', this.secrets);
    this.know(r.secrets);
    for (const [k, n] of Object.entries(r.found)) this.found[k] = (this.found[k] ?? 0) + n;
    this.invisible += r.invisible;
    for (const n of r.notes) if (!this.notes.includes(n)) this.notes.push(n);
    return r.text;
  }

  know(secrets: KnownSecrets): void {
    for (const [v, k] of secrets) if (!this.secrets.has(v)) this.secrets.set(v, k);
  }

  add(other: GateTally): void {
    this.know(other.secrets);
    for (const [k, n] of Object.entries(other.found)) this.found[k] = (this.found[k] ?? 0) + n;
    this.invisible += other.invisible;
    for (const n of other.notes) if (!this.notes.includes(n)) this.notes.push(n);
  }

  warnings(what: string): string[] {
    const out = this.notes.map((n) => `WARNING: ${n}`);
    const secrets = Object.values(this.found).reduce((a, b) => a + b, 0);
    if (secrets > 0) {
      const kinds = Object.entries(this.found)
        .map(([k, n]) => `${k} ×${n}`)
        .join(', ');
      out.push(`WARNING: the final check of ${what} redacted ${secrets} more secret${secrets === 1 ? '' : 's'} (${kinds}) before writing`);
    }
    if (this.invisible > 0) {
      out.push(
        `WARNING: ${this.invisible} invisible or control character${this.invisible === 1 ? ' was' : 's were'} written in ${what} as visible \\u{…} escapes (in the diff excerpt or a file name)`,
      );
    }
    return out;
  }
}

function parseJson(text: string): { value: unknown } | undefined {
  const t = text.trim();
  if (!((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']')))) return undefined;
  try {
    return { value: JSON.parse(t) };
  } catch {
    return undefined;
  }
}

/** For what the CLI, MCP tools, the language model tool and the chat print: invisible characters stripped, JSON sanitized value by value. Never throws. */
export async function sanitizeOutput(text: string): Promise<Sanitized> {
  const json = parseJson(text);
  if (json) {
    const indent = /^[{[]\r?\n( +)/.exec(text.trim())?.[1].length ?? 0;
    return remember(JSON.stringify(await sanitizeValue(json.value, 'strip'), null, indent || undefined));
  }
  return (await sanitizeText(text, 'strip')).text;
}
