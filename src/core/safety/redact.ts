/**
 * "Nothing leaked" (docs/DESIGN.md §7): the redaction of texts — every text headed for a
 * handoff, a briefing, a history file or a prompt (a whole package: `packageGate.ts`).
 *
 * A text is scanned in bounded chunks by two sets of rules: secretlint's recommended
 * preset (`secretlintRules.ts`) and our own rules for what that preset has no rule for:
 * `ownSecretRules.ts` (JSON Web Tokens, PEM blocks it lets through, secret assignments in
 * any syntax, high-entropy values of secret-suggesting keys), `contextRules.ts`
 * (`Authorization` headers, command-line credentials, URL passwords in any scheme, secret
 * query parameters, XML, SQL, `.netrc` and `.pgpass` lines, keys named in prose) and `providerRules.ts` (every AI provider's key format and the
 * other providers' formats secretlint lacks). Overlapping findings are merged and each is replaced by
 * `[REDACTED:<kind>]` (kinds: `secretKinds.ts`). A value found once is redacted wherever it
 * recurs, in the same text, in the other texts of a batch and, through `known`, in the texts
 * of the same job scanned later (`recurrence.ts`). Pure computation: no I/O and no `vscode`.
 */
import { formatCount } from '../handoff/limits';
import {
  findAuthorizationHeaders,
  findCliCredentials,
  findNetrcPasswords,
  findPgpassPasswords,
  findProseSecrets,
  findSqlPasswords,
  findUrlSecrets,
  findXmlSecrets,
} from './contextRules';
import { findGcpKeyIds, findJwts, findPemBlocks, findSecretAssignments } from './ownSecretRules';
import { findProviderTokens } from './providerRules';
import { collectValues, recurrences, type KnownSecrets } from './recurrence';
import { redactionMarker, type Finding } from './secretKinds';
import { secretlintFindings, type SecretlintRuleEntry } from './secretlintRules';

/** Options of {@link redactSecrets} and {@link redactTexts}. */
export interface RedactOptions {
  /**
   * More secretlint rules to run with the preset's (a project's own rules). Their message
   * ids name their kinds through `kindForMessageId` (`secretKinds.ts`). The tests pass one that throws,
   * to prove a crashing rule never breaks a handoff.
   */
  readonly extraRules?: readonly SecretlintRuleEntry[];
  /**
   * Secrets found by earlier scans of the same job (value → kind: `secrets` of their results):
   * every occurrence of each is redacted here too (`recurrence.ts`), so a key found in one
   * field of a handoff is redacted in all of them.
   */
  readonly known?: KnownSecrets;
}

/** Characters scanned at a time: 65,536. Larger texts are scanned in overlapping chunks. */
export const REDACT_CHUNK_CHARS = 65_536;
/**
 * Overlap of consecutive chunks: 16,384 characters, more than the longest secret any rule
 * matches (a PEM block ≤ ~10,100, a GitHub app installation token ≤ ~12,030), so every
 * secret lies whole inside at least one chunk.
 */
export const REDACT_CHUNK_OVERLAP = 16_384;
/**
 * Longest text scanned: 2,000,000 characters (twice the largest request, docs/DESIGN.md §4 limits).
 * Beyond it the text is cut, with a marker, rather than passed on unscanned.
 */
export const MAX_REDACT_CHARS = 2_000_000;

/**
 * What redaction did: the text with every finding replaced by `[REDACTED:<kind>]`, the
 * count of findings per kind, and notes (a rule that crashed, a text cut at the cap).
 */
export interface RedactionResult {
  readonly text: string;
  readonly found: Record<string, number>;
  readonly notes: string[];
  /** The secrets known and found (value → kind), to pass on as `known` to the scans of the job's other texts. Never printed or written. */
  readonly secrets: Map<string, string>;
}

