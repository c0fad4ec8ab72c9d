/**
 * Lint keeps zod imported as a namespace: esbuild drops the unused members of `import * as z from 'zod'`, but keeps all
 * of zod for its re-exported `z` object or its default export. Planted files in src/core, linted with the repository's
 * own eslint.config.mjs and deleted in `finally`.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

const PLANTS = {
  named: "import { z } from 'zod';\nexport const s = z.string();\n",
  namedType: "import type { z } from 'zod';\nexport type S = z.ZodString;\n",
  default: "import zod from 'zod';\nexport const s = zod.string();\n",
  namespace: "import * as z from 'zod';\nexport const s = z.string();\n",
  namespaceType: "import type * as z from 'zod';\nexport type S = z.ZodString;\n",
};

describe("lint: zod is imported as a namespace (import * as z from 'zod')", function () {
  this.timeout(60_000);
  const messages = new Map<string, string[]>();

  before(async () => {
    const tag = `lint-probe-${process.pid}-${randomBytes(4).toString('hex')}`;
    const files = new Map(Object.keys(PLANTS).map((name) => [name, path.join(REPO_ROOT, 'src', 'core', `${tag}-${name}.ts`)]));
    try {
      for (const [name, file] of files) writeFileSync(file, PLANTS[name as keyof typeof PLANTS], { flag: 'wx' });
      const linted = await new ESLint({ cwd: REPO_ROOT }).lintFiles([...files.values()]);
      for (const [name, file] of files) messages.set(name, linted.find((r) => r.filePath === file)?.messages.map((m) => m.message) ?? ['not linted']);
    } finally {
      for (const file of files.values()) rmSync(file, { force: true });
    }
  });

  for (const name of ['named', 'namedType', 'default'])
    it(`fails: ${PLANTS[name as keyof typeof PLANTS].split('\n')[0]}`, () => {
      assert.deepEqual(messages.get(name), ["Import zod as a namespace, import * as z from 'zod': the bundles then keep only the parts of zod in use."]);
    });
  for (const name of ['namespace', 'namespaceType'])
    it(`passes: ${PLANTS[name as keyof typeof PLANTS].split('\n')[0]}`, () => {
      assert.deepEqual(messages.get(name), []);
    });
});
