/**
 * `npm run test:real`: long real sessions keep every kind of fact at any budget (issue 34, "Done
 * when"). Every real transcript of ../shared/fixtures (real-logs, session-logs) and of
 * test/fixtures/real that is long — at least 1 MB, or at least 30 user requests as its session log
 * counts them — is handed over with `draft` at 1,000, 3,000 and 8,000 tokens from a real git
 * repository whose changes are the files the log edited plus 60 more in two folders (so a small
 * budget rolls paths up). The written handoff file must hold a summary, every git-changed path (or
 * its folder with the right count), the latest request, every test outcome, every open plan item
 * and every state-changing command's first line — the facts file's expectations (read by hand;
 * session-logs has none, so there the latest request is derived from the log by
 * test/helpers/latestRequest.ts) — and no test run or command may be cut. The other logs are held
 * to the same at 3,000 and 8,000 tokens.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { handover } from '../../src/engine/handover/handover';
import { collectSessionLog } from '../../src/evidence/session/collectSessionLog';
import { missingKinds, type Expected } from '../helpers/factKinds';
import { expectedLatest, logFiles, normalized } from '../helpers/latestRequest';
import { loadFacts, type LogFacts } from '../helpers/realFacts';
import { cleanupTempDirs, commitAll, git, initRepo, tempDir, write } from '../helpers/repo';

const SHARED = path.resolve(__dirname, '..', '..', '..', 'shared', 'fixtures');
const OWN = path.resolve(__dirname, '..', 'fixtures', 'real');
/** A long session: at least 1 MB of log, or at least 30 user requests. */
const LONG_BYTES = 1_000_000;
const LONG_REQUESTS = 30;
const BUDGETS = [1_000, 3_000, 8_000] as const;
/** Changed files beyond the log's own edits: enough that 1,000 tokens roll them up into folders. */
const EXTRA = Array.from({ length: 60 }, (_, i) => `extra/${i % 2 ? 'views' : 'models'}/file-${i}.txt`);

interface Log {
  readonly corpus: string;
  readonly file: string;
  readonly path: string;
  readonly facts?: LogFacts;
  /** The latest request as the log holds it, when there are no facts (session-logs). */
  readonly latest?: string;
}

function size(p: string): number {
  const s = statSync(p);
  return s.isDirectory() ? readdirSync(p).reduce((n, f) => n + size(path.join(p, f)), 0) : s.size;
}

function logs(): Log[] {
  const out: Log[] = [];
  const facts = (corpus: string, dir: string) => {
    if (!existsSync(path.join(dir, 'facts.json'))) return;
    for (const f of loadFacts(path.join(dir, 'facts.json')))
      if (existsSync(path.join(dir, f.file))) out.push({ corpus, file: f.file, path: path.join(dir, f.file), facts: f });
  };
  facts('real-logs', path.join(SHARED, 'real-logs'));
  facts('test/fixtures/real', existsSync(path.join(OWN, 'claude-code')) ? OWN : path.join(SHARED, 'real-corpus'));
  const sessionLogs = path.join(SHARED, 'session-logs');
  for (const rel of logFiles(sessionLogs)) {
    // A Cline task's metadata file holds no conversation; its folder's other files are read on their own.
    if (rel.endsWith('task_metadata.json')) continue;
    out.push({ corpus: 'session-logs', file: rel, path: path.join(sessionLogs, rel), latest: normalized(expectedLatest(rel)) });
  }
  return out;
}

/** The user requests the session log counts in a transcript. */
async function requestsIn(log: string): Promise<number> {
  const e = await collectSessionLog({ workspaceRoot: tempDir('handoff-long-count-'), mode: log, home: tempDir() });
  return e.user_requests_seen ?? e.user_requests?.length ?? 0;
}

/** A repository whose uncommitted changes are `paths`; returns it and what git says changed. */
function repoChanging(paths: readonly string[]): { ws: string; changed: string[] } {
  const ws = initRepo(tempDir('handoff-long-'));
  write(ws, 'README.md', '# app\n');
  commitAll(ws, 'initial');
  for (const p of paths) write(ws, p, `changed: ${p}\n`);
  const changed = git(ws, 'ls-files', '--others', '--modified', '--exclude-standard').split('\n').filter(Boolean);
  return { ws, changed };
}

function expected(log: Log, changed: string[]): Expected {
  const f = log.facts;
  return {
    request: f?.request ?? log.latest ?? '',
    gitPaths: changed,
    tests: (f?.tests ?? []).map((t) => ({ cmd: new RegExp(t.cmd), result: t.result })),
    open: f?.open ?? [],
    commands: f?.commands ?? [],
  };
}

describe('long real sessions: every kind of fact in the written handoff at 1,000, 3,000 and 8,000 tokens', function () {
  this.timeout(600_000);
  after(cleanupTempDirs);
  const all = logs();
  const long: string[] = [];

  before(async function () {
    for (const log of all) {
      const bytes = size(log.path);
      const requests = await requestsIn(log.path);
      if (bytes >= LONG_BYTES || requests >= LONG_REQUESTS) long.push(`${log.corpus}/${log.file}`);
    }
    console.log(`    long: ${long.length ? long.join(', ') : 'none'} (of ${all.length} logs)`);
  });

  it('the shared corpus has long sessions to check', () => {
    assert.ok(
      long.some((l) => l.startsWith('real-logs/')),
      `no log of ../shared/fixtures/real-logs is long: ${long.join(', ')}`,
    );
  });

  for (const log of all) {
    it(`${log.corpus}/${log.file}`, async () => {
      const isLong = long.includes(`${log.corpus}/${log.file}`);
      const edits = (log.facts?.edits ?? []).filter((e) => !path.isAbsolute(e) && !e.includes('..') && !/^[A-Za-z]:/.test(e));
      for (const budget of isLong ? BUDGETS : BUDGETS.filter((b) => b > 1_000)) {
        const { ws, changed } = repoChanging(isLong ? [...edits, ...EXTRA] : edits);
        const r = await handover(
          { specialist: 'implementation_engineer', topic: `long ${path.basename(log.file)}`, draft: true, max_context_tokens: budget },
          { workspaceRoot: ws, sessionLog: { mode: log.path } },
        );
        assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
        if (r.status !== 'ok') return;
        const text = readFileSync(r.handoff_file, 'utf8');
        const at = `at ${budget.toLocaleString('en')} tokens`;
        assert.ok(r.package.estimated_tokens <= budget, `${at}: ${r.package.estimated_tokens} tokens written`);
        assert.deepEqual(missingKinds(text, expected(log, changed)), [], `${at}: not carried`);
        for (const section of ['tests_run', 'commands_run', 'touched_files'] as const) {
          assert.equal(r.package.dropped.find((d) => d.section === section)?.count ?? 0, 0, `${at}: ${section} cut`);
        }
      }
    });
  }
});
