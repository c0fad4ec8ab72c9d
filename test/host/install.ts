/**
 * Installs the real VS Code host used by the integration and UI tests, once, into
 * `.vscode-test/code-server-<version>/` (ignored by git, like @vscode/test-electron's
 * `.vscode-test/`): the npm package code-server, pinned to the version whose VS Code
 * matches `engines.vscode` (4.99.4 → VS Code 1.99.3, the last one on Node 20).
 *
 * Offline rules learned in ../shared/tools/vscode-host (read as a worked example):
 * - code-server and VS Code compile native modules with node-gyp against the machine's
 *   Node headers (`npm_config_nodedir`), and need their install scripts (npm 11 blocks
 *   dependency scripts by default, so this isolated install allows them);
 * - @vscode/ripgrep's postinstall downloads from GitHub unless its cache already holds
 *   the archive, so Debian's `rg` is packed into that cache first;
 * - HOME and XDG folders stay inside the cache.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** code-server version, and the VS Code it carries (must satisfy engines.vscode). */
export const CODE_SERVER_VERSION = '4.99.4';
/** The VS Code version inside {@link CODE_SERVER_VERSION}. */
export const VSCODE_VERSION = '1.99.3';

/** Repository root. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Cache folder of the host. */
export const HOST_CACHE = path.join(REPO_ROOT, '.vscode-test', `code-server-${CODE_SERVER_VERSION}`);
/** Confined HOME for code-server and Chromium. */
export const HOST_HOME = path.join(HOST_CACHE, 'home');
/** The code-server executable once installed. */
export const CODE_SERVER_BIN = path.join(HOST_CACHE, 'cs', 'node_modules', '.bin', 'code-server');

const READY = path.join(HOST_CACHE, 'ready.json');

function log(msg: string): void {
  process.stderr.write(`[host] ${msg}\n`);
}

