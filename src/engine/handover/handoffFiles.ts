/** A project's handoff files, for the commands that list, open and change them one at a time. */
import path from 'node:path';
import { HANDOFFS_DIR } from '../../core/handoff/naming';
import type { ParsedHandoff } from '../../core/handoff/parse';
import { listHandoffFiles, readHandoffHead, type HandoffFileEntry } from '../../store/handoffs/handoffIndex';
import { resolveInside } from '../../store/pathGuard';
import { readBriefing } from '../../store/handoffs/briefingFiles';

export { readBriefing } from '../../store/handoffs/briefingFiles';

export { markPartial, setHandoffStatus, type SetStatusResult } from '../../store/handoffs/handoffStore';
export { readHandoffHead, type HandoffFileEntry } from '../../store/handoffs/handoffIndex';

const OPEN_STATUSES: ReadonlySet<string> = new Set(['pending', 'accepted', 'in_progress']);

export function isHandoffFile(handoffRoot: string, file: string): boolean {
  return file.startsWith(path.join(handoffRoot, HANDOFFS_DIR) + path.sep);
}

/** By name only, oldest first; a missing folder is empty. @throws when the folder cannot be listed (message starts with `ERROR:`) */
export function listHandoffs(handoffRoot: string): Promise<HandoffFileEntry[]> {
  return listHandoffFiles(path.join(handoffRoot, HANDOFFS_DIR));
}

/** Whole handoffs (not results) among the newest `limit` files that are pending, accepted or in progress; newest first. */
export async function openHandoffs(handoffRoot: string, limit = 100): Promise<Array<{ file: HandoffFileEntry; head: ParsedHandoff }>> {
  const open: Array<{ file: HandoffFileEntry; head: ParsedHandoff }> = [];
  for (const file of (await listHandoffs(handoffRoot))
    .filter((f) => !f.partial)
    .reverse()
    .slice(0, limit)) {
    const head = await readHandoffHead(file.path);
    if (head && head.frontmatter.kind === 'handoff' && OPEN_STATUSES.has(head.frontmatter.status)) open.push({ file, head });
  }
  return open;
}

/**
 * `briefing_file` is resolved under the handoff root by the path guard (no `..`, nothing outside); `briefing` is
 * undefined when unreadable, unnamed (results name none) or refused; `text` is the whole briefing.
 */
export async function briefingOf(
  handoffRoot: string,
  file: string,
): Promise<{ head: ParsedHandoff | undefined; briefing: string | undefined; text: string | undefined }> {
  const head = await readHandoffHead(file);
  const named = head?.frontmatter.briefing_file;
  const resolved = named ? resolveInside(handoffRoot, ...named.split('/')) : undefined;
  const briefing = resolved?.ok ? resolved.path : undefined;
  return { head, briefing, text: briefing ? await readBriefing(briefing) : undefined };
}
