import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseHandoff, parseTouchedFiles } from '../../src/core/handoff/parse';
import { HandoverOkSchema, type HandoverOk, type HandoverResult } from '../../src/core/handoff/schema';
import { handover } from '../../src/engine/handover/handover';
import { readBriefing } from '../../src/engine/handover/handoffFiles';
import { cleanupTempDirs, commitAll, git, initRepo, rawGitView, tempDir, write } from '../helpers/repo';

function ok(r: HandoverResult): HandoverOk {
  if (r.status !== 'ok') {
    assert.fail(r.message);
  }
  return HandoverOkSchema.parse(r);
}

function repoWithWork(): string {
  const dir = initRepo();
  write(dir, 'src/a.ts', 'export const a = 1;\n');
  write(dir, 'src/b.ts', 'export const b = 1;\n');
  commitAll(dir, 'initial');
  write(dir, 'src/a.ts', 'export const a = 2;\nexport const c = 3;\n');
  git(dir, 'mv', 'src/b.ts', 'src/renamed b.ts');
  write(dir, 'new file.md', '# new\n');
  return dir;
}

describe('handoff engine (real repositories, real files)', function () {
  this.timeout(20_000);
  after(cleanupTempDirs);

  it('writes the handoff and the briefing, and returns the DESIGN §4 result', async () => {
    const dir = repoWithWork();
    const r = ok(
      await handover(
        {
          specialist: 'quality_reviewer',
          topic: 'Auth review',
          summary: 'Done the work.',
          decisions: ['Use JWT', 'Keep sessions short'],
          next_steps: ['Review a.ts'],
          blockers: ['No issuer'],
        },
        { workspaceRoot: dir },
      ),
    );
    assert.equal(r.persona_marker, '[quality reviewer]');
    assert.ok(r.handoff_file.startsWith(path.join(dir, '.handoff', 'handoffs') + path.sep));
    assert.match(path.basename(r.handoff_file), /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z_quality_reviewer\.md$/);
    // One file per section in the briefing's folder (issue 20: branches merge without a conflict).
    assert.equal(
      r.briefing.path,
      path.join(dir, '.handoff', 'briefings', `quality-reviewer-auth-review-${r.package.created.slice(0, 10)}`, `${r.package.id}.md`),
    );
    assert.equal(r.package.briefing_file, r.briefing.path);
    assert.deepEqual({ existed: r.briefing.existed_before, created: r.briefing.newly_created }, { existed: false, created: true });
    assert.equal(r.briefing.size_bytes, readFileSync(r.briefing.path).length);
    assert.equal(r.history_file, null);
    assert.match(r.next_step, /Read \.handoff\/handoffs\/.+ and continue as \[quality reviewer\]/);

    const text = readFileSync(r.handoff_file, 'utf8');
    const parsed = parseHandoff(text);
    assert.ok(parsed.ok);
    const fm = parsed.handoff.frontmatter;
    assert.equal(fm.id, r.package.id);
    assert.equal(fm.specialist, 'quality_reviewer');
    assert.equal(fm.to, 'quality_reviewer');
    assert.equal(fm.topic, 'auth-review');
    assert.equal(fm.status, 'pending');
    assert.equal(fm.root_id, fm.id);
    assert.equal(fm.hop, 1);
    assert.equal(fm.estimated_tokens, r.package.estimated_tokens);
    assert.equal(fm.head_commit, git(dir, 'rev-parse', 'HEAD').trim());
    assert.equal(fm.branch, 'main');
    assert.match(parsed.handoff.sections.get('Decisions') ?? '', /\*\*D1\*\* Use JWT\n- \*\*D2\*\* Keep sessions short/);
    assert.match(parsed.handoff.sections.get('Next steps') ?? '', /1\. Review a\.ts/);
    assert.match(parsed.handoff.sections.get('Blockers') ?? '', /- No issuer/);

    const files = parseTouchedFiles(parsed.handoff.sections.get('Touched files') ?? '');
    assert.deepEqual(
      files.map((f) => [f.path, f.old_path, f.added, f.deleted]),
      rawGitView(dir).map((g) => [g.path, g.orig, g.added, g.deleted]),
    );
    const briefing = readFileSync(r.briefing.path, 'utf8');
    assert.match(briefing, /^# Briefing for Quality reviewer \[quality reviewer\]: Auth review/);
    assert.ok(briefing.includes(`(../../handoffs/${path.basename(r.handoff_file)})`), 'linked from the briefing folder');
  });

  it('a second handoff adds its section to the same briefing, keeps its bytes, and uses the previous HEAD as base', async () => {
    const dir = repoWithWork();
    const first = ok(await handover({ specialist: 'hacker', topic: 'spike' }, { workspaceRoot: dir }));
    const before = readFileSync(first.briefing.path);
    commitAll(dir, 'more work');
    write(dir, 'src/a.ts', 'changed again\n');
    const second = ok(await handover({ specialist: 'hacker', topic: 'spike' }, { workspaceRoot: dir }));
    // Its own file in the same briefing folder (issue 20); read together, the first section's bytes come first, unchanged.
    assert.equal(path.dirname(second.briefing.path), path.dirname(first.briefing.path));
    assert.notEqual(second.briefing.path, first.briefing.path);
    assert.equal(second.briefing.existed_before, true);
    assert.deepEqual(readFileSync(first.briefing.path), before);
    const after = Buffer.from((await readBriefing(second.briefing.path)) ?? '', 'utf8');
    assert.deepEqual(after.subarray(0, before.length), before);
    assert.match(after.toString('utf8'), new RegExp(`\\[${second.package.id}\\]`));
    assert.equal(second.package.base_commit, first.package.head_commit);
    assert.deepEqual(
      second.package.commits.map((c) => c.subject),
      ['more work'],
    );
    assert.equal(readdirSync(path.join(dir, '.handoff', 'handoffs')).length, 2);
    assert.ok(!second.package.touched_files.some((f) => f.path.startsWith('.handoff/')), 'the handoff root is never a touched file');
  });

  it('two handoffs in the same millisecond get two files', async () => {
    const dir = repoWithWork();
    const now = () => new Date('2026-05-26T14:30:45.123Z');
    const [a, b] = await Promise.all([
      handover({ specialist: 'hacker', topic: 't' }, { workspaceRoot: dir, now }),
      handover({ specialist: 'hacker', topic: 't' }, { workspaceRoot: dir, now }),
    ]);
    const names = [ok(a), ok(b)].map((r) => path.basename(r.handoff_file)).sort();
    assert.deepEqual(names, ['2026-05-26T14-30-45.123Z_hacker.md', '2026-05-26T14-30-45.124Z_hacker.md']);
    for (const r of [ok(a), ok(b)]) {
      const fm = parseHandoff(readFileSync(r.handoff_file, 'utf8'));
      assert.ok(fm.ok && `${fm.handoff.frontmatter.id}.md` === path.basename(r.handoff_file), 'id matches the file name');
    }
  });

  it('still writes the handoff outside a git repository, with the note as a WARNING', async () => {
    const dir = tempDir();
    const r = ok(await handover({ specialist: 'solution_architect', topic: 'design' }, { workspaceRoot: dir }));
    assert.deepEqual(r.package.touched_files, []);
    assert.match(r.warnings.join('\n'), /^WARNING: Not a git repository/m);
    assert.match(readFileSync(r.handoff_file, 'utf8'), /> ⚠️ Not a git repository/);
  });

  it('fits an over-budget package and keeps what it cut in the history file', async () => {
    const dir = repoWithWork();
    write(dir, 'big.txt', 'start\n');
    commitAll(dir, 'add big.txt');
    write(dir, 'big.txt', Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n'));
    const r = ok(await handover({ specialist: 'hacker', topic: 'big', max_context_tokens: 800 }, { workspaceRoot: dir }));
    assert.ok(r.package.dropped.length > 0);
    assert.equal(r.package.dropped[0].section, 'diff_excerpt');
    assert.ok(r.package.estimated_tokens <= 800, `${r.package.estimated_tokens}`);
    assert.ok(r.history_file && existsSync(r.history_file));
    assert.equal(r.history_file, path.join(dir, '.handoff', 'history', `${r.package.id}.md`));
    assert.match(readFileSync(r.history_file!, 'utf8'), /\+line 2999/);
    assert.match(readFileSync(r.handoff_file, 'utf8'), /What was cut to fit the budget is kept in `history\//);
  });

  it('the briefing keeps the uncut summary when fitting cut it from the handoff', async () => {
    const dir = repoWithWork();
    const summary = `${'A long and detailed summary sentence. '.repeat(200)}THE END`;
    const r = ok(await handover({ specialist: 'hacker', topic: 'long', summary, max_context_tokens: 600 }, { workspaceRoot: dir }));
    assert.ok(r.package.dropped.some((d) => d.section === 'summary'));
    assert.match(readFileSync(r.handoff_file, 'utf8'), /\[truncated\]/);
    assert.ok(readFileSync(r.briefing.path, 'utf8').includes('THE END'), 'the briefing has the whole summary');
  });

  it('after HEAD moves back, no commit is "since the last handoff"', async () => {
    const dir = repoWithWork();
    commitAll(dir, 'second');
    const first = ok(await handover({ specialist: 'hacker', topic: 't' }, { workspaceRoot: dir }));
    git(dir, 'checkout', '-q', '--detach', 'HEAD~1');
    const second = ok(await handover({ specialist: 'hacker', topic: 't' }, { workspaceRoot: dir }));
    assert.equal(second.package.base_commit, first.package.head_commit);
    assert.deepEqual(second.package.commits, []);
    assert.equal(second.package.commits_omitted, 0);
    assert.equal(second.package.detached, true);
    assert.match(readFileSync(second.handoff_file, 'utf8'), /Detached HEAD · HEAD `/);
  });

  it('writes the upstream and ahead / behind counts', async () => {
    const origin = repoWithWork();
    commitAll(origin, 'all');
    const clone = path.join(tempDir(), 'clone');
    const { execFileSync } = await import('node:child_process');
    execFileSync('git', ['clone', '-q', origin, clone]);
    write(clone, 'n.txt', 'n\n');
    commitAll(clone, 'local');
    const r = ok(await handover({ specialist: 'hacker', topic: 't' }, { workspaceRoot: clone }));
    assert.deepEqual([r.package.upstream, r.package.ahead, r.package.behind], ['origin/main', 1, 0]);
    const text = readFileSync(r.handoff_file, 'utf8');
    assert.match(text, /Branch `main` \(1 ahead, 0 behind `origin\/main`\)/);
    assert.match(text, /\nupstream: origin\/main\nahead: 1\nbehind: 0\n/);
  });

  it('without fitting, an over-budget handoff is written with oversize_warning and a WARNING line', async () => {
    const dir = repoWithWork();
    const r = ok(await handover({ specialist: 'hacker', topic: 'big', max_context_tokens: 100, fit_to_budget: false }, { workspaceRoot: dir }));
    assert.equal(r.package.oversize_warning, true);
    assert.deepEqual(r.package.dropped, []);
    assert.match(r.warnings.join('\n'), /^WARNING: the handoff is [\d,]+ tokens, over the 100-token budget/m);
  });

  it('uses custom specialists from .handoff/specialists', async () => {
    const dir = repoWithWork();
    write(
      dir,
      '.handoff/specialists/data_migrator.md',
      '---\nid: data_migrator\nlabel: Data migrator\ndescription: Moves data safely.\n---\nAlways write a rollback.\n',
    );
    const r = ok(await handover({ specialist: 'data_migrator', topic: 'schema v2' }, { workspaceRoot: dir }));
    assert.equal(r.persona_marker, '[data migrator]');
    assert.match(readFileSync(r.handoff_file, 'utf8'), /Always write a rollback\./);
    assert.match(r.package.return_condition, /user_request/);
  });

  it('refuses bad input with an ERROR naming the field, and writes nothing', async () => {
    const dir = repoWithWork();
    const cases: Array<[Record<string, unknown>, Record<string, unknown>, RegExp]> = [
      [{ specialist: 'quality_reviwer', topic: 't' }, {}, /^ERROR: unknown specialist "quality_reviwer" — did you mean: quality_reviewer/],
      [{ specialist: '/etc/passwd', topic: 't' }, {}, /^ERROR: unknown specialist/],
      [{ specialist: 'hacker', topic: '../../x' }, {}, /^ERROR: topic "\.\.\/\.\.\/x" looks like a file path/],
      [{ specialist: 'hacker', topic: '' }, {}, /^ERROR: topic is required/],
      [{ specialist: 'hacker', topic: 't', max_context_tokens: 0 }, {}, /^ERROR: max_context_tokens must be positive/],
      [{ specialist: 'hacker', topic: 't' }, { handoffDirectory: '../outside' }, /^ERROR: handoff\.directory "\.\.\/outside" leads outside the workspace/],
      [{ specialist: 'hacker', topic: 't' }, { handoffDirectory: '/tmp/abs' }, /^ERROR: handoff\.directory "\/tmp\/abs" is an absolute path/],
      [{ specialist: 'hacker', topic: 't' }, { workspaceRoot: 'relative/path' }, /^ERROR: project_root must be an absolute path/],
      [null as unknown as Record<string, unknown>, {}, /^ERROR: /],
    ];
    for (const [req, envOver, re] of cases) {
      const r = await handover(req, { workspaceRoot: dir, ...envOver });
      assert.equal(r.status, 'error', JSON.stringify(req));
      assert.match(r.status === 'error' ? r.message : '', re, JSON.stringify(req));
    }
    assert.equal(existsSync(path.join(dir, '.handoff')), false, 'nothing written');
    assert.equal(existsSync(path.join(path.dirname(dir), 'outside')), false);
  });

  it('refuses to write through a .handoff symlink that leads out of the workspace', async () => {
    const dir = repoWithWork();
    const outside = tempDir();
    mkdirSync(path.join(outside, 'target'));
    symlinkSync(path.join(outside, 'target'), path.join(dir, '.handoff'));
    const r = await handover({ specialist: 'hacker', topic: 't' }, { workspaceRoot: dir });
    assert.equal(r.status, 'error');
    assert.match(r.status === 'error' ? r.message : '', /symbolic link leads out/);
    assert.deepEqual(readdirSync(path.join(outside, 'target')), []);
  });

  it('refuses to append through a briefing that is a symbolic link (planted by a cloned repository)', async () => {
    const dir = repoWithWork();
    const victim = path.join(tempDir(), 'victim.txt');
    writeFileSync(victim, 'original\n');
    const day = new Date().toISOString().slice(0, 10);
    mkdirSync(path.join(dir, '.handoff', 'briefings'), { recursive: true });
    symlinkSync(victim, path.join(dir, '.handoff', 'briefings', `quality-reviewer-auth-${day}.md`));
    // One file per section (issue 20): the briefing's folder is what a clone can plant as a link now.
    const outside = tempDir();
    symlinkSync(outside, path.join(dir, '.handoff', 'briefings', `quality-reviewer-auth-${day}`));
    const r = await handover({ specialist: 'quality_reviewer', topic: 'auth', summary: 'secret plan' }, { workspaceRoot: dir });
    assert.equal(r.status, 'error');
    assert.match(r.status === 'error' ? r.message : '', /leads outside the workspace|symbolic link/);
    assert.equal(readFileSync(victim, 'utf8'), 'original\n', 'the link target is untouched');
    assert.deepEqual(readdirSync(outside), [], 'nothing written through the linked folder');
    const handoffs = readdirSync(path.join(dir, '.handoff', 'handoffs'));
    assert.equal(handoffs.length, 1);
    assert.match(handoffs[0], /\.partial\.md$/, 'the handoff whose briefing failed is marked partial');
  });

  it('refuses a handoff folder inside .git', async () => {
    const dir = repoWithWork();
    for (const d of ['.git/refs/heads', '.GIT/x', 'sub/.git']) {
      const r = await handover({ specialist: 'hacker', topic: 't' }, { workspaceRoot: dir, handoffDirectory: d });
      assert.equal(r.status, 'error', d);
      assert.match(r.status === 'error' ? r.message : '', /inside \.git, git's own folder/);
    }
    assert.equal(git(dir, 'for-each-ref').includes('briefings'), false);
  });

  it('a FIFO among the handoffs or the custom specialists does not hang', async () => {
    const dir = repoWithWork();
    mkdirSync(path.join(dir, '.handoff', 'handoffs'), { recursive: true });
    mkdirSync(path.join(dir, '.handoff', 'specialists'), { recursive: true });
    execFileSync('mkfifo', [path.join(dir, '.handoff', 'handoffs', '2099-01-01T00-00-00.000Z_hacker.md')]);
    execFileSync('mkfifo', [path.join(dir, '.handoff', 'specialists', 'foo.md')]);
    const r = ok(await handover({ specialist: 'hacker', topic: 't' }, { workspaceRoot: dir }));
    assert.match(r.warnings.join('\n'), /specialists\/foo\.md: skipped — not a regular file/);
  });

  it('a briefings folder that cannot be used leaves no handoff behind', async () => {
    const dir = repoWithWork();
    mkdirSync(path.join(dir, '.handoff'), { recursive: true });
    writeFileSync(path.join(dir, '.handoff', 'briefings'), 'a file, not a folder');
    for (let i = 0; i < 2; i++) {
      const r = await handover({ specialist: 'hacker', topic: 't' }, { workspaceRoot: dir });
      assert.equal(r.status, 'error');
      assert.match(r.status === 'error' ? r.message : '', /a file stands where a folder is needed/);
    }
    assert.equal(existsSync(path.join(dir, '.handoff', 'handoffs')) && readdirSync(path.join(dir, '.handoff', 'handoffs')).length > 0, false);
  });

  it('limits text sizes with messages that name the field', async () => {
    const dir = repoWithWork();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ specialist: 'hacker', topic: 'x'.repeat(201) }, /^ERROR: topic must be at most 200 characters/],
      [{ specialist: 'hacker', topic: 't', summary: 's'.repeat(200_001) }, /^ERROR: summary must be at most 200,000 characters/],
      [{ specialist: 'hacker', topic: 't', decisions: ['d'.repeat(20_001)] }, /^ERROR: decisions\.0 items must be at most 20,000 characters/],
      [{ specialist: 'hacker', topic: 't', from: 'a\nb' }, /^ERROR: from must be one line/],
      [{ specialist: 'hacker', topic: 't', session_id: '  ' }, /^ERROR: session_id must not be empty/],
      [{ specialist: 'hacker', topic: 't', max_context_tokens: 1e22 }, /^ERROR: max_context_tokens must be at most 10,000,000/],
      [
        { specialist: 'hacker', topic: 't', summary: 's'.repeat(150_000), next_steps: Array.from({ length: 50 }, () => 'n'.repeat(19_000)) },
        /add up to [\d,]+ characters, more than 1,000,000/,
      ],
    ];
    for (const [req, re] of cases) {
      const r = await handover(req, { workspaceRoot: dir });
      assert.match(r.status === 'error' ? r.message : 'ok', re);
    }
  });

  it('a topic with line breaks or line separators becomes one line; the handoff stays readable by the engine', async () => {
    const dir = repoWithWork();
    const r = ok(await handover({ specialist: 'hacker', topic: 'a\u2028---\u2028b\nc', handover_reason: 'x\u2029---\u2029y' }, { workspaceRoot: dir }));
    assert.equal(r.package.topic_title, 'a --- b c');
    const parsed = parseHandoff(readFileSync(r.handoff_file, 'utf8'));
    assert.ok(parsed.ok, !parsed.ok ? parsed.message : '');
    assert.equal(parsed.handoff.frontmatter.handover_reason, 'x\u2029---\u2029y');
  });

  it('a handoff file never overwrites an existing one, even one planted with the next name', async () => {
    const dir = repoWithWork();
    const now = () => new Date('2026-05-26T14:30:45.123Z');
    mkdirSync(path.join(dir, '.handoff', 'handoffs'), { recursive: true });
    const planted = path.join(dir, '.handoff', 'handoffs', '2026-05-26T14-30-45.123Z_hacker.md');
    writeFileSync(planted, 'someone else wrote this');
    const r = ok(await handover({ specialist: 'hacker', topic: 't' }, { workspaceRoot: dir, now }));
    assert.equal(path.basename(r.handoff_file), '2026-05-26T14-30-45.124Z_hacker.md');
    assert.equal(readFileSync(planted, 'utf8'), 'someone else wrote this');
  });
});
