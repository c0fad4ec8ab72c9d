/**
 * Reliability, "bad input" — the disk fails under the writer: full, read-only, not ours to
 * write, or past the process's file-size limit. Each case runs on a real git repository
 * (the handoff folder `.handoff` a small tmpfs mounted inside the workspace where the case
 * needs one; the path guard accepts a mount point, it is a real folder) and proves:
 *
 * - the handover returns (or the CLI prints on stderr, exit code 1) one `ERROR:` message that
 *   names the path being written, the cause (disk full / read-only / permission denied /
 *   file-size limit) and what to do;
 * - nothing is lost or half-written: no `<id>.md` appears that is not whole, the briefing is
 *   byte-equal to before (a section cut short by a full disk or the size limit is truncated
 *   back), a handoff whose briefing section failed is kept as `<id>.partial.md` (whole);
 *   where staging the handoff itself fails, nothing at all is written;
 * - a handoff links only what was written whole: when its history file (what fit to budget
 *   cut) does not fit, the handoff is written without the link and a WARNING says why; when
 *   the handoff cannot be staged again without the link either, the handover fails with
 *   an io ERROR and nothing is kept;
 * - the draft is kept: once the cause is removed (space freed, remounted read-write, the
 *   folder given to the writer, the limit lifted) the same request succeeds.
 *
 * Disk full and read-only need `mount` (root with CAP_SYS_ADMIN); where it is not permitted
 * those cases are skipped with the reason and the file-size-limit cases (`prlimit --fsize`,
 * EFBIG) stand in for them. Permission denied runs a writer process as `nobody` (root
 * bypasses file modes). Every mount is unmounted in `finally` and again in `after`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmdirSync, statSync, statfsSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BRIEFINGS_DIR, HANDOFFS_DIR, HISTORY_DIR, briefingFileName } from '../../src/core/handoff/naming';
import { parseHandoff } from '../../src/core/handoff/parse';
import type { HandoverResult } from '../../src/core/handoff/schema';
import { handover } from '../../src/engine/handover/handover';
import { cli } from '../helpers/cli';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';
import { startWriter, type Writer, type WriterOptions } from './fixtures/children';
import type { WriterConfig, WriterEvent } from './fixtures/writer';

const SPECIALIST = 'quality_reviewer';
/** Name of the file that fills a tmpfs up. */
const FILLER = 'filler.bin';
const PAGE = 4096;

/** Mount points made by this file, unmounted in `finally` and again in `after`. */
const mounts: string[] = [];

function run(cmd: string, args: readonly string[]): void {
  execFileSync(cmd, args, { stdio: 'pipe' });
}

/** Why `mount -t tmpfs` cannot be used here, or undefined when it can. */
function mountProblem(): string | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'handoff-mount-probe-'));
  try {
    run('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
    run('umount', [dir]);
    return undefined;
  } catch (err) {
    return `mount -t tmpfs failed: ${((err as { stderr?: Buffer }).stderr?.toString() || (err as Error).message).trim()}`;
  } finally {
    rmdirSync(dir);
  }
}

function mountTmpfs(dir: string, sizeBytes: number): void {
  run('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0755`, 'tmpfs', dir]);
  mounts.push(dir);
}

function unmount(dir: string): void {
  const i = mounts.indexOf(dir);
  if (i < 0) return;
  mounts.splice(i, 1);
  try {
    run('umount', [dir]);
  } catch {
    run('umount', ['-l', dir]); // busy: detach it now, freed when the last user goes
  }
}

function freeBytes(dir: string): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}

/** Fills the file system of `root` with {@link FILLER} until only `leaveBytes` are free. */
function fill(root: string, leaveBytes: number): void {
  const size = freeBytes(root) - leaveBytes;
  assert.ok(size > 0, `room to fill on ${root}`);
  writeFileSync(path.join(root, FILLER), Buffer.alloc(size, 0x2e));
  assert.equal(freeBytes(root), leaveBytes, `${root} has exactly ${leaveBytes} bytes free`);
}

/** Everything under `root` (but the filler): folders, and files by content hash. */
function snapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const rel = path.relative(root, full);
      if (rel === FILLER) continue;
      if (statSync(full).isDirectory()) {
        out.set(rel, 'folder');
        walk(full);
      } else {
        out.set(rel, createHash('sha256').update(readFileSync(full)).digest('hex'));
      }
    }
  };
  walk(root);
  return out;
}

