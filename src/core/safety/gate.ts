/**
 * The one gate (docs/DESIGN.md §7 "Nothing leaked", "The gate"): every byte written under
 * the handoff root, into a state file, into a prompt and into a tool or chat result passes
 * {@link sanitizeText} (or, for file names, {@link sanitizeFileName}) — secrets replaced by
 * `[REDACTED:<kind>]` (`redactSecrets`, `redact.ts`), invisible and control characters made
 * harmless (`invisible.ts`).
 *
 * Its output has the type {@link Sanitized}: a string only this module makes, so the store's
 * writers (`src/store/safeWrite.ts`, `handoffs/handoffStore.ts`, `interop/mirrors.ts`,
 * `specialists/agentFolders.ts`, `sessionLogState.ts`) refuse a raw string at compile
 * time. At run time the writers call {@link ensureSanitized}, which lets through a string
 * this module produced (remembered in a bounded registry) and sanitizes anything else —
 * a cast cannot bypass the gate. Pure computation: no I/O.
 */
import { redactKnown, redactSecrets, redactTexts } from './redact';
import { stripInvisible } from './invisible';
import { recurrences, type KnownSecrets } from './recurrence';

declare const SANITIZED: unique symbol;

/**
 * A text that has passed the gate: no secret the rules know, no raw invisible or control
 * character other than tab, line feed and carriage return. Made only by this module.
 */
export type Sanitized = string & { readonly [SANITIZED]: true };

/**
 * What to do with invisible and control characters (the set of `INVISIBLE_PATTERN`,
 * `invisible.ts`; emoji joiners and flag tags kept as there):
 * - `escape` (files, the default): each becomes a visible `\u{…}` escape, so a bidi trick
 *   in a diff or an ESC in a file name stays visible and nothing is silently lost;
 * - `strip` (outputs: a terminal, JSON, a chat): each is removed, so the output stays
 *   valid JSON and plain text.
 */
export type InvisibleMode = 'escape' | 'strip';

/** What {@link sanitizeText} did: the text, secrets found per kind, characters escaped or stripped, notes. */
export interface GateResult {
  readonly text: Sanitized;
  readonly found: Record<string, number>;
  /** Invisible or control characters escaped (or stripped), in code points. */
  readonly invisible: number;
  readonly notes: string[];
  /** The secrets known and found (value → kind), for the job's later texts. Never printed or written. */
  readonly secrets: Map<string, string>;
}

/** Most texts remembered as produced by the gate: 512. */
const REGISTRY_ENTRIES = 512;
/**
 * Most characters remembered in all: 4,000,000 (≈ 8 MB of UTF-16 kept alive in a process that
 * runs for hours, such as the extension host) — a handoff's files, history and briefing
 * section many times over; a text forgotten is only scanned again, never let through.
 */
const REGISTRY_CHARS = 4_000_000;
const registry = new Set<string>();
let registryChars = 0;

