import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseTimelineFileName } from '../../../src/core/timeline/chains';
import { HandoverOkSchema, type HandoverOk, type HandoverResult } from '../../../src/core/handoff/schema';
import { handover, type JobContext } from '../../../src/engine/handover/handover';
import { priorHandoffsFor } from '../../../src/engine/receive/prompt';
import { GITIGNORE_COMMENT, ITERVOX_GITIGNORE_BLOCK, ITERVOX_GITIGNORE_EXCEPTIONS, itervoxGitignorePatch } from '../../../src/store/interop/mirrors';
import { listTimelineFiles, onlyMirrorsOurHandoffs } from '../../../src/store/handoffs/timelineFiles';
import { cleanupTempDirs, commitAll, initRepo, write } from '../../helpers/repo';

const GITIGNORE = 'node_modules/\n.itervox/\n*.log\n';

function ok(r: HandoverResult): HandoverOk {
  if (r.status !== 'ok') assert.fail(r.message);
  return HandoverOkSchema.parse(r);
}

/** A git repository with itervox's and Agent Zero's folders and a .gitignore that ignores .itervox/. */
function repo(options: { itervox?: boolean; agentZero?: boolean; gitignore?: string | null } = {}): string {
  const dir = initRepo();
  write(dir, 'src/a.ts', 'export const a = 1;\n');
  if (options.gitignore !== null) write(dir, '.gitignore', options.gitignore ?? GITIGNORE);
  commitAll(dir, 'initial');
  if (options.itervox !== false) mkdirSync(path.join(dir, '.itervox', 'agents'), { recursive: true });
  if (options.agentZero !== false) mkdirSync(path.join(dir, '.a0proj'));
  write(dir, 'src/a.ts', 'export const a = 2;\n');
  return dir;
}

const at = (iso: string) => () => new Date(iso);

function request(topic = 'Auth review') {
  return { specialist: 'quality_reviewer', topic, summary: 'Implemented token refresh.', decisions: ['Use JWT'], next_steps: ['Review src/a.ts'] };
}

