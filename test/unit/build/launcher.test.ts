/**
 * dist/cli.js (src/cli/launch.ts) switches on Node's module compile cache where the running Node
 * has it, starts a counting command's tokenizer worker, then loads the CLI bundle dist/cli-main.js: what a command prints never depends on it,
 * and nothing in the built CLI changes V8's flags at run time (Node documents that doing so
 * "may result in unpredictable behavior, including crashes and data loss").
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, buildDist } from '../../helpers/dist';
import { cleanupTempDirs, initRepo, tempDir, write } from '../../helpers/repo';

describe("build: dist/cli.js loads the CLI bundle with Node's compile cache", function () {
  this.timeout(180_000);
  after(cleanupTempDirs);

  let dist = '';
  before(async () => {
    dist = (await buildDist()).dist;
  });

  it('runs the CLI as the bundle itself does, with the cache on or off', () => {
    const direct = execFileSync(process.execPath, [path.join(dist, 'cli-main.js'), 'specialists'], { encoding: 'utf8' });
    assert.match(direct, /quality_reviewer/);
    const cache = tempDir('handoff-compile-cache-');
    const viaLauncher = (env: NodeJS.ProcessEnv) =>
      execFileSync(process.execPath, [path.join(dist, 'cli.js'), 'specialists'], { encoding: 'utf8', env: { ...process.env, ...env } });
    assert.equal(viaLauncher({ NODE_COMPILE_CACHE: cache }), direct, 'first run');
    assert.equal(viaLauncher({ NODE_COMPILE_CACHE: cache }), direct, 'second run');
    assert.equal(viaLauncher({ NODE_DISABLE_COMPILE_CACHE: '1' }), direct, 'cache off');
  });

  it("switches Node's compile cache on before the bundle is loaded, where Node has it", () => {
    // This Node may not have module.enableCompileCache (22.1+): a stand-in records the call and
    // whether the bundle was already loaded then.
    const tmp = tempDir('handoff-launch-');
    const standIn = path.join(tmp, 'enable-compile-cache.js');
    writeFileSync(
      standIn,
      "require('node:module').enableCompileCache = () => { process.stderr.write('enableCompileCache called, bundle loaded: ' + Object.keys(require.cache).some((f) => f.endsWith('cli-main.js')) + '\\n'); };\n",
    );
    const run = spawnSync(process.execPath, ['-r', standIn, path.join(dist, 'cli.js'), '--version'], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^\d+\.\d+\.\d+/);
    assert.equal(run.stderr, 'enableCompileCache called, bundle loaded: false\n');
  });

  it('changes no V8 flag at run time and patches no dependency: the built CLI and tokenizers hold no setFlagsFromString', () => {
    const files = [
      'cli.js',
      'cli-main.js',
      ...readdirSync(path.join(dist, 'tokenizers'))
        .filter((f) => f.endsWith('.js'))
        .map((f) => path.join('tokenizers', f)),
    ];
    for (const file of files) {
      const text = readFileSync(path.join(dist, file), 'utf8');
      assert.doesNotMatch(text, /setFlagsFromString|single-threaded-gc/, file);
    }
  });

  it('a counting subcommand starts its tokenizer on one worker thread before the bundle loads, whose counts the handoff carries; other subcommands start none', function () {
    this.timeout(60_000);
    // A preload that records every worker thread started.
    const tmp = tempDir('handoff-launch-');
    const spy = path.join(tmp, 'spy-workers.js');
    writeFileSync(
      spy,
      "const wt = require('node:worker_threads'); const W = wt.Worker; wt.Worker = class extends W { constructor(...a) { process.stderr.write('WORKER, bundle loaded: ' + Object.keys(require.cache).some((f) => f.endsWith('cli-main.js')) + '\\n'); super(...a); } };\n",
    );
    const repo = initRepo();
    write(repo, 'src/a.ts', 'export const a = 1;\n');
    const run = (args: string[], entry = 'cli.js') =>
      spawnSync(process.execPath, ['-r', spy, path.join(dist, entry), ...args], { encoding: 'utf8', env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' } });
    // The launcher starts the worker and hands it to the bundle; the bundle run itself starts its own.
    const dir = path.join(repo, '.handoff', 'handoffs');
    for (const entry of ['cli.js', 'cli-main.js']) {
      const before = new Set(existsSync(dir) ? readdirSync(dir) : []);
      const r = run(
        ['handover', '--cwd', repo, '--specialist', 'quality_reviewer', '--topic', entry, '--summary', 'Counted by the worker.', '--session-log', 'none'],
        entry,
      );
      assert.equal(r.status, 0, r.stderr);
      // From the launcher, before the bundle is read and compiled.
      assert.deepEqual(
        r.stderr.split('\n').filter((l) => l.startsWith('WORKER')),
        [`WORKER, bundle loaded: ${entry === 'cli-main.js'}`],
        `one worker (${entry})`,
      );
      const file = readdirSync(dir).find((f) => !before.has(f));
      assert.ok(file, `the handoff of ${entry}`);
      assert.match(readFileSync(path.join(dir, file), 'utf8'), /^tokens_estimated: false$/m, `counted, not estimated (${entry})`);
    }
    const none = run(['specialists']);
    assert.equal(none.status, 0, none.stderr);
    assert.doesNotMatch(none.stderr, /WORKER/);
    assert.doesNotMatch(run(['handover', '--help']).stderr, /WORKER/);
    // Windsurf's recorder counts nothing, and Cascade waits on it before each prompt.
    const payload = JSON.stringify({
      agent_action_name: 'pre_user_prompt',
      trajectory_id: 'launch-test',
      execution_id: 'e1',
      timestamp: '2026-12-05T10:00:00Z',
      tool_info: { user_prompt: 'hello' },
    });
    const windsurf = spawnSync(process.execPath, ['-r', spy, path.join(dist, 'cli.js'), 'hook', '--agent', 'windsurf'], {
      cwd: repo,
      input: payload,
      encoding: 'utf8',
      env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1', XDG_STATE_HOME: tempDir('handoff-launch-state-') },
    });
    assert.equal(windsurf.status, 0, windsurf.stderr);
    assert.doesNotMatch(windsurf.stderr, /WORKER/);
  });

  it('the .vsix ships the launcher and the bundle it loads (the extension runs `dist/cli.js mcp`)', () => {
    // vsce lists the files that exist: the package's manifest and .vscodeignore beside stand-ins of the build's output.
    const pkg = tempDir('handoff-vsix-');
    for (const file of ['package.json', '.vscodeignore']) writeFileSync(path.join(pkg, file), readFileSync(path.join(ROOT, file)));
    for (const file of ['dist/cli.js', 'dist/cli-main.js', 'dist/extension.js', 'src/cli/launch.ts']) {
      mkdirSync(path.dirname(path.join(pkg, file)), { recursive: true });
      writeFileSync(path.join(pkg, file), '\n');
    }
    const listed = execFileSync(process.execPath, [path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'ls', '--no-dependencies'], {
      cwd: pkg,
      encoding: 'utf8',
    }).split(/\r?\n/);
    for (const file of ['dist/cli.js', 'dist/cli-main.js']) assert.ok(listed.includes(file), `${file} is packaged`);
    assert.ok(!listed.includes('src/cli/launch.ts'), 'sources are not');
  });
});
