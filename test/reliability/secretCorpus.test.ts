/**
 * Reliability, "nothing leaked" measured against the world (issue 14): a corpus of fake
 * keys generated from the providers' published formats (test/helpers/secretCorpus — AI
 * providers, code hosts, clouds, SaaS tokens, PEM keys, key files, URL passwords), each
 * placed in every syntax that can carry it (shell, `.env`, JSON, YAML, TOML, XML, Go,
 * Python, Java, PHP, Ruby, Makefile, `curl`, a diff, a transcript line, command-line
 * flags). Every (key × syntax) goes through `redactSecrets`; a sample goes through a real
 * handover (summary, decision, turn) into a real repository. Nothing of a key may survive
 * — neither the key nor any 8-character run of it past its public prefix — and at most 2%
 * of the look-alikes (placeholders, AWS's example keys, hashes, UUIDs, integrity strings,
 * paths, versions, URLs without credentials) may be touched. The figures are printed per
 * family. Set SECRET_CORPUS_REPORT to a file path to get the leaks and false positives as JSON.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { redactSecrets } from '../../src/core/safety/redact';
import { HandoverOkSchema, type HandoverResult } from '../../src/core/handoff/schema';
import { handover } from '../../src/engine/handover/handover';
import { cleanupTempDirs, commitAll, filesUnder, initRepo, tempDir, write } from '../helpers/repo';
import { SYNTAXES, corpusKeys, leakedRuns, secretCorpus, type CorpusCase } from '../helpers/secretCorpus';
import { base62, bech32, crc32 } from '../helpers/secretCorpus/alphabet';

const CORPUS = secretCorpus();
/** Largest share of look-alikes redaction may touch (docs/DESIGN.md §7 "Nothing leaked"). */
const MAX_FALSE_POSITIVE_RATE = 0.02;

function ok(r: HandoverResult) {
  if (r.status !== 'ok') assert.fail(r.message);
  return HandoverOkSchema.parse(r);
}

interface FamilyFigures {
  keys: Set<string>;
  cases: number;
  leaked: number;
  syntaxes: Set<string>;
  variants: Set<string>;
}

