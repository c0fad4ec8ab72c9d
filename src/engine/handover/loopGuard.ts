import { visitWithoutProgress } from '../../core/handoff/compose';
import { jobError, type JobError } from '../../core/handoff/errors';
import type { HandoffFrontmatter, HandoffPackage } from '../../core/handoff/schema';
import type { Specialist } from '../../core/specialists/registry';
import { chainVisits, openVisits } from '../../store/handoffs/chainVisits';

/**
 * For agents, which cannot confirm the hop guard: refuses a hop past the depth limit, or back to a visited
 * specialist with the code unchanged. Whatever the parent, it also refuses the same topic to a specialist that
 * still has it open with the code unchanged, or agents could bounce work by starting a new chain each call.
 */
export async function agentLoopGuard(
  composed: HandoffPackage,
  parent: HandoffFrontmatter | undefined,
  specialist: Specialist,
  root: string,
): Promise<JobError | undefined> {
  const g = composed.hop_guard;
  if (!g || !parent) return duplicateGuard(composed, specialist, root);
  if (g.reasons.includes('depth')) {
    return jobError(
      `loop guard: hop ${composed.hop} would exceed the limit of ${g.max_depth === 1 ? '1 hop' : `${g.max_depth} hops`} (handoff.maxHandoverDepth) in the chain ${composed.chain.join(' → ')} — an agent cannot go past it; ask the user to hand over themselves (the Hand over panel, or the CLI with --confirm-hop) or to raise the limit`,
      'loop_guard',
    );
  }
  if (g.reasons.includes('cycle')) {
    const visits = await chainVisits(root, parent.root_id, specialist.id);
    const same = visitWithoutProgress(visits, composed);
    if (same) {
      return jobError(
        `progress guard: this chain already handed the work to ${specialist.id} in ${same.id}, and the code is exactly as it was then (same HEAD, same diff hash ${String(composed.diff_hash).slice(0, 12)}) — make progress first, or hand over to a different specialist`,
        'progress_guard',
      );
    }
  }
  return duplicateGuard(composed, specialist, root);
}

/** The cross-chain part of {@link agentLoopGuard}: an open handoff of this topic to this specialist, with the code as it is now. */
async function duplicateGuard(composed: HandoffPackage, specialist: Specialist, root: string): Promise<JobError | undefined> {
  const same = visitWithoutProgress(await openVisits(root, specialist.id, composed.topic), composed);
  if (!same) return undefined;
  return jobError(
    `progress guard: ${same.id} already hands "${composed.topic}" to ${specialist.id}, is still open, and the code is exactly as it was then (same HEAD, same diff hash ${String(composed.diff_hash).slice(0, 12)}) — let ${specialist.id} pick that one up, make progress first, or hand over to a different specialist`,
    'progress_guard',
  );
}
