/**
 * The real clients the install tests run (test/installs): Claude Code's CLI and the MCP
 * Inspector's CLI, both pinned in package.json's devDependencies and installed by `npm ci`,
 * and the environment they run in — a temporary home and config folder, no npm variables of
 * the harness, and every proxy variable pointing at a closed port, so a client that reached
 * for the network would fail instead of succeeding quietly.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { ltsNode } from './nodeLts';
import { tempDir } from './repo';

/** The repository's root. */
export const ROOT = path.resolve(__dirname, '..', '..');

/** A port nothing listens on (TCP port 9, discard): where the proxy variables lead. */
export const CLOSED_PROXY = 'http://127.0.0.1:9';

/** The version of a devDependency as package.json pins it. */
export function pinnedVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  const version = manifest.devDependencies[name];
  if (!version || !/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`package.json must pin ${name} to an exact version (found "${version ?? 'nothing'}")`);
  return version;
}

/**
 * The environment of a client run: the harness's without its npm variables (`npm run` passes
 * its own Node and config down), HOME, the XDG folders and Claude Code's config folder inside
 * `home`, the proxies closed, Claude Code's background traffic and updater off.
 */
export function clientEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^npm_/i.test(k) || /_proxy$/i.test(k)) continue;
    env[k] = v;
  }
  for (const dir of ['.config', '.cache', '.local/share', '.local/state', '.claude']) mkdirSync(path.join(home, dir), { recursive: true });
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    HTTP_PROXY: CLOSED_PROXY,
    HTTPS_PROXY: CLOSED_PROXY,
    http_proxy: CLOSED_PROXY,
    https_proxy: CLOSED_PROXY,
    ALL_PROXY: CLOSED_PROXY,
    // Node's own fetch reads the proxy variables only with this set (Node 22.21 / 24).
    NODE_USE_ENV_PROXY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    ...extra,
  };
}

/**
 * Claude Code's executable as `npm ci` installed it: its postinstall (allowed in package.json's
 * `allowScripts`) puts the native binary in place of the package's placeholder.
 * @throws when the placeholder is still there, naming the fix
 */
export function claudeBinary(): string {
  const bin = path.join(ROOT, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
  if (!existsSync(bin)) throw new Error(`Claude Code is not installed at ${bin} — run npm ci`);
  const head = readFileSync(bin).subarray(0, 200).toString('latin1');
  if (head.includes('claude native binary not installed')) {
    throw new Error(
      `${bin} is the package's placeholder: its postinstall did not run — run npm ci (package.json's allowScripts allows @anthropic-ai/claude-code)`,
    );
  }
  return bin;
}

/** The MCP Inspector's CLI: the Node it needs (22.19 or later: the current LTS) and its launcher with `--cli`. */
export function inspectorCommand(): [string, string[]] {
  const launcher = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
  if (!existsSync(launcher)) throw new Error(`the MCP Inspector is not installed at ${launcher} — run npm ci`);
  return [ltsNode(), [launcher, '--cli']];
}

/**
 * A folder holding `specialist-handoff`, the bin of a built dist/ (`cli.js`), linked as npm
 * links a package's bin: what the documented commands (`specialist-handoff mcp`,
 * `specialist-handoff hook`) run when the folder is first on PATH.
 */
export function binFolder(dist: string): string {
  const dir = tempDir('handoff-bin-');
  chmodSync(path.join(dist, 'cli.js'), 0o755);
  symlinkSync(path.join(dist, 'cli.js'), path.join(dir, 'specialist-handoff'));
  return dir;
}

/** PATH with `first` before the folder of the Node running the tests (the bin's `#!/usr/bin/env node`) and the system's. */
export function pathWith(first: string): string {
  return [first, path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(path.delimiter);
}

/** The text of a client's `--version`. */
export function versionOf(command: string, args: string[], env: NodeJS.ProcessEnv): string {
  return execFileSync(command, [...args, '--version'], { env, encoding: 'utf8', timeout: 60_000 }).trim();
}