/** Yields to the event loop between chunks, so a long scan never blocks the host for long. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether a text is shaped like a JSON object (`{` … `}`): then it is also scanned as a `.json` file. */
function looksLikeJsonObject(text: string): boolean {
  const t = text.trim();
  return t.startsWith('{') && t.endsWith('}');
}

/**
 * Our own rules on one chunk, in the order that names a finding when two of ours cover the
 * same range with the same priority: JWTs, URL parts (a query parameter is named as one),
 * then assignments (the key stays readable, so a key's kind says which variable to rotate),
 * XML, SQL, command lines, `.netrc` / `.pgpass` lines, keys named in prose, `Authorization` headers, PEM blocks, then provider tokens
 * (`providerRules.ts`).
 */
function ownFindings(chunk: string): Finding[] {
  return [
    ...findJwts(chunk),
    ...findUrlSecrets(chunk),
    ...findSecretAssignments(chunk),
    ...findXmlSecrets(chunk),
    ...findSqlPasswords(chunk),
    ...findCliCredentials(chunk),
    ...findNetrcPasswords(chunk),
    ...findPgpassPasswords(chunk),
    ...findProseSecrets(chunk),
    ...findAuthorizationHeaders(chunk),
    ...findGcpKeyIds(chunk),
    ...findPemBlocks(chunk),
    ...findProviderTokens(chunk),
  ];
}

/** Finds every secret in `text` (any length), chunked; merged and sorted, never overlapping. */
async function findSecrets(text: string, notes: string[], options: RedactOptions): Promise<Finding[]> {
  const findings: Finding[] = [];
  const json = text.length <= REDACT_CHUNK_CHARS && looksLikeJsonObject(text);
  const step = REDACT_CHUNK_CHARS - REDACT_CHUNK_OVERLAP;
  let crashed = false;
  for (let offset = 0; offset < text.length; offset += step) {
    if (offset > 0) await yieldToLoop();
    const chunk = text.slice(offset, offset + REDACT_CHUNK_CHARS);
    const ours = ownFindings(chunk);
    let theirs: Finding[] = [];
    try {
      theirs = await secretlintFindings(chunk, json, options.extraRules, notes);
    } catch (err) {
      // secretlint itself could not load or run: our own rules still apply.
      if (!crashed) notes.push(`the secretlint scan failed (${(err as Error)?.message ?? String(err)}); only our own rules (JWT, PEM blocks, assignments, command lines, URLs, provider tokens) were applied to that text`);
      crashed = true;
    }
    for (const f of [...theirs, ...ours]) findings.push({ ...f, start: f.start + offset, end: f.end + offset });
    if (offset + REDACT_CHUNK_CHARS >= text.length) break;
  }
  return mergeFindings(findings);
}

/**
 * Merges overlapping findings into one each (the union of their ranges), named after the
 * most specific (lowest `priority`; the earliest, then the longest, among equals).
 */
function mergeFindings(findings: Finding[]): Finding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || a.priority - b.priority || b.end - a.end);
  const out: Finding[] = [];
  for (const f of sorted) {
    const last = out[out.length - 1];
    if (last && f.start < last.end) {
      last.end = Math.max(last.end, f.end);
      if (f.priority < last.priority) {
        last.kind = f.kind;
        last.priority = f.priority;
      }
    } else {
      out.push({ ...f });
    }
  }
  return out;
}

