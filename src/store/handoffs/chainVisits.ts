// Earlier visits of a specialist, for the progress guard (docs/DESIGN.md §4). Read-only; never throws.
import { HANDOFFS_DIR } from '../../core/handoff/naming';
import type { ChainVisit } from '../../core/handoff/compose';
import type { HandoffFrontmatter } from '../../core/handoff/schema';
import path from 'node:path';
import { listHandoffFiles, readHandoffHead } from './handoffIndex';

/** A chain is a few hops, and the newest are read first. */
export const MAX_CHAIN_VISIT_READS = 200;

const OPEN = new Set(['pending', 'accepted', 'in_progress']);

/** Handoffs, not results; newest first. Candidates come from file names, which end in the specialist. */
async function visits(handoffRoot: string, specialist: string, match: (fm: HandoffFrontmatter) => boolean): Promise<ChainVisit[]> {
  const files = await listHandoffFiles(path.join(handoffRoot, HANDOFFS_DIR)).catch(() => []);
  const out: ChainVisit[] = [];
  const candidates = files
    .filter((f) => f.specialist === specialist)
    .reverse()
    .slice(0, MAX_CHAIN_VISIT_READS);
  for (const f of candidates) {
    const h = await readHandoffHead(f.path);
    const fm = h?.frontmatter;
    if (fm && fm.kind === 'handoff' && fm.specialist === specialist && match(fm)) {
      out.push({ id: fm.id, diff_hash: fm.diff_hash, head_commit: fm.head_commit });
    }
  }
  return out;
}

/** Newest first. */
export async function chainVisits(handoffRoot: string, rootId: string, specialist: string): Promise<ChainVisit[]> {
  return visits(handoffRoot, specialist, (fm) => fm.root_id === rootId);
}

/** Open ones in any chain: a new chain must not let the same unchanged work go to the same specialist while one waits. */
export async function openVisits(handoffRoot: string, specialist: string, topic: string): Promise<ChainVisit[]> {
  return visits(handoffRoot, specialist, (fm) => fm.topic === topic && OPEN.has(fm.status));
}
