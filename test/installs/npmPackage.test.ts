/**
 * The npm package as a user installs it: `npm pack` of this repository (its `prepack` builds
 * dist/), then `npm install -g --prefix <temporary folder>` of the tarball with no network —
 * `--offline`, an empty npm cache and an unreachable registry, so a single dependency to fetch
 * would fail the install. The tarball holds what the CLI loads and nothing else (the files its
 * bin requires, followed from dist/cli.js, and the tokenizers' rank tables beside them), and
 * declares nothing to fetch. From the installed folder: `specialist-handoff --version`,
 * `handover` in a real git repository, `hook` on a session start and a session end, and `mcp`
 * through the MCP SDK's own client; the installed bundle on the current Node LTS too.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseHandoff } from '../../src/core/handoff/parse';
import { CLOSED_PROXY, clientEnv, pathWith, ROOT } from '../helpers/clients';
import { ltsNode } from '../helpers/nodeLts';
import { cleanupTempDirs, commitAll, filesUnder, initRepo, tempDir, write } from '../helpers/repo';

const MANIFEST = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };
/** Files npm puts in every tarball whatever .npmignore says, and the changelog it keeps. */
const ALWAYS = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];
/** Scripts npm runs when a package is installed. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

/** The package-relative files the bin loads: dist/cli.js and every `require("./…")` it reaches, each tokenizer's rank table and SQLite's WebAssembly. */
function loadedFiles(unpacked: string, bin: string): string[] {
  const seen = new Set<string>();
  const visit = (rel: string) => {
    if (seen.has(rel)) return;
    seen.add(rel);
    // A file the bundles require but the tarball lacks stays in the list: the comparison names it.
    if (!existsSync(path.join(unpacked, rel))) return;
    const text = readFileSync(path.join(unpacked, rel), 'utf8');
    for (const m of text.matchAll(/require\("(\.\.?\/[^"]+)"\)/g)) visit(path.posix.normalize(path.posix.join(path.posix.dirname(rel), m[1])));
    // src/engine/tokenizers/bundledEncoding.ts reads <name>.ranks.json beside <name>.js.
    if (/^dist\/tokenizers\/[a-z0-9_]+\.js$/.test(rel)) seen.add(rel.replace(/\.js$/, '.ranks.json'));
    // node-sqlite3-wasm's script loads its WebAssembly file from beside itself.
    if (rel === 'dist/vendor/node-sqlite3-wasm.js') seen.add('dist/vendor/node-sqlite3-wasm.wasm');
  };
  visit(path.posix.normalize(bin));
  return [...seen].sort();
}

describe('npm package: packed, installed offline into a clean prefix, run from there', function () {
  this.timeout(600_000);
  let tarball: string;
  let unpacked: string;
  let prefix: string;
  let bin: string;
  let env: NodeJS.ProcessEnv;

  before(() => {
    const out = tempDir('handoff-pack-');
    const packEnv = clientEnv(tempDir('handoff-pack-home-'), {
      PATH: process.env.PATH,
      npm_config_cache: process.env.npm_config_cache ?? path.join(process.env.HOME ?? out, '.npm'),
    });
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', out], {
        cwd: ROOT,
        env: packEnv,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        timeout: 300_000,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    ) as Array<{ filename: string }>;
    tarball = path.join(out, path.basename(packed[0].filename));
    unpacked = tempDir('handoff-unpacked-');
    execFileSync('tar', ['xzf', tarball, '-C', unpacked, '--strip-components=1']);
    prefix = tempDir('handoff-prefix-');
    const home = tempDir('handoff-npm-home-');
    env = clientEnv(home, { PATH: pathWith(path.join(prefix, 'bin')) });
  });
  after(cleanupTempDirs);

  it('holds what the CLI loads and nothing else, and declares nothing to fetch or run at install', () => {
    const regular = filesUnder(unpacked).map((f) => path.relative(unpacked, f.file).split(path.sep).join('/'));
    const expected = [...new Set([...ALWAYS, ...loadedFiles(unpacked, MANIFEST.bin['specialist-handoff'])])].sort();
    assert.deepEqual(regular.sort(), expected);
    assert.ok(expected.includes('dist/vendor/mcp-sdk.js') && expected.includes('dist/tokenizers/o200k_base.ranks.json'), expected.join(', '));
    const manifest = JSON.parse(readFileSync(path.join(unpacked, 'package.json'), 'utf8')) as Record<string, unknown> & { scripts?: Record<string, string> };
    for (const key of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies', 'bundledDependencies']) {
      assert.equal(manifest[key], undefined, `${key}: the bundles carry every library`);
    }
    assert.deepEqual(
      INSTALL_SCRIPTS.filter((s) => manifest.scripts?.[s] !== undefined),
      [],
      'no script runs at install',
    );
  });

  /** `npm install -g` of `tgz` into `into` with no network: --offline, an empty cache, an unreachable registry, no user npmrc. */
  const installOffline = (tgz: string, into: string) => {
    const userconfig = path.join(tempDir('handoff-npmrc-'), 'npmrc');
    writeFileSync(userconfig, '');
    return spawnSync(
      'npm',
      [
        'install',
        '-g',
        '--prefix',
        into,
        '--offline',
        '--cache',
        tempDir('handoff-empty-cache-'),
        '--registry',
        `${CLOSED_PROXY}/`,
        '--no-audit',
        '--no-fund',
        '--userconfig',
        userconfig,
        tgz,
      ],
      {
        env: { ...env, PATH: process.env.PATH },
        encoding: 'utf8',
        timeout: 300_000,
      },
    );
  };

  it('installs with no network: --offline, an empty cache, an unreachable registry', () => {
    const r = installOffline(tarball, prefix);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    bin = path.join(prefix, 'bin', 'specialist-handoff');
    assert.ok(existsSync(bin), bin);
    const installed = path.join(prefix, 'lib', 'node_modules', MANIFEST.name);
    assert.equal(existsSync(path.join(installed, 'node_modules')), false, 'nothing was installed beside it');
  });

  it('the same install of a package with one dependency fails: nothing could have been fetched', () => {
    const pkg = tempDir('handoff-dependent-');
    writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'handoff-dependent-probe', version: '1.0.0', dependencies: { 'left-pad': '1.3.0' } }));
    const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', pkg], {
      cwd: pkg,
      env: { ...env, PATH: process.env.PATH },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tgz = path.join(pkg, (JSON.parse(packed) as Array<{ filename: string }>)[0].filename);
    const r = installOffline(tgz, tempDir('handoff-probe-prefix-'));
    assert.notEqual(r.status, 0, 'an install that needs the registry cannot succeed here');
    assert.match(r.stderr, /ENOTCACHED|offline/i, r.stderr);
  });

  it('specialist-handoff --version, on the Node on PATH and on the current LTS', () => {
    assert.equal(execFileSync(bin, ['--version'], { env, encoding: 'utf8' }).trim(), MANIFEST.version);
    const installedCli = path.join(prefix, 'lib', 'node_modules', MANIFEST.name, 'dist', 'cli.js');
    assert.equal(execFileSync(ltsNode(), [installedCli, '--version'], { env, encoding: 'utf8' }).trim(), MANIFEST.version);
  });

  it("handover, then hook on a session start (the pending handoff's prompt) and a session end (the safety net)", () => {
    const repo = initRepo(tempDir('handoff-installed-repo-'));
    write(repo, 'src/a.ts', 'export const a = 1;\n');
    commitAll(repo, 'a');
    write(repo, 'src/a.ts', 'export const a = 2;\n');
    const h = spawnSync(
      bin,
      ['handover', '--specialist', 'quality_reviewer', '--topic', 'Installed check', '--summary', 'Written by the installed CLI.', '--json'],
      { cwd: repo, env, encoding: 'utf8' },
    );
    assert.equal(h.status, 0, h.stderr);
    const file = (JSON.parse(h.stdout) as { handoff_file: string }).handoff_file;
    const parsed = parseHandoff(readFileSync(file, 'utf8'));
    assert.ok(parsed.ok);
    assert.ok((parsed.handoff.sections.get('Touched files') ?? '').includes('`src/a.ts`'));

    const start = spawnSync(bin, ['hook'], {
      cwd: repo,
      env,
      encoding: 'utf8',
      input: JSON.stringify({ session_id: 's1', transcript_path: '/nowhere.jsonl', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }),
    });
    assert.equal(start.status, 0, start.stderr);
    const context = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    assert.ok(context.includes(`(handoff ${path.basename(file, '.md')})`) && context.includes('Written by the installed CLI.'));

    const transcripts = tempDir('handoff-installed-transcripts-');
    mkdirSync(transcripts, { recursive: true });
    const end = spawnSync(bin, ['hook'], {
      cwd: repo,
      env,
      encoding: 'utf8',
      input: JSON.stringify({
        session_id: 's1',
        transcript_path: path.join(transcripts, 's1.jsonl'),
        cwd: repo,
        hook_event_name: 'SessionEnd',
        reason: 'other',
      }),
    });
    assert.equal(end.status, 0, end.stderr);
    assert.match(end.stderr, /^specialist-handoff hook: SessionEnd \(reason: other\): safety-net handoff to \[implementation engineer\] written: /);
  });

  it("mcp: the MCP SDK's client lists the tools and calls one", async () => {
    const repo = initRepo(tempDir('handoff-installed-mcp-'));
    write(repo, 'a.txt', 'a\n');
    commitAll(repo, 'a');
    const transport = new StdioClientTransport({
      command: bin,
      args: ['mcp', '--cwd', repo],
      cwd: repo,
      env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'installed-package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        ['handover_to_specialist', 'list_specialists', 'prior_handoffs', 'record_result', 'request_full_history'],
      );
      const listed = (await client.callTool({ name: 'list_specialists', arguments: {} })) as CallToolResult;
      assert.notEqual(listed.isError, true);
      assert.ok(JSON.stringify(listed.content).includes('quality_reviewer'));
    } finally {
      await client.close();
    }
  });
});
