import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseHandoff, parseTouchedFiles } from '../../src/core/handoff/parse';
import { handover } from '../../src/engine/handover/handover';
import { createDemoRepository } from '../../scripts/demoRepo';
import { cleanupTempDirs, rawGitView, tempDir } from '../helpers/repo';

describe('the demo repository', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it("the demo's handoff lists exactly the paths, statuses and +/- counts git gives", async () => {
    const dir = path.join(tempDir(), 'todo-api');
    createDemoRepository(dir);
    const git = rawGitView(dir);
    // The demo holds every kind of change the handoff must report.
    const xy = new Set(git.map((g) => g.xy));
    for (const kind of ['R.', '.D', 'A.', '.M', '??']) {
      assert.ok(xy.has(kind), `demo has a ${kind} entry: ${[...xy].join(' ')}`);
    }
    assert.ok(
      git.some((g) => g.added === null && g.xy === '.M'),
      'a changed binary file',
    );
    assert.ok(
      git.some((g) => /\s/.test(g.path) && /[^ -~]/.test(g.path)),
      'a path with a space and non-ASCII',
    );

    const r = await handover({ specialist: 'quality_reviewer', topic: 'Token auth' }, { workspaceRoot: dir });
    assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
    if (r.status !== 'ok') return;
    const parsed = parseHandoff(readFileSync(r.handoff_file, 'utf8'));
    assert.ok(parsed.ok);
    const listed = parseTouchedFiles(parsed.handoff.sections.get('Touched files') ?? '');
    const statusOf = (xyCode: string): string => {
      if (xyCode === '??') return '?';
      if (xyCode.includes('R')) return 'R';
      if (xyCode[0] === 'A') return 'A';
      if (xyCode.includes('D')) return 'D';
      return 'M';
    };
    assert.deepEqual(
      listed.map((f) => ({ path: f.path, status: f.status, old_path: f.old_path, added: f.added, deleted: f.deleted })),
      git.map((g) => ({ path: g.path, status: statusOf(g.xy), old_path: g.orig, added: g.added, deleted: g.deleted })),
    );
    assert.equal(parsed.handoff.frontmatter.touched_files_count, git.length);
  });
});
