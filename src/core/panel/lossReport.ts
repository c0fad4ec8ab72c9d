// The loss report in words: what the session log holds that the handoff does not carry. Pure, for the webview bundle too.
import type { LeftOut } from '../handoff/draftFields';
import type { Dropped } from '../handoff/fields';

const fmt = (n: number) => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** `3 older requests, 12 turns`; undefined when the handoff carries everything. */
export function describeLeftOut(l: LeftOut): string | undefined {
  const parts = [
    [l.older_requests, 'older request', 'older requests'],
    [l.commands_beyond_cap, 'command beyond the cap', 'commands beyond the cap'],
    [l.collapsed_todos, 'collapsed todo', 'collapsed todos'],
    [l.turns, 'turn', 'turns'],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, one, many]) => `${fmt(n)} ${n === 1 ? one : many}`);
  return said.length ? said.join(', ') : undefined;
}

/** `over`: fit-to-budget would cut more, listed where the cuts are. */
export function lossReportText(l: LeftOut, over: boolean): string {
  const left = describeLeftOut(l);
  const cuts = over ? 'fit to budget would cut more (below)' : 'fit to budget cuts nothing';
  return left ? `Not carried from the session log: ${left}; ${cuts}.` : `Everything the session log holds is carried; ${cuts}.`;
}

/** Per section: [cut one, cut many, shortened one, shortened many]. */
const FIT_UNITS: Readonly<Record<Dropped['section'], readonly [string, string, string, string]>> = {
  summary: ['summary character', 'summary characters', 'summary', 'summaries'],
  user_requests: ['older request', 'older requests', 'request', 'requests'],
  touched_files: ['file', 'files', 'path (rolled up or without line counts)', 'paths (rolled up or without line counts)'],
  tests_run: ['passing test run', 'passing test runs', 'test run (grouped by command)', 'test runs (grouped by command)'],
  commands_run: ['command', 'commands', 'command', 'commands'],
  recent_turns: ['turn', 'turns', 'turn', 'turns'],
  diff_excerpt: ['diff line', 'diff lines', 'diff line', 'diff lines'],
  compaction: ['character of the agent’s compaction summary', 'characters of the agent’s compaction summary', 'compaction summary', 'compaction summaries'],
  completed: ['done item', 'done items', 'done item', 'done items'],
};

/** "shortens 2,000 paths (rolled up or without line counts), 12 commands; cuts 40 older requests, 4 turns"; undefined when neither. */
export function describeFit(dropped: readonly Dropped[]): string | undefined {
  const words = (n: number, one: string, many: string) => `${fmt(n)} ${n === 1 ? one : many}`;
  const shortened = dropped.filter((d) => (d.shortened ?? 0) > 0).map((d) => words(d.shortened ?? 0, FIT_UNITS[d.section][2], FIT_UNITS[d.section][3]));
  const cut = dropped.filter((d) => d.count > 0).map((d) => words(d.count, FIT_UNITS[d.section][0], FIT_UNITS[d.section][1]));
  const parts = [shortened.length ? `shortens ${shortened.join(', ')}` : '', cut.length ? `cuts ${cut.join(', ')}` : ''].filter(Boolean);
  return parts.length ? parts.join('; ') : undefined;
}
