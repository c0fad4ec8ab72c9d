/**
 * Reliability, "nothing lost" — crash mid-write. Real writer processes — a stand-in for
 * an extension host (the engine's prepare + write, every 7th handoff fitted to a tiny
 * budget so a history file is written too) and one for the CLI (`runCli`) — write
 * continuously into the same workspace, same specialist and topic, so they share one
 * briefing; each is killed with SIGKILL after a random delay (seeded: `CRASH_SEED`, so the
 * delays are reproducible; where in a write they land depends on timing). After every kill:
 *
 * - every `<id>.md` in `.handoff/handoffs` parses whole (frontmatter id = its name, its
 *   "Return condition" section is there), and its section is in the briefing (a handoff
 *   gets its complete name only after its briefing section is on disk);
 * - an interrupted handoff is only ever `<id>.partial.md` (whole too: it is staged through
 *   a temporary file and a hard link) or absent; at most one per killed writer; anything
 *   else left is a temporary file or a lock folder, names no reader takes for a handoff;
 * - the briefing's bytes from just before the kill are an exact prefix of its bytes after,
 *   and, once no writer runs, it is its header followed by whole sections only (each starts
 *   with "\n## <ISO time> — " and ends with its `**Handoff:**` link line), no torn tail;
 * - every write a writer reported before it was killed is there, complete.
 *
 * After all the kills a normal handover succeeds (leftover temporary files and the lock
 * folders of killed writers never block it; a lock goes stale after LOCK_STALE_MS) and removes
 * every temporary file the killed writers left in the folders it writes; the lock folders
 * they left are removed once stale (`removeStaleLeftovers`). A targeted case kills a writer
 * while it holds the briefing lock: the next handover waits for the lock to go stale, then
 * succeeds, with the briefing intact.
 *
 * The real CLI (`node dist/cli-main.js handover`, built from the sources) is killed at random
 * moments of its writes in a real repository, again and again; one more run then succeeds
 * and leaves nothing half-written under the handoff root: no temporary file or lock folder,
 * none in `git status`, every handoff whole (or `.partial.md`), every link to a file that is
 * there.
 *
 * What the code guarantees about a torn tail: a section is one `O_APPEND` write under the
 * lock, and a write that fails is truncated back. A SIGKILL cannot be caught, so a write the
 * kernel ends early because the kill arrived while it was copying (Linux checks for a
 * fatal signal between the pages of one write) would stay torn; that window is
 * microseconds per write. This test counts torn sections and fails if it ever sees one.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, watch } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BRIEFINGS_DIR, HANDOFFS_DIR, HISTORY_DIR, briefingFileName, handoffId } from '../../src/core/handoff/naming';
import { parseHandoff } from '../../src/core/handoff/parse';
import { handover } from '../../src/engine/handover/handover';
import { LOCK_STALE_MS, LOCK_STUCK_MS, LOCK_UPDATE_MS, lockPathFor } from '../../src/store/fileLock';
import { removeStaleLeftovers } from '../../src/store/leftovers';
import { completeInterruptedHandoffs } from '../../src/store/handoffs/interrupted';
import { seededRandom } from '../helpers/random';
import { buildDist } from '../helpers/dist';
import { cleanupTempDirs, commitAll, git, initRepo, tempDir, write } from '../helpers/repo';
import { startWriter, type Writer } from './fixtures/children';
import type { WriterConfig, WriterEvent } from './fixtures/writer';

type HandoverEvent = Extract<WriterEvent, { kind: 'handover'; ok: true }>;

/** Seed of the kill delays (`CRASH_SEED=<n>` to replay or vary a run). */
const SEED = Number(process.env.CRASH_SEED ?? 0x5eed);
/** Rounds; each starts one engine writer and one CLI writer and kills both: 30 kills. */
const ROUNDS = 15;
/** Kill delays after a writer is ready: uniform in [0, this) ms. */
const MAX_KILL_DELAY_MS = 900;
const SPECIALIST = 'quality_reviewer';
const TOPIC = 'Crash mid-write';
const TOPIC_SLUG = 'crash-mid-write';

