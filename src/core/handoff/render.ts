/**
 * Markdown of handoff files and briefing sections; parse.ts reads them back. The {@link HANDOFF_SECTIONS} are always present,
 * in order, an empty one saying `_None._`, so every reader sees the same structure; Acceptance (a result) and Compaction
 * summary appear only when they have something.
 */
import { briefingClaimsLines, countClaims, renderClaims } from './claimsSection';
import { codeSpan } from './codeSpan';
import { renderCompaction } from './compactionSection';
import { formatCount } from './limits';
import { plural } from './text';
import { quoteBlock, renderCommandsRun, renderDone, renderUserRequests } from './draftSections';
import { renderFrontmatter } from './frontmatter';
import { describeGitOperation } from './gitOperation';
import { structureSafeProse } from './prose';
import { renderTouchedFiles } from './touchedList';
import { groupTestRuns } from './testRuns';
import { describeSanitizing } from '../safety/redact';
import type { Commit, Dropped, HandoffFrontmatter, HandoffPackage, HandoffStatus, TestRun, Turn } from './schema';
import type { Specialist } from '../specialists/registry';

/** In order. */
export const HANDOFF_SECTIONS = [
  'Summary',
  'Claims',
  'User requests',
  'Decisions',
  'Failed approaches',
  'Done',
  'Touched files',
  'Tests run',
  'Commands run',
  'Next steps',
  'Blockers',
  'Recent turns',
  'Artifacts',
  'Return condition',
] as const;

/** `id`: the file-name stem. */
export interface HandoffMeta {
  readonly id: string;
  readonly created: string;
  readonly status: HandoffStatus;
  /** Relative to the handoff root, e.g. `briefings/quality-reviewer-x-2026-11-30.md`. */
  readonly briefingFile: string | null;
  /** Relative to the handoff root; set when something was cut. */
  readonly historyFile: string | null;
}

const NONE = '_None._';

function bulletList(items: readonly string[]): string {
  if (items.length === 0) {
    return NONE;
  }
  return items.map((item) => `- ${indentContinuation(item)}`).join('\n');
}

function numberedList(items: readonly string[]): string {
  if (items.length === 0) {
    return NONE;
  }
  return items.map((item, i) => `${i + 1}. ${indentContinuation(item)}`).join('\n');
}

function indentContinuation(text: string): string {
  return text.trim().replace(/\r\n|\r|\n/g, '\n  ');
}

/** Return conditions that are codes rather than prose, in words (the code kept in parentheses). */
const RETURN_CONDITION_WORDS: Record<string, string> = {
  user_request: 'Hand back when the user asks for it (`user_request`).',
};

export function describeReturnCondition(condition: string): string {
  return RETURN_CONDITION_WORDS[condition.trim()] ?? condition.trim();
}

export { renderTouchedFile } from './touchedList';

function renderCommit(c: Commit): string {
  return `- ${codeSpan(c.sha.slice(0, 10))} ${c.subject.replace(/\s+/g, ' ').trim()} — ${c.author}, ${c.date.slice(0, 10)}`;
}

const RESULT_MARK: Record<TestRun['result'], string> = { passed: '✅ passed', failed: '❌ failed', unknown: '❔ unknown' };

/** Read back by `parseTestsRun` (draftSections.ts); `group`: the runs a grouped line stands for. */
export function renderTestRun(t: TestRun, group?: { runs: number; failed: number }): string {
  const details: string[] = [
    t.exit_code === null
      ? t.basis === 'output'
        ? 'no exit code: result read from the output'
        : t.basis === 'claim'
          ? "no exit code: the agent's claim"
          : 'exit code unknown'
      : `exit ${t.exit_code}`,
  ];
  if (t.cwd && t.cwd !== '.') details.push(`in ${codeSpan(t.cwd)}`);
  if (group && group.runs > 1) details.push(`×${group.runs}${group.failed ? `, ${group.failed} failed` : ''}`);
  if (t.counts) {
    const parts = (['passed', 'failed', 'skipped'] as const).filter((k) => t.counts?.[k] !== undefined).map((k) => `${t.counts?.[k]} ${k}`);
    if (parts.length) {
      details.push(parts.join(', '));
    }
  }
  details.push(`source: ${t.source}`);
  return `- ${RESULT_MARK[t.result]} ${codeSpan(t.command)} (${details.join('; ')})`;
}

function renderTurn(t: Turn): string {
  const when = t.time ? ` (${t.time})` : '';
  return `**${t.role}**${when}:\n\n${quote(t.text)}`;
}

