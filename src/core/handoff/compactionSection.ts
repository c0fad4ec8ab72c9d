/**
 * The "Compaction summary" section of a handoff (docs/DESIGN.md §5): present only when the
 * session's agent compacted its conversation. It quotes the agent's own summary, says whose
 * words they are, and says that the other sections are read from the whole log, before the
 * compaction too. Pure.
 */
import { codeSpan } from './codeSpan';
import { quoteBlock } from './draftSections';
import { formatCount } from './limits';
import type { Dropped, HandoffPackage } from './schema';

/** The section's heading. */
export const COMPACTION_HEADING = 'Compaction summary';

/** The section's lines (heading included), or none when the session did not compact. */
export function renderCompaction(pkg: Pick<HandoffPackage, 'compaction' | 'dropped'>): string[] {
  const c = pkg.compaction;
  if (!c) return [];
  const when = [c.trigger, c.time].filter(Boolean).join(', ');
  const where = c.file ? ` in ${codeSpan(c.file)}` : '';
  const count = c.count > 1 ? `; the latest of ${formatCount(c.count)} compactions` : '';
  const intro =
    `_The agent's own summary from when ${c.source} compacted the conversation${when ? ` (${when})` : ''}${where}${count}: ` +
    `the agent's words, not a request of the user. The other sections are read from the whole log, before the compaction too._`;
  const cut = pkg.dropped.find((d: Dropped) => d.section === 'compaction');
  const cutNote = cut && cut.count > 0 ? `\n\n_${formatCount(cut.count)} character${cut.count === 1 ? '' : 's'} of the agent's summary ${cut.count === 1 ? 'was' : 'were'} cut to fit the token budget (${formatCount(cut.tokens)} token${cut.tokens === 1 ? '' : 's'})._` : '';
  const body = c.text.trim() ? quoteBlock(c.text) : cut ? '' : '_The transcript keeps no readable summary of it (the agent compacted on its server)._';
  return ['', `## ${COMPACTION_HEADING}`, '', `${intro}${body ? `\n\n${body}` : ''}${cutNote}`];
}
