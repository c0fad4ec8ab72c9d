/**
 * Starts code-server (a real VS Code server with a real Node extension host) for one
 * test run: bound to 127.0.0.1 on a free port, HOME/XDG confined to the cache, in its
 * own process group that is always killed at the end, with every wait bounded by a
 * timeout whose message says what did not appear.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CODE_SERVER_BIN, HOST, HOST_CACHE, HOST_HOME, hostPath, REPO_ROOT, testDriverArgs, withoutNpmRunVariables } from './install';

/** Options of {@link startCodeServer}. */
export interface ServerOptions {
  /** Name of this run, used for its folders and in messages. */
  readonly name: string;
  /** Keep Workspace Trust on (default off: `--disable-workspace-trust`). */
  readonly trust?: boolean;
  /** A .vsix to install into this server's extensions folder first. */
  readonly vsix?: string;
  /** More .vsix files to install (e.g. the benchmark's reference extension). */
  readonly extraVsix?: readonly string[];
  /** User settings (merged over the test defaults). */
  readonly settings?: Record<string, unknown>;
  /** Extra environment for the server and the extension hosts it starts. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Start the workbench in extension-test mode where the host needs a flag for it
   * ({@link testDriverArgs}); set by the integration run, which loads tests via the payload URL.
   */
  readonly testDriver?: boolean;
}

/** A running code-server. */
export interface RunningServer {
  readonly url: string;
  readonly port: number;
  /** The server's user-data folder (logs are under `logs/`). */
  readonly userDataDir: string;
  /** Which host this server is (test/host/hosts.ts). */
  readonly host: typeof HOST;
  /** Copies the logs (extension host included) to test-results/host-logs/<host>/<name>. */
  keepLogs(reason: string): string;
  /** Kills the server's whole process group; safe to call twice. */
  stop(): Promise<void>;
}

/** Default user settings of every test server: quiet, offline, the built-in git extension off (it would run git itself). */
export const TEST_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'never',
  'security.workspace.trust.untrustedFiles': 'open',
  'chat.commandCenter.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  // 1.139 opens the secondary side bar with Chat on a new profile (unknown to 1.99, ignored there).
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

/** This extension's settings of scope `machine` or `machine-overridable` (package.json), e.g. `handoff.agents.claude.path`. */
function ownMachineSettings(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { scope?: string }> } | Array<{ properties: Record<string, { scope?: string }> }> };
  };
  const sections = [manifest.contributes.configuration].flat();
  return sections.flatMap((s) =>
    Object.entries(s.properties)
      .filter(([, p]) => p.scope === 'machine' || p.scope === 'machine-overridable')
      .map(([k]) => k),
  );
}

/**
 * Settings of machine scope (`machine`, `machine-overridable`) the tests may set: `git.path`
 * and this extension's own (`handoff.agents.<id>.path`, `handoff.sessionLog.locations`).
 * Since 1.139 (not in 1.99) VS Code no longer passes them from user settings to a remote
 * extension host, which reads them from `<user-data-dir>/Machine/settings.json`; they are
 * written to both files.
 */
export const MACHINE_SCOPED_SETTINGS: readonly string[] = ['git.path', ...ownMachineSettings()];