/** A git repository with a commit and work on top; `.handoff` a tmpfs of `sizeBytes` when given. */
function repo(tmpfsBytes?: number): { ws: string; root: string } {
  const ws = initRepo(tempDir('handoff-disk-'));
  write(ws, 'src/a.ts', 'export const a = 1;\n');
  commitAll(ws, 'initial');
  write(ws, 'src/a.ts', 'export const a = 2;\n');
  const root = path.join(ws, '.handoff');
  if (tmpfsBytes !== undefined) {
    mkdirSync(root);
    mountTmpfs(root, tmpfsBytes);
  }
  return { ws, root };
}

/**
 * Untracked files in `ws` whose list fit to budget cuts from a 1,000-token handoff: the history
 * (the uncut package) is ~43 KB (11 pages), the handoff ~3 KB and its briefing section ~1 KB
 * (one page each).
 */
const TOUCHED = 600;
const FIT = { max_context_tokens: 1000, fit_to_budget: true };

function addTouchedFiles(ws: string): void {
  for (let i = 0; i < TOUCHED; i++) write(ws, `src/module-${i}/a-file-with-a-long-name-${i}.ts`, `export const v${i} = ${i};\n`);
}

/** The handoff `file` parses whole and links no history: `history_file: null`, no line naming `history/`. */
function assertNoHistoryLink(file: string): void {
  const text = readFileSync(file, 'utf8');
  const parsed = parseHandoff(text);
  assert.ok(parsed.ok, `${file} parses: ${parsed.ok ? '' : parsed.message}`);
  assert.equal(parsed.handoff.frontmatter.history_file, null, 'the frontmatter links no history');
  assert.ok(!text.includes(`${HISTORY_DIR}/`), 'no line names a history file');
  assert.ok(parsed.handoff.sections.has('Return condition'), 'it is whole');
}

/** Every name under `root` (the filler aside): none is a temporary file or a lock folder. */
function assertNoLeftovers(root: string): void {
  for (const rel of snapshot(root).keys()) assert.doesNotMatch(path.basename(rel), /^\..+\.(tmp|lock)$/, `no temporary file or lock folder left: ${rel}`);
}

/** Today's briefing folder of a topic (docs/DESIGN.md §5: one file per section, `<handoff id>.md`). */
function briefingOf(root: string, topicSlug: string): string {
  return path.join(root, BRIEFINGS_DIR, briefingFileName(SPECIALIST, topicSlug, new Date()).replace(/\.md$/, ''));
}

/** The section files of a briefing folder, by name, with their bytes. */
function sections(folder: string): Map<string, Buffer> {
  return new Map(
    readdirSync(folder)
      .sort()
      .map((name) => [name, readFileSync(path.join(folder, name))]),
  );
}

function mustBeOk(r: HandoverResult): Extract<HandoverResult, { status: 'ok' }> {
  if (r.status !== 'ok') assert.fail(r.message);
  return r;
}

/** Every `<id>.md` of the handoffs folder parses whole; returns the complete and partial names. */
function handoffNames(root: string): { complete: string[]; partial: string[] } {
  const dir = path.join(root, HANDOFFS_DIR);
  const names = readdirSync(dir);
  for (const name of names) {
    assert.match(name, /^[^.].*\.md$/, `only handoff files in ${dir}, no temporary file left: ${name}`);
    const parsed = parseHandoff(readFileSync(path.join(dir, name), 'utf8'));
    assert.ok(parsed.ok, `${name} parses: ${parsed.ok ? '' : parsed.message}`);
    assert.equal(`${parsed.handoff.frontmatter.id}.md`, name.replace(/\.partial\.md$/, '.md'), `${name}: its id is its name`);
    assert.ok(parsed.handoff.sections.has('Return condition'), `${name} is whole`);
  }
  return { complete: names.filter((n) => !n.endsWith('.partial.md')), partial: names.filter((n) => n.endsWith('.partial.md')) };
}

/**
 * Checks that the briefing folder holds the sections of `before`, byte-equal, plus one whole
 * section file `<id>.md` (the briefing's header, then one section ending with the link to
 * its handoff). Returns the new section's size in bytes.
 */
