// Agents' SQLite stores are read with Node's own `node:sqlite` where the runtime has it (Node 22.13+: VS Code 1.101+,
// the CLI on a current Node), else with node-sqlite3-wasm: SQLite compiled to WebAssembly, reading pages from disk
// through Node's `fs` (memory bounded, no native build, nothing downloaded at install). Both open the file read-only.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { openRegularForReading } from '../lines';

export interface SqliteStatement {
  all(...params: unknown[]): unknown[];
  /** Missing in node:sqlite before 22.13. */
  iterate?(...params: unknown[]): Iterable<unknown>;
}
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  close(): void;
}

interface NodeSqlite {
  DatabaseSync: new (file: string, options: { readOnly: boolean }) => SqliteDatabase;
}
interface WasmStatement {
  all(values?: unknown[]): unknown[];
  iterate(values?: unknown[]): Iterable<unknown>;
  readonly isFinalized: boolean;
  finalize(): void;
}
interface WasmSqlite {
  Database: new (
    file: string,
    options: { readOnly: boolean; fileMustExist: boolean },
  ) => {
    exec(sql: string): void;
    prepare(sql: string): WasmStatement;
    close(): void;
  };
}

function nodeSqlite(): NodeSqlite | undefined {
  try {
    const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
    return get?.('node:sqlite') as NodeSqlite | undefined;
  } catch {
    return undefined;
  }
}

let wasm: { readonly lib?: WasmSqlite; readonly error?: string } | undefined;
function wasmSqlite(): { readonly lib?: WasmSqlite; readonly error?: string } {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on the first SQLite read only (1.3 MB of WebAssembly)
    wasm ??= { lib: require('node-sqlite3-wasm') as WasmSqlite };
  } catch (e) {
    wasm = { error: e instanceof Error ? e.message : String(e) };
  }
  return wasm;
}

function wasmDatabase(lib: WasmSqlite, file: string): SqliteDatabase {
  const db = new lib.Database(file, { readOnly: true, fileMustExist: true });
  const statements: WasmStatement[] = [];
  try {
    // The library's file system has no shared memory, which readers of a WAL database use for the WAL index;
    // in exclusive locking mode SQLite keeps that index in the process's own memory. Nothing is written.
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
  } catch (e) {
    db.close();
    throw e;
  }
  return {
    prepare(sql) {
      const st = db.prepare(sql);
      statements.push(st);
      return { all: (...params) => st.all(params), iterate: (...params) => st.iterate(params) };
    },
    close() {
      for (const st of statements) if (!st.isFinalized) st.finalize();
      db.close();
    },
  };
}

/** Whether this runtime can read SQLite at all (`node:sqlite`, else the bundled WebAssembly SQLite). */
export function hasSqlite(): boolean {
  return nodeSqlite() !== undefined || wasmSqlite().lib !== undefined;
}

/**
 * Opens `file` read-only, runs `use`, and closes it whatever happens.
 * @param whereMissing what the caller reads, for the error when neither SQLite can be loaded
 * @throws when no SQLite can be loaded, or the file cannot be opened or read
 */
export function withReadOnlyDb<T>(file: string, whereMissing: string, use: (db: SqliteDatabase) => T): T {
  const builtin = nodeSqlite();
  let db: SqliteDatabase;
  if (builtin) db = new builtin.DatabaseSync(file, { readOnly: true });
  else {
    const { lib, error } = wasmSqlite();
    if (!lib)
      throw new Error(
        `this Node (${process.version}) has no node:sqlite and the bundled SQLite did not load (${error}); ${whereMissing} are read with Node 22.13 or later (VS Code's own, or the CLI run with a newer node)`,
      );
    db = wasmDatabase(lib, file);
  }
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** A statement's rows one at a time, so memory stays bounded by one row. */
export function rows(st: SqliteStatement, ...params: unknown[]): Iterable<unknown> {
  return st.iterate ? st.iterate(...params) : st.all(...params);
}

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** Whether the file starts with SQLite's header. False when it cannot be read. */
export async function isSqliteFile(file: string): Promise<boolean> {
  try {
    const fh = await openRegularForReading(file);
    try {
      const buf = Buffer.alloc(SQLITE_MAGIC.length);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      return buf.subarray(0, bytesRead).toString('latin1') === SQLITE_MAGIC;
    } finally {
      await fh.close().catch(() => undefined);
    }
  } catch {
    return false;
  }
}

/** `<file>#<id>` at its last `#`. */
export function splitAtHash(ref: string): { dbFile: string; id?: string } {
  const hash = ref.lastIndexOf('#');
  return hash < 0 ? { dbFile: ref } : { dbFile: ref.slice(0, hash), id: ref.slice(hash + 1) };
}

/**
 * The database of `ref` (a file, or `<file>#<id>` as `split` reads it) when its tables are an agent's (`isStore`: the
 * content, not the name, decides). Where no SQLite can be loaded, an SQLite file named `name` is taken for the agent's,
 * so that its read says what is missing.
 */
export async function sqliteStoreOf(
  ref: string,
  name: string,
  isStore: (db: SqliteDatabase) => boolean,
  split: (ref: string) => { dbFile: string; id?: string } = splitAtHash,
): Promise<{ dbFile: string; id?: string } | undefined> {
  const whole = (await stat(ref).catch(() => undefined))?.isFile();
  const target = whole ? { dbFile: ref } : split(ref);
  if (!target.id && !whole) return undefined;
  if (!(await isSqliteFile(target.dbFile))) return undefined;
  if (!hasSqlite()) return path.basename(target.dbFile) === name ? target : undefined;
  try {
    return withReadOnlyDb(target.dbFile, name, isStore) ? target : undefined;
  } catch {
    return undefined;
  }
}