/** The briefing header's last line (render.ts `renderBriefingHeader`, the folder layout: one file per section, issue 20). */
const HEADER_END = 'Each handoff on this topic today writes one file like this one in this folder; read in name order, they make the briefing.\n';
/** Where a section starts: a blank line, then its heading with the handoff's ISO time. */
const SECTION_START = /(?=\n## \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z — )/;
/** A whole section: its heading, anything, and its last line, the link to its handoff. */
const WHOLE_SECTION = /^\n## (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z) — [^\n]*\n[\s\S]*\n\*\*Handoff:\*\* \[([^\]\n]+)\]\([^)\n]+\)\n$/;
const TEMP_FILE = /^\..+\.tmp$/;
const LOCK_FOLDER = /^\..+\.md\.lock(-queue)?$/;

function repo(): string {
  const dir = initRepo(tempDir('handoff-crash-'));
  write(dir, 'src/a.ts', 'export const a = 1;\n');
  commitAll(dir, 'initial');
  write(dir, 'src/a.ts', 'export const a = 2;\n');
  write(dir, 'notes.md', '# notes\n');
  return dir;
}

/** The briefing folders in `dir` (one per specialist, topic and day; issue 20). */
function briefingFolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
    .map((d) => path.join(dir, d.name));
}

/** Bytes of every briefing section file (`*.md` in each briefing folder of `dir`), by path. */
function readBriefings(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const folder of briefingFolders(dir)) {
    for (const name of readdirSync(folder)) {
      if (name.endsWith('.md') && !name.startsWith('.')) out.set(path.join(folder, name), readFileSync(path.join(folder, name)));
    }
  }
  return out;
}

/** Checks that every briefing of `before` is an exact prefix of the same briefing in `after`. */
function prefixIntact(before: Map<string, Buffer>, after: Map<string, Buffer>): boolean {
  for (const [file, bytes] of before) {
    const now = after.get(file);
    assert.ok(now, `${file} is still there after the kill`);
    assert.ok(now.length >= bytes.length, `${file} shrank from ${bytes.length} to ${now.length} bytes`);
    assert.ok(now.subarray(0, bytes.length).equals(bytes), `${file}: its bytes from before the kill are not a prefix of its bytes after`);
  }
  return true;
}

/** A briefing read apart: its header and the sections that follow it (whole ones by id, torn ones counted). */
interface BriefingParts {
  readonly header: string;
  readonly sections: Map<string, string>;
  readonly torn: string[];
}

function splitBriefing(text: string, file: string): BriefingParts {
  const end = text.indexOf(HEADER_END);
  assert.ok(text.startsWith('# Briefing for ') && end > 0, `${file} starts with its whole header`);
  const header = text.slice(0, end + HEADER_END.length);
  const rest = text.slice(header.length);
  const sections = new Map<string, string>();
  const torn: string[] = [];
  for (const chunk of rest ? rest.split(SECTION_START) : []) {
    const m = WHOLE_SECTION.exec(chunk);
    if (!m || !m[2].startsWith(m[1].replace(/:/g, '-'))) {
      torn.push(chunk);
      continue;
    }
    assert.ok(!sections.has(m[2]), `${file}: the section of ${m[2]} appears twice`);
    sections.set(m[2], chunk);
  }
  return { header, sections, torn };
}

/** Totals over the whole test. */
const figures = {
  kills: 0,
  rounds: 0,
  writes: 0,
  complete: 0,
  partial: 0,
  partialWithSection: 0,
  completed: 0,
  prefixChecks: 0,
  prefixIntact: 0,
  torn: 0,
  temps: 0,
  locks: 0,
  removed: 0,
  nextMs: -1,
  staleWaitMs: -1,
};

/** What the handoffs folder holds (by id), with the complete ones checked once each. */
interface HandoffsView {
  readonly complete: Set<string>;
  readonly partial: Set<string>;
}

