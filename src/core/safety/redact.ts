/** Redaction of every text bound for a handoff, a briefing, a history file or a prompt: secretlint's preset plus our own rules. */
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

export interface RedactOptions {
  /** More secretlint rules to run with the preset's; their message ids name their kinds through `kindForMessageId`. */
  readonly extraRules?: readonly SecretlintRuleEntry[];
  /** Secrets found by earlier scans of the same job (value → kind), redacted wherever they occur here too. */
  readonly known?: KnownSecrets;
}

export const REDACT_CHUNK_CHARS = 65_536;
/** Longer than the longest secret any rule matches, so every secret lies whole inside some chunk. */
export const REDACT_CHUNK_OVERLAP = 16_384;
/** Longer texts are cut, with a marker, rather than passed on unscanned. */
export const MAX_REDACT_CHARS = 2_000_000;

export interface RedactionResult {
  readonly text: string;
  readonly found: Record<string, number>;
  readonly notes: string[];
  /** value → kind, to pass on as `known` to the scans of the job's other texts. Never printed or written. */
  readonly secrets: Map<string, string>;
}

/** Between chunks, so a long scan never blocks the host for long. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Such a text is also scanned as a `.json` file. */
function looksLikeJsonObject(text: string): boolean {
  const t = text.trim();
  return t.startsWith('{') && t.endsWith('}');
}

/** The order names a finding when two of ours cover the same range with the same priority. */
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
      // Our own rules still apply.
      if (!crashed)
        notes.push(
          `the secretlint scan failed (${(err as Error)?.message ?? String(err)}); only our own rules (JWT, PEM blocks, assignments, command lines, URLs, provider tokens) were applied to that text`,
        );
      crashed = true;
    }
    for (const f of [...theirs, ...ours]) findings.push({ ...f, start: f.start + offset, end: f.end + offset });
    if (offset + REDACT_CHUNK_CHARS >= text.length) break;
  }
  return mergeFindings(findings);
}

/** Overlapping findings become one, named after the lowest `priority`, then the earliest, then the longest. */
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
 * Every occurrence of a value found or in `options.known` is redacted too, and the head of one a cut ends. Never throws:
 * if secretlint cannot load or a rule crashes, our own rules still apply and `notes` says so.
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

export interface BatchRedactionResult {
  readonly texts: string[];
  readonly found: Record<string, number>;
  readonly notes: string[];
  readonly secrets: Map<string, string>;
}

/** A NUL between line breaks, which no rule matches across. */
const BATCH_SEPARATOR = '\n\u0000\n';

/** Small texts are joined into one scan (a finding never spans two); a JSON object is scanned alone, for the GCP rule. Never throws. */
export async function redactTexts(texts: readonly string[], options: RedactOptions = {}): Promise<BatchRedactionResult> {
  const out = [...texts];
  const found: Record<string, number> = {};
  const notes: string[] = [];
  const secrets = new Map(options.known ?? []);
  const addNotes = (ns: readonly string[]) => {
    for (const n of ns) if (!notes.includes(n)) notes.push(n);
  };
  // 1. The rules' findings per text; 2. every value found or known, wherever it occurs in any text; 3. the markers.
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
      batchNotes.push(
        `the secret scan failed (${(err as Error)?.message ?? String(err)}); ${members.length === 1 ? 'the text was' : 'the texts were'} left as ${members.length === 1 ? 'it was' : 'they were'}`,
      );
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

/** Known values only (and the heads a cut ends), without the rules: for texts scanned before a later scan found more. Never throws. */
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

export function addCounts(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = { ...a };
  for (const [k, n] of Object.entries(b)) out[k] = (out[k] ?? 0) + n;
  return out;
}

export function totalRedactions(found: Readonly<Record<string, number>>): number {
  return Object.values(found).reduce((n, c) => n + c, 0);
}

/** `3 secrets redacted (github-token ×2, jwt ×1); 5 invisible characters removed from text other agents wrote`, or undefined when nothing was. */
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
