/**
 * The loss report in words (issue 15): what the session log holds that the handoff does not
 * carry — older requests, commands beyond the cap, collapsed todos, turns (the counts of
 * `LeftOut`, src/core/handoff/draftFields.ts). The panel shows it beside the token meter, the
 * end-of-session command in its confirmation step. Pure, for the webview bundle too.
 */
import type { LeftOut } from '../handoff/draftFields';

/** `1234` → `1,234`. */
const fmt = (n: number) => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * The counts that are not zero, in one phrase (`3 older requests, 12 turns`); undefined when
 * the handoff carries everything the session log holds.
 */
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

/**
 * The whole report in one sentence: what is not carried, then what fit-to-budget does
 * (`over`: it would cut more, said where the cuts are listed).
 */
export function lossReportText(l: LeftOut, over: boolean): string {
  const left = describeLeftOut(l);
  const cuts = over ? 'fit to budget would cut more (below)' : 'fit to budget cuts nothing';
  return left ? `Not carried from the session log: ${left}; ${cuts}.` : `Everything the session log holds is carried; ${cuts}.`;
}
