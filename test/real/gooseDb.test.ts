/**
 * `npm run test:real`: the one public Goose `sessions.db` found (test/fixtures/real/SOURCES.md: schema version 5, before
 * `messages.message_id`; one CLI session and no message yet), read in place. It is Goose's by its
 * tables under a neutral name, its session is the one found for its folder, and its read has no event and no error.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { detectTranscript } from '../../src/evidence/session/detect';
import { findGoose } from '../../src/evidence/session/discoveryCliAgents';
import { readGooseSession } from '../../src/evidence/session/readers/gooseDb';
import { cleanupTempDirs, tempDir } from '../helpers/repo';

// Beside the facts corpus, not in it: a session without messages carries no fact to check.
const OWN = path.resolve(__dirname, '..', 'fixtures', 'real-sqlite');
const LOGS = existsSync(OWN) ? OWN : path.resolve(__dirname, '..', '..', '..', 'shared', 'fixtures', 'real-sqlite');
const DB = path.join(LOGS, 'goose', 'dotfiles-sessions.db');
const FOLDER = '/Users/user/workspace/tmp/vsl';

describe("Goose's sessions.db from a public repository", function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  // Like the other real logs: where the corpus is not on this machine there is nothing to check.
  if (existsSync(DB))
    it('goose/dotfiles-sessions.db: its one session found for its folder and read, by content whatever its name', async () => {
      const sessions = path.join(tempDir('handoff-real-goose-'), 'sessions');
      mkdirSync(sessions, { recursive: true });
      copyFileSync(DB, path.join(sessions, 'sessions.db'));
      const neutral = path.join(path.dirname(sessions), 'log-0');
      copyFileSync(DB, neutral);
      assert.deepEqual(await detectTranscript(neutral), { source: 'goose', format: 'goose', file: neutral });
      const found = await findGoose(sessions, FOLDER);
      assert.deepEqual(
        found.map((f) => [f.source, path.basename(f.file), f.mtimeMs]),
        [['goose', 'sessions.db#20251202_1', Date.UTC(2025, 11, 2, 16, 58, 55)]],
      );
      assert.deepEqual(await findGoose(sessions, '/Users/user/elsewhere'), []);
      const r = await readGooseSession(found[0].file, { workspaceRoot: FOLDER });
      assert.equal(r.error, undefined);
      assert.deepEqual(r.events, []);
      assert.equal(r.stats.lines, 0);
    });
});