function assertAppendedOnce(before: Map<string, Buffer>, folder: string, id: string): number {
  const after = sections(folder);
  for (const [name, bytes] of before) {
    assert.ok(after.get(name)?.equals(bytes), `the section ${name} kept its bytes`);
  }
  assert.deepEqual(
    [...after.keys()].filter((n) => !before.has(n)),
    [`${id}.md`],
    'one new section file, named for its handoff',
  );
  const added = (after.get(`${id}.md`) as Buffer).toString('utf8');
  assert.equal(added.match(/^## \S+ — /gm)?.length, 1, 'one whole section');
  assert.ok(added.endsWith(')\n') && added.includes(`**Handoff:** [${id}]`), 'it ends with the link to its handoff');
  return Buffer.byteLength(added, 'utf8');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Runs a writer to its end and returns its single event. */
async function runWriter(config: WriterConfig, options: WriterOptions = {}): Promise<{ writer: Writer; event: WriterEvent; code: number | null }> {
  const writer = startWriter(config, options);
  const exit = await writer.exited;
  assert.equal(exit.signal, null, `the writer was not killed by a signal (${exit.signal}):\n${writer.stderr()}`);
  assert.equal(writer.events.length, 1, `one write reported:\n${writer.stderr()}`);
  return { writer, event: writer.events[0], code: exit.code };
}

function failureMessage(event: WriterEvent): string {
  assert.equal(event.ok, false, `the write failed: ${JSON.stringify(event)}`);
  return event.ok ? '' : event.message;
}

/** The group of `nobody` (`nogroup` on Debian, `nobody` elsewhere), or undefined. */
function nobodyGroup(): string | undefined {
  const groups = readFileSync('/etc/group', 'utf8')
    .split('\n')
    .map((l) => l.split(':')[0]);
  return ['nogroup', 'nobody'].find((g) => groups.includes(g));
}

const figures = { diskFull: 0, readOnly: 0, denied: 0, deniedSkipped: '', sizeLimit: 0, mountSkipped: '' };

describe('reliability: disk full, read-only, permission denied, file-size limit', function () {
  this.timeout(120_000);
  let noMount: string | undefined;

  before(() => {
    noMount = mountProblem();
    figures.mountSkipped = noMount ?? '';
  });

  after(() => {
    for (const m of [...mounts]) {
      try {
        unmount(m);
      } catch (err) {
        console.log(`    could not unmount ${m}: ${(err as Error).message}`);
      }
    }
    cleanupTempDirs();
    const disk = figures.mountSkipped
      ? `disk full: not run — ${figures.mountSkipped}; disk-full-like failures covered by prlimit --fsize (EFBIG) only`
      : `disk full: ${figures.diskFull} cases (staging the handoff, the briefing section failing mid-write and leaving nothing, the history not fitting with 24, 28 and 32 KiB free and via the CLI (handoff kept without the link, WARNING), nor the handoff without it (io ERROR, nothing kept), the CLI plain and --json; message names path and cause, draft retried ok)`;
    const readOnly = figures.mountSkipped ? 'read-only: not run (no mount)' : `read-only: ${figures.readOnly}`;
    const denied = figures.deniedSkipped ? `permission denied: skipped (${figures.deniedSkipped})` : `permission denied: ${figures.denied} (writer as nobody)`;
    console.log(
      `    figures: ${disk}, ${readOnly}, ${denied}, file-size limit: ${figures.sizeLimit} (CLI staging, CLI history past the limit (handoff kept without the link), engine briefing section leaving nothing)`,
    );
  });

  describe('disk full (tmpfs)', () => {
    it('while staging the handoff: ERROR naming the handoff path and "disk is full", nothing written, the briefing unchanged; the same request succeeds once space is freed', async function () {
      if (noMount) this.skip();
      const { ws, root } = repo(256 * 1024);
      try {
        const first = mustBeOk(await handover({ specialist: SPECIALIST, topic: 'Disk full', summary: 'Before the disk fills up.' }, { workspaceRoot: ws }));
        const briefing = briefingOf(root, 'disk-full');
        assert.equal(path.dirname(first.briefing.path), briefing);
        fill(root, 0);
        const before = snapshot(root);
        const briefingBefore = sections(briefing);

        const request = { specialist: SPECIALIST, topic: 'Disk full', summary: 'Written when the disk is full.', next_steps: ['Free some space'] };
        const r = await handover(request, { workspaceRoot: ws });
        assert.equal(r.status, 'error');
        const message = r.status === 'error' ? r.message : '';
        assert.match(message, /^ERROR: the disk is full — could not write /, message);
        assert.ok(message.includes(path.join(root, HANDOFFS_DIR) + path.sep), `names the handoff being written: ${message}`);
        assert.match(message, /free some space and try again/);
        assert.equal(r.status === 'error' ? r.field : '', 'io');
        assert.deepEqual(snapshot(root), before, 'nothing written: no handoff, no partial, no temporary file');
        assert.deepEqual(sections(briefing), briefingBefore, 'the briefing is byte-equal');
        assert.deepEqual(handoffNames(root).complete, [path.basename(first.handoff_file)]);

        unlinkSync(path.join(root, FILLER));
        const retry = mustBeOk(await handover(request, { workspaceRoot: ws }));
        assert.deepEqual(handoffNames(root), { complete: [path.basename(first.handoff_file), path.basename(retry.handoff_file)].sort(), partial: [] });
        assertAppendedOnce(briefingBefore, briefing, retry.package.id);
        figures.diskFull++;
      } finally {
        unmount(root);
      }
    });

    it('while writing the briefing section: no section file and no torn bytes left, the earlier sections byte-equal, the handoff kept as .partial.md; the same request succeeds once space is freed', async function () {
      if (noMount) this.skip();
      const { ws, root } = repo(1024 * 1024);
      try {
        mustBeOk(await handover({ specialist: SPECIALIST, topic: 'Disk full mid-section', summary: 'Before the disk fills up.' }, { workspaceRoot: ws }));
        const briefing = briefingOf(root, 'disk-full-mid-section');
        // A long summary: the handoff (~100 KB) fits in the 128 KiB left, its briefing section (~100 KB) then does not.
        const request = {
          specialist: SPECIALIST,
          topic: 'Disk full mid-section',
          summary: 'The disk fills up in the middle of this section. '.repeat(2000),
          max_context_tokens: 1_000_000,
          fit_to_budget: false,
        };
        fill(root, 128 * 1024);
        const briefingBefore = sections(briefing);

        const r = await handover(request, { workspaceRoot: ws });
        assert.equal(r.status, 'error');
        const message = r.status === 'error' ? r.message : '';
        assert.match(
          message,
          new RegExp(`^ERROR: the disk is full — could not write ${escapeRegExp(briefing + path.sep)}\\S+\\.md; free some space and try again`),
          message,
        );
        const { complete, partial } = handoffNames(root);
        assert.equal(complete.length, 1, 'no new complete handoff');
        assert.equal(partial.length, 1, 'the handoff kept as .partial.md (whole)');
        assert.ok(message.endsWith(`(the handoff was kept as ${path.join(root, HANDOFFS_DIR, partial[0])}, marked partial)`), message);
        assert.deepEqual(sections(briefing), briefingBefore, 'the earlier sections are byte-equal and no part of the new one is left');
        assert.deepEqual(
          readdirSync(path.dirname(briefing)).filter((n) => n.startsWith('.')),
          [],
          'no temporary file or lock left beside the briefing',
        );
        // The disk had room for part of the section file, not all of it: it failed mid-write.
        const room = freeBytes(root);

        unlinkSync(path.join(root, FILLER));
        const retry = mustBeOk(await handover(request, { workspaceRoot: ws }));
        const section = assertAppendedOnce(briefingBefore, briefing, retry.package.id);
        assert.ok(room >= PAGE && room < section, `the append had ${room} bytes of room for a ${section}-byte section`);
        assert.equal(handoffNames(root).complete.length, 2);
        figures.diskFull++;
      } finally {
        unmount(root);
      }
    });

    for (const leaveKiB of [24, 28, 32]) {
      it(`with ${leaveKiB} KiB free the history file does not fit: the handoff is written without the link to it, a WARNING names the history file and the cause, nothing else left; the same request links its history once space is freed`, async function () {
        if (noMount) this.skip();
        const { ws, root } = repo(256 * 1024);
        try {
          addTouchedFiles(ws);
          const request = { specialist: SPECIALIST, topic: 'History full', summary: 'Many touched files, a small budget.', ...FIT };
          const first = mustBeOk(await handover(request, { workspaceRoot: ws }));
          assert.ok(first.history_file && statSync(first.history_file).size > 32 * 1024, 'the history is larger than the room left below');
          assert.ok(
            statSync(first.handoff_file).size <= PAGE && statSync(first.briefing.path).size <= PAGE,
            'the handoff and its briefing section take a page each',
          );
          const historyBefore = readdirSync(path.join(root, HISTORY_DIR)).sort();
          fill(root, leaveKiB * 1024);

          const r = mustBeOk(await handover(request, { workspaceRoot: ws }));
          assert.equal(r.history_file, null, 'the result names no history file');
          assertNoHistoryLink(r.handoff_file);
          const warning = r.warnings.find((w) => w.includes('without its history file'));
          assert.ok(warning, `a WARNING says the history was not written: ${r.warnings.join(' | ')}`);
          assert.match(
            warning,
            new RegExp(
              `^WARNING: the handoff was written without its history file \\(what fit to budget cut is not kept\\): the disk is full — could not write ${escapeRegExp(path.join(root, HISTORY_DIR, `${r.package.id}.md`))}; free some space and try again$`,
            ),
          );
          assert.deepEqual(readdirSync(path.join(root, HISTORY_DIR)).sort(), historyBefore, 'no history file, whole or part, for the new handoff');
          assert.deepEqual(handoffNames(root), { complete: [path.basename(first.handoff_file), path.basename(r.handoff_file)].sort(), partial: [] });
          assert.ok(existsSync(r.briefing.path), 'its briefing section is written');
          assertNoLeftovers(root);

          unlinkSync(path.join(root, FILLER));
          const retry = mustBeOk(await handover(request, { workspaceRoot: ws }));
          assert.equal(retry.history_file, path.join(root, HISTORY_DIR, `${retry.package.id}.md`));
          assert.ok(existsSync(retry.history_file) && parseHandoff(readFileSync(retry.handoff_file, 'utf8')).ok);
          assert.ok(readFileSync(retry.handoff_file, 'utf8').includes(`${HISTORY_DIR}/${retry.package.id}.md`), 'the handoff links its history');
          figures.diskFull++;
        } finally {
          unmount(root);
        }
      });
    }

    it('with room for the handoff alone (one page): neither its history nor the handoff without the link fits: io ERROR naming the handoff and the history, nothing written; the same request succeeds once space is freed', async function () {
      if (noMount) this.skip();
      const { ws, root } = repo(256 * 1024);
      try {
        addTouchedFiles(ws);
        const request = { specialist: SPECIALIST, topic: 'History full', summary: 'Many touched files, a small budget.', ...FIT };
        const first = mustBeOk(await handover(request, { workspaceRoot: ws }));
        fill(root, PAGE);
        const before = snapshot(root);

        const r = await handover(request, { workspaceRoot: ws });
        assert.equal(r.status, 'error', 'the handover fails');
        const message = r.status === 'error' ? r.message : '';
        assert.equal(r.status === 'error' ? r.field : '', 'io');
        assert.match(
          message,
          new RegExp(
            `^ERROR: the disk is full — could not write ${escapeRegExp(path.join(root, HANDOFFS_DIR) + path.sep)}\\S+\\.partial\\.md; free some space and try again \\(its history file could not be written either: the disk is full — could not write ${escapeRegExp(path.join(root, HISTORY_DIR) + path.sep)}\\S+\\.md; free some space and try again; nothing was kept\\)$`,
          ),
          message,
        );
        assert.deepEqual(snapshot(root), before, 'nothing written: no handoff, no partial, no history, no temporary file');

        unlinkSync(path.join(root, FILLER));
        const retry = mustBeOk(await handover(request, { workspaceRoot: ws }));
        assert.ok(retry.history_file && existsSync(retry.history_file));
        assert.deepEqual(handoffNames(root).complete, [path.basename(first.handoff_file), path.basename(retry.handoff_file)].sort());
        figures.diskFull++;
      } finally {
        unmount(root);
      }
    });

    it('via the CLI with 28 KiB free and a history that does not fit: exit code 0, the WARNING on stderr, the handoff links no history', async function () {
      if (noMount) this.skip();
      const { ws, root } = repo(256 * 1024);
      try {
        addTouchedFiles(ws);
        const args = [
          'handover',
          '--specialist',
          SPECIALIST,
          '--topic',
          'History full CLI',
          '--summary',
          'Many touched files, a small budget.',
          '--max-tokens',
          '1000',
          '--session-log',
          'none',
          '--cwd',
          ws,
        ];
        const first = await cli([...args, '--json'], ws);
        assert.equal(first.code, 0, first.err);
        assert.ok((JSON.parse(first.out) as { history_file: string | null }).history_file, 'the first run wrote a history');
        fill(root, 28 * 1024);

        const run = await cli([...args, '--json'], ws);
        assert.equal(run.code, 0, run.err);
        const result = JSON.parse(run.out) as { status: string; handoff_file: string; history_file: string | null; warnings: string[] };
        assert.equal(result.status, 'ok');
        assert.equal(result.history_file, null);
        assertNoHistoryLink(result.handoff_file);
        assert.ok(
          result.warnings.some((w) => /^WARNING: the handoff was written without its history file .*the disk is full — could not write .*history/.test(w)),
          result.warnings.join(' | '),
        );
        assert.match(run.err, /WARNING: the handoff was written without its history file/, 'the warning is on stderr too');
        assertNoLeftovers(root);
        figures.diskFull++;
      } finally {
        unmount(root);
      }
    });

    it('via the CLI, plain and --json: the ERROR on stderr names the path and the cause, exit code 1; the same command succeeds once space is freed', async function () {
      if (noMount) this.skip();
      const { ws, root } = repo(256 * 1024);
      try {
        const args = [
          'handover',
          '--specialist',
          SPECIALIST,
          '--topic',
          'Disk full CLI',
          '--summary',
          'From a terminal, onto a full disk.',
          '--next',
          'Free some space',
          '--session-log',
          'none',
          '--cwd',
          ws,
        ];
        const first = await cli(args, ws);
        assert.equal(first.code, 0, first.err);
        const briefing = briefingOf(root, 'disk-full-cli');
        fill(root, 0);
        const before = snapshot(root);
        const briefingBefore = sections(briefing);

        const plain = await cli(args, ws);
        assert.equal(plain.code, 1, 'exit code 1: the handoff could not be written');
        assert.equal(plain.out, '', 'nothing on stdout');
        assert.equal(plain.err.split('\n').length, 1, `one line on stderr: ${plain.err}`);
        assert.match(plain.err, /^ERROR: the disk is full — could not write /);
        assert.ok(plain.err.includes(path.join(root, HANDOFFS_DIR) + path.sep), `names the path: ${plain.err}`);

        const json = await cli([...args, '--json'], ws);
        assert.equal(json.code, 1);
        const parsed = JSON.parse(json.out) as { status: string; message: string; field?: string };
        assert.equal(parsed.status, 'error');
        assert.equal(parsed.field, 'io');
        assert.equal(parsed.message, json.err, 'the same message on stdout (JSON) and stderr');
        assert.match(json.err, /^ERROR: the disk is full — could not write .+\.partial\.md; free some space and try again$/);
        assert.ok(json.err.includes(path.join(root, HANDOFFS_DIR) + path.sep));

        assert.deepEqual(snapshot(root), before, 'nothing written');
        assert.deepEqual(sections(briefing), briefingBefore);
        unlinkSync(path.join(root, FILLER));
        const retry = await cli([...args, '--json'], ws);
        assert.equal(retry.code, 0, retry.err);
        assert.equal(handoffNames(root).complete.length, 2);
        assertAppendedOnce(briefingBefore, briefing, (JSON.parse(retry.out) as { package: { id: string } }).package.id);
        figures.diskFull++;
      } finally {
        unmount(root);
      }
    });
  });

  it('read-only folder: ERROR naming the path and "read-only", nothing changed; the same request succeeds after remounting read-write', async function () {
    if (noMount) this.skip();
    const { ws, root } = repo(256 * 1024);
    try {
      mustBeOk(await handover({ specialist: SPECIALIST, topic: 'Read only', summary: 'Before the folder turns read-only.' }, { workspaceRoot: ws }));
      const briefing = briefingOf(root, 'read-only');
      const before = snapshot(root);
      const briefingBefore = sections(briefing);
      run('mount', ['-o', 'remount,ro', root]);

      const request = { specialist: SPECIALIST, topic: 'Read only', summary: 'Written to a read-only folder.' };
      const r = await handover(request, { workspaceRoot: ws });
      assert.equal(r.status, 'error');
      const message = r.status === 'error' ? r.message : '';
      assert.match(message, /^ERROR: .+ is on a read-only file system — make that folder writable \(remount it read-write\) and try again$/, message);
      assert.ok(message.includes(path.join(root, HANDOFFS_DIR) + path.sep), `names the path: ${message}`);
      assert.deepEqual(snapshot(root), before, 'nothing changed');

      run('mount', ['-o', 'remount,rw', root]);
      const retry = mustBeOk(await handover(request, { workspaceRoot: ws }));
      assertAppendedOnce(briefingBefore, briefing, retry.package.id);
      assert.equal(handoffNames(root).complete.length, 2);
      figures.readOnly++;
    } finally {
      unmount(root);
    }
  });

  it("permission denied (a writer running as nobody, .handoff owned by root with mode 0755): ERROR naming the path, nothing written; the same request succeeds once the folder is the writer's", async function () {
    const group = nobodyGroup();
    const { ws, root } = repo();
    chmodSync(ws, 0o755); // mkdtemp made it 0700: nobody must read the repository
    const writerFile = path.join(__dirname, 'fixtures', 'writer.ts');
    const tsx = require.resolve('tsx/cjs');
    let problem: string | undefined;
    if (!group) {
      problem = 'no group "nogroup" or "nobody" in /etc/group';
    } else {
      try {
        run('setpriv', [
          '--reuid=nobody',
          `--regid=${group}`,
          '--clear-groups',
          '--',
          'test',
          '-r',
          writerFile,
          '-a',
          '-r',
          tsx,
          '-a',
          '-r',
          path.join(ws, 'src', 'a.ts'),
        ]);
      } catch {
        problem = `user nobody cannot read ${writerFile}, ${tsx} or the temporary repository`;
      }
    }
    if (problem || !group) {
      figures.deniedSkipped = problem ?? 'no group';
      this.skip();
    }
    const asUser = { user: 'nobody', group: group as string };
    // The child's git: trust the root-owned repository, and read no config nobody cannot open.
    const env: NodeJS.ProcessEnv = {
      HOME: '/nonexistent',
      XDG_CONFIG_HOME: '/nonexistent/.config',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'safe.directory',
      GIT_CONFIG_VALUE_0: '*',
    };
    mustBeOk(await handover({ specialist: SPECIALIST, topic: 'Permission denied', summary: 'Written by root.' }, { workspaceRoot: ws }));
    const briefing = briefingOf(root, 'permission-denied');
    assert.equal(statSync(path.join(root, HANDOFFS_DIR)).mode & 0o777, 0o755);
    const before = snapshot(root);
    const briefingBefore = sections(briefing);

    const config: WriterConfig = { mode: 'engine', workspace: ws, label: 'nobody', count: 1, specialist: SPECIALIST, topic: 'Permission denied' };
    const denied = await runWriter(config, { asUser, env });
    const message = failureMessage(denied.event);
    assert.equal(denied.code, 1, 'the writer exits 1, it does not crash');
    assert.match(message, /^ERROR: permission denied writing .+ — check the folder's permissions and try again$/, message);
    assert.ok(message.includes(path.join(root, HANDOFFS_DIR) + path.sep), `names the path: ${message}`);
    assert.deepEqual(snapshot(root), before, 'nothing written');

    // The fix the message asks for: the folder's permissions. The same request then succeeds.
    run('chown', ['-R', `nobody:${group as string}`, root]);
    const retry = await runWriter(config, { asUser, env });
    assert.equal(retry.code, 0, retry.writer.stderr());
    assert.ok(retry.event.ok && retry.event.kind === 'handover', JSON.stringify(retry.event));
    assertAppendedOnce(briefingBefore, briefing, retry.event.id);
    assert.equal(handoffNames(root).complete.length, 2);
    figures.denied++;
  });

  describe('file-size limit (prlimit --fsize, EFBIG)', () => {
    it('the CLI staging a handoff larger than the limit: ERROR naming the path and the limit, exit code 1, nothing written; the same command succeeds without the limit', async () => {
      const { ws, root } = repo();
      mustBeOk(await handover({ specialist: SPECIALIST, topic: 'Size limit CLI', summary: 'Before the limit.' }, { workspaceRoot: ws }));
      const briefing = briefingOf(root, 'size-limit-cli');
      const before = snapshot(root);
      const briefingBefore = sections(briefing);
      // ~30,000 characters of summary: the handoff is larger than the 16 KiB limit.
      const config: WriterConfig = {
        mode: 'cli',
        workspace: ws,
        label: 'cli-limited',
        count: 1,
        specialist: SPECIALIST,
        topic: 'Size limit CLI',
        summaryChars: [30_000, 30_000],
        maxTokens: 1_000_000,
      };
      const limited = await runWriter(config, { fileSizeLimitBytes: 16 * 1024 });
      assert.equal(limited.code, 1, 'the writer exits 1 (not killed by SIGXFSZ)');
      const message = failureMessage(limited.event);
      assert.match(
        message,
        /^exit 1: ERROR: .+\.partial\.md would grow past the file-size limit of this process \(ulimit -f\) — raise the limit and try again$/,
        message,
      );
      assert.ok(message.includes(path.join(root, HANDOFFS_DIR) + path.sep), `names the path: ${message}`);
      assert.deepEqual(snapshot(root), before, 'nothing written');

      const retry = await runWriter(config);
      assert.equal(retry.code, 0, retry.writer.stderr());
      assert.ok(retry.event.ok && retry.event.kind === 'handover', JSON.stringify(retry.event));
      assertAppendedOnce(briefingBefore, briefing, retry.event.id);
      figures.sizeLimit++;
    });

    it('the CLI fitting a handoff whose history is past the limit: exit code 0, a WARNING names the history file and the limit, the handoff links no history and no part of the history is left', async () => {
      const { ws, root } = repo();
      addTouchedFiles(ws);
      const limit = 16 * 1024;
      const config: WriterConfig = {
        mode: 'cli',
        workspace: ws,
        label: 'cli-history-limited',
        count: 1,
        specialist: SPECIALIST,
        topic: 'History size limit',
        maxTokens: 1000,
      };
      const limited = await runWriter(config, { fileSizeLimitBytes: limit });
      assert.equal(limited.code, 0, limited.writer.stderr());
      const event = limited.event;
      assert.ok(event.ok && event.kind === 'handover', JSON.stringify(event));
      assert.equal(event.history_file, null);
      assertNoHistoryLink(event.handoff_file);
      const history = path.join(root, HISTORY_DIR, `${event.id}.md`);
      assert.ok(
        event.warnings.includes(
          `WARNING: the handoff was written without its history file (what fit to budget cut is not kept): ${history} would grow past the file-size limit of this process (ulimit -f) — raise the limit and try again`,
        ),
        event.warnings.join(' | '),
      );
      assert.ok(!existsSync(history), 'no history file, whole or part');
      assertNoLeftovers(root);
      assert.deepEqual(handoffNames(root), { complete: [path.basename(event.handoff_file)], partial: [] });

      const retry = await runWriter(config);
      assert.equal(retry.code, 0, retry.writer.stderr());
      assert.ok(retry.event.ok && retry.event.kind === 'handover' && retry.event.history_file, JSON.stringify(retry.event));
      assert.ok(
        statSync(retry.event.history_file).size > limit,
        `the history would indeed have been past the limit (${statSync(retry.event.history_file).size} bytes)`,
      );
      assert.ok(
        readFileSync(retry.event.handoff_file, 'utf8').includes(`${HISTORY_DIR}/${retry.event.id}.md`),
        'without the limit, the handoff links its history',
      );
      figures.sizeLimit++;
    });

    it('the engine writing a briefing section past the limit: ERROR naming the section file, no part of it left, the handoff kept as .partial.md; the same request succeeds without the limit', async () => {
      const { ws, root } = repo();
      mustBeOk(await handover({ specialist: SPECIALIST, topic: 'Size limit', summary: 'Before the limit.' }, { workspaceRoot: ws }));
      const briefing = briefingOf(root, 'size-limit');
      const briefingBefore = sections(briefing);
      const limit = 32 * 1024;
      // A 40,000-character summary (multi-byte words, ~45 KB): fit-to-budget cuts the handoff
      // under 4,000 tokens (well under 32 KiB); its briefing section keeps the uncut summary.
      const config: WriterConfig = {
        mode: 'engine',
        workspace: ws,
        label: 'engine-limited',
        count: 1,
        specialist: SPECIALIST,
        topic: 'Size limit',
        summaryChars: [40_000, 40_000],
        maxTokens: 4_000,
      };
      const limited = await runWriter(config, { fileSizeLimitBytes: limit });
      assert.equal(limited.code, 1, 'the writer exits 1 (not killed by SIGXFSZ)');
      const message = failureMessage(limited.event);
      assert.match(
        message,
        new RegExp(
          `^ERROR: ${escapeRegExp(briefing + path.sep)}\\S+\\.md would grow past the file-size limit of this process \\(ulimit -f\\) — raise the limit and try again`,
        ),
        message,
      );
      const { complete, partial } = handoffNames(root);
      assert.equal(complete.length, 1);
      assert.equal(partial.length, 1, 'the handoff kept as .partial.md, whole');
      assert.ok(message.endsWith(`(the handoff was kept as ${path.join(root, HANDOFFS_DIR, partial[0])}, marked partial)`), message);
      assert.deepEqual(sections(briefing), briefingBefore, 'the earlier sections are byte-equal and no part of the new one is left');

      const retry = await runWriter(config);
      assert.equal(retry.code, 0, retry.writer.stderr());
      assert.ok(retry.event.ok && retry.event.kind === 'handover', JSON.stringify(retry.event));
      const section = assertAppendedOnce(briefingBefore, briefing, retry.event.id);
      assert.ok(section > limit, `the section would indeed have been past the limit (${section} bytes)`);
      assert.ok(existsSync(retry.event.handoff_file));
      assert.ok(statSync(retry.event.handoff_file).size < limit, 'the handoff itself fitted under the limit');
      figures.sizeLimit++;
    });
  });
});