function checkHandoffs(dir: string, checked: Set<string>): HandoffsView {
  const view: HandoffsView = { complete: new Set(), partial: new Set() };
  const names = existsSync(dir) ? readdirSync(dir) : [];
  for (const name of names) {
    const full = path.join(dir, name);
    if ((TEMP_FILE.test(name) && statSync(full).isFile()) || (LOCK_FOLDER.test(name) && statSync(full).isDirectory())) {
      continue; // a killed writer's leftover: counted by noteLeftovers
    }
    const partial = /^(.+)\.partial\.md$/.exec(name);
    const complete = partial ? null : /^(.+)\.md$/.exec(name);
    assert.ok(partial || complete, `${name}: only <id>.md, <id>.partial.md, temporary files and lock folders may be in ${dir}`);
    const id = (partial ?? complete)?.[1] ?? '';
    if (complete && checked.has(name)) {
      view.complete.add(id);
      continue;
    }
    const parsed = parseHandoff(readFileSync(full, 'utf8'));
    assert.ok(parsed.ok, `${name} does not parse: ${parsed.ok ? '' : parsed.message}`);
    assert.equal(parsed.handoff.frontmatter.id, id, `${name}: its frontmatter id is its name`);
    assert.ok(parsed.handoff.sections.has('Return condition'), `${name} is whole: it has its Return condition section`);
    if (complete) {
      view.complete.add(id);
      checked.add(name);
    } else {
      assert.ok(!names.includes(`${id}.md`), `${name}: a partial handoff and a complete one under the same id`);
      view.partial.add(id);
    }
  }
  return view;
}

/** Leftovers of killed writers seen so far: temporary files by name, lock folders by name and mtime (a lock taken over is a new one). */
const leftovers = { temps: new Set<string>(), locks: new Set<string>() };

function noteLeftovers(dirs: readonly string[]): void {
  for (const dir of dirs) {
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const st = statSync(path.join(dir, name));
      if (TEMP_FILE.test(name) && st.isFile()) leftovers.temps.add(path.join(dir, name));
      if (LOCK_FOLDER.test(name) && st.isDirectory()) leftovers.locks.add(`${path.join(dir, name)}@${st.mtimeMs}`);
    }
  }
}

/** Checks the briefings once no writer runs: header + whole sections; returns the ids of all sections. */
function checkBriefings(dir: string, events: readonly HandoverEvent[], history: ReadonlySet<string>): Set<string> {
  const ids = new Set<string>();
  for (const [file, bytes] of readBriefings(dir)) {
    const parts = splitBriefing(bytes.toString('utf8'), file);
    figures.torn += parts.torn.length; // counted before the assertion, so the figures line shows it
    assert.deepEqual(parts.torn, [], `${file}: torn bytes after its header (a section cut short or bytes between sections)`);
    for (const id of parts.sections.keys()) ids.add(id);
    for (const e of events.filter((ev) => ev.briefing === file)) {
      assert.equal(parts.header, e.header, `${file}: the header the writers rendered`);
      // A fitted handoff's section keeps the uncut summary, which the writer cannot render from its result.
      if (!history.has(e.id)) assert.equal(parts.sections.get(e.id), e.section, `${file}: the section of ${e.id} as its writer rendered it`);
    }
  }
  return ids;
}

/** Ids of the history files, after checking only temporary files are beside them. */
function historyIds(dir: string): Set<string> {
  const ids = new Set<string>();
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    if (TEMP_FILE.test(name)) continue;
    const m = /^(.+)\.md$/.exec(name);
    assert.ok(m, `${name}: only history files and temporary files in ${dir}`);
    ids.add(m[1]);
  }
  return ids;
}

