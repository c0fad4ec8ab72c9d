/**
 * Lint refuses an import cycle in src/ and webview/ (`import-x/no-cycle` in eslint.config.mjs):
 * three files planted in two real core folders, under unique temporary names, that
 * import each other in a ring fail with the rule's message, while the same files importing in
 * one direction pass; `import type` back edges are no cycle (nothing is evaluated). The planted
 * files are removed in `finally`.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

describe('lint refuses import cycles (planted files)', function () {
  this.timeout(120_000);
  const tag = `cycle-probe-${process.pid}-${randomBytes(4).toString('hex')}`;
  const file = (folder: string, name: string) => path.join(REPO_ROOT, folder, `${tag}-${name}.ts`);
  const ring = [file('src/core/handoff', 'a'), file('src/core/handoff', 'b'), file('src/core/session', 'c')];
  const line = [file('src/core/handoff', 'd'), file('src/core/handoff', 'e'), file('src/core/session', 'f')];
  const typed = [file('src/engine', 'g'), file('src/engine', 'h')];
  const spec = (from: string, to: string) => `./${path.relative(path.dirname(from), to).replace(/\.ts$/, '')}`.replace(/^\.\/\.\./, '..');
  let results: ESLint.LintResult[] = [];

  before(async () => {
    const planted = [...ring, ...line, ...typed];
    try {
      // a → b → c → a: a ring across two folders.
      ring.forEach((f, i) =>
        writeFileSync(f, `import { v${(i + 1) % 3} } from '${spec(f, ring[(i + 1) % 3])}';\nexport const v${i} = (): unknown => v${(i + 1) % 3};\n`, {
          flag: 'wx',
        }),
      );
      // d → e → f: the same imports without the edge back.
      line.forEach((f, i) =>
        writeFileSync(
          f,
          i < 2
            ? `import { w${i + 1} } from '${spec(f, line[i + 1])}';\nexport const w${i} = (): unknown => w${i + 1};\n`
            : `export const w${i} = (): unknown => ${i};\n`,
          { flag: 'wx' },
        ),
      );
      // g → h by value, h → g by type only.
      writeFileSync(
        typed[0],
        `import { h } from '${spec(typed[0], typed[1])}';\nexport interface G { readonly n: number }\nexport const g = (): unknown => h;\n`,
        { flag: 'wx' },
      );
      writeFileSync(typed[1], `import type { G } from '${spec(typed[1], typed[0])}';\nexport const h = (x: G): number => x.n;\n`, { flag: 'wx' });
      results = await new ESLint({ cwd: REPO_ROOT }).lintFiles(planted);
    } finally {
      for (const f of planted) rmSync(f, { force: true });
    }
  });

  const messagesOf = (f: string) => (results.find((r) => r.filePath === f)?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);

  it('fails each file of a ring a → b → c → a, naming the rule', () => {
    for (const f of ring) {
      const messages = messagesOf(f);
      assert.equal(messages.length, 1, `${path.basename(f)}: ${messages.join(' | ')}`);
      assert.match(messages[0], /^import-x\/no-cycle: Dependency cycle (detected|via "[^"]*cycle-probe-[^"]*")$/);
    }
  });

  it('passes the same imports in one direction, and a back edge that imports types only', () => {
    for (const f of [...line, ...typed]) assert.deepEqual(messagesOf(f), [], path.basename(f));
  });
});
