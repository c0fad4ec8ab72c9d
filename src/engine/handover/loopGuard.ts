/**
 * The loop guards of agent calls: an agent cannot confirm the hop guard, so for it the
 * engine decides whether a hop may go ahead (docs/DESIGN.md, "The hop guard"; Agent
 * Zero's `max_handover_depth = 3`). Used by `prepareHandover`
 * (src/engine/handover/handover.ts) when `env.caller === 'agent'`.
 */
import { visitWithoutProgress } from '../../core/handoff/compose';
import { handoverError, type HandoverError } from '../../core/handoff/errors';
import type { HandoffFrontmatter, HandoffPackage } from '../../core/handoff/schema';
import type { Specialist } from '../../core/specialists/registry';
import { chainVisits, openVisits } from '../../store/handoffs/chainVisits';

/**
 * The loop guard of agent calls (see `caller` of `HandoverEnvironment`, src/engine/project/environment.ts): refuses a hop
 * past the depth limit, and a return to a specialist the chain already visited with the
 * code unchanged since (docs/DESIGN.md §4, `diff_hash`; Agent Zero's `max_handover_depth = 3`).
 * Whatever the parent — none (`parent: "none"`), or a handoff of another chain — it also
 * refuses handing the same topic to a specialist that still has it open with the code
 * unchanged: otherwise two agents could bounce the work between them by starting a new
 * chain on every call, and the chain-based checks would never see a loop.
 * @returns the refusal, or undefined when the hop may go ahead
 */
export async function agentLoopGuard(
  composed: HandoffPackage,
  parent: HandoffFrontmatter | undefined,
  specialist: Specialist,
  root: string,
): Promise<HandoverError | undefined> {
  const g = composed.hop_guard;
  if (!g || !parent) return duplicateGuard(composed, specialist, root);
  if (g.reasons.includes('depth')) {
    return handoverError(
      `loop guard: hop ${composed.hop} would exceed the limit of ${g.max_depth === 1 ? '1 hop' : `${g.max_depth} hops`} (handoff.maxHandoverDepth) in the chain ${composed.chain.join(' → ')} — an agent cannot go past it; ask the user to hand over themselves (the Hand over panel, or the CLI with --confirm-hop) or to raise the limit`,
      'loop_guard',
    );
  }
  if (g.reasons.includes('cycle')) {
    const visits = await chainVisits(root, parent.root_id, specialist.id);
    const same = visitWithoutProgress(visits, composed);
    if (same) {
      return handoverError(
        `progress guard: this chain already handed the work to ${specialist.id} in ${same.id}, and the code is exactly as it was then (same HEAD, same diff hash ${String(composed.diff_hash).slice(0, 12)}) — make progress first, or hand over to a different specialist`,
        'progress_guard',
      );
    }
  }
  return duplicateGuard(composed, specialist, root);
}

/** The cross-chain part of {@link agentLoopGuard}: an open handoff of this topic to this specialist, with the code as it is now. */
async function duplicateGuard(composed: HandoffPackage, specialist: Specialist, root: string): Promise<HandoverError | undefined> {
  const same = visitWithoutProgress(await openVisits(root, specialist.id, composed.topic), composed);
  if (!same) return undefined;
  return handoverError(
    `progress guard: ${same.id} already hands "${composed.topic}" to ${specialist.id}, is still open, and the code is exactly as it was then (same HEAD, same diff hash ${String(composed.diff_hash).slice(0, 12)}) — let ${specialist.id} pick that one up, make progress first, or hand over to a different specialist`,
    'progress_guard',
  );
}
