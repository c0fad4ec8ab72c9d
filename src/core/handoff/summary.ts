// The one-screen summary of a written handoff: the CLI's `terminal` layout and VS Code's `dialog` layout. Pure.
import { terminalClaimsText } from './claimsSection';
import { formatCount } from './limits';
import { plural } from './text';
import type { HandoffPackage, HandoverOk, TouchedFile } from './schema';

/** "M 2, A 1, ? 1": touched files counted by status letter, in the order the letters first occur. */
export function statusCounts(files: readonly TouchedFile[]): string {
  const counts = new Map<string, number>();
  for (const f of files) {
    counts.set(f.status, (counts.get(f.status) ?? 0) + 1);
  }
  return [...counts.entries()].map(([k, v]) => `${k} ${v}`).join(', ');
}

/** Units of `dropped[].count` per section, so the terminal says "summary: 422 characters", not a bare 422. */
const CUT_UNITS: Readonly<Record<string, readonly [string, string]>> = {
  recent_turns: ['turn', 'turns'],
  diff_excerpt: ['line', 'lines'],
  touched_files: ['file', 'files'],
  tests_run: ['passing test', 'passing tests'],
  commands_run: ['command entry', 'command entries'],
  summary: ['character', 'characters'],
  user_requests: ['older request', 'older requests'],
  compaction: ['character', 'characters'],
  completed: ['done item', 'done items'],
};

/** What fit-to-budget cut and shortened, in words: "2 turns, 120 diff lines, 12 user requests shortened". */
export function describeCuts(dropped: HandoffPackage['dropped']): string {
  // Each section's unit, one and many; the shortened ones drop the qualifier ("older", "passing", "summary").
  const unit: Record<HandoffPackage['dropped'][number]['section'], readonly [string, string]> = {
    recent_turns: ['turn', 'turns'],
    diff_excerpt: ['diff line', 'diff lines'],
    touched_files: ['file', 'files'],
    tests_run: ['passing test', 'passing tests'],
    commands_run: ['command run', 'commands run'],
    summary: ['summary character', 'summary characters'],
    user_requests: ['older user request', 'older user requests'],
    compaction: ["character of the agent's compaction summary", "characters of the agent's compaction summary"],
    completed: ['done item', 'done items'],
  };
  const words = (n: number, section: HandoffPackage['dropped'][number]['section']) => `${formatCount(n)} ${unit[section][n === 1 ? 0 : 1]}`;
  return dropped
    .flatMap((d) => [
      ...(d.count > 0 ? [words(d.count, d.section)] : []),
      ...(d.shortened ? [`${words(d.shortened, d.section).replace(/ (older|passing|summary) /, ' ')} shortened`] : []),
    ])
    .join(', ');
}

