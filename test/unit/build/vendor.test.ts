/**
 * Issue 19: the shell parser (mvdan-sh, 1.3 MB of GopherJS output) ships as its own file,
 * dist/vendor/mvdan-sh.js, required on first use by src/core/session/shellWords.ts, so the
 * extension and the CLI do not carry and parse it as they load. This builds the CLI, the
 * vendor file and the tokenizers with the options of esbuild.mjs into a temporary folder laid
 * out as dist/ is, and runs the bundled CLI on a real Claude Code transcript whose commands
 * go through the parser: the draft's commands come out as from source. And zod's locales are
 * answered with English alone: a bundled zod still words its messages in English.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { writeClaudeSession } from '../../helpers/claudeSession';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../helpers/repo';

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('build: the shell parser in its own file', function () {
  this.timeout(180_000);
  after(cleanupTempDirs);

  it('dist/cli.js does not carry mvdan-sh, and the bundled CLI parses the transcript\'s commands through dist/vendor/mvdan-sh.js', async () => {
    type Build = esbuild.BuildOptions;
    const builds = (await import(pathToFileURL(path.join(ROOT, 'esbuild.mjs')).href)) as { cliBuild: Build; vendorBuild: Build; tokenizersBuild: Build };
    const dist = tempDir('handoff-dist-');
    await Promise.all([
      esbuild.build({ ...builds.cliBuild, absWorkingDir: ROOT, outfile: path.join(dist, 'cli.js'), logLevel: 'error' }),
      esbuild.build({ ...builds.vendorBuild, absWorkingDir: ROOT, outdir: path.join(dist, 'vendor'), logLevel: 'error' }),
      esbuild.build({ ...builds.tokenizersBuild, absWorkingDir: ROOT, outdir: path.join(dist, 'tokenizers'), logLevel: 'error' }),
    ]);
    const cliJs = readFileSync(path.join(dist, 'cli.js'), 'utf8');
    assert.ok(cliJs.includes('./vendor/mvdan-sh.js'), 'the CLI requires the vendor file');
    assert.ok(!cliJs.includes('$packages["mvdan.cc/sh'), 'the GopherJS packages are not in the CLI bundle');
    assert.ok(statSync(path.join(dist, 'vendor', 'mvdan-sh.js')).size > 500_000, 'the parser is in the vendor file');

    const ws = initRepo(tempDir('handoff-vendor-ws-'));
    write(ws, 'a.txt', 'a\n');
    commitAll(ws, 'c1');
    const transcript = writeClaudeSession(tempDir('handoff-vendor-transcripts-'), ws);
    const out = execFileSync(process.execPath, [path.join(dist, 'cli.js'), 'draft', '--json', '--session-log', transcript], {
      cwd: ws,
      encoding: 'utf8',
      env: { ...process.env, XDG_STATE_HOME: tempDir('handoff-vendor-xdg-') },
    });
    const draft = (JSON.parse(out) as { draft: { commands_run: Array<{ command: string; kind: string; exit_code: number | null }> } }).draft;
    assert.deepEqual(draft.commands_run.map((c) => [c.command, c.kind, c.exit_code]), [['npm run build', 'build', 2]]);
  });

  it('a bundle built with the extension\'s plugins keeps zod\'s English messages and carries no other locale', async () => {
    const { extensionBuild } = (await import(pathToFileURL(path.join(ROOT, 'esbuild.mjs')).href)) as { extensionBuild: esbuild.BuildOptions };
    const dir = tempDir('handoff-zod-');
    const entry = path.join(dir, 'entry.ts');
    writeFileSync(entry, `import { z } from 'zod';\nconst r = z.object({ n: z.number().int() }).safeParse({ n: 'x' });\nprocess.stdout.write(JSON.stringify({ message: r.success ? '' : r.error.issues[0].message, locales: Object.keys(z.locales) }));\n`);
    const outfile = path.join(dir, 'out.js');
    await esbuild.build({ ...extensionBuild, entryPoints: [entry], absWorkingDir: ROOT, nodePaths: [path.join(ROOT, 'node_modules')], outfile, logLevel: 'error' });
    const got = JSON.parse(execFileSync(process.execPath, [outfile], { encoding: 'utf8' })) as { message: string; locales: string[] };
    assert.equal(got.message, 'Invalid input: expected number, received string');
    assert.deepEqual(got.locales, ['en']);
    // zod with every locale bundles to ~450 KB (the webview measured 443 KB before it moved to zod/mini).
    assert.ok(statSync(outfile).size < 250_000, `zod without its other locales: ${statSync(outfile).size} bytes`);
  });
});
