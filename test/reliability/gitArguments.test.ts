/**
 * Reliability, "nothing run that should not be": git is called with argument arrays
 * through simple-git with its unsafe-option guards on, so file names that look like
 * options (`--output=x`, `-rf`, `--upload-pack=…`) are paths — listed as touched files,
 * never acted on.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { handover } from '../../src/engine/handover/handover';
import { buildPrompt } from '../../src/engine/receive/prompt';
import { cleanupTempDirs, commitAll, initRepo, write } from '../helpers/repo';

const OPTION_NAMES = ['--output=pwned.txt', '-rf', '--upload-pack=touch pwned-upload', '--exec=touch pwned-exec', '-c core.pager=touch pwned-pager', '--', '-'];

describe('reliability: git arguments', function () {
  this.timeout(60_000);
  let names = 0;
  after(() => {
    cleanupTempDirs();
    console.log(`    figures: option-like file names treated as paths: ${names}, side effects: 0`);
  });

  it('file names that look like git options are listed as paths and run nothing', async () => {
    const dir = initRepo();
    write(dir, 'base.txt', 'x\n');
    for (const n of OPTION_NAMES.slice(0, 3)) write(dir, n, 'tracked\n');
    commitAll(dir, 'c1');
    for (const n of OPTION_NAMES.slice(0, 3)) write(dir, n, 'tracked\nchanged\n');
    for (const n of OPTION_NAMES.slice(3)) write(dir, n, 'untracked\n');
    const r = HandoverOkSchema.parse(
      await handover({ specialist: 'hacker', topic: 'options', artifacts: OPTION_NAMES }, { workspaceRoot: dir, sessionLog: { mode: 'none' } }),
    );
    const listed = new Map(r.package.touched_files.map((f) => [f.path, f.status]));
    for (const n of OPTION_NAMES) {
      assert.ok(listed.has(n), `${n} is listed: ${JSON.stringify([...listed])}`);
      names += 1;
    }
    assert.equal(listed.get('-rf'), 'M');
    assert.equal(listed.get('--exec=touch pwned-exec'), '?');
    // The staleness check looks the named paths up too (on disk, never through git options).
    const p = await buildPrompt({ take: false }, { workspaceRoot: dir });
    assert.ok(p.status === 'ok');
    const created = readdirSync(dir).filter((f) => /^pwned/.test(f));
    assert.deepEqual(created, [], 'no option was executed');
    assert.equal(existsSync(path.join(dir, 'pwned.txt')), false);
    assert.match(readFileSync(r.handoff_file, 'utf8'), /`--upload-pack=touch pwned-upload`/);
  });

  it('simple-git is used with its unsafe-option guards on (no allowUnsafe* anywhere in the sources)', () => {
    const src = path.resolve(__dirname, '..', '..', 'src');
    const offenders: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.ts$/.test(e.name) && /allowUnsafe|unsafe\s*:/.test(readFileSync(p, 'utf8'))) offenders.push(p);
      }
    };
    walk(src);
    assert.deepEqual(offenders, []);
  });
});
