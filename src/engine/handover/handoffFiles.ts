/**
 * The handoff files of a project, for the commands that list, open and change them one
 * at a time (the timeline's context menu and the receiving side's commands in VS Code):
 * which files are handoffs of this project, the newest ones, the open ones a result can
 * answer, a handoff's briefing, its status (the one in-place change a handoff allows,
 * docs/DESIGN.md §5 "Handoff files") and the partial mark of a handoff whose writing did not
 * finish.
 *
 *   handoff root ─▶ listHandoffs / openHandoffs ─▶ a file ─▶ readHandoffHead, briefingOf, setHandoffStatus, markPartial
 */
import path from 'node:path';
import { HANDOFFS_DIR } from '../../core/handoff/naming';
import type { ParsedHandoff } from '../../core/handoff/parse';
import { listHandoffFiles, readHandoffHead, type HandoffFileEntry } from '../../store/handoffs/handoffIndex';
import { resolveInside } from '../../store/pathGuard';
import { readBriefing } from '../../store/handoffs/briefingFiles';

export { readBriefing } from '../../store/handoffs/briefingFiles';

export { markPartial, setHandoffStatus, type SetStatusResult } from '../../store/handoffs/handoffStore';
export { readHandoffHead, type HandoffFileEntry } from '../../store/handoffs/handoffIndex';

/** Statuses of a handoff that a result can still answer: pending, accepted, in progress. */
const OPEN_STATUSES: ReadonlySet<string> = new Set(['pending', 'accepted', 'in_progress']);

/** Whether `file` (absolute) is in the `handoffs/` folder of the handoff root `handoffRoot`. */
export function isHandoffFile(handoffRoot: string, file: string): boolean {
  return file.startsWith(path.join(handoffRoot, HANDOFFS_DIR) + path.sep);
}

/**
 * The handoff files of the handoff root, by name only (no file read), oldest first; a
 * missing folder is an empty list.
 * @throws when the folder exists but cannot be listed (the message starts with `ERROR:`)
 */
export function listHandoffs(handoffRoot: string): Promise<HandoffFileEntry[]> {
  return listHandoffFiles(path.join(handoffRoot, HANDOFFS_DIR));
}

/**
 * The open handoffs a result can answer, newest first: whole (not partial) files among
 * the newest `limit` whose frontmatter says `kind: handoff` and a status of pending,
 * accepted or in progress. Reads the start of each of those files.
 */
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
 * A handoff and its briefing file: the parsed start of `file`, and the briefing its
 * frontmatter names (`briefing_file`, a POSIX path relative to the handoff root such as
 * `briefings/2026-05-26_quality_reviewer_auth.md`, docs/DESIGN.md §5), resolved under the
 * handoff root segment by segment with the path guard (`resolveInside` in
 * src/store/pathGuard.ts: no `..`, no absolute path, nothing outside the root).
 * `briefing_file` names this handoff's section file (`briefings/<name>/<id>.md`) or, for a
 * handoff written before one file per section, the single briefing (`briefings/<name>.md`);
 * `text` is the whole briefing either way (`readBriefing`, src/store/handoffs/briefingFiles.ts:
 * the older single file, then the folder's sections in name order).
 * @returns `briefing` undefined when the file cannot be read, names no briefing (results
 *   do not), or the name does not pass the path guard; `text` undefined when nothing can be read
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
