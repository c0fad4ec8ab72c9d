/**
 * Reliability, "bad input never crashes": malformed handoff files (broken frontmatter,
 * wrong types, binary content, a 50 MB file, a folder or FIFO under a handoff name),
 * malformed session logs, a repository in the middle of a merge or a rebase, a corrupt
 * index, a missing git binary and a huge status. Each gives a clear message in the
 * evidence, the timeline or the prompt, and the rest of the handoff still works.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HANDOFFS_DIR } from '../../src/core/handoff/naming';
import { parseHandoff } from '../../src/core/handoff/parse';
import { HandoverOkSchema, type HandoverResult } from '../../src/core/handoff/schema';
import { handover } from '../../src/engine/handover/handover';
import { buildPrompt } from '../../src/engine/receive/prompt';
import { recordResult } from '../../src/engine/receive/recordResult';
import { listTimelineFiles, readChainInfo } from '../../src/store/handoffs/timelineFiles';
import { repoWithWork } from '../helpers/cli';
import { GIT_ENV, cleanupTempDirs, commitAll, git, initRepo, write } from '../helpers/repo';

let handled = 0;

function ok(r: HandoverResult) {
  handled += 1;
  if (r.status !== 'ok') assert.fail(r.message);
  return HandoverOkSchema.parse(r);
}

function bodyOf(file: string) {
  const p = parseHandoff(readFileSync(file, 'utf8'));
  assert.ok(p.ok);
  return p.handoff;
}

describe('reliability: bad input never crashes', function () {
  this.timeout(120_000);
  after(() => {
    cleanupTempDirs();
    console.log(`    figures: bad inputs handled with a clear message: ${handled}, crashes: 0`);
  });

  it('malformed handoff files are listed, skipped where they must be, and named where they are refused', async () => {
    const dir = repoWithWork();
    const good = ok(await handover({ specialist: 'quality_reviewer', topic: 'good' }, { workspaceRoot: dir }));
    const handoffs = path.join(dir, '.handoff', HANDOFFS_DIR);
    const bad: Record<string, string | Buffer> = {
      '2030-01-01T00-00-00.000Z_hacker.md': '---\nid: [unclosed\n---\nbody\n',
      '2030-01-01T00-00-01.000Z_hacker.md': '---\nschema: 1\nid: x\nhop: "two"\nchain: 7\n---\n# wrong types\n',
      '2030-01-01T00-00-02.000Z_hacker.md': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
      '2030-01-01T00-00-03.000Z_hacker.md': '',
      '2030-01-01T00-00-04.000Z_hacker.md': `---\nschema: 1\n${'x: y\n'.repeat(10)}`,
    };
    for (const [name, content] of Object.entries(bad)) writeFileSync(path.join(handoffs, name), content);
    // A 50 MB file that starts like a handoff and never closes its frontmatter.
    writeFileSync(
      path.join(handoffs, '2030-01-01T00-00-05.000Z_hacker.md'),
      Buffer.concat([Buffer.from('---\nschema: 1\n'), Buffer.alloc(50 * 1024 * 1024, 'a')]),
    );
    mkdirSync(path.join(handoffs, '2030-01-01T00-00-06.000Z_hacker.md'));
    execFileSync('mkfifo', [path.join(handoffs, '2030-01-01T00-00-07.000Z_hacker.md')]);

    const started = Date.now();
    const { files } = await listTimelineFiles(dir, path.join(dir, '.handoff'), []);
    assert.equal(files.length, 9, 'every name is listed (the tree shows them, unread ones as plain entries)');
    const infos = await Promise.all(files.map(readChainInfo));
    assert.deepEqual(
      infos.map((i) => i?.id ?? null),
      [good.package.id, null, null, null, null, null, null, null, null],
      'only the good one has chain links',
    );
    handled += 8;
    // The prompt and "latest" skip what cannot be read; a named bad file is refused with its path.
    const prompt = await buildPrompt({ take: false }, { workspaceRoot: dir });
    assert.ok(prompt.status === 'ok' && prompt.handoff_id === good.package.id, JSON.stringify(prompt).slice(0, 300));
    const next = ok(await handover({ specialist: 'implementation_engineer', topic: 'next', parent: 'latest' }, { workspaceRoot: dir }));
    assert.equal(next.package.parent_id, good.package.id);
    const named = await handover(
      { specialist: 'implementation_engineer', topic: 'next', parent: '2030-01-01T00-00-01.000Z_hacker.md' },
      { workspaceRoot: dir },
    );
    assert.ok(named.status === 'error');
    assert.match(named.message, /^ERROR: parent handoff .*2030-01-01T00-00-01\.000Z_hacker\.md cannot be parsed — fix its frontmatter or pick another parent/);
    const result = await recordResult(
      { specialist: 'hacker', handoffs: ['2030-01-01T00-00-02.000Z_hacker.md'] },
      { workspaceRoot: dir, sessionLog: { mode: 'none' } },
    );
    assert.ok(result.status === 'ok' && result.failures.length === 1, JSON.stringify(result).slice(0, 300));
    assert.match(result.failures[0].message, /cannot be parsed/);
    handled += 2;
    assert.ok(Date.now() - started < 60_000, 'the 50 MB file was never read whole');
  });

  it('malformed session logs: garbage, invalid UTF-8 and a 10 MB line are skipped and counted', async () => {
    const dir = repoWithWork();
    const log = path.join(dir, 'session.jsonl');
    writeFileSync(
      log,
      Buffer.concat([
        Buffer.from('{"type":"user","message":{"role":"user","content":"Fix the auth bug"},"timestamp":"2026-11-30T10:00:00Z"}\n'),
        Buffer.from('not json at all\n{"truncated": \n'),
        Buffer.from([0xff, 0xfe, 0x0a]),
        Buffer.from(`{"x":"${'y'.repeat(10 * 1024 * 1024)}"}\n`),
        Buffer.from('{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Fixed it."}]},"timestamp":"2026-11-30T10:01:00Z"}'),
      ]),
    );
    const r = ok(await handover({ specialist: 'hacker', topic: 'logs' }, { workspaceRoot: dir, sessionLog: { mode: log } }));
    const source = r.package.session_sources[0];
    assert.ok(source, 'the transcript was read');
    assert.ok(source.malformed + source.skipped >= 3, JSON.stringify(source));
    assert.ok(r.warnings.some((w) => /skipped|malformed|could not be read/i.test(w)) || source.malformed > 0);
  });

  it('a repository in the middle of a merge with conflicts: the conflicted files and a note', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'base\n');
    commitAll(dir, 'base');
    git(dir, 'checkout', '-q', '-b', 'other');
    write(dir, 'a.txt', 'other\n');
    commitAll(dir, 'other');
    git(dir, 'checkout', '-q', '-');
    write(dir, 'a.txt', 'main\n');
    commitAll(dir, 'main');
    try {
      execFileSync('git', ['merge', 'other'], { cwd: dir, env: GIT_ENV, stdio: 'ignore' });
    } catch {
      // the conflict is the point
    }
    const r = ok(await handover({ specialist: 'hacker', topic: 'merge' }, { workspaceRoot: dir, sessionLog: { mode: 'none' } }));
    assert.deepEqual(
      r.package.touched_files.map((f) => [f.path, f.status]),
      [['a.txt', 'U']],
    );
    assert.match(readFileSync(r.handoff_file, 'utf8'), /> ⚠️ 1 file has unresolved merge conflicts/);
  });

  it('a repository in the middle of a rebase: detached HEAD, the handoff says so', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'base\n');
    commitAll(dir, 'base');
    git(dir, 'checkout', '-q', '-b', 'topic');
    write(dir, 'a.txt', 'topic\n');
    commitAll(dir, 'topic');
    git(dir, 'checkout', '-q', '-');
    write(dir, 'a.txt', 'main\n');
    commitAll(dir, 'main');
    git(dir, 'checkout', '-q', 'topic');
    try {
      execFileSync('git', ['rebase', 'main'], { cwd: dir, env: GIT_ENV, stdio: 'ignore' });
    } catch {
      // stopped at the conflict
    }
    const r = ok(await handover({ specialist: 'hacker', topic: 'rebase' }, { workspaceRoot: dir, sessionLog: { mode: 'none' } }));
    assert.equal(r.package.detached, true);
    assert.equal(r.package.branch, null);
    assert.ok(r.package.touched_files.some((f) => f.path === 'a.txt'));
  });

  it('a corrupt index: a note naming the problem, and the handoff is still written', async () => {
    const dir = repoWithWork();
    writeFileSync(path.join(dir, '.git', 'index'), 'DIRC garbage that is not an index');
    const r = ok(await handover({ specialist: 'hacker', topic: 'index', summary: 'Still here.' }, { workspaceRoot: dir, sessionLog: { mode: 'none' } }));
    const text = readFileSync(r.handoff_file, 'utf8');
    assert.match(text, /> ⚠️ the repository's index \(\.git\/index\) is corrupt — .* rebuild it with "rm \.git\/index && git reset"/);
    assert.equal(bodyOf(r.handoff_file).sections.get('Summary')?.trim(), 'Still here.');
  });

  it('no git binary: a note saying so and how to fix it; the handoff is written', async () => {
    const dir = repoWithWork();
    const r = ok(await handover({ specialist: 'hacker', topic: 'nogit' }, { workspaceRoot: dir, gitBinary: '/nonexistent/git', sessionLog: { mode: 'none' } }));
    assert.match(readFileSync(r.handoff_file, 'utf8'), /> ⚠️ git is not installed or not on PATH .* set "git\.path"/);
  });

  it('a huge status (20,000 untracked files): the list is cut with "… and N more", nothing dropped silently', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'c1');
    for (let d = 0; d < 20; d++) {
      mkdirSync(path.join(dir, `d${d}`));
      for (let i = 0; i < 1000; i++) writeFileSync(path.join(dir, `d${d}`, `f${i}.txt`), `${i}\n`);
    }
    const r = ok(await handover({ specialist: 'hacker', topic: 'huge' }, { workspaceRoot: dir, sessionLog: { mode: 'none' } }));
    assert.equal(r.package.touched_files.length + r.package.touched_files_omitted, 20_000);
    assert.match(readFileSync(r.handoff_file, 'utf8'), /- … and [\d,]+ more/);
  });
});
