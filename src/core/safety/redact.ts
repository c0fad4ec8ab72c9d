/**
 * "Nothing leaked" (docs/DESIGN.md §7): the redaction of texts and of handoff packages — every
 * text headed for a handoff, a briefing, a history file or a prompt.
 *
 * A text is scanned in bounded chunks by two sets of rules: secretlint's recommended
 * preset (`secretlintRules.ts`) and our own rules for what that preset has no rule for:
 * `ownSecretRules.ts` (JSON Web Tokens, PEM blocks it lets through, secret assignments in
 * any syntax, high-entropy values of secret-suggesting keys), `contextRules.ts`
 * (`Authorization` headers, command-line credentials, URL passwords in any scheme, secret
 * query parameters, XML, SQL, `.netrc` and `.pgpass` lines, keys named in prose) and `providerRules.ts` (every AI provider's key format and the
 * other providers' formats secretlint lacks). Overlapping findings are merged and each is replaced by
 * `[REDACTED:<kind>]` (kinds: `secretKinds.ts`). A package also has invisible Unicode
 * stripped from the texts people and agents wrote (`invisible.ts`). Pure computation: no
 * I/O and no `vscode`.
 */
import { formatCount } from '../handoff/limits';
import type { HandoffPackage } from '../handoff/schema';
import { stripInvisible } from './invisible';
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
 * Never throws: when secretlint cannot load or a rule crashes, our own rules still apply
 * and `notes` says what happened.
 *
 * @returns the redacted text, `found` (kind → count; `{}` when nothing was found) and notes
 */
export async function redactSecrets(text: string, options: RedactOptions = {}): Promise<RedactionResult> {
  const notes: string[] = [];
  try {
    if (!text) return { text, found: {}, notes };
    const input = capped(text, notes);
    const findings = await findSecrets(input, notes, options);
    return { text: applyFindings(input, findings), found: countKinds(findings), notes };
  } catch (err) {
    notes.push(`the secret scan failed (${(err as Error)?.message ?? String(err)}); the text was left as it was`);
    return { text, found: {}, notes };
  }
}

/** What {@link redactTexts} did: the texts in the same order, counts over all of them, notes. */
export interface BatchRedactionResult {
  readonly texts: string[];
  readonly found: Record<string, number>;
  readonly notes: string[];
}

/** Separator between the texts of a batch: a NUL between line breaks, which no rule matches across. */
const BATCH_SEPARATOR = '\n\u0000\n';

/**
 * Redacts many texts at once (list items, turns, test commands): small texts are joined
 * (up to {@link REDACT_CHUNK_CHARS}) and scanned in one pass, so a package costs a few
 * scans rather than one per line; a finding is never allowed to reach across two texts.
 * Texts that are a JSON object are scanned alone (so the GCP service-account rule sees
 * the whole document). Never throws (see {@link redactSecrets}).
 */
