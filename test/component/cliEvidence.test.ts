/**
 * Issue 19: `specialist-handoff handover` starts collecting the git evidence itself, before the
 * session id and the request checks, and hands the promise to the engine
 * (JobContext.evidence) instead of letting the engine collect it. Differential: the
 * git facts of the handoff the CLI writes equal those of the handoff the engine writes
 * collecting on its own (`handover(request, env)` without `evidence`), from the same
 * repository and the same handoff history — a first handoff, and a later one whose base is
 * the previous handoff's HEAD, with commits and a rename since.
 */
import assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { HandoverOkSchema, type HandoffPackage } from '../../src/core/handoff/schema';
import { handover } from '../../src/engine/handover/handover';
import { cli, repoWithWork } from '../helpers/cli';
import { cleanupTempDirs, commitAll, git, tempDir, write } from '../helpers/repo';

/** The package fields that come from git. */
function gitFacts(p: HandoffPackage): unknown {
  const {
    base_commit,
    head_commit,
    branch,
    detached,
    upstream,
    ahead,
    behind,
    diff_hash,
    git_operation,
    touched_files,
    touched_files_omitted,
    commits,
    commits_omitted,
    diff_excerpt,
    diff_excerpt_truncated,
  } = p;
  return {
    base_commit,
    head_commit,
    branch,
    detached,
    upstream,
    ahead,
    behind,
    diff_hash,
    git_operation,
    touched_files,
    touched_files_omitted,
    commits,
    commits_omitted,
    diff_excerpt,
    diff_excerpt_truncated,
  };
}

/** The CLI's handoff and the engine's, each written from the same `.handoff` history (saved and put back between them). */
async function both(dir: string): Promise<[unknown, unknown]> {
  const saved = path.join(tempDir(), 'handoff-copy');
  const handoffs = path.join(dir, '.handoff');
  cpSync(handoffs, saved, { recursive: true, errorOnExist: false, force: true });
  const r = await cli(['handover', '-s', 'quality_reviewer', '-t', 'review', '--summary', 'Done.', '--session-log', 'none', '--json'], dir);
  assert.equal(r.code, 0, r.err);
  const viaCli = HandoverOkSchema.parse(JSON.parse(r.out));
  rmSync(handoffs, { recursive: true, force: true });
  cpSync(saved, handoffs, { recursive: true });
  const viaEngine = await handover({ specialist: 'quality_reviewer', topic: 'review', summary: 'Done.' }, { workspaceRoot: dir, sessionLog: { mode: 'none' } });
  assert.equal(viaEngine.status, 'ok', JSON.stringify(viaEngine));
  if (viaEngine.status !== 'ok') throw new Error('unreachable');
  return [gitFacts(viaCli.package), gitFacts(viaEngine.package)];
}

describe('CLI handover: the git evidence it collects early equals the engine’s own (differential)', function () {
  this.timeout(60_000);
  after(cleanupTempDirs);

  it('a first handoff, then one based on the previous handoff’s HEAD with commits and a rename since', async () => {
    const dir = repoWithWork();
    write(dir, '.handoff/.keep', '');
    const [firstCli, firstEngine] = await both(dir);
    assert.deepEqual(firstCli, firstEngine);
    // The engine's handoff stays as the history: the next base is its HEAD.
    write(dir, 'c.txt', 'c\n');
    commitAll(dir, 'c2');
    git(dir, 'mv', 'a.txt', 'renamed.txt');
    commitAll(dir, 'c3: rename');
    write(dir, 'renamed.txt', 'a\nb\nc\n');
    const [laterCli, laterEngine] = await both(dir);
    assert.deepEqual(laterCli, laterEngine);
    assert.equal((laterCli as { commits: unknown[] }).commits.length, 2);
  });
});