/** Kills `w` with SIGKILL, with the briefings snapshotted right before and compared right after. */
async function killAndCompare(w: Writer, briefingsDir: string): Promise<void> {
  const before = readBriefings(briefingsDir);
  w.proc.kill('SIGKILL');
  const exit = await w.exited;
  assert.equal(exit.signal, 'SIGKILL', `the writer was still running when killed (exit ${exit.code}):\n${w.stderr()}`);
  figures.kills++;
  figures.prefixChecks++;
  if (prefixIntact(before, readBriefings(briefingsDir))) figures.prefixIntact++;
}

describe('reliability: crash mid-write (SIGKILL)', function () {
  this.timeout(240_000);

  after(() => {
    cleanupTempDirs();
    console.log(
      `    figures: SIGKILLs: ${figures.kills} (${figures.rounds} rounds of an engine and a CLI writer, 1 holding the briefing lock; seed ${SEED}), ` +
        `writes completed before the kills: ${figures.writes}, complete handoffs checked: ${figures.complete}, partial left: ${figures.partial} (each whole; ${figures.partialWithSection} with their briefing section already written, completed by the next writer: ${figures.completed}), ` +
        `briefing prefix intact after every kill: ${figures.prefixIntact}/${figures.prefixChecks}, torn sections: ${figures.torn}, ` +
        `leftovers of killed writers: ${figures.temps} temporary files, ${figures.locks} lock folders (none blocked a later writer; the temporary files swept by the next handover, ${figures.removed} stale lock folders by the sweep after it), ` +
        `next handover after the kills: ok in ${figures.nextMs} ms, after a killed lock holder: ok in ${figures.staleWaitMs} ms`,
    );
  });

  it(`${ROUNDS * 2} writers (engine and CLI, writing continuously into one workspace) killed at random points: complete handoffs whole, interrupted ones only .partial.md, the briefing an intact prefix of whole sections`, async () => {
    const random = seededRandom(SEED);
    const ws = repo();
    const root = path.join(ws, '.handoff');
    const handoffsDir = path.join(root, HANDOFFS_DIR);
    const briefingsDir = path.join(root, BRIEFINGS_DIR);
    const historyDir = path.join(root, HISTORY_DIR);
    const checked = new Set<string>();
    const events: HandoverEvent[] = [];
    let partialBefore = 0;

    for (let round = 0; round < ROUNDS; round++) {
      const plan: ReadonlyArray<Omit<WriterConfig, 'workspace'>> = [
        { mode: 'engine', label: `host-${round}`, count: 0, specialist: SPECIALIST, topic: TOPIC, summaryChars: [20, 6000], fitEvery: 7 },
        { mode: 'cli', label: `cli-${'x'.repeat(round % 5)}${round}`, count: 0, specialist: SPECIALIST, topic: TOPIC, summaryChars: [20, 3000] },
      ];
      const writers = plan.map((p) => startWriter({ ...p, workspace: ws }));
      await Promise.all(writers.map((w) => w.ready));
      const delays = writers.map(() => Math.floor(random() * MAX_KILL_DELAY_MS));
      await Promise.all(writers.map(async (w, k) => sleep(delays[k]).then(() => killAndCompare(w, briefingsDir))));

      // No writer runs now: everything on disk is what the kills left.
      const reported = writers.flatMap((w) => w.events);
      assert.deepEqual(
        reported.filter((e) => !e.ok),
        [],
        'no write failed before the kill (a leftover of an earlier kill never blocks a writer)',
      );
      const done = reported.filter((e): e is HandoverEvent => e.ok && e.kind === 'handover');
      events.push(...done);
      figures.writes += done.length;
      figures.rounds++;

      const view = checkHandoffs(handoffsDir, checked);
      assert.ok(
        view.partial.size - partialBefore <= writers.length,
        `round ${round}: at most one .partial.md per killed writer (${view.partial.size - partialBefore} new)`,
      );
      partialBefore = view.partial.size;
      for (const e of done) {
        assert.ok(view.complete.has(e.id), `${e.id} was reported written before the kill: it is there, complete`);
        assert.equal(e.handoff_file, path.join(handoffsDir, `${e.id}.md`));
      }
      const history = historyIds(historyDir);
      for (const id of history) assert.ok(view.complete.has(id) || view.partial.has(id), `history ${id}.md belongs to a handoff`);
      const sectionIds = checkBriefings(briefingsDir, events, history);
      for (const id of view.complete) assert.ok(sectionIds.has(id), `${id}.md is complete, so its briefing section is written`);
      figures.complete = view.complete.size;
      figures.partial = view.partial.size;
      // Killed between the briefing append and the rename: the section is there, the handoff stays .partial.md.
      figures.partialWithSection = [...view.partial].filter((id) => sectionIds.has(id)).length;
      noteLeftovers([handoffsDir, ...briefingFolders(briefingsDir), historyDir]);
    }
    assert.ok(figures.kills >= 20, `at least 20 kills (${figures.kills})`);
    figures.temps = leftovers.temps.size;
    figures.locks = leftovers.locks.size;
    assert.ok(events.length > 0, 'the writers got writes done between the kills');

    // (d) After all the kills, a normal handover still succeeds, whatever the killed writers left.
    const before = readBriefings(briefingsDir);
    const started = Date.now();
    const r = await handover(
      { specialist: SPECIALIST, topic: TOPIC, summary: 'After the crashes: the next writer is not blocked.', next_steps: ['Check the briefing'] },
      { workspaceRoot: ws },
    );
    figures.nextMs = Date.now() - started;
    assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
    assert.ok(figures.nextMs < LOCK_STUCK_MS, `a lock left by a killed writer went stale in time (${figures.nextMs} ms)`);
    prefixIntact(before, readBriefings(briefingsDir));
    const view = checkHandoffs(handoffsDir, checked);
    const id = r.status === 'ok' ? r.package.id : '';
    assert.ok(view.complete.has(id));
    assert.ok(checkBriefings(briefingsDir, events, historyIds(historyDir)).has(id), 'its section is in the briefing, whole');
    figures.complete = view.complete.size;

    // That handover swept the folders it writes: no temporary file of a killed writer is left
    // (their processes are gone). Lock folders carry no process id: a just-killed holder's is
    // stale only once not refreshed for LOCK_STALE_MS, and then the sweep removes it too.
    const folders = [root, handoffsDir, ...briefingFolders(briefingsDir), historyDir];
    for (const dir of folders) {
      for (const name of existsSync(dir) ? readdirSync(dir) : [])
        assert.doesNotMatch(name, TEMP_FILE, `${dir}: the killed writer's ${name} was swept by the next handover`);
    }
    await sleep(LOCK_STALE_MS + 200);
    for (const dir of folders) figures.removed += await removeStaleLeftovers(dir);
    for (const dir of folders.slice(1)) {
      for (const name of existsSync(dir) ? readdirSync(dir) : []) assert.match(name, /^[^.].*\.md$/, `${dir}: ${name} is not a leftover the sweep recognises`);
    }
    // A handoff killed after its briefing section, before its rename, is completed by the next
    // writer once the killed writer's lock is stale: no section names a handoff that is only partial.
    figures.completed = (await completeInterruptedHandoffs(root, handoffsDir)).length;
    const sections = checkBriefings(briefingsDir, events, historyIds(historyDir));
    const partialWithSection = [...checkHandoffs(handoffsDir, checked).partial].filter((p) => sections.has(p));
    assert.deepEqual(partialWithSection, [], 'no briefing section names a partial handoff');
  });

  it(`a writer killed while it holds the briefing lock: the next handover waits for the lock to go stale (${LOCK_STALE_MS / 1000} s), then succeeds; the briefing intact`, async () => {
    const ws = repo();
    const now = new Date();
    const request = { specialist: SPECIALIST, topic: TOPIC, summary: 'Before the lock holder dies.' };
    const first = await handover(request, { workspaceRoot: ws, now: () => now });
    assert.equal(first.status, 'ok', first.status === 'error' ? first.message : '');
    const briefingsDir = path.join(ws, '.handoff', BRIEFINGS_DIR);
    // One file per section (issue 20): the lock held is the one of the second handover's section file,
    // named by its id (the first took `now`, so now + 1 ms).
    const folder = path.join(briefingsDir, briefingFileName(SPECIALIST, TOPIC_SLUG, now).replace(/\.md$/, ''));
    assert.ok(first.status === 'ok' && existsSync(first.briefing.path));
    const briefing = path.join(folder, `${handoffId(new Date(now.getTime() + 1), SPECIALIST)}.md`);

    const holder = startWriter({ mode: 'hold-lock', workspace: ws, label: 'holder', count: 1, briefing });
    await holder.ready;
    // Let it refresh its lock at least once, so the lock is a live one when it dies.
    await sleep(LOCK_UPDATE_MS + 200);
    await killAndCompare(holder, briefingsDir);
    assert.ok(existsSync(lockPathFor(briefing)), 'the killed holder left its lock folder behind');

    const before = readBriefings(briefingsDir);
    const started = Date.now();
    const second = await handover({ ...request, summary: 'After the lock holder died.' }, { workspaceRoot: ws, now: () => now });
    figures.staleWaitMs = Date.now() - started;
    assert.equal(second.status, 'ok', second.status === 'error' ? second.message : '');
    assert.ok(figures.staleWaitMs >= LOCK_STALE_MS - LOCK_UPDATE_MS - 100, `it waited for the lock to go stale (${figures.staleWaitMs} ms)`);
    assert.ok(figures.staleWaitMs < LOCK_STUCK_MS, `and took it over within one call (${figures.staleWaitMs} ms)`);
    assert.ok(second.status === 'ok' && second.briefing.path === briefing, 'the section file whose lock was taken over');
    prefixIntact(before, readBriefings(briefingsDir));
    const parts = splitBriefing(readFileSync(briefing, 'utf8'), briefing);
    assert.deepEqual(parts.torn, []);
    assert.equal(parts.sections.size, 1, 'the header and its one whole section');
    assert.ok(parts.sections.has(second.package.id));
    assert.equal(readBriefings(briefingsDir).size, 2, 'two section files, one per handoff');
    assert.ok(!existsSync(lockPathFor(briefing)), 'the taken-over lock was released');
    const names = readdirSync(path.join(ws, '.handoff', HANDOFFS_DIR));
    assert.equal(names.filter((n) => n.endsWith('.md') && !n.endsWith('.partial.md')).length, 2);
    assert.ok(names.every((n) => !n.endsWith('.partial.md')));
  });
});

