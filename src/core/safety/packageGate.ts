/** Strips invisible Unicode from a handoff package and redacts its secrets, all texts in one batch. */
import type { HandoffPackage } from '../handoff/schema';
import { stripInvisible } from './invisible';
import type { KnownSecrets } from './recurrence';
import { addCounts, redactKnown, redactTexts } from './redact';

export interface SanitizeReport {
  readonly found: Record<string, number>;
  readonly invisible: number;
  readonly notes: string[];
  /** value → kind, for scanning the handoff's other fields and files. Never printed or written. */
  readonly secrets: Map<string, string>;
}

/** The package's free texts in a fixed order, and the package rebuilt from texts in that order. */
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
 * Redacts every free text, and strips invisible Unicode from all but the diff excerpt, where a bidi attack in the code
 * must stay visible to the reviewer. The counts add to those the package recorded. Never throws.
 */
export async function sanitizePackage(pkg: HandoffPackage, known?: KnownSecrets): Promise<{ pkg: HandoffPackage; report: SanitizeReport }> {
  let invisible = 0;
  const strip = (s: string): string => {
    const r = stripInvisible(s);
    invisible += r.removed;
    return r.text;
  };
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
  // One batch, so a secret found in one text is redacted in all of them.
  const { texts, rebuild } = packageTexts(stripped);
  const r = await redactTexts(texts, { known });
  const out: HandoffPackage = {
    ...rebuild(r.texts),
    redactions: addCounts(pkg.redactions ?? {}, r.found),
    invisible_stripped: (pkg.invisible_stripped ?? 0) + invisible,
  };
  return { pkg: out, report: { found: r.found, invisible, notes: r.notes, secrets: r.secrets } };
}

/** Redacts the known secrets again without the rules, for a package sanitized before a later scan of the job found more. Never throws. */
export function redactKnownInPackage(pkg: HandoffPackage, known: KnownSecrets): { pkg: HandoffPackage; found: Record<string, number> } {
  const { texts, rebuild } = packageTexts(pkg);
  const r = redactKnown(texts, known);
  return { pkg: { ...rebuild(r.texts), redactions: addCounts(pkg.redactions ?? {}, r.found) }, found: r.found };
}