function remember(text: string): Sanitized {
  if (text.length > REGISTRY_CHARS) return text as Sanitized;
  if (registry.has(text)) {
    registry.delete(text); // refreshed: moves to the newest end
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

/** Whether `text` was produced by the gate and is still remembered (then it needs no second scan). */
export function isSanitized(text: string): text is Sanitized {
  return text === '' || registry.has(text);
}

/** `\u{1b}`: the visible form of one code point (the form `stalenessReport.ts` uses for paths). */
export function escapeCodePoint(ch: string): string {
  return `\\u{${ch.codePointAt(0)!.toString(16)}}`;
}

/**
 * Applies {@link InvisibleMode} to `text`: the characters `stripInvisible` would remove are
 * escaped (`\u{202e}`) or removed; what it keeps (emoji joiners, flag tags) stays.
 * @returns the text and how many code points were escaped or removed
 */
export function neutralizeInvisible(text: string, mode: InvisibleMode = 'escape'): { text: string; count: number } {
  const stripped = stripInvisible(text);
  if (stripped.removed === 0 || mode === 'strip') return { text: stripped.text, count: stripped.removed };
  // `stripped` is `text` with some code points removed: walk both, escaping what is missing.
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

/** A YAML frontmatter block at the start of a file (docs/DESIGN.md §5): `---`, lines, `---`. */
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---(?=\r?\n|$)/;
/** One frontmatter line: its key or list dash (kept as it is) and its value (scanned). */
const FRONTMATTER_LINE = /^(\s*(?:-\s+)?(?:[A-Za-z0-9_.-]+:(?:\s+|$))?)(.*)$/;

/**
 * The frontmatter, value by value: each value is scanned alone (so a key such as
 * `secret-assignment: 2` in `redactions` is not taken for an assignment), and a value
 * that changed is written as a double-quoted YAML string, so the block still parses.
 * Invisible and control characters are removed there first (a `\u{…}` escape is not
 * valid in a double-quoted YAML string, and a zero-width character must not split a token).
 */
async function sanitizeFrontmatter(block: string, known: KnownSecrets): Promise<{ text: string; found: Record<string, number>; invisible: number; notes: string[]; secrets: Map<string, string> }> {
  const lines = block.split('\n').map((l) => FRONTMATTER_LINE.exec(l) ?? ['', '', l]);
  // Keys are scanned too, alone (a line of a block scalar may look like a key).
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

/**
 * The gate for a text: secrets replaced by `[REDACTED:<kind>]`, then invisible and control
 * characters escaped or stripped ({@link InvisibleMode}). A file's YAML frontmatter is
 * scanned value by value ({@link sanitizeFrontmatter}), the rest as one text; a secret found
 * in either is redacted in both, and so is every secret in `known` (found earlier in the same
 * job). Never throws (`redactSecrets` never does). Idempotent: a sanitized text passes unchanged.
 */
export async function sanitizeText(text: string, mode: InvisibleMode = 'escape', known?: KnownSecrets): Promise<GateResult> {
  if (mode === 'escape' && isSanitized(text) && !(known && recurrences(text, known).length > 0)) return { text, found: {}, invisible: 0, notes: [], secrets: new Map(known ?? []) };
  const fm = FRONTMATTER.exec(text);
  const body = fm ? text.slice(fm[0].length) : text;
  let r = await redactSecrets(mode === 'strip' ? stripInvisible(body).text : body, { known });
  const head = fm ? await sanitizeFrontmatter(fm[1], r.secrets) : undefined;
  let secrets = head?.secrets ?? r.secrets;
  let bodyText = r.text;
  const bodyFound = { ...r.found };
  if (head && head.secrets.size > r.secrets.size) {
    // A secret found in the frontmatter is redacted in the body too.
    const again = redactKnown([bodyText], head.secrets);
    bodyText = again.texts[0];
    for (const [k, c] of Object.entries(again.found)) bodyFound[k] = (bodyFound[k] ?? 0) + c;
  }
  let n = neutralizeInvisible(bodyText, mode);
  let found = bodyFound;
  if (mode === 'escape' && n.count > 0) {
    // A zero-width character can split a token: scan the text without them too, and keep the
    // stripped text when that finds more (a secret found beats an escape kept).
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
  return { text: remember(joined), found, invisible: n.count + (head?.invisible ?? 0), notes: [...(head?.notes ?? []), ...r.notes.filter((x) => !head?.notes.includes(x))], secrets };
}

/**
 * The gate for structured data (a result object, a state file): every string in `value` —
 * keys and values, at any depth — through {@link sanitizeTexts} in one batch; numbers,
 * booleans and null unchanged. JSON text is never redacted as text: a marker replacing
 * an unquoted value would break it.
 */
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

/** `value` as JSON text after {@link sanitizeValue} (a state file's bytes). */
export async function sanitizedJson(value: unknown): Promise<Sanitized> {
  return remember(JSON.stringify(await sanitizeValue(value)));
}

/** {@link sanitizeText} for many texts at once (one batched scan, `redactTexts`; `known` as there); counts over all. */
export async function sanitizeTexts(texts: readonly string[], mode: InvisibleMode = 'escape', known?: KnownSecrets): Promise<{ texts: Sanitized[]; found: Record<string, number>; invisible: number; notes: string[]; secrets: Map<string, string> }> {
  const r = await redactTexts(texts, { known });
  let invisible = 0;
  const out = r.texts.map((t) => {
    const n = neutralizeInvisible(t, mode);
    invisible += n.count;
    return remember(n.text);
  });
  return { texts: out, found: r.found, invisible, notes: r.notes, secrets: r.secrets };
}

/**
 * The gate at a store writer: a text the gate produced passes as it is; anything else (a
 * raw string cast to {@link Sanitized}, a file read back) is sanitized now.
 */
export async function ensureSanitized(text: string): Promise<Sanitized> {
  return isSanitized(text) ? text : (await sanitizeText(text)).text;
}

/**
 * The gate for a file name (one path segment built from user text: a topic slug, a
 * specialist id, a briefing name): secrets become `redacted-<kind>` (no brackets in a
 * name), invisible and control characters are removed. Apply it to the text before it is
 * slugged or lowercased too — a slugged token no longer looks like one. `known`: secrets found
 * earlier in the same job, redacted here too.
 */
export async function sanitizeFileName(name: string, known?: KnownSecrets): Promise<Sanitized> {
  if (isSanitized(name) && !(known && recurrences(name, known).length > 0)) return name;
  const r = await redactSecrets(name, { known });
  const text = stripInvisible(r.text).text.replace(/\[REDACTED:([a-z0-9-]+)\]/g, 'redacted-$1');
  return remember(text);
}

/** Whether `name` passes {@link sanitizeFileName} unchanged. */
export async function isSafeFileName(name: string): Promise<boolean> {
  return (await sanitizeFileName(name)) === name;
}

/**
 * Counts of what a writer's gate passes found after the package was already sanitized,
 * and the one `WARNING:` text saying so (undefined when nothing was found). The secrets a
 * job knows are carried from one file to the next: given at the start (the package's), and
 * added to by every pass.
 */
export class GateTally {
  /** Secrets found per kind by the final pass. */
  readonly found: Record<string, number> = {};
  /** Invisible or control characters escaped by the final pass. */
  invisible = 0;
  /** Notes of the secret scan. */
  readonly notes: string[] = [];
  /** The secrets known (value → kind): the job's, and those the passes found. Never printed or written. */
  readonly secrets: Map<string, string>;

  constructor(known?: KnownSecrets) {
    this.secrets = new Map(known ?? []);
  }

  /** Passes `text` through the gate, counting what it finds. */
  async text(text: string): Promise<Sanitized> {
    const r = await sanitizeText(text, 'escape', this.secrets);
    this.know(r.secrets);
    for (const [k, n] of Object.entries(r.found)) this.found[k] = (this.found[k] ?? 0) + n;
    this.invisible += r.invisible;
    for (const n of r.notes) if (!this.notes.includes(n)) this.notes.push(n);
    return r.text;
  }

  /** Adds `secrets` (value → kind) to those known, without counting anything. */
  know(secrets: KnownSecrets): void {
    for (const [v, k] of secrets) if (!this.secrets.has(v)) this.secrets.set(v, k);
  }

  /** Adds the counts of `other` to these, and what it knows. */
  add(other: GateTally): void {
    this.know(other.secrets);
    for (const [k, n] of Object.entries(other.found)) this.found[k] = (this.found[k] ?? 0) + n;
    this.invisible += other.invisible;
    for (const n of other.notes) if (!this.notes.includes(n)) this.notes.push(n);
  }

  /** `WARNING: …` lines for what the final pass found, or none. */
  warnings(what: string): string[] {
    const out = this.notes.map((n) => `WARNING: ${n}`);
    const secrets = Object.values(this.found).reduce((a, b) => a + b, 0);
    if (secrets > 0) {
      const kinds = Object.entries(this.found).map(([k, n]) => `${k} ×${n}`).join(', ');
      out.push(`WARNING: the final check of ${what} redacted ${secrets} more secret${secrets === 1 ? '' : 's'} (${kinds}) before writing`);
    }
    if (this.invisible > 0) {
      out.push(`WARNING: ${this.invisible} invisible or control character${this.invisible === 1 ? ' was' : 's were'} written in ${what} as visible \\u{…} escapes (in the diff excerpt or a file name)`);
    }
    return out;
  }
}

/** Whether `text` is one JSON object or array (then the output gate sanitizes its values, not its text). */
function parseJson(text: string): { value: unknown } | undefined {
  const t = text.trim();
  if (!((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']')))) return undefined;
  try {
    return { value: JSON.parse(t) };
  } catch {
    return undefined;
  }
}

/**
 * The output gate: what a surface prints or returns (the CLI's stdout and stderr, the MCP
 * tools' results, the language model tool's result and the chat's responses). Secrets
 * redacted, invisible and control characters removed (`strip`: a terminal, JSON or Markdown
 * stays valid). JSON text (`--json`, a tool's structured result) is sanitized value by value
 * ({@link sanitizeValue}) and printed again with the same indentation. Never throws.
 */
export async function sanitizeOutput(text: string): Promise<Sanitized> {
  const json = parseJson(text);
  if (json) {
    const indent = /^[{[]\r?\n( +)/.exec(text.trim())?.[1].length ?? 0;
    return remember(JSON.stringify(await sanitizeValue(json.value, 'strip'), null, indent || undefined));
  }
  return (await sanitizeText(text, 'strip')).text;
}