/** A turn's text quoted (every line, a lone CR too, starts with `>`: it cannot add a heading). */
const quote = quoteBlock;

/** `_3 older turns were cut to fit the token budget (120 tokens)._` */
function droppedNote(dropped: readonly Dropped[], section: Dropped['section'], one: string, many: string): string {
  const d = dropped.find((x) => x.section === section);
  return d && d.count > 0 ? `\n\n_${plural(d.count, one, many)} cut to fit the token budget (${plural(d.tokens, 'token')})._` : '';
}

function diffFence(diff: string): string {
  // A line indented by at most three spaces that starts with ``` would close the fence (CommonMark).
  const runs = diff.match(/^ {0,3}`{3,}/gm) ?? [];
  return '`'.repeat(Math.max(3, ...runs.map((r) => r.trim().length + 1)));
}

export function handoffFrontmatter(pkg: HandoffPackage, meta: HandoffMeta): HandoffFrontmatter {
  const root = pkg.correlation_id ?? meta.id;
  return {
    schema: 1,
    id: meta.id,
    created: meta.created,
    from: pkg.from,
    to: pkg.to ?? pkg.specialist,
    status: meta.status,
    kind: pkg.kind,
    status_history: [],
    acceptance: pkg.acceptance.map((a) => ({ ...a })),
    specialist: pkg.specialist,
    topic: pkg.topic,
    topic_title: pkg.topic_title,
    return_condition: pkg.return_condition,
    handover_reason: pkg.handover_reason,
    reason_kind: pkg.reason_kind,
    correlation_id: root,
    root_id: root,
    parent_id: pkg.parent_id,
    hop: pkg.hop,
    chain: [...pkg.chain],
    hop_guard: pkg.hop_guard ? { ...pkg.hop_guard, reasons: [...pkg.hop_guard.reasons] } : null,
    session_id: pkg.session_id,
    base_commit: pkg.base_commit,
    head_commit: pkg.head_commit,
    branch: pkg.branch,
    detached: pkg.detached,
    upstream: pkg.upstream,
    ahead: pkg.ahead,
    behind: pkg.behind,
    diff_hash: pkg.diff_hash,
    git_operation: pkg.git_operation ? { ...pkg.git_operation } : null,
    max_context_tokens: pkg.max_context_tokens,
    estimated_tokens: pkg.estimated_tokens,
    tokens_estimated: pkg.tokens_estimated,
    tokenizer: pkg.tokenizer,
    oversize_warning: pkg.oversize_warning,
    dropped: pkg.dropped.map((d) => ({ ...d })),
    redactions: { ...pkg.redactions },
    invisible_stripped: pkg.invisible_stripped,
    touched_files_count: pkg.touched_files.length + pkg.touched_files_omitted,
    tests_run_count: pkg.tests_run.length + pkg.tests_run_omitted,
    tests_failed_count: pkg.tests_run.filter((t) => t.result === 'failed').length,
    completed_count: pkg.completed.length,
    user_requests_count: pkg.user_requests.length + pkg.user_requests_omitted,
    commands_run_count: pkg.commands_run.length + pkg.commands_run_omitted,
    claims: countClaims(pkg.claims),
    user_requests_omitted: pkg.user_requests_omitted,
    commands_run_omitted: pkg.commands_run_omitted,
    left_out: { ...pkg.left_out },
    drafted: [...pkg.drafted],
    session_sources: pkg.session_sources.map((x) => ({ ...x })),
    briefing_file: meta.briefingFile,
    history_file: meta.historyFile,
  };
}

export function renderHandoff(pkg: HandoffPackage, meta: HandoffMeta, specialist: Specialist): string {
  return `${renderHandoffFrontmatter(pkg, meta)}${renderHandoffBody(pkg, meta, specialist)}`;
}

function renderHandoffFrontmatter(pkg: HandoffPackage, meta: HandoffMeta): string {
  const data: Record<string, unknown> = { ...handoffFrontmatter(pkg, meta) };
  // Written only when they say something: a new handoff has no status history yet.
  for (const key of ['status_history', 'acceptance'] as const) {
    if (Array.isArray(data[key]) && (data[key] as unknown[]).length === 0) delete data[key];
  }
  if (data.git_operation === null) delete data.git_operation;
  // The drafted fields' counts only when they say something: files without them read as 0, [] and an empty report.
  for (const key of [
    'tests_failed_count',
    'completed_count',
    'user_requests_count',
    'commands_run_count',
    'user_requests_omitted',
    'commands_run_omitted',
  ] as const) {
    if (data[key] === 0) delete data[key];
  }
  if (Array.isArray(data.drafted) && data.drafted.length === 0) delete data.drafted;
  if (Object.values(pkg.left_out).every((n) => n === 0)) delete data.left_out;
  if (pkg.claims.length === 0) delete data.claims; // read back as zeros
  return `${renderFrontmatter(data)}\n`;
}

/** What the receiving prompt carries and what the token budget counts; the frontmatter is metadata for tools. */
export function renderHandoffBody(pkg: HandoffPackage, meta: HandoffMeta, specialist: Specialist): string {
  const out: string[] = [];
  const title = pkg.topic_title.replace(/\s+/g, ' ');
  const sanitized = sanitizingLine(pkg);
  if (pkg.kind === 'result') {
    out.push(`# Result from ${specialist.label}: ${title}`, '');
    if (sanitized) out.push(sanitized, '');
    out.push(
      `${specialist.personaMarker} hands back to ${pkg.to ?? pkg.from} the handoff ${codeSpan(pkg.parent_id ?? '(none)')}: **${meta.status.replace(/_/g, ' ')}**.`,
    );
  } else {
    out.push(`# Handoff to ${specialist.label}: ${title}`);
    out.push('');
    if (sanitized) out.push(sanitized, '');
    out.push(
      `${specialist.personaMarker} You are the ${specialist.label}. ${specialist.mandate} ` +
        `Introduce yourself as ${specialist.personaMarker}, show that you know the context below, and do not ask what it already answers.`,
    );
    if (specialist.instructions) {
      out.push('', specialist.instructions.trim());
    }
  }
  if (pkg.evidence_notes.length) {
    out.push('', pkg.evidence_notes.map((n) => `> ⚠️ ${n}`).join('\n'));
  }
  if (pkg.hop_guard) {
    const why = pkg.hop_guard.reasons
      .map((r) =>
        r === 'depth' ? `hop ${pkg.hop} is deeper than the limit of ${pkg.hop_guard?.max_depth}` : 'the chain returns to a specialist it already visited',
      )
      .join(' and ');
    const allowed =
      pkg.hop_guard.allowed_by === 'progress'
        ? 'allowed because the code changed since the chain last handed work to this specialist (progress guard)'
        : 'handed over anyway after an explicit confirmation';
    out.push('', `> ⚠️ Hop guard: ${why} (chain: ${pkg.chain.join(' → ')}); ${allowed}.`);
  }
  if (pkg.handover_reason) {
    out.push('', `**Why this handoff (${pkg.reason_kind.replace(/_/g, ' ')}):** ${structureSafeProse(pkg.handover_reason)}`);
  }

  out.push(
    '',
    '## Summary',
    '',
    (structureSafeProse(pkg.summary) || NONE) + droppedNote(pkg.dropped, 'summary', 'character of the summary was', 'characters of the summary were'),
  );
  out.push('', '## Claims', '', renderClaims(pkg.claims));
  if (pkg.kind === 'result') {
    out.push(
      '',
      '## Acceptance',
      '',
      pkg.acceptance.length ? pkg.acceptance.map((a) => `- [${a.met ? 'x' : ' '}] ${indentContinuation(a.criterion)}`).join('\n') : NONE,
    );
  }
  out.push('', '## User requests', '', renderUserRequests(pkg.user_requests, pkg.user_requests_omitted, pkg.dropped));

  const decisions = pkg.decisions.map((d) => `**${d.id}** ${d.text.trim()}${d.superseded_by ? ` _(superseded by ${d.superseded_by})_` : ''}`);
  out.push('', '## Decisions', '', bulletList(decisions));
  out.push('', '## Failed approaches', '', bulletList(pkg.failed_approaches));
  const doneShortened = pkg.dropped.find((d) => d.section === 'completed')?.shortened
    ? '\n\n_Done items shown as their first line to fit the token budget._'
    : '';
  const doneCut = droppedNote(pkg.dropped, 'completed', 'older done item was', 'older done items were');
  out.push('', '## Done', '', `${pkg.completed.length || !doneCut ? renderDone(pkg.completed) : ''}${doneCut}${doneShortened}`.trimStart());

  out.push('', '## Touched files', '', renderGitHeader(pkg), '', renderTouchedFiles(pkg));
  out.push('', `### Commits ${pkg.base_commit ? `since ${codeSpan(pkg.base_commit.slice(0, 10))}` : '(latest; no base commit yet)'}`, '');
  out.push(pkg.commits.length ? pkg.commits.map(renderCommit).join('\n') : NONE);
  if (pkg.commits_omitted > 0) {
    out.push(`- … and ${formatCount(pkg.commits_omitted)} more`);
  }
  if (pkg.diff_excerpt !== null) {
    const fence = diffFence(pkg.diff_excerpt);
    out.push('', '### Diff excerpt', '', `${fence}diff`, pkg.diff_excerpt.replace(/\n$/, ''), fence);
    if (pkg.diff_excerpt_truncated) {
      out.push('', `_Diff excerpt truncated; run \`git diff ${pkg.head_commit ? pkg.head_commit.slice(0, 10) : 'HEAD'}\` for the rest._`);
    }
  }
  const diffCut = pkg.dropped.find((d) => d.section === 'diff_excerpt');
  if (diffCut) {
    out.push('', `_Diff excerpt: ${plural(diffCut.count, 'line')} cut to fit the token budget (${plural(diffCut.tokens, 'token')})._`);
  }

  const tests =
    pkg.tests_run_form === 'grouped' ? groupTestRuns(pkg.tests_run).map((g) => renderTestRun(g.latest, g)) : pkg.tests_run.map((t) => renderTestRun(t));
  out.push(
    '',
    '## Tests run',
    '',
    tests.length ? tests.join('\n') : pkg.session_sources.length ? 'No test runs in the session log.' : 'No test runs recorded (no session log was found).',
  );
  if (pkg.tests_run_omitted > 0) {
    out.push(`- … and ${formatCount(pkg.tests_run_omitted)} more (passing runs cut to fit the token budget)`);
  }
  if (pkg.tests_run_form === 'grouped' && tests.length < pkg.tests_run.length) {
    out.push('', `_${formatCount(pkg.tests_run.length)} test runs listed as ${plural(tests.length, 'line')}, one per command, to fit the token budget._`);
  }
  if (pkg.session_sources.length && pkg.tests_run_form === 'grouped') {
    // Fit to its floor: the transcripts by name; their figures stay in the frontmatter's session_sources.
    out.push('', `_Session log read: ${pkg.session_sources.map((s) => `${s.source} ${codeSpan(s.file)}`).join('; ')}._`);
  } else if (pkg.session_sources.length) {
    const src = pkg.session_sources.map(
      (s) =>
        `${s.source} ${codeSpan(s.file)} (${plural(s.commands, 'command')}${s.commands_kept !== undefined && s.commands_kept !== s.commands ? ` seen, ${formatCount(s.commands_kept)} kept` : ''}, ${plural(s.test_runs, 'test run')}, ${plural(s.turns, 'turn')}, ${plural(s.edits, 'edit')}` +
        `${s.malformed + s.skipped ? `; ${plural(s.malformed + s.skipped, 'line')} not understood` : ''})`,
    );
    out.push('', `_Session log read: ${src.join('; ')}._`);
  }

  out.push('', '## Commands run', '', renderCommandsRun(pkg.commands_run, pkg.commands_run_omitted, pkg.dropped, pkg.commands_run_form === 'compact'));
  out.push('', '## Next steps', '', numberedList(pkg.next_steps));
  out.push('', '## Blockers', '', bulletList(pkg.blockers));
  // Only when the session compacted: the agent's summary of what came before the recent turns.
  out.push(...renderCompaction(pkg));
  const turns = pkg.recent_turns.map(renderTurn);
  const turnsShortened = pkg.dropped.find((d) => d.section === 'recent_turns')?.shortened
    ? '\n\n_The last turn is shown as its head to fit the token budget._'
    : '';
  out.push(
    '',
    '## Recent turns',
    '',
    (turns.length ? turns.join('\n\n') : NONE) + droppedNote(pkg.dropped, 'recent_turns', 'older turn was', 'older turns were') + turnsShortened,
  );
  out.push('', '## Artifacts', '', bulletList(pkg.artifacts.map((a) => codeSpan(a))));
  out.push('', '## Return condition', '', describeReturnCondition(pkg.return_condition));
  if (meta.historyFile) {
    out.push('', `_What was cut to fit the budget is kept in ${codeSpan(meta.historyFile)}._`);
  }
  return `${out.join('\n')}\n`;
}

/** `> 🔒 3 secrets redacted (github-token ×2, jwt ×1); 5 invisible characters removed …`; undefined when nothing was. */
export function sanitizingLine(pkg: Pick<HandoffPackage, 'redactions' | 'invisible_stripped'>): string | undefined {
  const text = describeSanitizing(pkg.redactions ?? {}, pkg.invisible_stripped ?? 0);
  return text ? `> 🔒 ${text}` : undefined;
}

function renderGitHeader(pkg: HandoffPackage): string {
  const parts: string[] = [];
  if (pkg.branch) {
    let branch = `Branch ${codeSpan(pkg.branch)}`;
    if (pkg.upstream) {
      branch += ` (${pkg.ahead ?? 0} ahead, ${pkg.behind ?? 0} behind ${codeSpan(pkg.upstream)})`;
    }
    parts.push(branch);
  } else if (pkg.detached) {
    parts.push('Detached HEAD');
  }
  if (pkg.head_commit) {
    parts.push(`HEAD ${codeSpan(pkg.head_commit.slice(0, 10))}`);
  }
  if (pkg.head_commit === null && pkg.diff_hash === null) {
    parts.push('no git evidence (see the note above)');
    return parts.join(' · ');
  }
  const total = pkg.touched_files.length + pkg.touched_files_omitted;
  parts.push(`${formatCount(total)} file${total === 1 ? '' : 's'} changed against HEAD (staged, unstaged and untracked)`);
  const op = pkg.git_operation ? `\n\n**${describeGitOperation(pkg.git_operation)}**` : '';
  return parts.join(' · ') + op;
}

/** `file` (Agent Zero's layout): later handoffs append to it; `folder` (ours): each handoff's section is a file of its own under this header. */
export function renderBriefingHeader(specialist: Specialist, pkg: HandoffPackage, day: string, layout: 'file' | 'folder' = 'file'): string {
  return (
    `# Briefing for ${specialist.label} ${specialist.personaMarker}: ${pkg.topic_title.replace(/\s+/g, ' ')} (${day})\n\n` +
    `${specialist.mandate}\n\n` +
    (layout === 'folder'
      ? `Each handoff on this topic today writes one file like this one in this folder; read in name order, they make the briefing.\n`
      : `This file is append-only: each handoff on this topic today adds one section below.\n`)
  );
}

/** `handoffLink`: relative to the briefing file's folder. */
export function renderBriefingSection(pkg: HandoffPackage, meta: HandoffMeta, specialist: Specialist, handoffLink: string): string {
  const lines: string[] = [];
  lines.push('', `## ${meta.created} — ${pkg.from} → ${specialist.personaMarker}`, '');
  const sanitized = sanitizingLine(pkg);
  if (sanitized) {
    lines.push(sanitized, '');
  }
  if (pkg.handover_reason) {
    lines.push(`**Reason (${pkg.reason_kind.replace(/_/g, ' ')}):** ${structureSafeProse(pkg.handover_reason)}`, '');
  }
  lines.push(`**Summary:** ${structureSafeProse(pkg.summary) || '—'}`, '');
  lines.push(...briefingClaimsLines(pkg.claims));
  if (pkg.decisions.length) {
    lines.push('**Decisions:**', ...pkg.decisions.map((d) => `- **${d.id}** ${indentContinuation(d.text)}`), '');
  }
  if (pkg.next_steps.length) {
    lines.push('**Next steps:**', ...pkg.next_steps.map((s, i) => `${i + 1}. ${indentContinuation(s)}`), '');
  }
  if (pkg.blockers.length) {
    lines.push('**Blockers:**', ...pkg.blockers.map((b) => `- ${indentContinuation(b)}`), '');
  }
  const files = pkg.touched_files.length + pkg.touched_files_omitted;
  const tests = pkg.tests_run.length + pkg.tests_run_omitted;
  const commits = pkg.commits.length + pkg.commits_omitted;
  lines.push(
    `**Evidence:** ${plural(files, 'touched file')}, ${plural(tests, 'test run')}, ` +
      `${plural(commits, pkg.base_commit ? 'commit since the last handoff' : 'recent commit', pkg.base_commit ? 'commits since the last handoff' : 'recent commits')}` +
      `${pkg.head_commit ? ` at ${codeSpan(pkg.head_commit.slice(0, 10))}` : ''}; ` +
      `${formatCount(pkg.estimated_tokens)} / ${formatCount(pkg.max_context_tokens)} tokens.`,
    '',
  );
  lines.push(`**Return condition:** ${describeReturnCondition(pkg.return_condition)}`, '');
  lines.push(`**Handoff:** [${meta.id}](${encodeURI(handoffLink)})`, '');
  return lines.join('\n');
}