function applyFindings(text: string, findings: readonly Finding[]): string {
  if (findings.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const f of findings) {
    parts.push(text.slice(at, f.start), redactionMarker(f.kind));
    at = f.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

function countKinds(findings: readonly Finding[], into: Record<string, number> = {}): Record<string, number> {
  for (const f of findings) into[f.kind] = (into[f.kind] ?? 0) + 1;
  return into;
}

function capped(text: string, notes: string[]): string {
  if (text.length <= MAX_REDACT_CHARS) return text;
  notes.push(`a text of ${formatCount(text.length)} characters was cut to ${formatCount(MAX_REDACT_CHARS)} before the secret scan`);
  return `${text.slice(0, MAX_REDACT_CHARS)}\n[… ${formatCount(text.length - MAX_REDACT_CHARS)} characters cut before the secret scan …]`;
}

/**
 * Replaces every secret in `text` with `[REDACTED:<kind>]` (kinds: `SECRET_KINDS`, `secretKinds.ts`).
 *
 * Bounded: texts are scanned in chunks of {@link REDACT_CHUNK_CHARS} overlapping by
 * {@link REDACT_CHUNK_OVERLAP}, yielding to the event loop between chunks; every rule is
 * a linear-time regular expression with bounded quantifiers; texts over
 * {@link MAX_REDACT_CHARS} are cut (with a marker and a note), never passed on unscanned.
 * Measured (test/unit/core/safety/redact.test.ts): a 40,000-character diff in tens of milliseconds.
 *
 * Every occurrence of a value found (or of one in `options.known`) is redacted too, and the
 * head of one a cut ends (`recurrence.ts`).
 *
 * Never throws: when secretlint cannot load or a rule crashes, our own rules still apply
 * and `notes` says what happened.
 *
 * @returns the redacted text, `found` (kind → count; `{}` when nothing was found), notes and
 *   `secrets` (the known values and those found here)
 */
export async function redactSecrets(text: string, options: RedactOptions = {}): Promise<RedactionResult> {
  const notes: string[] = [];
  const secrets = new Map(options.known ?? []);
  try {
    if (!text) return { text, found: {}, notes, secrets };
    const input = capped(text, notes);
    const findings = await findSecrets(input, notes, options);
    collectValues(input, findings, secrets);
    const all = mergeFindings([...findings, ...recurrences(input, secrets)]);
    return { text: applyFindings(input, all), found: countKinds(all), notes, secrets };
  } catch (err) {
    notes.push(`the secret scan failed (${(err as Error)?.message ?? String(err)}); the text was left as it was`);
    const known = redactKnown([text], secrets);
    return { text: known.texts[0], found: known.found, notes, secrets };
  }
}

/** What {@link redactTexts} did: the texts in the same order, counts over all of them, notes, the secrets known and found. */
export interface BatchRedactionResult {
  readonly texts: string[];
  readonly found: Record<string, number>;
  readonly notes: string[];
  /** See {@link RedactionResult.secrets}. */
  readonly secrets: Map<string, string>;
}

/** Separator between the texts of a batch: a NUL between line breaks, which no rule matches across. */
const BATCH_SEPARATOR = '\n\u0000\n';

/**
 * Redacts many texts at once (list items, turns, test commands): small texts are joined
 * (up to {@link REDACT_CHUNK_CHARS}) and scanned in one pass, so a package costs a few
 * scans rather than one per line; a finding is never allowed to reach across two texts.
 * Texts that are a JSON object are scanned alone (so the GCP service-account rule sees
 * the whole document). A value found in any of the texts (or in `options.known`) is redacted
 * wherever it occurs in all of them (`recurrence.ts`). Never throws (see {@link redactSecrets}).
 */
export async function redactTexts(texts: readonly string[], options: RedactOptions = {}): Promise<BatchRedactionResult> {
  const out = [...texts];
  const found: Record<string, number> = {};
  const notes: string[] = [];
  const secrets = new Map(options.known ?? []);
  const addNotes = (ns: readonly string[]) => {
    for (const n of ns) if (!notes.includes(n)) notes.push(n);
  };
  // 1. The rules' findings, text by text (small texts scanned together); 2. every value found
  // in any of them, and every known one, wherever it occurs in all of them; 3. the markers.
  const perText: Array<Finding[] | undefined> = texts.map(() => undefined);
  const scanned = [...texts];
  let group: number[] = [];
  let groupChars = 0;
  const flush = async () => {
    if (group.length === 0) return;
    const members = group;
    group = [];
    groupChars = 0;
    const batchNotes: string[] = [];
    try {
      if (members.length === 1) {
        const i = members[0];
        scanned[i] = capped(texts[i], batchNotes);
        perText[i] = await findSecrets(scanned[i], batchNotes, options);
        return;
      }
      const starts: number[] = [];
      let joined = '';
      for (const i of members) {
        if (joined) joined += BATCH_SEPARATOR;
        starts.push(joined.length);
        joined += texts[i];
      }
      const findings = await findSecrets(joined, batchNotes, options);
      for (const i of members) perText[i] = [];
      for (const f of findings) {
        members.forEach((i, j) => {
          const s = starts[j];
          const start = Math.max(f.start, s);
          const end = Math.min(f.end, s + texts[i].length);
          if (end > start) perText[i]?.push({ ...f, start: start - s, end: end - s });
        });
      }
    } catch (err) {
      batchNotes.push(`the secret scan failed (${(err as Error)?.message ?? String(err)}); ${members.length === 1 ? 'the text was' : 'the texts were'} left as ${members.length === 1 ? 'it was' : 'they were'}`);
    } finally {
      addNotes(batchNotes);
    }
  };
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i];
    if (!t) continue;
    const alone = t.length > REDACT_CHUNK_CHARS / 2 || looksLikeJsonObject(t);
    if (alone) {
      await flush();
      group = [i];
      await flush();
      continue;
    }
    if (groupChars + t.length + BATCH_SEPARATOR.length > REDACT_CHUNK_CHARS) await flush();
    group.push(i);
    groupChars += t.length + BATCH_SEPARATOR.length;
  }
  await flush();
  perText.forEach((f, i) => f && collectValues(scanned[i], f, secrets));
  perText.forEach((f, i) => {
    if (!scanned[i] || (!f && secrets.size === 0)) return; // empty, or its scan failed with nothing known: as it was
    const all = mergeFindings([...(f ?? []), ...recurrences(scanned[i], secrets)]);
    out[i] = applyFindings(scanned[i], all);
    countKinds(all, found);
  });
  return { texts: out, found, notes, secrets };
}