export async function redactTexts(texts: readonly string[], options: RedactOptions = {}): Promise<BatchRedactionResult> {
  const out = [...texts];
  const found: Record<string, number> = {};
  const notes: string[] = [];
  const merge = (r: RedactionResult) => {
    for (const [k, n] of Object.entries(r.found)) found[k] = (found[k] ?? 0) + n;
    for (const n of r.notes) if (!notes.includes(n)) notes.push(n);
  };
  let group: number[] = [];
  let groupChars = 0;
  const flush = async () => {
    if (group.length === 0) return;
    const members = group;
    group = [];
    groupChars = 0;
    if (members.length === 1) {
      const r = await redactSecrets(texts[members[0]], options);
      out[members[0]] = r.text;
      merge(r);
      return;
    }
    const batchNotes: string[] = [];
    try {
      const starts: number[] = [];
      let joined = '';
      for (const i of members) {
        if (joined) joined += BATCH_SEPARATOR;
        starts.push(joined.length);
        joined += texts[i];
      }
      const findings = await findSecrets(joined, batchNotes, options);
      const perText: Finding[][] = members.map(() => []);
      for (const f of findings) {
        members.forEach((_, j) => {
          const s = starts[j];
          const e = s + texts[members[j]].length;
          const start = Math.max(f.start, s);
          const end = Math.min(f.end, e);
          if (end > start) perText[j].push({ ...f, start: start - s, end: end - s });
        });
      }
      members.forEach((i, j) => {
        out[i] = applyFindings(texts[i], perText[j]);
        countKinds(perText[j], found);
      });
      for (const n of batchNotes) if (!notes.includes(n)) notes.push(n);
    } catch (err) {
      notes.push(`the secret scan failed (${(err as Error)?.message ?? String(err)}); the texts were left as they were`);
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
  return { texts: out, found, notes };
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

/** What {@link sanitizePackage} did, besides the package it returns. */
export interface SanitizeReport {
  /** Secrets redacted by this call, per kind. */
  readonly found: Record<string, number>;
  /** Invisible characters removed by this call. */
  readonly invisible: number;
  /** Notes from the secret scan (a rule that crashed …). */
  readonly notes: string[];
}

/**
 * Makes a package safe to write: strips invisible Unicode from every free text (what the
 * user and other agents wrote: summary, decisions, failed approaches, next steps, blockers,
 * artifacts, handover reason, return condition, recent turns, test command lines, commit
 * subjects and authors, session edits, and the drafted lists of issue 15 — completed items,
 * user requests, commands run and their folders) and redacts secrets in those and in the diff
 * excerpt, the acceptance criteria and the evidence notes. The diff excerpt keeps its
 * invisible characters (it is evidence of what is in the repository — a bidi attack in
 * the code must stay visible to the reviewer) but not its secrets.
 *
 * `redactions` and `invisible_stripped` of the returned package add this call's counts
 * to what the package already recorded. Never throws.
 */
export async function sanitizePackage(pkg: HandoffPackage): Promise<{ pkg: HandoffPackage; report: SanitizeReport }> {
  let invisible = 0;
  const strip = (s: string): string => {
    const r = stripInvisible(s);
    invisible += r.removed;
    return r.text;
  };
  // 1. Invisible characters, in the texts people and agents wrote.
  const stripped: HandoffPackage = {
    ...pkg,
    summary: strip(pkg.summary),
    decisions: pkg.decisions.map((d) => ({ ...d, text: strip(d.text) })),
    failed_approaches: pkg.failed_approaches.map(strip),
    next_steps: pkg.next_steps.map(strip),
    blockers: pkg.blockers.map(strip),
    artifacts: pkg.artifacts.map(strip),
    handover_reason: strip(pkg.handover_reason),
    return_condition: strip(pkg.return_condition),
    recent_turns: pkg.recent_turns.map((t) => ({ ...t, text: strip(t.text) })),
    tests_run: pkg.tests_run.map((t) => ({ ...t, command: strip(t.command) })),
    commits: pkg.commits.map((c) => ({ ...c, subject: strip(c.subject), author: strip(c.author) })),
    session_edits: pkg.session_edits.map((e) => ({ ...e, path: strip(e.path) })),
    acceptance: pkg.acceptance.map((a) => ({ ...a, criterion: strip(a.criterion) })),
    completed: pkg.completed.map(strip),
    compaction: pkg.compaction && { ...pkg.compaction, text: strip(pkg.compaction.text) },
    user_requests: pkg.user_requests.map((u) => ({ ...u, text: strip(u.text) })),
    commands_run: pkg.commands_run.map((c) => ({ ...c, command: strip(c.command), cwd: c.cwd === null ? null : strip(c.cwd) })),
  };
  // 2. Secrets: every text in one batch (the summary and the diff alone, they are large).
  const texts: string[] = [];
  const slot = (s: string): number => texts.push(s) - 1;
  const p = stripped;
  const idx = {
    summary: slot(p.summary),
    diff: p.diff_excerpt === null ? -1 : slot(p.diff_excerpt),
    handover_reason: slot(p.handover_reason),
    return_condition: slot(p.return_condition),
    decisions: p.decisions.map((d) => slot(d.text)),
    failed_approaches: p.failed_approaches.map(slot),
    next_steps: p.next_steps.map(slot),
    blockers: p.blockers.map(slot),
    artifacts: p.artifacts.map(slot),
    turns: p.recent_turns.map((t) => slot(t.text)),
    tests: p.tests_run.map((t) => slot(t.command)),
    commits: p.commits.map((c) => [slot(c.subject), slot(c.author)] as const),
    edits: p.session_edits.map((e) => slot(e.path)),
    acceptance: p.acceptance.map((a) => slot(a.criterion)),
    notes: p.evidence_notes.map(slot),
    completed: p.completed.map(slot),
    compaction: p.compaction ? slot(p.compaction.text) : -1,
    requests: p.user_requests.map((u) => slot(u.text)),
    commands: p.commands_run.map((c) => [slot(c.command), c.cwd === null ? -1 : slot(c.cwd)] as const),
  };
  const r = await redactTexts(texts);
  const t = r.texts;
  // A value that must stay non-empty (schema: min(1)) keeps its marker, which is never empty.
  const out: HandoffPackage = {
    ...p,
    summary: t[idx.summary],
    diff_excerpt: idx.diff < 0 ? null : t[idx.diff],
    handover_reason: t[idx.handover_reason],
    return_condition: t[idx.return_condition],
    decisions: p.decisions.map((d, i) => ({ ...d, text: t[idx.decisions[i]] })),
    failed_approaches: idx.failed_approaches.map((i) => t[i]),
    next_steps: idx.next_steps.map((i) => t[i]),
    blockers: idx.blockers.map((i) => t[i]),
    artifacts: idx.artifacts.map((i) => t[i]),
    recent_turns: p.recent_turns.map((turn, i) => ({ ...turn, text: t[idx.turns[i]] })),
    tests_run: p.tests_run.map((run, i) => ({ ...run, command: t[idx.tests[i]] })),
    commits: p.commits.map((c, i) => ({ ...c, subject: t[idx.commits[i][0]], author: t[idx.commits[i][1]] })),
    session_edits: p.session_edits.map((e, i) => ({ ...e, path: t[idx.edits[i]] })),
    acceptance: p.acceptance.map((a, i) => ({ ...a, criterion: t[idx.acceptance[i]] })),
    evidence_notes: idx.notes.map((i) => t[i]),
    completed: idx.completed.map((i) => t[i]),
    compaction: p.compaction && { ...p.compaction, text: t[idx.compaction] },
    user_requests: p.user_requests.map((u, i) => ({ ...u, text: t[idx.requests[i]] })),
    commands_run: p.commands_run.map((c, i) => ({ ...c, command: t[idx.commands[i][0]], cwd: idx.commands[i][1] < 0 ? null : t[idx.commands[i][1]] })),
    redactions: addCounts(pkg.redactions ?? {}, r.found),
    invisible_stripped: (pkg.invisible_stripped ?? 0) + invisible,
  };
  return { pkg: out, report: { found: r.found, invisible, notes: r.notes } };
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