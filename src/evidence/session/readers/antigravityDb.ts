// Antigravity's `conversation_summaries.db` (SQLite, beside `brain/` in each data folder of newer builds): table
// `conversation_summaries (conversation_id, title, …, last_modified_time, workspace_uris, …)`, `workspace_uris` plain text
// naming the folders a conversation was opened on (a JSON array of `file://` URIs). Read-only (sqliteFile.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { withReadOnlyDb } from './sqliteFile';

export const ANTIGRAVITY_SUMMARIES_DB = 'conversation_summaries.db';
const MAX_ROWS = 5000;

const SummaryRowSchema = z.looseObject({ conversation_id: z.string(), workspace_uris: z.string() });

/** Local folders of `workspace_uris`: a JSON array of `file://` URIs or absolute paths, else one; other schemes (remote) left out. */
export function antigravityWorkspaceFolders(workspaceUris: string): string[] {
  let items: unknown;
  try {
    items = JSON.parse(workspaceUris);
  } catch {
    items = [workspaceUris];
  }
  const out: string[] = [];
  for (const u of Array.isArray(items) ? items : [items]) {
    if (typeof u !== 'string' || !u.trim()) continue;
    try {
      if (u.startsWith('file:')) out.push(fileURLToPath(u));
      else if (path.isAbsolute(u)) out.push(path.resolve(u));
    } catch {
      // not a local folder's URI
    }
  }
  return out;
}

/**
 * The conversations of the summaries, newest first (`last_modified_time`), with their folders.
 * @throws when no SQLite can be loaded (the message names the fix) or the file is no such database
 */
export function antigravitySummaries(dbFile: string): Array<{ id: string; folders: string[] }> {
  return withReadOnlyDb(dbFile, "Antigravity's conversation summaries (conversation_summaries.db, tying conversations to their folders)", (db) =>
    db
      .prepare('SELECT conversation_id, workspace_uris FROM conversation_summaries ORDER BY last_modified_time DESC LIMIT ?')
      .all(MAX_ROWS)
      .flatMap((r) => {
        const row = SummaryRowSchema.safeParse(r);
        return row.success ? [{ id: row.data.conversation_id, folders: antigravityWorkspaceFolders(row.data.workspace_uris) }] : [];
      }),
  );
}