/** CLI runs killed (SIGKILL) before the last run, at least; more until one left a temporary file or a lock folder. */
const CLI_KILLS = 20;
/** Runs started at most to get {@link CLI_KILLS} kills (a run that ends before its kill counts as completed). */
const CLI_MAX_RUNS = 80;
/** A run is killed this long at most after its first change in the handoff root (the start of its writes): uniform in [0, this) ms. */
const CLI_KILL_WINDOW_MS = 150;
/** Untracked files in the workspace: a 1,000-token handoff cuts their list, so each run writes a history file too. */
const CLI_TOUCHED = 300;
/** Longest the kills and the last run take; they must fall on one UTC day, whose briefing folder they all write. */
const CLI_BUDGET_MS = 5 * 60 * 1000;

/** Every file and folder under `dir`, relative, folders with a trailing `/`. */
function tree(dir: string): string[] {
  const out: string[] = [];
  for (const entry of existsSync(dir) ? readdirSync(dir, { withFileTypes: true, recursive: true }) : []) {
    const rel = path.relative(dir, path.join(entry.parentPath, entry.name));
    out.push(entry.isDirectory() ? `${rel}/` : rel);
  }
  return out.sort();
}

/** What a run of the real CLI did: its exit code or the signal that ended it, and its output. */
interface CliProcessRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly out: string;
  readonly err: string;
}

