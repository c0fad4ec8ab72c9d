/**
 * Reliability, "nothing lost" — concurrent writers. Real processes write into the same
 * handoff root at the same moment: two stand-ins for extension hosts (the engine's
 * prepare + write; their clocks tick every 16 ms, as Windows' does, so they want the same
 * file names) and one for the CLI (`runCli`, git evidence on every run). Together they
 * make 1,000 handovers — 1,000 handoff files and 1,000 sections appended to one briefing —
 * and then every byte is accounted for: the briefing is its header followed by exactly
 * the 1,000 sections as each writer rendered them, none torn or interleaved; every
 * handoff parses, whole, under a distinct name. Status changes (a read-modify-write) from
 * three processes at once lose none, and a lock that cannot be taken gives an `ERROR:`
 * that names the briefing.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { briefingFileName, handoffId } from '../../src/core/handoff/naming';
import { parseHandoff } from '../../src/core/handoff/parse';
import { handover } from '../../src/engine/handover/handover';
import { LOCK_STUCK_MS } from '../../src/store/fileLock';
import { listHandoffFiles, readHandoffHead } from '../../src/store/handoffs/handoffIndex';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';
import { startWriter, type Writer } from './fixtures/children';
import type { WriterConfig, WriterEvent } from './fixtures/writer';

type HandoverEvent = Extract<WriterEvent, { kind: 'handover'; ok: true }>;

/** Handovers per writer: two extension hosts and the CLI, 1,000 in all. */
const PLAN: ReadonlyArray<Omit<WriterConfig, 'workspace'>> = [
  { mode: 'engine', label: 'host-a', count: 470, clockQuantumMs: 16, summaryChars: [20, 6000], waitForGo: true },
  { mode: 'engine', label: 'host-b', count: 470, clockQuantumMs: 16, summaryChars: [20, 6000], waitForGo: true },
  { mode: 'cli', label: 'cli', count: 60, summaryChars: [20, 3000], waitForGo: true },
];
const TOTAL = PLAN.reduce((n, p) => n + (p.count ?? 0), 0);
/** Status changes per process in the read-modify-write test. */
const STATUS_CHANGES = 60;

function repo(): string {
  const dir = initRepo(tempDir('handoff-concurrency-'));
  write(dir, 'src/a.ts', 'export const a = 1;\n');
  commitAll(dir, 'initial');
  write(dir, 'src/a.ts', 'export const a = 2;\n');
  write(dir, 'notes.md', '# notes\n');
  return dir;
}

async function runTogether(writers: Writer[]): Promise<void> {
  await Promise.all(writers.map((w) => w.ready));
  for (const w of writers) w.go();
  const exits = await Promise.all(writers.map((w) => w.exited));
  exits.forEach((e, i) => {
    const failures = writers[i].events.filter((ev) => !ev.ok);
    assert.deepEqual(failures, [], `writer ${i} reported failures`);
    assert.equal(e.code, 0, `writer ${i} exited with ${e.code ?? e.signal}:\n${writers[i].stderr()}`);
  });
}

/**
 * Checks that `text` is exactly `header` followed by the `sections`, each once, in some
 * order: every section found whole, and together they tile the file with nothing between,
 * before or after them. Returns the number of sections.
 */
function assertTiles(text: string, header: string, sections: readonly string[], file: string): number {
  assert.ok(text.startsWith(header), `${file} starts with its header`);
  const at = sections.map((s) => {
    const i = text.indexOf(s, header.length);
    assert.ok(i >= 0, `${file}: a section is missing or not whole:\n${s.slice(0, 200)}`);
    assert.equal(text.indexOf(s, i + 1), -1, `${file}: a section appears twice`);
    return { i, len: s.length };
  });
  at.sort((a, b) => a.i - b.i);
  let pos = header.length;
  for (const s of at) {
    assert.equal(s.i, pos, `${file}: bytes between sections at ${pos} (something torn or interleaved)`);
    pos += s.len;
  }
  assert.equal(pos, text.length, `${file}: bytes after the last section`);
  return at.length;
}