/** The loss report in words ("3 older user requests, 30 turns not in the recent turns"); '' when nothing was left out. */
export function describeLeftOut(leftOut: HandoffPackage['left_out']): string {
  return [
    leftOut.older_requests ? plural(leftOut.older_requests, 'older user request') : '',
    leftOut.commands_beyond_cap ? `${plural(leftOut.commands_beyond_cap, 'command run')} beyond the cap` : '',
    leftOut.collapsed_todos ? `${plural(leftOut.collapsed_todos, 'plan item')} collapsed (cancelled or beyond the list)` : '',
    leftOut.turns ? `${plural(leftOut.turns, 'turn')} not in the recent turns` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** "3 touched (M 2, A 1)" or "0 touched": the touched files, those the handoff did not list included. */
export function touchedFilesText(p: Pick<HandoffPackage, 'touched_files' | 'touched_files_omitted'>): string {
  const total = p.touched_files.length + p.touched_files_omitted;
  const counts = [statusCounts(p.touched_files), p.touched_files_omitted ? `${formatCount(p.touched_files_omitted)} not listed in the handoff` : '']
    .filter(Boolean)
    .join(', ');
  return `${formatCount(total)} touched${total ? ` (${counts})` : ''}`;
}

/** "1,234 (estimate) / 3,000 (o200k_base)": the package's tokens against its budget, in its encoding. */
export function tokensText(p: Pick<HandoffPackage, 'estimated_tokens' | 'tokens_estimated' | 'max_context_tokens' | 'tokenizer'>): string {
  return `${formatCount(p.estimated_tokens)}${p.tokens_estimated ? ' (estimate)' : ''} / ${formatCount(p.max_context_tokens)} (${p.tokenizer})`;
}

export interface SummaryOptions {
  /** Relative to the workspace (the CLI: to `--cwd`; VS Code: `asRelativePath`). */
  readonly relativePath: (absolutePath: string) => string;
  /** `terminal`: the CLI's aligned rows; `dialog`: "Label: value" rows for VS Code's modal, whose title already names the receiver. */
  readonly layout: 'terminal' | 'dialog';
}

export function handoffSummary(result: HandoverOk, options: SummaryOptions): string {
  return (options.layout === 'terminal' ? terminalLines : dialogLines)(result, options.relativePath).join('\n');
}

function terminalLines(result: HandoverOk, rel: (f: string) => string): string[] {
  const p = result.package;
  const lines = [
    `Handed over to ${result.persona_marker} — topic "${p.topic_title}" (${p.topic})`,
    `  handoff   ${rel(result.handoff_file)}`,
    `  briefing  ${rel(result.briefing.path)} (${result.briefing.newly_created ? 'created' : 'appended'}, ${plural(result.briefing.size_bytes, 'byte')})`,
  ];
  if (result.history_file) {
    lines.push(`  history   ${rel(result.history_file)} (what was cut to fit the budget)`);
  }
  lines.push(`  files     ${touchedFilesText(p)}`);
  const where = p.branch ? ` on ${p.branch}` : p.detached ? ' on a detached HEAD' : '';
  lines.push(
    `  commits   ${p.commits.length + p.commits_omitted} ${p.base_commit ? 'since the last handoff' : 'recent'}${where}${p.head_commit ? ` at ${p.head_commit.slice(0, 10)}` : ''}`,
  );
  lines.push(`  tokens    ${tokensText(p)}`);
  if (p.claims.length) lines.push(`  claims    ${terminalClaimsText(p.claims)}`);
  if (p.upstream) {
    lines.push(`  upstream  ${p.upstream}: ${p.ahead ?? 0} ahead, ${p.behind ?? 0} behind`);
  }
  for (const d of p.dropped) {
    const [one, many] = CUT_UNITS[d.section] ?? ['', ''];
    const what = [
      d.count > 0 ? `${one ? plural(d.count, one, many) : formatCount(d.count)} cut` : '',
      d.shortened ? `${formatCount(d.shortened)} shortened` : '',
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(`  fit       ${d.section.replace(/_/g, ' ')}: ${what} (${plural(d.tokens, 'token')})`);
  }
  const leftOut = describeLeftOut(p.left_out);
  if (leftOut) lines.push(`  left out  ${leftOut} (the session log holds them; the handoff does not)`);
  lines.push(`Next: ${result.next_step}`);
  return lines;
}

function dialogLines(result: HandoverOk, rel: (f: string) => string): string[] {
  const p = result.package;
  const tests = p.tests_run.length + p.tests_run_omitted;
  const lines = [
    `Specialist: ${result.persona_marker} (${p.specialist})`,
    `Topic: ${p.topic_title}`,
    `Files: ${touchedFilesText(p)}`,
    `Tests: ${tests ? `${formatCount(tests)} run (${['passed', 'failed', 'unknown'].map((k) => `${p.tests_run.filter((t) => t.result === k).length} ${k}`).join(', ')})` : 'none recorded'}`,
    `Tokens: ${tokensText(p)}`,
  ];
  if (p.dropped.length) {
    lines.push(`Cut to fit: ${describeCuts(p.dropped)}`);
  }
  const leftOut = describeLeftOut(p.left_out);
  if (leftOut) lines.push(`Not carried from the session log: ${leftOut}`);
  lines.push(`Handoff: ${rel(result.handoff_file)}`);
  lines.push(`Briefing: ${rel(result.briefing.path)} (${result.briefing.newly_created ? 'created' : 'appended'})`);
  lines.push(...result.warnings);
  lines.push('', `Next: ${result.next_step}`);
  return lines;
}

/** `fitted`: fit-to-budget ran and could not cut enough; `budget`: how the caller names the budget to raise (the CLI: `--max-tokens`). */
export function overBudgetWarning(
  p: Pick<HandoffPackage, 'estimated_tokens' | 'max_context_tokens' | 'tokenizer'>,
  fitted: boolean,
  budget = 'max_context_tokens',
): string {
  return (
    `WARNING: the handoff is ${plural(p.estimated_tokens, 'token')}, over the ${formatCount(p.max_context_tokens)}-token budget (${p.tokenizer})` +
    (fitted ? ` even after fitting — shorten the summary, decisions or next steps, or raise ${budget}` : ` — fit it to the budget or raise ${budget}`)
  );
}