describe('reliability: the real CLI killed (SIGKILL) at random moments of its writes', function () {
  this.timeout(CLI_BUDGET_MS + 180_000);
  const figures = { runs: 0, kills: 0, completed: 0, partialLeft: 0, tempsSeen: 0, locksSeen: 0, lastMs: -1, waitedForDayMs: 0 };
  let dist = '';

  before(async () => {
    dist = (await buildDist()).dist;
  });

  after(() => {
    cleanupTempDirs();
    console.log(
      `    figures: ${figures.runs} runs of node dist/cli-main.js handover, ${figures.kills} killed within ${CLI_KILL_WINDOW_MS} ms of their first write (seed ${SEED}), ${figures.completed} ended first; ` +
        `left by the kills: ${figures.partialLeft} .partial.md, ${figures.tempsSeen} temporary files, ${figures.locksSeen} lock folders; the last run: ok in ${figures.lastMs} ms, nothing half-written left` +
        (figures.waitedForDayMs ? ` (waited ${figures.waitedForDayMs} ms for the UTC day to turn first)` : ''),
    );
  });

  it(`${CLI_KILLS} runs of \`node dist/cli-main.js handover\` killed at random moments of their writes, then one more: it succeeds, no temporary file or lock folder is left under the handoff root or shown by git status, every handoff is whole or .partial.md, every link leads to a file that is there`, async () => {
    // The briefing folder is per UTC day: the kills and the last run must write the same one.
    const toMidnight = 86_400_000 - (Date.now() % 86_400_000);
    if (toMidnight < CLI_BUDGET_MS) {
      figures.waitedForDayMs = toMidnight + 1000;
      await sleep(figures.waitedForDayMs);
    }
    const random = seededRandom(SEED);
    const ws = repo();
    for (let i = 0; i < CLI_TOUCHED; i++) write(ws, `src/module-${i}/file-${i}.ts`, `export const v${i} = ${i};\n`);
    const root = path.join(ws, '.handoff');
    const handoffsDir = path.join(root, HANDOFFS_DIR);
    // Made before the first run so its first writes (the root's .gitignore among them) can be watched.
    mkdirSync(handoffsDir, { recursive: true });
    const home = tempDir('handoff-cli-home-');
    const env = { ...process.env, HOME: home, XDG_STATE_HOME: path.join(home, 'state') };

    /** Runs the CLI once; with `killWithin`, kills it that many ms after its first change in the handoff root or its handoffs folder. */
    const runCli = (summary: string, killWithin?: number): Promise<CliProcessRun> => {
      const args = [
        'handover',
        '--specialist',
        SPECIALIST,
        '--topic',
        'CLI crash',
        '--summary',
        summary,
        '--next',
        'Check the handoffs',
        '--max-tokens',
        '1000',
        '--session-log',
        'none',
        '--json',
        '--cwd',
        ws,
      ];
      const child = spawn(process.execPath, [path.join(dist, 'cli-main.js'), ...args], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
      child.stderr.setEncoding('utf8').on('data', (t: string) => (err += t));
      const watchers = killWithin === undefined ? [] : [root, handoffsDir].map((dir) => watch(dir));
      let timer: NodeJS.Timeout | undefined;
      for (const w of watchers) {
        w.once('change', () => {
          timer ??= setTimeout(() => child.kill('SIGKILL'), killWithin);
        });
      }
      return new Promise((resolve) =>
        child.on('exit', (code, signal) => {
          clearTimeout(timer);
          for (const w of watchers) w.close();
          resolve({ code, signal, out, err });
        }),
      );
    };

    const seenTemps = new Set<string>();
    const seenLocks = new Set<string>();
    // Until a kill left a temporary file or a lock folder too: the last run must have one to remove.
    while (figures.kills < CLI_KILLS || seenTemps.size + seenLocks.size === 0) {
      assert.ok(
        figures.runs < CLI_MAX_RUNS,
        `within ${CLI_MAX_RUNS} runs, ${CLI_KILLS} kills and one that left a temporary file or lock folder (${figures.kills} kills, ${seenTemps.size + seenLocks.size} such leftovers)`,
      );
      figures.runs++;
      const run = await runCli(
        `Run ${figures.runs}: ${'a crash may come at any moment '.repeat(1 + Math.floor(random() * 40))}`,
        Math.floor(random() * CLI_KILL_WINDOW_MS),
      );
      if (run.signal === 'SIGKILL') {
        figures.kills++;
      } else {
        assert.equal(run.code, 0, `a run that was not killed succeeds: ${run.err}`);
        figures.completed++;
      }
      for (const rel of tree(root)) {
        if (/(^|\/)\.[^/]+\.tmp$/.test(rel)) seenTemps.add(rel);
        if (/(^|\/)\.[^/]+\.lock\/$/.test(rel)) seenLocks.add(rel);
      }
    }
    figures.tempsSeen = seenTemps.size;
    figures.locksSeen = seenLocks.size;
    figures.partialLeft = readdirSync(handoffsDir).filter((n) => n.endsWith('.partial.md')).length;

    // A lock folder carries no process id: a killed holder's is known stale once it went
    // LOCK_STALE_MS without a refresh. The next run comes after that.
    await sleep(LOCK_STALE_MS + 200);
    const started = Date.now();
    const last = await runCli('The run after the crashes.');
    figures.lastMs = Date.now() - started;
    assert.equal(last.code, 0, `the last run succeeds: ${last.err}`);
    const result = JSON.parse(last.out) as { status: string; handoff_file: string; history_file: string | null; briefing: { path: string } };
    assert.equal(result.status, 'ok');

    // Nothing half-written stays: no temporary file, no lock folder, anywhere under the handoff root …
    const left = tree(root).filter((rel) => /(^|\/)\.[^/]+\.(tmp|lock\/)$/.test(rel));
    assert.deepEqual(left, [], 'no temporary file or lock folder under the handoff root');
    // … nor where the CLI keeps its session (written by every run: swept by the last).
    assert.deepEqual(
      tree(path.join(home, 'state')).filter((rel) => rel.endsWith('.tmp')),
      [],
      "no temporary file in the CLI's state folder",
    );
    // … nor in what git shows.
    const status = git(ws, 'status', '--porcelain', '--untracked-files=all')
      .split('\n')
      .filter((l) => l.includes('.handoff/'));
    assert.deepEqual(
      status.filter((l) => /\.tmp$|\.lock\//.test(l)),
      [],
      'git status lists no temporary file or lock',
    );
    assert.ok(status.includes('?? .handoff/.gitignore'), 'git sees the handoff root');

    // Every handoff is whole, or .partial.md (whole too: staged through a temporary file), and links only what is there.
    const names = readdirSync(handoffsDir);
    assert.ok(names.includes(path.basename(result.handoff_file)), "the last run's handoff is there, complete");
    for (const name of names) {
      assert.match(name, /^[^.].*\.md$/, `only handoffs in ${handoffsDir}: ${name}`);
      const parsed = parseHandoff(readFileSync(path.join(handoffsDir, name), 'utf8'));
      assert.ok(parsed.ok, `${name} parses: ${parsed.ok ? '' : parsed.message}`);
      const fm = parsed.handoff.frontmatter;
      assert.equal(`${fm.id}.md`, name.replace(/\.partial\.md$/, '.md'), `${name}: its id is its name`);
      assert.ok(parsed.handoff.sections.has('Return condition'), `${name} is whole`);
      if (name.endsWith('.partial.md')) continue;
      for (const link of [fm.briefing_file, fm.history_file]) {
        if (link) assert.ok(existsSync(path.join(root, ...link.split('/'))), `${name} links ${link}, which is there`);
      }
    }
    assert.ok(result.history_file && existsSync(result.history_file), 'the last run wrote its history');
    assert.ok(existsSync(result.briefing.path), 'and its briefing section');
  });
});
