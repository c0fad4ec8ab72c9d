import { execFileSync } from 'node:child_process';

/** Runs `sql` on the database `file` (made if missing): Node's `node:sqlite` when this Node has it, else the `sqlite3` program. */
export function execSql(file: string, sql: string): void {
  const sqlite = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.('node:sqlite') as
    { DatabaseSync: new (f: string) => { exec(s: string): void; close(): void } } | undefined;
  if (sqlite) {
    const db = new sqlite.DatabaseSync(file);
    db.exec(sql);
    db.close();
  } else {
    execFileSync('sqlite3', [file], { input: sql });
  }
}
