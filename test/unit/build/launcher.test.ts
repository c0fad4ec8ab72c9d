/**
 * Issue 19: dist/cli.js (src/cli/launch.ts) loads the CLI bundle dist/cli-main.js with V8's code
 * cache. On Node without `module.enableCompileCache` (20), the cache is kept by hand in
 * `<tmpdir>/specialist-handoff-code-cache-<uid>/`: written once per bundle and subcommand, read
 * back by the next process, never stale (its name is the bundle's hash), refused when broken,
 * one per bundle and subcommand (week-old ones removed), private, and off with NODE_DISABLE_COMPILE_CACHE=1. What a command prints never depends on it. (How much it
 * saves is the bench's business: the CLI rows.)
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { ROOT, buildDist } from '../../helpers/dist';
import { cleanupTempDirs, initRepo, tempDir, write } from '../../helpers/repo';

const HAND_MADE = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache !== 'function';

describe('build: dist/cli.js loads the CLI bundle with V8\'s code cache', function () {
  this.timeout(180_000);
  after(cleanupTempDirs);

  let dist = '';
  before(async () => {
    dist = (await buildDist()).dist;
  });

  /** Runs `node dist/cli.js <args>` with its temporary folder in `tmp`. */
  const cli = (tmp: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
    execFileSync(process.execPath, [path.join(dist, 'cli.js'), ...args], { encoding: 'utf8', env: { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp, NODE_DISABLE_COMPILE_CACHE: '', ...env } });
  const cacheDir = (tmp: string) => path.join(tmp, `specialist-handoff-code-cache-${process.getuid?.() ?? 'user'}`);
  const entries = (tmp: string) => (existsSync(cacheDir(tmp)) ? readdirSync(cacheDir(tmp)) : []);

  it('runs the CLI as the bundle itself does, with or without the cache', () => {
    // The hand-made cache compiles the bundle with vm.Script, which has no loader for a native import().
    assert.doesNotMatch(readFileSync(path.join(dist, 'cli-main.js'), 'utf8'), /\bimport\(/, 'esbuild turned every import() into a require');
    const tmp = tempDir('handoff-launch-');
    const direct = execFileSync(process.execPath, [path.join(dist, 'cli-main.js'), 'specialists'], { encoding: 'utf8' });
    assert.match(direct, /quality_reviewer/);
    assert.equal(cli(tmp, ['specialists']), direct, 'first run (the cache is written)');
    assert.equal(cli(tmp, ['specialists']), direct, 'second run (the cache is read)');
    assert.equal(cli(tempDir('handoff-launch-'), ['specialists'], { NODE_DISABLE_COMPILE_CACHE: '1' }), direct, 'cache off');

    // Node ≥ 22.1's way (this Node may not have it: a stand-in records the call): the cache is
    // switched on, then the bundle is required and runs the command.
    const standIn = path.join(tmp, 'enable-compile-cache.js');
    writeFileSync(standIn, "require('node:module').enableCompileCache = () => { process.stderr.write('enableCompileCache called\\n'); };\n");
    const run = spawnSync(process.execPath, ['-r', standIn, path.join(dist, 'cli.js'), 'specialists'], { encoding: 'utf8', env: { ...process.env, TMPDIR: tmp } });
    assert.equal(run.stdout, direct);
    assert.equal(run.stderr, 'enableCompileCache called\n');
  });

  it('starts the tokenizer of a counting subcommand itself, before the bundle: one worker, whose counts the handoff carries', function () {
    this.timeout(60_000);
    // A preload that records every worker thread started, and from which file.
    const tmp = tempDir('handoff-launch-');
    const spy = path.join(tmp, 'spy-workers.js');
    writeFileSync(
      spy,
      "const wt = require('node:worker_threads'); const W = wt.Worker; wt.Worker = class extends W { constructor(...a) { const at = new Error().stack.split('\\n').find((l) => /cli(-main)?\\.js/.test(l)) || ''; process.stderr.write('WORKER ' + (/cli-main\\.js/.test(at) ? 'bundle' : 'launcher') + '\\n'); super(...a); } };\n",
    );
    const handover = (entry: string) => {
      const repo = initRepo();
      write(repo, 'src/a.ts', 'export const a = 1;\n');
      const r = spawnSync(process.execPath, ['-r', spy, path.join(dist, entry), 'handover', '--cwd', repo, '--specialist', 'quality_reviewer', '--topic', 't', '--summary', 'Counted once, by the worker the launcher started.', '--session-log', 'none'], {
        encoding: 'utf8',
        env: { ...process.env, TMPDIR: tmp, NODE_DISABLE_COMPILE_CACHE: '1' },
      });
      assert.equal(r.status, 0, r.stderr);
      const dir = path.join(repo, '.handoff', 'handoffs');
      const [file] = readdirSync(dir);
      const text = readFileSync(path.join(dir, file), 'utf8');
      // Counted, not estimated: the worker answered (test/unit/engine/tokenizerWorker.test.ts: its counts are the library's).
      assert.match(text, /^tokens_estimated: false$/m);
      return { workers: r.stderr.split('\n').filter((l) => l.startsWith('WORKER ')), tokens: Number(/^estimated_tokens: (\d+)$/m.exec(text)?.[1]) };
    };
    const launched = handover('cli.js');
    assert.deepEqual(launched.workers, ['WORKER launcher'], 'the launcher starts it; the bundle takes it over instead of starting another');
    const direct = handover('cli-main.js');
    assert.deepEqual(direct.workers, ['WORKER bundle'], 'run without the launcher, the bundle starts its own');
    assert.ok(launched.tokens > 0 && direct.tokens > 0);
    // Commands that count nothing start no worker.
    const specialists = spawnSync(process.execPath, ['-r', spy, path.join(dist, 'cli.js'), 'specialists'], { encoding: 'utf8', env: { ...process.env, TMPDIR: tmp } });
    assert.equal(specialists.status, 0);
    assert.doesNotMatch(specialists.stderr, /WORKER/);
  });

  it('writes one private entry per bundle, reads it back unchanged, replaces a broken one, and removes week-old ones', function () {
    if (!HAND_MADE) this.skip(); // Node ≥ 22.1: Node's own compile cache
    const tmp = tempDir('handoff-launch-');
    const version = cli(tmp, ['--version']);
    const [entry, ...more] = entries(tmp);
    assert.deepEqual(more, []);
    assert.match(entry, /^[0-9a-f]{40}-other\.bin$/, 'named after the bundle and what ran (no subcommand)');
    assert.equal(statSync(cacheDir(tmp)).mode & 0o777, 0o700, 'the folder is private');
    const file = path.join(cacheDir(tmp), entry);
    const written = readFileSync(file);
    assert.ok(written.length > 10_000, 'V8 code of the bundle');
    const mtime = statSync(file).mtimeMs;

    assert.equal(cli(tmp, ['--version']), version);
    assert.equal(statSync(file).mtimeMs, mtime, 'an accepted entry is not written again');
    assert.deepEqual(readFileSync(file), written);

    writeFileSync(file, Buffer.alloc(written.length, 7));
    assert.equal(cli(tmp, ['--version']), version, 'a broken entry is refused (V8 checks it) and the bundle compiled from source');
    assert.ok(!readFileSync(file).equals(Buffer.alloc(written.length, 7)), 'and the entry is written again');

    // Another bundle (a second install, another version): its own entry, beside this one.
    appendFileSync(path.join(dist, 'cli-main.js'), '\n// another build\n');
    assert.equal(cli(tmp, ['--version']), version);
    const both = entries(tmp);
    assert.equal(both.length, 2, 'each bundle has its own entry, neither evicts the other');
    const [other] = both.filter((e) => e !== entry);
    // An entry untouched for more than a week goes when another is written.
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(file, weekAgo, weekAgo);
    rmSync(path.join(cacheDir(tmp), other));
    assert.equal(cli(tmp, ['--version']), version);
    assert.deepEqual(entries(tmp), [other], 'the week-old entry is removed as the new one is written');
  });

  it('gives each subcommand its own entry, holding the functions that subcommand ran', function () {
    if (!HAND_MADE) this.skip(); // Node ≥ 22.1: Node's own compile cache, one entry per file
    const tmp = tempDir('handoff-launch-commands-');
    const version = cli(tmp, ['--version']);
    const specialists = cli(tmp, ['specialists']);
    assert.match(specialists, /quality_reviewer/);
    const names = entries(tmp).map((e) => e.replace(/^[0-9a-f]{40}-/, '')).sort();
    assert.deepEqual(names, ['other.bin', 'specialists.bin']);
    const [hashA, hashB] = entries(tmp).map((e) => e.slice(0, 40));
    assert.equal(hashA, hashB, 'one bundle');
    // Each is read back by its own subcommand and not written again.
    const mtimes = entries(tmp).map((e) => statSync(path.join(cacheDir(tmp), e)).mtimeMs);
    assert.equal(cli(tmp, ['specialists']), specialists);
    assert.equal(cli(tmp, ['--version']), version);
    assert.deepEqual(entries(tmp).map((e) => statSync(path.join(cacheDir(tmp), e)).mtimeMs), mtimes);
    // A subcommand's entry holds more of the bundle than one that only printed the version.
    const size = (name: string) => statSync(path.join(cacheDir(tmp), entries(tmp).find((e) => e.endsWith(name)) as string)).size;
    assert.ok(size('-specialists.bin') > size('-other.bin'), `${size('-specialists.bin')} > ${size('-other.bin')} bytes`);
  });

  it('gives each copy of one bundle its own entry: V8 keeps the path code was first compiled under, for stack traces', function () {
    if (!HAND_MADE) this.skip(); // Node ≥ 22.1: Node's own compile cache
    const tmp = tempDir('handoff-launch-copies-');
    const copy = path.join(tempDir('handoff-launch-copy-'), 'dist');
    cpSync(dist, copy, { recursive: true });
    const version = cli(tmp, ['--version']);
    assert.equal(execFileSync(process.execPath, [path.join(copy, 'cli.js'), '--version'], { encoding: 'utf8', env: { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp, NODE_DISABLE_COMPILE_CACHE: '' } }), version);
    assert.equal(entries(tmp).length, 2, 'one entry per copy');
  });

  it("turns zod's JIT off for a one-shot command, before its schemas are built; not for the MCP server", () => {
    // zod keeps its configuration on globalThis, shared by every copy of zod in the process:
    // a preload reads it with zod's own config() as the process exits. zod reads the switch as
    // each schema is built, so the preload also counts the parsers the JIT generates (each a
    // `new Function` whose body reads `payload`): switched on after the modules built their
    // schemas, the config said jitless while a handover still generated three.
    const tmp = tempDir('handoff-launch-zod-');
    const probe = path.join(tmp, 'zod-config.js');
    writeFileSync(
      probe,
      [
        'let parsers = 0;',
        'const Original = globalThis.Function;',
        "globalThis.Function = new Proxy(Original, { construct(target, args) { if (/\\bpayload\\b/.test(String(args[args.length - 1]))) parsers++; return Reflect.construct(target, args); } });",
        `process.on('exit', () => process.stderr.write('JITLESS ' + String(require(${JSON.stringify(require.resolve('zod'))}).config().jitless === true) + ' PARSERS ' + parsers + '\\n'));`,
        '',
      ].join('\n'),
    );
    const run = (args: string[], input = '') => spawnSync(process.execPath, ['-r', probe, path.join(dist, 'cli.js'), ...args], { encoding: 'utf8', input, env: { ...process.env, TMPDIR: tmp } });
    const repo = initRepo();
    write(repo, 'src/a.ts', 'export const a = 1;\n');
    const handover = run(['handover', '--cwd', repo, '--specialist', 'quality_reviewer', '--topic', 't', '--summary', 's', '--session-log', 'none']);
    assert.equal(handover.status, 0, handover.stderr);
    assert.match(handover.stderr, /^JITLESS true PARSERS 0$/m, 'handover: jitless, and no parser generated');
    assert.match(run(['specialists']).stderr, /^JITLESS true PARSERS 0$/m, 'specialists');
    const mcp = run(['mcp', '--cwd', repo]);
    assert.equal(mcp.status, 0, mcp.stderr);
    assert.match(mcp.stderr, /^JITLESS false /m, 'the MCP server keeps the JIT');
  });

  it('the .vsix ships the launcher and the bundle it loads (the extension runs `dist/cli.js mcp`)', () => {
    // vsce lists the files that exist: the package's manifest and .vscodeignore beside stand-ins of the build's output.
    const pkg = tempDir('handoff-vsix-');
    for (const file of ['package.json', '.vscodeignore']) writeFileSync(path.join(pkg, file), readFileSync(path.join(ROOT, file)));
    for (const file of ['dist/cli.js', 'dist/cli-main.js', 'dist/extension.js', 'src/cli/launch.ts']) {
      mkdirSync(path.dirname(path.join(pkg, file)), { recursive: true });
      writeFileSync(path.join(pkg, file), '\n');
    }
    const listed = execFileSync(process.execPath, [path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'ls', '--no-dependencies'], { cwd: pkg, encoding: 'utf8' }).split(/\r?\n/);
    for (const file of ['dist/cli.js', 'dist/cli-main.js']) assert.ok(listed.includes(file), `${file} is packaged`);
    assert.ok(!listed.includes('src/cli/launch.ts'), 'sources are not');
  });

  it('uses no cache when NODE_DISABLE_COMPILE_CACHE=1, nor in a folder others may write', function () {
    if (!HAND_MADE) this.skip();
    const off = tempDir('handoff-launch-');
    cli(off, ['--version'], { NODE_DISABLE_COMPILE_CACHE: '1' });
    assert.ok(!existsSync(cacheDir(off)));

    if (process.platform === 'win32') return;
    const shared = tempDir('handoff-launch-');
    mkdirSync(cacheDir(shared));
    chmodSync(cacheDir(shared), 0o777);
    assert.match(cli(shared, ['--version']), /\d+\.\d+\.\d+/);
    assert.deepEqual(entries(shared), [], 'nothing read from or written to a folder others can write');
  });
});