/** Resolves `until()` or fails after `ms` with a message naming what did not happen. */
export async function waitFor<T>(what: string, ms: number, until: () => Promise<T | undefined> | T | undefined, everyMs = 200): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await until();
    if (v !== undefined && v !== null && (v as unknown) !== false) {
      return v;
    }
    if (Date.now() > end) {
      throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Environment with HOME and XDG folders confined to the cache, the host's Node first on
 * PATH and no npm variables from the harness's `npm run`.
 */
export function confinedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...withoutNpmRunVariables(process.env),
    PATH: hostPath(),
    HOME: HOST_HOME,
    XDG_CACHE_HOME: path.join(HOST_HOME, '.cache'),
    XDG_CONFIG_HOME: path.join(HOST_HOME, '.config'),
    XDG_DATA_HOME: path.join(HOST_HOME, '.local', 'share'),
    ...extra,
  };
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, logFile: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = openSync(logFile, 'a');
    const child = spawn(cmd, args, { env, stdio: ['ignore', out, out] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${path.basename(cmd)} ${args[0]} did not finish within ${timeoutMs} ms (log: ${logFile})`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) {
        resolve();
      } else {
        reject(new Error(`${path.basename(cmd)} ${args.join(' ')} exited with ${code} (log: ${logFile})`));
      }
    });
  });
}

/**
 * Starts a code-server for one test run; the caller must `stop()` it (in a `finally`).
 * @throws when code-server is not installed, or does not answer /healthz within 60 s
 */
export async function startCodeServer(opts: ServerOptions): Promise<RunningServer> {
  if (!existsSync(CODE_SERVER_BIN)) {
    throw new Error(`code-server is not installed at ${CODE_SERVER_BIN} — run: npx tsx test/host/install.ts`);
  }
  const runDir = path.join(HOST_CACHE, 'runs', opts.name);
  rmSync(runDir, { recursive: true, force: true });
  const userDataDir = path.join(runDir, 'user-data');
  const extensionsDir = path.join(runDir, 'extensions');
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const settings = { ...TEST_SETTINGS, ...opts.settings };
  writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  const machine = Object.fromEntries(Object.entries(settings).filter(([k]) => MACHINE_SCOPED_SETTINGS.includes(k)));
  mkdirSync(path.join(userDataDir, 'Machine'), { recursive: true });
  writeFileSync(path.join(userDataDir, 'Machine', 'settings.json'), JSON.stringify(machine, null, 2));
  const configFile = path.join(runDir, 'config.yaml');
  writeFileSync(configFile, 'auth: none\n');
  const logFile = path.join(runDir, 'code-server.log');
  // The server's sockets (vscode-ipc-*.sock) go to a short folder of its own, removed on
  // stop: kept out of the shared /tmp, and short enough for a Unix socket path (108 bytes).
  const socketDir = mkdtempSync(path.join(tmpdir(), 'hs-'));
  const env = confinedEnv({ TMPDIR: socketDir, XDG_RUNTIME_DIR: socketDir, ...opts.env });
  const base = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  for (const vsix of [opts.vsix, ...(opts.extraVsix ?? [])]) {
    if (vsix) {
      await run(CODE_SERVER_BIN, [...base, '--install-extension', vsix], env, logFile, 120_000);
    }
  }
  const port = await freePort();
  const args = [
    ...base,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    ...(opts.trust ? [] : ['--disable-workspace-trust']),
    ...(opts.testDriver ? testDriverArgs() : []),
  ];
  const out = openSync(logFile, 'a');
  // detached: the server leads its own process group (setsid), so stop() can kill the
  // extension hosts it forks too — they otherwise linger for the reconnection grace time.
  const child: ChildProcess = spawn(CODE_SERVER_BIN, args, { env, detached: true, stdio: ['ignore', out, out] });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  const url = `http://127.0.0.1:${port}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) {
      return;
    }
    stopped = true;
    const group = -(child.pid ?? 0);
    try {
      process.kill(group, 'SIGTERM');
    } catch {
      // already gone
    }
    const deadline = Date.now() + 5000;
    while (!exited && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    try {
      process.kill(group, 'SIGKILL');
    } catch {
      // already gone
    }
    rmSync(socketDir, { recursive: true, force: true });
  };
  const keepLogs = (reason: string) => {
    const dest = path.join(REPO_ROOT, 'test-results', 'host-logs', HOST.id, opts.name);
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest, { recursive: true });
    const logs = path.join(userDataDir, 'logs');
    if (existsSync(logs)) {
      cpSync(logs, path.join(dest, 'logs'), { recursive: true });
    }
    if (existsSync(logFile)) {
      cpSync(logFile, path.join(dest, 'code-server.log'));
    }
    writeFileSync(path.join(dest, 'REASON.txt'), `${reason}\n`);
    return dest;
  };
  try {
    await waitFor(`code-server /healthz on ${url} (log: ${logFile})`, 60_000, async () => {
      if (exited) {
        throw new Error(`code-server exited during start-up (log: ${logFile})`);
      }
      try {
        const r = await fetch(`${url}/healthz`);
        return r.ok || undefined;
      } catch {
        return undefined;
      }
    });
  } catch (err) {
    keepLogs(String(err));
    await stop();
    throw err;
  }
  return { url, port, userDataDir, host: HOST, keepLogs, stop };
}

/** The extension host's log files of a server (remote extension host + window output). */
export function extensionHostLogs(userDataDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/exthost|Specialist Handoff/i.test(p) && p.endsWith('.log')) found.push(p);
    }
  };
  walk(path.join(userDataDir, 'logs'));
  return found;
}

/** A new empty folder for a test workspace, under the cache (removed with it). */
export function workspaceDir(name: string): string {
  const root = path.join(HOST_CACHE, 'workspaces');
  mkdirSync(root, { recursive: true });
  return mkdtempSync(path.join(root, `${name}-`));
}
