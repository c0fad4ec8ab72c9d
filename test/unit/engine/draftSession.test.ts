/**
 * The panel's draft in the engine (src/engine/draft/draftSession.ts): the evidence collected once, the
 * evidence minus what the user left out, the evidence as the panel lists it, and the
 * preview of the handoff as it would be written. Real git repositories in temporary folders.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { emptyGitEvidence } from '../../../src/core/handoff/gitEvidence';
import { parseHandoff } from '../../../src/core/handoff/parse';
import type { TestRun, Turn } from '../../../src/core/handoff/schema';
import { testKey } from '../../../src/core/panel/draft';
import { collectDraftEvidence, draftEnvironment, evidenceView, previewHandoff, type DraftEvidence } from '../../../src/engine/draft/draftSession';
import { handover, prepareHandover, type JobContext } from '../../../src/engine/handover/handover';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../helpers/repo';

function repo(): string {
  const dir = initRepo(tempDir('handoff-draft-'));
  write(dir, 'src/a.ts', 'export const a = 1;\n');
  commitAll(dir, 'initial');
  write(dir, 'src/a.ts', 'export const a = 2;\n');
  write(dir, 'src/b.ts', 'export const b = 1;\n');
  return dir;
}

const turn = (text: string): Turn => ({ role: 'user', text });
const run = (command: string): TestRun => ({
  command,
  cwd: null,
  result: 'passed',
  exit_code: 0,
  source: 'recorder',
  started_at: '2026-01-01T00:00:00.000Z',
  duration_ms: null,
});

describe('the panel draft (src/engine/draft/draftSession.ts)', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('collects git evidence, no session log when none is asked for, and the latest handoff once there is one', async () => {
    const ws = repo();
    const env: JobContext = { workspaceRoot: ws, sessionLog: { mode: 'none' } };
    const first = await collectDraftEvidence(env);
    assert.deepEqual(first.git.touchedFiles.map((f) => f.path).sort(), ['src/a.ts', 'src/b.ts']);
    assert.equal(first.session, undefined);
    assert.equal(first.latest, undefined);
    const written = await handover({ specialist: 'hacker', topic: 'first' }, env);
    assert.equal(written.status, 'ok', written.status === 'error' ? written.message : '');
    const second = await collectDraftEvidence(env);
    assert.equal(second.latest?.specialist, 'hacker');
    assert.equal(second.latest?.file_ref, readdirSync(path.join(ws, '.handoff', 'handoffs'))[0]);
  });

  it('leaves out the excluded files, commits, tests and turns, and gives an empty session log when none was read', () => {
    const commit = (c: string, subject: string) => ({ sha: c.repeat(40), subject, author: 'Test Author', date: '2026-01-01T00:00:00Z' });
    const evidence: DraftEvidence = {
      git: {
        ...emptyGitEvidence('git note'),
        problem: null,
        touchedFiles: [
          { path: 'a.ts', status: 'M', added: 1, deleted: 1, binary: false, old_path: null },
          { path: 'b.ts', status: 'A', added: 1, deleted: 0, binary: false, old_path: null },
        ],
        commits: [commit('a', 'one'), commit('b', 'two')],
      },
      session: {
        tests_run: [run('npm test'), run('npm run lint')],
        recent_turns: [turn('one'), turn('two')],
        file_edits: [],
        transcripts: [],
        notes: ['log note'],
        next_state: { version: 1, files: {} },
      },
      latest: undefined,
    };
    const excluded = { files: ['b.ts'], commits: ['a'.repeat(40)], tests: [testKey(run('npm run lint'))], turns: [0] };
    const env = draftEnvironment({ workspaceRoot: '/ws' }, evidence, excluded);
    const git = env.evidence as DraftEvidence['git'];
    assert.deepEqual(
      git.touchedFiles.map((f) => f.path),
      ['a.ts'],
    );
    assert.deepEqual(
      git.commits.map((c) => c.subject),
      ['two'],
    );
    assert.deepEqual(
      env.sessionEvidence?.tests_run.map((t) => t.command),
      ['npm test'],
    );
    assert.deepEqual(env.sessionEvidence?.recent_turns, [turn('two')]);
    assert.equal(env.workspaceRoot, '/ws');
    // Every item is still listed: the webview marks what the draft leaves out.
    const view = evidenceView(evidence);
    assert.equal(view.touched_files.length, 2);
    assert.deepEqual(view.notes, ['git note', 'log note']);
    assert.equal(view.latest, null);
    const none = draftEnvironment({ workspaceRoot: '/ws' }, { ...evidence, session: undefined }, { files: [], commits: [], tests: [], turns: [] });
    assert.deepEqual(none.sessionEvidence, {
      tests_run: [],
      recent_turns: [],
      file_edits: [],
      transcripts: [],
      notes: [],
      next_state: { version: 1, files: {} },
    });
  });

  it('previews the handoff as it would be written, pending, without writing a file', async () => {
    const ws = repo();
    const env: JobContext = { workspaceRoot: ws, sessionLog: { mode: 'none' } };
    const prepared = await prepareHandover({ specialist: 'quality_reviewer', topic: 'review the change', summary: 'Ready for review.' }, env);
    assert.equal(prepared.status, 'prepared', prepared.status === 'error' ? prepared.message : '');
    if (prepared.status !== 'prepared') return;
    const text = previewHandoff(prepared.prepared, false, new Date('2026-02-03T04:05:06.789Z'));
    const parsed = parseHandoff(text);
    assert.ok(parsed.ok);
    assert.equal(parsed.handoff.frontmatter.status, 'pending');
    assert.equal(parsed.handoff.frontmatter.id, '2026-02-03T04-05-06.789Z_quality_reviewer');
    assert.match(parsed.handoff.sections.get('Summary') ?? '', /Ready for review\./);
    assert.deepEqual(
      readdirSync(ws).filter((f) => f === '.handoff'),
      [],
    );
  });
});
