/**
 * The agents' SQLite stores are opened read-only on every Node: `node:sqlite` where it exists (this file under
 * `npm run test:lts`, Node 24), node-sqlite3-wasm before it (the unit run, Node 20). Agents keep their stores in WAL
 * mode and write them while a handoff reads, so the database here is one whose rows are still only in its `-wal` file
 * (written by the `sqlite3` program, which leaves the WAL unmerged when told not to checkpoint on close).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hasSqlite, rows, withReadOnlyDb } from '../../../../src/evidence/session/readers/sqliteFile';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('SQLite stores opened read-only on every Node', () => {
  after(cleanupTempDirs);
  const builtin = typeof (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.('node:sqlite') === 'object';

  it(`reads the rows still only in a WAL database's -wal file and changes none of its files (${builtin ? 'node:sqlite' : 'node-sqlite3-wasm'})`, () => {
    assert.equal(hasSqlite(), true);
    const db = path.join(tempDir(), 'store.db');
    execFileSync('sqlite3', [
      db,
      '.dbconfig no_ckpt_on_close on',
      'PRAGMA journal_mode=WAL;',
      "CREATE TABLE m (id INTEGER, body TEXT); INSERT INTO m VALUES (1, 'npm test'), (2, x'6869');",
    ]);
    assert.ok([db, `${db}-wal`, `${db}-shm`].every(existsSync), 'the WAL is left unmerged');
    // The shared-memory file is the readers' and writers' meeting place (node:sqlite's reader marks it): not data.
    const files = [db, `${db}-wal`];
    const before = files.map(digest);
    const got = withReadOnlyDb(db, 'test stores', (h) => [...rows(h.prepare('SELECT id, body FROM m WHERE id > ? ORDER BY id'), 0)]);
    assert.deepEqual(
      got.map((r) => {
        const { id, body } = r as { id: unknown; body: unknown };
        return [Number(id), body instanceof Uint8Array ? `blob:${Buffer.from(body).toString('utf8')}` : body];
      }),
      [
        [1, 'npm test'],
        [2, 'blob:hi'],
      ],
    );
    assert.deepEqual(files.map(digest), before, 'read-only: the database and its WAL are unchanged');
  });

  it('a missing file is an error and is not created; a file that is no database is an error', () => {
    const dir = tempDir();
    const missing = path.join(dir, 'none.db');
    assert.throws(() => withReadOnlyDb(missing, 'test stores', () => 0));
    assert.equal(existsSync(missing), false);
    const text = path.join(dir, 'notes.db');
    writeFileSync(text, 'not a database, just text that is long enough to fill a header of one hundred bytes or so. '.repeat(3));
    assert.throws(() => withReadOnlyDb(text, 'test stores', (h) => h.prepare('SELECT name FROM sqlite_master').all()));
  });

  it('closes the database when the caller throws, so the next read opens it again', () => {
    const db = path.join(tempDir(), 'again.db');
    execFileSync('sqlite3', [db, 'CREATE TABLE t (a); INSERT INTO t VALUES (7);']);
    assert.throws(
      () =>
        withReadOnlyDb(db, 'test stores', (h) => {
          h.prepare('SELECT a FROM t').all();
          throw new Error('the caller failed');
        }),
      /the caller failed/,
    );
    assert.deepEqual(
      withReadOnlyDb(db, 'test stores', (h) => h.prepare('SELECT a FROM t').all()).map((r) => Number((r as { a: unknown }).a)),
      [7],
    );
  });
});
