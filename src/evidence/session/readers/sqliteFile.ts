import { nodeSqlite } from './opencodeDb';

export interface SqliteStatement {
  all(...params: unknown[]): unknown[];
}
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/**
 * Opens `file` read-only with `node:sqlite`, runs `use`, and closes it whatever happens.
 * @param whereMissing what the caller reads, for the error when the runtime has no `node:sqlite`
 * @throws when `node:sqlite` is missing or the file cannot be opened
 */
export function withReadOnlyDb<T>(file: string, whereMissing: string, use: (db: SqliteDatabase) => T): T {
  const sqlite = nodeSqlite();
  if (!sqlite)
    throw new Error(
      `this Node (${process.version}) has no node:sqlite; ${whereMissing} are read with Node 22.13 or later (VS Code's own, or the CLI run with a newer node)`,
    );
  const db = new sqlite.DatabaseSync(file, { readOnly: true }) as unknown as SqliteDatabase;
  try {
    return use(db);
  } finally {
    db.close();
  }
}
