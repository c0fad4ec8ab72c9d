// The "Compaction summary" section: the agent's own summary, quoted and marked as its words; the other sections read the whole log.
import { codeSpan } from './codeSpan';
import { quoteBlock } from './draftSections';
import { formatCount } from './limits';
import type { Dropped, HandoffPackage } from './schema';

export const COMPACTION_HEADING = 'Compaction summary';

export function renderCompaction(pkg: Pick<HandoffPackage, 'compaction' | 'dropped' | 'session_sources'>): string[] {
  const c = pkg.compaction;
  if (!c) return [];
  const when = [c.trigger, c.time].filter(Boolean).join(', ');
  // The transcript is named when the handoff read more than one.
  const where = c.file && pkg.session_sources.length > 1 ? ` in ${codeSpan(c.file)}` : '';
  const count = c.count > 1 ? `; the latest of ${formatCount(c.count)}` : '';
  const cut = pkg.dropped.find((d: Dropped) => d.section === 'compaction');
  if (cut && cut.count > 0 && !c.text.trim()) {
    // Cut whole to fit: one line still says the session compacted, and where the summary is kept.
    return [
      '',
      `## ${COMPACTION_HEADING}`,
      '',
      `_${c.source} compacted the conversation${when ? ` (${when})` : ''}${where}${count}; the agent's summary (${formatCount(cut.count)} characters) was cut to fit the token budget._`,
    ];
  }
  const intro = `_The agent's own summary when ${c.source} compacted the conversation${when ? ` (${when})` : ''}${where}${count}: its words, not the user's. The other sections are read from the whole log._`;
  const cutNote =
    cut && cut.count > 0
      ? `\n\n_${formatCount(cut.count)} character${cut.count === 1 ? '' : 's'} of the agent's summary ${cut.count === 1 ? 'was' : 'were'} cut to fit the token budget (${formatCount(cut.tokens)} token${cut.tokens === 1 ? '' : 's'})._`
      : '';
  const body = c.text.trim() ? quoteBlock(c.text) : '_The transcript keeps no readable summary of it (the agent compacted on its server)._';
  return ['', `## ${COMPACTION_HEADING}`, '', `${intro}${body ? `\n\n${body}` : ''}${cutNote}`];
}