describe('interop: itervox and Agent Zero folders when handing over', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('writes the handoff into .itervox/handoff/ in itervox naming and appends the briefing to .a0proj/handover/ in Agent Zero naming', async () => {
    const dir = repo();
    const env: JobContext = { workspaceRoot: dir, now: at('2026-05-26T14:30:45.123Z') };
    const r = ok(await handover(request(), env));
    const id = r.package.id;
    assert.equal(id, '2026-05-26T14-30-45.123Z_quality_reviewer');

    const itervoxFile = path.join(dir, '.itervox', 'handoff', `${id}.md`);
    const a0File = path.join(dir, '.a0proj', 'handover', 'quality-reviewer-auth-review-2026-05-26.md');
    assert.deepEqual(r.mirrors, [itervoxFile, path.join(dir, '.gitignore'), a0File]);
    assert.deepEqual(
      r.warnings.filter((w) => /itervox|Agent Zero/.test(w)),
      [],
    );

    // itervox: <ISO 8601 UTC, ':' → '-'>_<profile>.md, byte for byte our handoff; its timeline parser reads the name.
    assert.equal(readFileSync(itervoxFile, 'utf8'), readFileSync(r.handoff_file, 'utf8'));
    const parsed = parseTimelineFileName('itervox', path.basename(itervoxFile), itervoxFile, []);
    assert.equal(parsed?.specialist, 'quality_reviewer');
    assert.equal(parsed?.time, Date.parse('2026-05-26T14:30:45.123Z'));

    // Agent Zero: <specialist with _→->-<topic>-<date>.md, the same name as our briefing, with the same section.
    // Ours is a folder of one file per section (issue 20); Agent Zero's file has the folder's name.
    assert.equal(path.basename(a0File), `${path.basename(path.dirname(r.briefing.path))}.md`);
    const a0 = readFileSync(a0File, 'utf8');
    assert.ok(a0.startsWith('# Briefing for Quality reviewer [quality reviewer]: Auth review (2026-05-26)'));
    assert.ok(a0.includes(`**Handoff:** [${id}](../../.handoff/handoffs/${id}.md)`), a0);
    const ours = readFileSync(r.briefing.path, 'utf8');
    const sectionOf = (t: string) => t.slice(t.indexOf('\n## '));
    assert.equal(sectionOf(a0).replace(`../../.handoff/handoffs/${id}.md`, `../../handoffs/${id}.md`), sectionOf(ours), 'the same section');
    assert.equal(a0.slice(0, a0.indexOf('\n\n')), ours.slice(0, ours.indexOf('\n\n')), 'the same title');
    const timeline = parseTimelineFileName('agent-zero', path.basename(a0File), a0File, ['quality_reviewer']);
    assert.deepEqual([timeline?.specialist, timeline?.topic], ['quality_reviewer', 'auth-review']);
  });

  it('patches .gitignore once: the missing exceptions appended after the line that ignores .itervox/, nothing else changed', async () => {
    const dir = repo();
    ok(await handover(request(), { workspaceRoot: dir, now: at('2026-05-26T10:00:00.000Z') }));
    const once = readFileSync(path.join(dir, '.gitignore'), 'utf8');
    assert.equal(once, `${GITIGNORE}${GITIGNORE_COMMENT}\n${ITERVOX_GITIGNORE_BLOCK.join('\n')}\n`);

    const second = ok(await handover(request(), { workspaceRoot: dir, now: at('2026-05-26T11:00:00.000Z') }));
    assert.equal(readFileSync(path.join(dir, '.gitignore'), 'utf8'), once, 'run twice: no duplicate lines');
    assert.ok(!second.mirrors?.includes(path.join(dir, '.gitignore')));

    // git now sees the handoff folder as committable, and still ignores what it ignored.
    const { execFileSync } = await import('node:child_process');
    const check = (p: string) => {
      try {
        execFileSync('git', ['check-ignore', '-q', p], { cwd: dir });
        return true;
      } catch {
        return false;
      }
    };
    assert.equal(check(`.itervox/handoff/${path.basename(second.handoff_file)}`), false);
    assert.equal(check('.itervox/agents/implementer/INSTRUCTIONS.md'), false);
    // Only agents/ and handoff/ became committable: itervox's runtime files stay ignored.
    assert.equal(check('.itervox/runtime-state.json'), true);
    assert.equal(check('.itervox/logs/a.log'), true);
    assert.equal(check('debug.log'), true);
    assert.equal(check('node_modules/x.js'), true);

    // Two handoffs to the same specialist, topic and day: two itervox files, one Agent Zero briefing with two sections.
    assert.equal(readdirSync(path.join(dir, '.itervox', 'handoff')).length, 2);
    const a0 = readFileSync(path.join(dir, '.a0proj', 'handover', 'quality-reviewer-auth-review-2026-05-26.md'), 'utf8');
    assert.equal(a0.match(/^## /gm)?.length, 2);
  });

  it('the timeline lists each handoff once, and the prior-handoffs context holds it once', async () => {
    const dir = repo();
    const first = ok(await handover(request(), { workspaceRoot: dir, now: at('2026-05-26T10:00:00.000Z') }));
    const second = ok(await handover({ ...request('Docs'), specialist: 'release_auditor' }, { workspaceRoot: dir, now: at('2026-05-26T11:00:00.000Z') }));
    const root = path.join(dir, '.handoff');
    const listed = await listTimelineFiles(dir, root, ['quality_reviewer', 'release_auditor']);
    assert.deepEqual(
      listed.files.map((f) => `${f.source}:${f.name}`),
      [`handoff:${first.package.id}.md`, `handoff:${second.package.id}.md`],
    );
    const prior = await priorHandoffsFor(listed.files);
    assert.equal(prior.included, 2);
    assert.equal(prior.text.split(`### ${first.package.id}.md`).length, 2, 'the first handoff appears once');

    // Once Agent Zero writes into the shared briefing, or our handoff is gone, the other tools' files are theirs again.
    const briefingName = (r: HandoverOk) => `${path.basename(path.dirname(r.briefing.path))}.md`;
    const a0 = path.join(dir, '.a0proj', 'handover', briefingName(first));
    writeFileSync(a0, `${readFileSync(a0, 'utf8')}\n## 2026-05-26 Agent Zero\n\nHanded over by the orchestrator.\n`);
    rmSync(second.handoff_file);
    const after = await listTimelineFiles(dir, root, ['quality_reviewer', 'release_auditor']);
    assert.deepEqual(
      after.files.map((f) => `${f.source}:${f.name}`).sort(),
      [`agent-zero:${path.basename(a0)}`, `agent-zero:${briefingName(second)}`, `handoff:${first.package.id}.md`, `itervox:${second.package.id}.md`].sort(),
    );
  });

  it('the copies are never touched files of the next handoff, and do not change its diff hash', async () => {
    const dir = repo();
    const first = ok(await handover(request(), { workspaceRoot: dir, now: at('2026-05-26T14:30:45.123Z') }));
    assert.ok((first.mirrors ?? []).length >= 2, 'copied into both folders');
    const second = ok(await handover(request(), { workspaceRoot: dir, now: at('2026-05-26T14:31:00.000Z') }));
    // .gitignore was patched by the first handover: that is a real change; the copies are not.
    assert.deepEqual(second.package.touched_files.map((f) => f.path).sort(), ['.gitignore', 'src/a.ts']);
    assert.ok(second.package.diff_hash, 'the worktree has a diff hash');
    const third = ok(await handover(request(), { workspaceRoot: dir, now: at('2026-05-26T14:32:00.000Z') }));
    assert.equal(third.package.diff_hash, second.package.diff_hash, 'more copies, same diff hash');
  });

  it('"off" writes nothing into either folder', async () => {
    const dir = repo();
    const r = ok(await handover(request(), { workspaceRoot: dir, interop: { itervox: 'off', agentZero: 'off' } }));
    assert.equal(r.mirrors, undefined);
    assert.deepEqual(readdirSync(path.join(dir, '.itervox')), ['agents']);
    assert.deepEqual(readdirSync(path.join(dir, '.a0proj')), []);
    assert.equal(readFileSync(path.join(dir, '.gitignore'), 'utf8'), GITIGNORE);
  });

  it("each setting is on its own; without the tool's folder nothing is created", async () => {
    const dir = repo({ agentZero: false });
    const r = ok(await handover(request(), { workspaceRoot: dir, interop: { itervox: 'off' } }));
    assert.equal(r.mirrors, undefined);
    assert.ok(!existsSync(path.join(dir, '.a0proj')));
    assert.ok(!existsSync(path.join(dir, '.itervox', 'handoff')));

    const a0only = repo({ itervox: false });
    const r2 = ok(await handover(request(), { workspaceRoot: a0only, interop: { itervox: 'auto', agentZero: 'auto' } }));
    assert.equal(r2.mirrors?.length, 1);
    assert.ok(!existsSync(path.join(a0only, '.itervox')));
    assert.equal(readFileSync(path.join(a0only, '.gitignore'), 'utf8'), GITIGNORE, ".gitignore is itervox's business only");
  });

  it('changes no .gitignore that does not ignore .itervox/, and creates none', async () => {
    const plain = repo({ agentZero: false, gitignore: 'node_modules/\n' });
    ok(await handover(request(), { workspaceRoot: plain }));
    assert.equal(readFileSync(path.join(plain, '.gitignore'), 'utf8'), 'node_modules/\n');
    assert.ok(existsSync(path.join(plain, '.itervox', 'handoff')));

    const none = repo({ agentZero: false, gitignore: null });
    ok(await handover(request(), { workspaceRoot: none }));
    assert.ok(!existsSync(path.join(none, '.gitignore')));
  });

  it('a copy that cannot be written is a WARNING; the handoff and our briefing are written, nothing is overwritten', async () => {
    const dir = repo();
    write(dir, '.a0proj/handover', 'a file where the folder should be');
    const taken = '2026-05-26T09-00-00.000Z_quality_reviewer.md';
    write(dir, `.itervox/handoff/${taken}`, 'itervox wrote this');
    const r = ok(await handover(request(), { workspaceRoot: dir, now: at('2026-05-26T09:00:00.000Z') }));
    assert.equal(path.basename(r.handoff_file), taken);
    assert.ok(existsSync(r.handoff_file) && existsSync(r.briefing.path));
    assert.equal(readFileSync(path.join(dir, '.itervox/handoff', taken), 'utf8'), 'itervox wrote this');
    const interop = r.warnings.filter((w) => w.includes('the handoff was written, but not'));
    assert.equal(interop.length, 2, r.warnings.join('\n'));
    assert.match(
      interop[0],
      /^WARNING: the handoff was written, but not its itervox copy \(\.itervox\/handoff\/\): \.itervox\/handoff\/2026-05-26T09-00-00\.000Z_quality_reviewer\.md already exists and was kept .*set "handoff\.interop\.itervox" to "off"/,
    );
    assert.match(
      interop[1],
      /^WARNING: the handoff was written, but not its Agent Zero briefing \(\.a0proj\/handover\/\): .*a file stands where a folder is needed.*"handoff\.interop\.agentZero"/,
    );
    assert.equal(r.mirrors, undefined);
  });

  describe('.gitignore rules', () => {
    it('recognises the ways a .gitignore ignores .itervox/', () => {
      for (const line of ['.itervox', '.itervox/', '/.itervox/', '**/.itervox/', '.itervox/*', '/.itervox/**', '.itervox/handoff/', '.itervox/   ']) {
        assert.equal(itervoxGitignorePatch(`${line}\n`).status, 'append', line);
      }
      for (const text of ['', 'node_modules/\n', '# .itervox/\n', '!.itervox/\n', '.itervox-old/\n', 'src/.itervox\n']) {
        assert.equal(itervoxGitignorePatch(text).status, 'not-ignored', JSON.stringify(text));
      }
    });

    it("appends the whole ordered block after the last ignoring line, in the file's line endings; leaves itervox's own lines alone", () => {
      // A partial set is completed by the whole block: appending parts could put ".itervox/*" after a "!" line and undo it.
      const crlf = itervoxGitignorePatch('.itervox/\r\n!.itervox/\r\n!.itervox/handoff/');
      assert.deepEqual(crlf, {
        status: 'append',
        addition: `\r\n${GITIGNORE_COMMENT}\r\n${ITERVOX_GITIGNORE_BLOCK.join('\r\n')}\r\n`,
        added: [...ITERVOX_GITIGNORE_BLOCK],
      });
      // Exceptions before the ignoring line do not count: a later line wins.
      const before = itervoxGitignorePatch(`${ITERVOX_GITIGNORE_EXCEPTIONS.join('\n')}\n.itervox/\n`);
      assert.equal(before.status, 'append');
      // itervox's own five lines (itervox init) are its choice: complete, not changed.
      assert.deepEqual(itervoxGitignorePatch(`.itervox/\n${ITERVOX_GITIGNORE_EXCEPTIONS.join('\n')}\n`), { status: 'complete' });
      // Our block, whose ".itervox/*" is not an ignoring line of its own: complete on the second run.
      assert.deepEqual(itervoxGitignorePatch(`.itervox/\n${GITIGNORE_COMMENT}\n${ITERVOX_GITIGNORE_BLOCK.join('\n')}\n`), { status: 'complete' });
      // A later ignoring line after our block needs the block again.
      assert.equal(itervoxGitignorePatch(`.itervox/\n${ITERVOX_GITIGNORE_BLOCK.join('\n')}\n.itervox/\n`).status, 'append');
    });

    it('an Agent Zero briefing is a mirror only while every section is one of our handoffs', () => {
      const ours = new Set(['2026-05-26T10-00-00.000Z_quality_reviewer']);
      const head = '# Briefing for Quality reviewer [quality reviewer]: X (2026-05-26)\n\nMandate.\n';
      const section = (id: string) =>
        `\n## 2026-05-26T10:00:00.000Z — developer → [quality reviewer]\n\n**Summary:** x\n\n**Handoff:** [${id}](../x/${id}.md)\n`;
      assert.equal(onlyMirrorsOurHandoffs(head + section('2026-05-26T10-00-00.000Z_quality_reviewer'), ours), true);
      assert.equal(onlyMirrorsOurHandoffs(head + section('2026-05-26T11-00-00.000Z_quality_reviewer'), ours), false);
      assert.equal(onlyMirrorsOurHandoffs(`${head}${section('2026-05-26T10-00-00.000Z_quality_reviewer')}\n## Agent Zero's own\n\ntext\n`, ours), false);
      assert.equal(onlyMirrorsOurHandoffs('# Agent Zero briefing\n' + section('2026-05-26T10-00-00.000Z_quality_reviewer'), ours), false);
    });
  });
});