describe("reliability: secret corpus from the providers' published formats", function () {
  this.timeout(180_000);
  const families = new Map<string, FamilyFigures>();
  for (const c of CORPUS.cases) {
    const f = families.get(c.key.family) ?? { keys: new Set(), cases: 0, leaked: 0, syntaxes: new Set(), variants: new Set() };
    f.keys.add(c.key.variant);
    f.cases += 1;
    families.set(c.key.family, f);
  }
  const figures = {
    cases: CORPUS.cases.length,
    checked: 0,
    leaked: 0,
    lookAlikes: CORPUS.lookAlikes.length,
    lookAlikesChecked: 0,
    falsePositives: 0,
    handoffCases: 0,
    handoffLeaked: 0,
    propertyRuns: 0,
    propertyFailure: '',
    ms: 0,
  };
  const report = {
    leaks: [] as Array<{ family: string; variant: string; syntax: string; run: string; output: string }>,
    falsePositives: [] as Array<{ kind: string; text: string; output: string }>,
    handoff: [] as string[],
  };

  after(() => {
    cleanupTempDirs();
    for (const [family, f] of [...families].sort(([a], [b]) => a.localeCompare(b))) {
      const where = f.leaked ? ` (${[...f.variants].sort().join(', ')} in ${[...f.syntaxes].sort().join(', ')})` : '';
      console.log(`    figures: secret corpus ${family}: ${f.keys.size} formats, ${f.cases} placements, leaked: ${f.leaked}${where}`);
    }
    const rate = figures.lookAlikesChecked ? ((100 * figures.falsePositives) / figures.lookAlikesChecked).toFixed(1) : '-';
    console.log(
      `    figures: secret corpus: ${CORPUS.keys.length} keys in ${families.size} families × ${SYNTAXES.length} syntaxes = ${figures.cases} placements (${figures.checked} checked), leaked: ${figures.leaked};` +
        ` look-alikes: ${figures.lookAlikes} (${figures.lookAlikesChecked} checked), false positives: ${figures.falsePositives} (${rate}%); handoff sample: ${figures.handoffCases} placements, leaked: ${figures.handoffLeaked};` +
        ` property runs: ${figures.propertyRuns}${figures.propertyFailure ? `, first failure: ${figures.propertyFailure}` : figures.propertyRuns ? ', all redacted' : ''}; in ${figures.ms} ms`,
    );
    if (process.env.SECRET_CORPUS_REPORT) writeFileSync(process.env.SECRET_CORPUS_REPORT, JSON.stringify({ figures, report }, null, 2));
  });

  it('the corpus covers the formats and syntaxes it promises', () => {
    assert.ok(families.size >= 40, `at least 40 families (${families.size})`);
    assert.ok(SYNTAXES.length >= 10, `at least 10 syntaxes (${SYNTAXES.length})`);
    for (const key of CORPUS.keys) {
      const n = CORPUS.cases.filter((c) => c.key === key).length;
      assert.ok(n >= 10, `${key.family}/${key.variant} is placed in at least 10 syntaxes (${n})`);
      for (const s of key.secrets) assert.ok(key.value.includes(s.text), `${key.family}/${key.variant}: each secret piece is in the value`);
    }
    // The check is not vacuous: unredacted, every placement shows its secret.
    const invisible = CORPUS.cases.filter((c) => leakedRuns(c.text, c.key).length === 0).map((c) => `${c.key.family}/${c.key.variant} in ${c.syntax.id}`);
    assert.deepEqual(invisible, [], 'every placement carries a detectable secret');
    // The checksums follow their published definitions (known vectors).
    assert.equal(crc32('123456789').toString(16), 'cbf43926', 'CRC-32/ISO-HDLC check value');
    assert.equal(
      base62(crc32('zQWBuTSOoRi4A9spHcVY5ncnsDkxkJ'), 6),
      '0mLq17',
      'GitHub token checksum of the example in "Behind GitHub\'s new authentication token formats"',
    );
    assert.equal(bech32('a', Buffer.alloc(0)), 'a12uel5l', 'BIP 173 test vector');
    for (const key of CORPUS.keys.filter((k) => k.family === 'github' && /^gh[pousr]_/.test(k.value))) {
      const body = key.value.slice(4);
      assert.equal(base62(crc32(body.slice(0, 30)), 6), body.slice(30), `${key.value.slice(0, 4)} token carries its CRC32`);
    }
    assert.ok(CORPUS.lookAlikes.length >= 200, `at least 200 look-alikes (${CORPUS.lookAlikes.length})`);
    // Deterministic: the same seed draws the same corpus.
    assert.deepEqual(
      secretCorpus().cases.map((c) => c.text),
      CORPUS.cases.map((c) => c.text),
    );
  });

  it('every key in every syntax: redactSecrets leaves no run of it', async () => {
    const t0 = Date.now();
    for (const c of CORPUS.cases) {
      const out = (await redactSecrets(c.text)).text;
      figures.checked += 1;
      const runs = leakedRuns(out, c.key);
      if (runs.length === 0) continue;
      figures.leaked += 1;
      const f = families.get(c.key.family);
      if (f) {
        f.leaked += 1;
        f.syntaxes.add(c.syntax.id);
        f.variants.add(c.key.variant);
      }
      report.leaks.push({ family: c.key.family, variant: c.key.variant, syntax: c.syntax.id, run: runs[0], output: out.slice(0, 400) });
    }
    figures.ms += Date.now() - t0;
    const sample = report.leaks.slice(0, 15).map((l) => `${l.family}/${l.variant} in ${l.syntax}: ${JSON.stringify(l.output.slice(0, 160))}`);
    assert.equal(figures.leaked, 0, `${figures.leaked} of ${figures.cases} placements leak, e.g.\n${sample.join('\n')}`);
  });

  it('property (fast-check): a key of any format, drawn from any seed, in any syntax that carries it, is redacted', async () => {
    const t0 = Date.now();
    let failure = '';
    await fc
      .assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.nat(), async (seed, pick) => {
          figures.propertyRuns += 1;
          const keys = corpusKeys(seed);
          const key = keys[pick % keys.length];
          const carriers = SYNTAXES.filter((s) => s.shapes.includes(key.shape));
          const syntax = carriers[Math.floor(pick / keys.length) % carriers.length];
          const runs = leakedRuns((await redactSecrets(syntax.render(key))).text, key);
          if (runs.length > 0 && !failure) failure = `${key.family}/${key.variant} in ${syntax.id} (seed ${seed})`;
          return runs.length === 0;
        }),
        { numRuns: 200, seed: 14, endOnFailure: true },
      )
      .catch((err: unknown) => {
        figures.propertyFailure = failure;
        throw err;
      });
    figures.ms += Date.now() - t0;
  });

  it(`look-alikes stay: at most ${MAX_FALSE_POSITIVE_RATE * 100}% are touched`, async () => {
    const t0 = Date.now();
    for (const l of CORPUS.lookAlikes) {
      const out = (await redactSecrets(l.text)).text;
      figures.lookAlikesChecked += 1;
      if (out === l.text) continue;
      figures.falsePositives += 1;
      report.falsePositives.push({ kind: l.kind, text: l.text, output: out });
    }
    figures.ms += Date.now() - t0;
    const allowed = Math.floor(CORPUS.lookAlikes.length * MAX_FALSE_POSITIVE_RATE);
    const list = report.falsePositives.map((f) => `${f.kind}: ${JSON.stringify(f.text)} → ${JSON.stringify(f.output)}`);
    assert.ok(
      figures.falsePositives <= allowed,
      `${figures.falsePositives} of ${CORPUS.lookAlikes.length} look-alikes touched (at most ${allowed}):\n${list.join('\n')}`,
    );
  });

  it('a sample written by a real handover (summary, decisions, turns) leaves nothing of any key under the handoff root', async () => {
    const t0 = Date.now();
    // One placement per key, its syntax rotating; each key goes to two of the three places.
    const sample: CorpusCase[] = CORPUS.keys.map((key, i) => {
      const own = CORPUS.cases.filter((c) => c.key === key);
      return own[(i * 7) % own.length];
    });
    for (const round of [0, 1]) {
      const ws = initRepo(tempDir('handoff-corpus-'));
      write(ws, 'src/app.ts', 'export const app = 1;\n');
      commitAll(ws, 'initial');
      const slot = (i: number) => (i + round) % 3;
      const inSummary = sample.filter((_, i) => slot(i) === 0);
      const inDecisions = sample.filter((_, i) => slot(i) === 1);
      const inTurns = sample.filter((_, i) => slot(i) === 2);
      ok(
        await handover(
          {
            specialist: 'security_data_engineer',
            topic: 'Corpus sample',
            summary: `We configured the deploy.\n${inSummary.map((c) => c.text).join('\n')}`,
            decisions: inDecisions.map((c) => `Keep this config:\n${c.text}`),
            recent_turns: inTurns.map((c) => ({ role: 'tool', text: c.text })),
            max_context_tokens: 120_000,
            include_recent_turns: 100,
          },
          { workspaceRoot: ws, sessionLog: { mode: 'none' } },
        ),
      );
      const files = filesUnder(path.join(ws, '.handoff'));
      assert.ok(files.length >= 2, 'a handoff and a briefing were written');
      for (const c of sample) {
        figures.handoffCases += 1;
        const hits = files.filter((f) => leakedRuns(f.text, c.key).length > 0);
        if (hits.length === 0) continue;
        figures.handoffLeaked += 1;
        report.handoff.push(`${c.key.family}/${c.key.variant} (${c.syntax.id}) in ${hits.map((h) => path.relative(ws, h.file)).join(', ')}`);
      }
    }
    figures.ms += Date.now() - t0;
    assert.deepEqual(report.handoff, [], `${report.handoff.length} sampled placements reach the handoff root`);
  });
});
