/**
 * `npm run test:real`: every real session log of ../shared/fixtures/real-logs (read in place,
 * never copied into this repository) and of test/fixtures/real is handed over with `draft` from a
 * real temporary git repository, and each fact its `facts.json` lists — what a person reads in the
 * log, read by hand — is looked for in the WRITTEN handoff file (test/helpers/realFacts.ts). Every
 * fact must be carried and no statement may be false; the per-agent tally is printed as
 * `facts carried N/M, false K` (the table in docs/DEVELOPING.md).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkFacts, handoffTextOf, loadFacts, type FactsCheck, type LogFacts } from '../helpers/realFacts';
import { cleanupTempDirs } from '../helpers/repo';

const SHARED = path.resolve(__dirname, '..', '..', '..', 'shared', 'fixtures');
const OWN = path.resolve(__dirname, '..', 'fixtures', 'real');

/**
 * The corpora: the facts file, and the folder holding its logs. This repository's corpus keeps its
 * facts and sources in test/fixtures/real; its third-party logs are not committed (SOURCES.md says
 * why and where each comes from): they are read beside the facts when present, else from
 * ../shared/fixtures/real-corpus, where the shared copy lives.
 */
const CORPORA = [
  { name: '../shared/fixtures/real-logs', facts: path.join(SHARED, 'real-logs', 'facts.json'), logs: path.join(SHARED, 'real-logs'), required: true },
  // Its logs are third-party files this repository may not commit: present where they were fetched, or once shared.
  {
    name: 'test/fixtures/real',
    facts: path.join(OWN, 'facts.json'),
    logs: existsSync(path.join(OWN, 'claude-code')) ? OWN : path.join(SHARED, 'real-corpus'),
    required: false,
  },
];

/** The logs of a corpus folder: each file, except a Cline-family task folder's files (the folder is the log). */
function logsUnder(root: string, rel = ''): string[] {
  return readdirSync(path.join(root, rel), { withFileTypes: true }).flatMap((d) => {
    const r = rel ? `${rel}/${d.name}` : d.name;
    if (!d.isDirectory()) return rel && !/^(?:SOURCES\.md|facts\.json|LICENSE.*)$/.test(d.name) ? [r] : [];
    const names = readdirSync(path.join(root, r));
    return names.includes('api_conversation_history.json') || names.includes('ui_messages.json') ? [r] : logsUnder(root, r);
  });
}

const tally = new Map<string, { carried: number; total: number; falses: number; logs: number; inHistory: number }>();

describe('real logs: every fact a person reads is in the written handoff, none false', function () {
  this.timeout(120_000);
  after(() => {
    cleanupTempDirs();
    const rows = [...tally.entries()].sort(([a], [b]) => a.localeCompare(b));
    const all = rows.reduce(
      (s, [, t]) => ({
        carried: s.carried + t.carried,
        total: s.total + t.total,
        falses: s.falses + t.falses,
        logs: s.logs + t.logs,
        inHistory: s.inHistory + t.inHistory,
      }),
      { carried: 0, total: 0, falses: 0, logs: 0, inHistory: 0 },
    );
    console.log('\n  agent        logs  facts carried N/M, false K  (of N, in the history file of what was cut to fit)');
    for (const [agent, t] of [...rows, ['all', all] as const])
      console.log(`  ${agent.padEnd(12)} ${String(t.logs).padStart(4)}  facts carried ${t.carried}/${t.total}, false ${t.falses}  (${t.inHistory})`);
  });

  for (const corpus of CORPORA) {
    describe(corpus.name, () => {
      it('is there, with its facts and its logs', () => {
        assert.ok(existsSync(corpus.facts), `${corpus.facts} is missing`);
        const where = `put them in ${corpus.logs} (SOURCES.md beside ${corpus.facts} names each one's repository, path and commit)`;
        if (corpus.required) assert.ok(existsSync(corpus.logs), `the logs of ${corpus.name} are missing: ${where}`);
        else if (!existsSync(corpus.logs)) console.log(`    NOT CHECKED: the logs of ${corpus.name} are not on this machine — ${where}`);
      });
      if (!existsSync(corpus.facts) || !existsSync(corpus.logs)) return;
      const facts: LogFacts[] = loadFacts(corpus.facts);

      it('lists facts for every log in the folder, and only for logs there', () => {
        assert.deepEqual(facts.map((f) => f.file).sort(), logsUnder(corpus.logs).sort());
      });

      for (const f of facts) {
        it(f.file, async () => {
          const log = path.join(corpus.logs, f.file);
          assert.ok(statSync(log), log);
          const check: FactsCheck = checkFacts(f, await handoffTextOf(log));
          const agent = f.file.split('/')[0];
          const t = tally.get(agent) ?? { carried: 0, total: 0, falses: 0, logs: 0, inHistory: 0 };
          tally.set(agent, {
            carried: t.carried + check.carried,
            total: t.total + check.total,
            falses: t.falses + check.falses.length,
            logs: t.logs + 1,
            inHistory: t.inHistory + check.inHistory,
          });
          assert.deepEqual({ missing: check.missing, falses: check.falses }, { missing: [], falses: [] }, `${check.carried}/${check.total} carried`);
        });
      }
    });
  }
});
