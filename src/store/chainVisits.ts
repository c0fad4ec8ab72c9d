/**
 * Earlier visits of a specialist in a chain (DESIGN §4 chain links), for the progress
 * guard: the handoffs of chain `rootId` addressed to `specialist`, read from the handoff
 * folder by name first (a handoff's file name ends in the specialist it goes to), then by
 * frontmatter. Read-only; never throws.
 */
import { HANDOFFS_DIR } from '../core/naming';
import type { ChainVisit } from '../core/compose';
import path from 'node:path';
import { listHandoffFiles, readHandoffHead } from './handoffStore';

/** Most files whose frontmatter is read for one lookup: 200 (a chain is a few hops; the newest are read first). */
export const MAX_CHAIN_VISIT_READS = 200;

/**
 * The handoffs (not results) of the chain `rootId` that went to `specialist`, newest first.
 * @param handoffRoot absolute handoff root (`handoff.directory`)
 */
export async function chainVisits(handoffRoot: string, rootId: string, specialist: string): Promise<ChainVisit[]> {
  const files = await listHandoffFiles(path.join(handoffRoot, HANDOFFS_DIR)).catch(() => []);
  const out: ChainVisit[] = [];
  const candidates = files.filter((f) => f.specialist === specialist).reverse().slice(0, MAX_CHAIN_VISIT_READS);
  for (const f of candidates) {
    const h = await readHandoffHead(f.path);
    const fm = h?.frontmatter;
    if (fm && fm.kind === 'handoff' && fm.root_id === rootId && fm.specialist === specialist) {
      out.push({ id: fm.id, diff_hash: fm.diff_hash, head_commit: fm.head_commit });
    }
  }
  return out;
}