describe('reliability: concurrent writers', function () {
  this.timeout(120_000);
  const figures = { writes: 0, processes: 0, intact: 0, handoffs: 0, collisions: 0, statusProcesses: 0, statusChanges: 0, statusKept: 0, lockMessages: 0 };

  after(() => {
    cleanupTempDirs();
    console.log(
      `    figures: concurrent writes: ${figures.writes} (${figures.processes} processes), sections intact: ${figures.intact}, handoffs whole and distinct: ${figures.handoffs}` +
        ` (${figures.collisions} names taken and retried), status changes: ${figures.statusChanges} from ${figures.statusProcesses} processes, kept: ${figures.statusKept}, lock messages checked: ${figures.lockMessages}`,
    );
  });

  it(`${TOTAL} handovers from ${PLAN.length} processes at once: every briefing section intact, every handoff whole, all names distinct`, async () => {
    const ws = repo();
    const writers = PLAN.map((p) => startWriter({ ...p, workspace: ws }));
    await runTogether(writers);
    const events = writers.flatMap((w) => w.events).filter((e): e is HandoverEvent => e.ok && e.kind === 'handover');
    assert.equal(events.length, TOTAL, 'every write reported');
    figures.writes = events.length;
    figures.processes = writers.length;
    // The hosts' clocks are known (the CLI's is its own): a name later than asked for was taken.
    figures.collisions = events.filter((e) => e.requested_ms >= 0 && e.created_ms !== e.requested_ms).length;

    // Briefings: one folder per day (normally one), one file per write (issue 20), each its header + exactly its section.
    const byBriefing = new Map<string, HandoverEvent[]>();
    for (const e of events) byBriefing.set(path.dirname(e.briefing), [...(byBriefing.get(path.dirname(e.briefing)) ?? []), e]);
    const briefingsDir = path.join(ws, '.handoff', 'briefings');
    assert.deepEqual(
      readdirSync(briefingsDir).sort(),
      [...byBriefing.keys()].map((f) => path.basename(f)).sort(),
      'only the briefings written, no temporary file or lock left',
    );
    let intact = 0;
    for (const [folder, list] of byBriefing) {
      assert.deepEqual(
        readdirSync(folder).sort(),
        list.map((e) => path.basename(e.briefing)).sort(),
        `${folder}: one file per write, no temporary file or lock left`,
      );
      const headers = new Set(list.map((e) => e.header));
      assert.equal(headers.size, 1, 'every writer rendered the same header');
      for (const e of list) {
        const text = readFileSync(e.briefing, 'utf8');
        intact += assertTiles(text, e.header, [e.section], e.briefing);
        assert.equal(text.match(/^## \d{4}-\d{2}-\d{2}T/gm)?.length, 1, 'one section heading per file');
      }
    }
    assert.equal(intact, TOTAL);
    figures.intact = intact;

    // Handoffs: every one whole, under its own name, none partial, nothing else in the folder.
    const handoffsDir = path.join(ws, '.handoff', 'handoffs');
    const names = readdirSync(handoffsDir);
    assert.equal(names.length, TOTAL, 'one file per handover: no partial, temporary or lock file left');
    assert.equal(new Set(names).size, TOTAL);
    assert.deepEqual(names.sort(), events.map((e) => path.basename(e.handoff_file)).sort(), 'exactly the files the writers reported');
    assert.equal(new Set(events.map((e) => e.id)).size, TOTAL, 'distinct ids');
    for (const name of names) {
      const text = readFileSync(path.join(handoffsDir, name), 'utf8');
      const parsed = parseHandoff(text);
      assert.ok(parsed.ok, `${name}: ${parsed.ok ? '' : parsed.message}`);
      assert.equal(`${parsed.handoff.frontmatter.id}.md`, name, 'its frontmatter id is its name');
      assert.ok(parsed.handoff.sections.has('Return condition'), `${name} is whole: it ends with its Return condition`);
    }
    assert.equal((await listHandoffFiles(handoffsDir)).filter((f) => !f.partial).length, TOTAL);
    figures.handoffs = TOTAL;
  });

  it(`status changes (read-modify-write) from 3 processes at once: none lost`, async () => {
    const ws = repo();
    const r = await handover({ specialist: 'implementation_engineer', topic: 'status race', summary: 'One handoff, many hands.' }, { workspaceRoot: ws });
    assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
    const file = r.status === 'ok' ? r.handoff_file : '';
    const writers = ['a', 'bb', 'ccc'].map((label) =>
      startWriter({ mode: 'status', workspace: ws, label, count: STATUS_CHANGES, statusFile: file, waitForGo: true }),
    );
    await runTogether(writers);
    const changed = writers.flatMap((w) => w.events).filter((e) => e.ok && e.kind === 'status' && e.changed).length;
    // Issue 20: each change is an event file beside the handoff; read with the handoff's head.
    const parsed = await readHandoffHead(file);
    assert.ok(parsed, `${file} reads back`);
    const history = parsed.frontmatter.status_history;
    assert.ok(changed > 0);
    assert.equal(history.length, changed, 'every change that reported success is in status_history');
    for (let i = 1; i < history.length; i++) {
      assert.equal(history[i].from, history[i - 1].to, `change ${i} starts from the status change ${i - 1} left (no lost update)`);
    }
    assert.equal(parsed.frontmatter.status, history[history.length - 1].to);
    assert.deepEqual(readdirSync(path.dirname(file)), [path.basename(file)], 'no temporary file or lock left');
    assert.equal(
      readdirSync(path.join(ws, '.handoff', 'status', path.basename(file, '.md'))).filter((n) => n.endsWith('.json')).length,
      changed,
      'one event file per change',
    );
    figures.statusProcesses = writers.length;
    figures.statusChanges = changed;
    figures.statusKept = history.length;
  });

  it(`a briefing locked by another process for over ${LOCK_STUCK_MS / 1000} s: an ERROR naming it, the handoff kept as .partial.md, nothing appended`, async function () {
    this.timeout(LOCK_STUCK_MS + 30_000);
    const ws = repo();
    const now = new Date();
    const first = await handover({ specialist: 'implementation_engineer', topic: 'Locked out', summary: 'First.' }, { workspaceRoot: ws, now: () => now });
    assert.equal(first.status, 'ok', first.status === 'error' ? first.message : '');
    // One file per section (issue 20): the second handover's section file, named by its id (the first took `now`, so now + 1 ms).
    const briefing = path.join(
      ws,
      '.handoff',
      'briefings',
      briefingFileName('implementation_engineer', 'locked-out', now).replace(/\.md$/, ''),
      `${handoffId(new Date(now.getTime() + 1), 'implementation_engineer')}.md`,
    );
    const before = readdirSync(path.dirname(briefing)).filter((n) => !n.startsWith('.'));
    const holder = startWriter({ mode: 'hold-lock', workspace: ws, label: 'holder', count: 1, briefing });
    try {
      await holder.ready;
      const started = Date.now();
      const r = await handover({ specialist: 'implementation_engineer', topic: 'Locked out', summary: 'Second.' }, { workspaceRoot: ws, now: () => now });
      const waited = Date.now() - started;
      assert.equal(r.status, 'error');
      const message = r.status === 'error' ? r.message : '';
      assert.match(message, /^ERROR: /);
      assert.ok(message.includes(briefing), `names the briefing: ${message}`);
      assert.match(message, /held by another writer .*has not finished for/);
      assert.match(message, /\.partial\.md, marked partial\)$/);
      assert.ok(waited >= LOCK_STUCK_MS - 100, `waited ${waited} ms before giving up`);
      assert.deepEqual(
        readdirSync(path.dirname(briefing)).filter((n) => !n.startsWith('.')),
        before,
        'the briefing is untouched: no section file written',
      );
      const names = readdirSync(path.join(ws, '.handoff', 'handoffs')).sort();
      assert.equal(names.length, 2);
      assert.ok(names.some((n) => n.endsWith('.partial.md')) && names.some((n) => !n.endsWith('.partial.md')));
      figures.lockMessages++;
    } finally {
      holder.proc.stdin?.end();
      await holder.exited;
    }
    // Released: the next handover goes through.
    const third = await handover({ specialist: 'implementation_engineer', topic: 'Locked out', summary: 'Third.' }, { workspaceRoot: ws, now: () => now });
    assert.equal(third.status, 'ok', third.status === 'error' ? third.message : '');
  });
});