function sh(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; logFile?: string }): string {
  try {
    return execFileSync(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    if (opts.logFile) {
      writeFileSync(opts.logFile, `${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
    throw new Error(`${cmd} ${args.join(' ')} failed${opts.logFile ? ` (log: ${opts.logFile})` : ''}: ${(e.stderr ?? e.message).split('\n').slice(-15).join('\n')}`, { cause: err });
  }
}

/** Environment for the install: offline native builds, scripts allowed, caches confined. */
function installEnv(tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TMPDIR: tmp,
    HOME: HOST_HOME,
    XDG_CACHE_HOME: path.join(HOST_HOME, '.cache'),
    XDG_CONFIG_HOME: path.join(HOST_HOME, '.config'),
    XDG_DATA_HOME: path.join(HOST_HOME, '.local', 'share'),
    npm_config_cache: process.env.npm_config_cache || path.join(process.env.HOME ?? tmp, '.npm'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_unsafe_perm: 'true', // code-server's postinstall refuses to run as root otherwise
    npm_config_yes: 'true', // node-pty's postinstall runs `npx node-gyp`
    npm_config_dangerously_allow_all_scripts: 'true', // this pinned, isolated install needs its native builds
  };
  const header = '/usr/include/node/node_version.h';
  if (existsSync(header)) {
    const text = readFileSync(header, 'utf8');
    const v = ['MAJOR', 'MINOR', 'PATCH'].map((k) => new RegExp(`define NODE_${k}_VERSION (\\d+)`).exec(text)?.[1]).join('.');
    if (v === process.versions.node) {
      env.npm_config_nodedir = '/usr'; // the machine's own headers: no header download
    }
  }
  return env;
}

/** Packs Debian's ripgrep where @vscode/ripgrep's postinstall looks before downloading. */
function seedRipgrep(tmp: string): void {
  const rg = ['/usr/bin/rg', '/usr/local/bin/rg'].find((p) => existsSync(p));
  if (!rg) {
    throw new Error('ripgrep (rg) is not installed — run: sudo bash scripts/system-packages.sh');
  }
  const work = path.join(tmp, 'seed');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  sh('npm', ['pack', '-q', `code-server@${CODE_SERVER_VERSION}`], { cwd: work });
  sh('tar', ['xzf', `code-server-${CODE_SERVER_VERSION}.tgz`, 'package/lib/vscode/npm-shrinkwrap.json'], { cwd: work });
  const shrink = JSON.parse(readFileSync(path.join(work, 'package/lib/vscode/npm-shrinkwrap.json'), 'utf8'));
  const rgVersion: string | undefined = shrink.packages?.['node_modules/@vscode/ripgrep']?.version;
  if (!rgVersion) {
    return; // newer code-server ships ripgrep binaries in the npm tarball
  }
  sh('npm', ['pack', '-q', `@vscode/ripgrep@${rgVersion}`], { cwd: work });
  sh('tar', ['xzf', `vscode-ripgrep-${rgVersion}.tgz`, 'package/lib/postinstall.js'], { cwd: work });
  const tag = /const VERSION = '([^']+)'/.exec(readFileSync(path.join(work, 'package/lib/postinstall.js'), 'utf8'))?.[1];
  if (!tag) {
    throw new Error('could not read the ripgrep version from @vscode/ripgrep/lib/postinstall.js');
  }
  const target = process.arch === 'arm64' ? 'aarch64-unknown-linux-musl' : 'x86_64-unknown-linux-musl';
  const cacheDir = path.join(tmp, `vscode-ripgrep-cache-${rgVersion}`);
  mkdirSync(cacheDir, { recursive: true });
  const bin = path.join(work, 'rgbin');
  mkdirSync(bin, { recursive: true });
  copyFileSync(rg, path.join(bin, 'rg'));
  sh('tar', ['czf', path.join(cacheDir, `ripgrep-${tag}-${target}.tar.gz`), '-C', bin, 'rg'], { cwd: work });
  rmSync(work, { recursive: true, force: true });
}

/**
 * Makes sure code-server is installed in the cache; installs it when missing (first run:
 * about two minutes on 2 cores, ~650 MB). Later runs return at once.
 */
export function ensureCodeServer(): void {
  if (existsSync(READY) && existsSync(CODE_SERVER_BIN)) {
    const ready = JSON.parse(readFileSync(READY, 'utf8'));
    if (ready.version === CODE_SERVER_VERSION) {
      return;
    }
  }
  const started = Date.now();
  log(`installing code-server ${CODE_SERVER_VERSION} (VS Code ${VSCODE_VERSION}) into ${path.relative(REPO_ROOT, HOST_CACHE)} — first run only, about 2 minutes`);
  rmSync(HOST_CACHE, { recursive: true, force: true });
  const tmp = path.join(HOST_CACHE, 'tmp');
  const cs = path.join(HOST_CACHE, 'cs');
  for (const d of [tmp, cs, HOST_HOME]) {
    mkdirSync(d, { recursive: true });
  }
  const env = installEnv(tmp);
  seedRipgrep(tmp);
  writeFileSync(path.join(cs, 'package.json'), JSON.stringify({ name: 'handoff-test-host', private: true }, null, 2));
  sh('npm', ['install', '--foreground-scripts', '--no-save', `code-server@${CODE_SERVER_VERSION}`], { cwd: cs, env, logFile: path.join(HOST_CACHE, 'install.log') });
  if (!existsSync(CODE_SERVER_BIN)) {
    throw new Error(`code-server was not installed at ${CODE_SERVER_BIN} — see ${path.join(HOST_CACHE, 'install.log')}`);
  }
  const size = sh('du', ['-sh', HOST_CACHE], { cwd: REPO_ROOT }).split('\t')[0];
  writeFileSync(READY, JSON.stringify({ version: CODE_SERVER_VERSION, vscode: VSCODE_VERSION, seconds: Math.round((Date.now() - started) / 1000), size }, null, 2));
  rmSync(tmp, { recursive: true, force: true });
  log(`code-server installed in ${Math.round((Date.now() - started) / 1000)} s (${size})`);
}

if (require.main === module) {
  ensureCodeServer();
}
