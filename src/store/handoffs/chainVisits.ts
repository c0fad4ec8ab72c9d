/**
 * Earlier visits of a specialist (docs/DESIGN.md §4 chain links), for the progress guard: the
 * handoffs of chain `rootId` addressed to `specialist` ({@link chainVisits}), and the
 * still-open handoffs to `specialist` on a topic in any chain ({@link openVisits}), read
 * from the handoff folder by name first (a handoff's file name ends in the specialist it
 * goes to), then by frontmatter. Read-only; never throws.
 */
import { HANDOFFS_DIR } from '../../core/handoff/naming';
import type { ChainVisit } from '../../core/handoff/compose';
import type { HandoffFrontmatter } from '../../core/handoff/schema';
import path from 'node:path';
import { listHandoffFiles, readHandoffHead } from './handoffIndex';

/** Most files whose frontmatter is read for one lookup: 200 (a chain is a few hops; the newest are read first). */
export const MAX_CHAIN_VISIT_READS = 200;

/** Statuses of a handoff still being worked on (pending, accepted, in progress). */
const OPEN = new Set(['pending', 'accepted', 'in_progress']);

/** The handoffs (not results) to `specialist` whose frontmatter passes `match`, newest first. */
async function visits(handoffRoot: string, specialist: string, match: (fm: HandoffFrontmatter) => boolean): Promise<ChainVisit[]> {
  const files = await listHandoffFiles(path.join(handoffRoot, HANDOFFS_DIR)).catch(() => []);
  const out: ChainVisit[] = [];
  const candidates = files.filter((f) => f.specialist === specialist).reverse().slice(0, MAX_CHAIN_VISIT_READS);
  for (const f of candidates) {
    const h = await readHandoffHead(f.path);
    const fm = h?.frontmatter;
    if (fm && fm.kind === 'handoff' && fm.specialist === specialist && match(fm)) {
      out.push({ id: fm.id, diff_hash: fm.diff_hash, head_commit: fm.head_commit });
    }
  }
  return out;
}

/**
 * The handoffs (not results) of the chain `rootId` that went to `specialist`, newest first.
 * @param handoffRoot absolute handoff root (`handoff.directory`)
 */
export async function chainVisits(handoffRoot: string, rootId: string, specialist: string): Promise<ChainVisit[]> {
  return visits(handoffRoot, specialist, (fm) => fm.root_id === rootId);
}

/**
 * The handoffs to `specialist` on `topic` (its slug) that are still open, in any chain,
 * newest first: an agent that starts a new chain (`parent: "none"`) or names another
 * chain's handoff as its parent still cannot hand the same unchanged work to the same
 * specialist again while that one is waiting.
 * @param handoffRoot absolute handoff root (`handoff.directory`)
 */
export async function openVisits(handoffRoot: string, specialist: string, topic: string): Promise<ChainVisit[]> {
  return visits(handoffRoot, specialist, (fm) => fm.topic === topic && OPEN.has(fm.status));
}