/**
 * Redacts only the occurrences of values already known (and the heads a cut ends), without
 * running the rules: for texts scanned before a later scan of the same job found more
 * (`recurrence.ts`). Linear in the texts for each value. Never throws.
 */
export function redactKnown(texts: readonly string[], known: KnownSecrets): { texts: string[]; found: Record<string, number> } {
  const found: Record<string, number> = {};
  if (known.size === 0) return { texts: [...texts], found };
  const out = texts.map((t) => {
    const f = mergeFindings(recurrences(t, known));
    countKinds(f, found);
    return applyFindings(t, f);
  });
  return { texts: out, found };
}

/** Adds counts of `b` into a copy of `a` (kind → count). */
export function addCounts(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = { ...a };
  for (const [k, n] of Object.entries(b)) out[k] = (out[k] ?? 0) + n;
  return out;
}

/** Total findings of a `redactions` record. */
export function totalRedactions(found: Readonly<Record<string, number>>): number {
  return Object.values(found).reduce((n, c) => n + c, 0);
}

/**
 * One line saying what was redacted and stripped, or undefined when nothing was:
 * `3 secrets redacted (github-token ×2, jwt ×1); 5 invisible characters removed from text other agents wrote`.
 */
export function describeSanitizing(found: Readonly<Record<string, number>>, invisible: number): string | undefined {
  const parts: string[] = [];
  const total = totalRedactions(found);
  if (total > 0) {
    const kinds = Object.entries(found)
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([k, n]) => `${k} ×${n}`)
      .join(', ');
    parts.push(`${total} secret${total === 1 ? '' : 's'} redacted (${kinds})`);
  }
  if (invisible > 0) {
    parts.push(`${invisible} invisible character${invisible === 1 ? '' : 's'} removed from text other agents wrote`);
  }
  return parts.length ? parts.join('; ') : undefined;
}