/**
 * The gate of a handoff package (docs/DESIGN.md §7 "Nothing leaked"): every free text of it
 * stripped of invisible Unicode and, in one batch, of secrets (`redactTexts`, `redact.ts`) —
 * a secret found in one text is redacted in all of them, and in those the job scans later
 * (`recurrence.ts`). Pure: no I/O.
 */
import type { HandoffPackage } from '../handoff/schema';
import { stripInvisible } from './invisible';
import type { KnownSecrets } from './recurrence';
import { addCounts, redactKnown, redactTexts } from './redact';

/** What {@link sanitizePackage} did, besides the package it returns. */
export interface SanitizeReport {
  /** Secrets redacted by this call, per kind. */
  readonly found: Record<string, number>;
  /** Invisible characters removed by this call. */
  readonly invisible: number;
  /** Notes from the secret scan (a rule that crashed …). */
  readonly notes: string[];
  /** The secrets known and found (value → kind), for the scans of the handoff's other fields and files. Never printed or written. */
  readonly secrets: Map<string, string>;
}

/**
 * The free texts of a package in one fixed order, and the package rebuilt from texts in that
 * order: the summary, the diff excerpt, the reasons, every list item, turn, test command,
 * commit subject and author, session edit, acceptance criterion, evidence note, drafted item,
 * user request, command and its folder.
 */
function packageTexts(p: HandoffPackage): { texts: string[]; rebuild: (t: readonly string[]) => HandoffPackage } {
  const texts: string[] = [];
  const slot = (s: string): number => texts.push(s) - 1;
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
  // A value that must stay non-empty (schema: min(1)) keeps its marker, which is never empty.
  const rebuild = (t: readonly string[]): HandoffPackage => ({
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
  });
  return { texts, rebuild };
}

/**
 * Makes a package safe to write: strips invisible Unicode from every free text (what the
 * user and other agents wrote: summary, decisions, failed approaches, next steps, blockers,
 * artifacts, handover reason, return condition, recent turns, test command lines, commit
 * subjects and authors, session edits, and the drafted lists — completed items, user
 * requests, commands run and their folders) and redacts secrets in those and in the diff
 * excerpt, the acceptance criteria and the evidence notes. The diff excerpt keeps its
 * invisible characters (it is evidence of what is in the repository — a bidi attack in
 * the code must stay visible to the reviewer) but not its secrets.
 *
 * `known`: secrets the job found before (the request's fields), redacted wherever they occur
 * here too. `redactions` and `invisible_stripped` of the returned package add this call's
 * counts to what the package already recorded. Never throws.
 */
export async function sanitizePackage(pkg: HandoffPackage, known?: KnownSecrets): Promise<{ pkg: HandoffPackage; report: SanitizeReport }> {
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
  const { texts, rebuild } = packageTexts(stripped);
  const r = await redactTexts(texts, { known });
  const out: HandoffPackage = {
    ...rebuild(r.texts),
    redactions: addCounts(pkg.redactions ?? {}, r.found),
    invisible_stripped: (pkg.invisible_stripped ?? 0) + invisible,
  };
  return { pkg: out, report: { found: r.found, invisible, notes: r.notes, secrets: r.secrets } };
}

/**
 * The package's free texts with every occurrence of a known secret redacted, the rules not run
 * again: for a package sanitized before a later scan of the same job (its short fields) found
 * more. `redactions` adds what was redacted. Never throws.
 * @returns the package and the secrets redacted (kind → count)
 */
export function redactKnownInPackage(pkg: HandoffPackage, known: KnownSecrets): { pkg: HandoffPackage; found: Record<string, number> } {
  const { texts, rebuild } = packageTexts(pkg);
  const r = redactKnown(texts, known);
  return { pkg: { ...rebuild(r.texts), redactions: addCounts(pkg.redactions ?? {}, r.found) }, found: r.found };
}
