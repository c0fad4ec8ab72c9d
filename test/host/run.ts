/**
 * Runs the tests that need a real VS Code: the integration suite inside the extension
 * host (@vscode/test-electron convention, run by code-server's workbench payload with
 * the exit code from `codeAutomationExit`) and the UI tests (Playwright driving the
 * workbench in Debian's Chromium).
 *
 *   tsx test/host/run.ts              # all: integration, UI, reliability
 *   tsx test/host/run.ts integration  # the integration suite only (INTEGRATION_FILES=<part of a name>: those files)
 *   tsx test/host/run.ts e2e          # the UI tests only (E2E_FILES=<part of a name>: those files)
 *   tsx test/host/run.ts reliability  # the reliability suite only (test/reliability)
 *
 * On every host `HANDOFF_HOSTS` selects (test/host/hosts.ts; default all: VS Code 1.99.3
 * and the current release), one child process per host, each printing the host's VS Code
 * version (from its product.json) before its results. The reliability suite runs once,
 * on the first selected host (it tests the product's files and processes, not the host).
 * Installs each host's code-server into .vscode-test/ on its first run. Exits non-zero on
 * any failure.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import util from 'node:util';
import * as esbuild from 'esbuild';
import Mocha from 'mocha';
import { createDemoRepository } from '../../scripts/demoRepo';
import { CHROMIUM, launchBrowser } from './browser';
import { chatModelExtensionVsix } from './chatModelExtension';
import { startCodeServer, waitFor, workspaceDir } from './codeServer';
import { HOSTS_VARIABLE, selectedHosts } from './hosts';
import { ensureCodeServer, HOST, HOST_CACHE, hostBanner, REPO_ROOT } from './install';

const RESULTS = path.join(REPO_ROOT, 'test-results');
const OUT = path.join(REPO_ROOT, 'out', 'integration');
/** Workbench log lines that are not about our tests. */
const NOISE =
  /ENOTFOUND|open-vsx|connection token|Creating a socket|ChatSessionStore|additional builtin extensions|Service Worker|AgentHost|AccountPolicyGate|reconnection-grace-time|authentication provider 'github'|Dialog requested during smoke test|^\s*$/;

/** Whole integration run, from page load to codeAutomationExit: 180 s. */
const INTEGRATION_TIMEOUT_MS = 180_000;

function log(msg: string): void {
  process.stderr.write(`[host] ${msg}\n`);
}

/** Builds dist/ (the extension as it ships) and the integration test bundle. */
export async function buildForHost(): Promise<void> {
  execFileSync(process.execPath, ['esbuild.mjs', '--quiet'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  rmSync(OUT, { recursive: true, force: true });
  const entries = ['index.ts', ...readdirTests()].map((f) => path.join(REPO_ROOT, 'test', 'integration', f));
  await esbuild.build({
    entryPoints: entries,
    outdir: OUT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // node-sqlite3-wasm loads its WebAssembly file from beside its own script, so it stays in node_modules.
    external: ['vscode', 'mocha', 'node-sqlite3-wasm'],
    // As esbuild.mjs does for dist/: the tests bundle zod too, and 1.139 reports reads of navigator.
    define: { navigator: 'undefined', 'globalThis.navigator': 'undefined' },
    sourcemap: 'inline',
    logLevel: 'warning',
    plugins: [
      {
        name: 'tokenizers',
        setup(build) {
          // Tests import src/ directly; the encodings load from node_modules there.
          build.onResolve({ filter: /^gpt-tokenizer\/encoding\// }, (args) => ({ path: args.path, external: true }));
        },
      },
    ],
  });
}

/** The integration test files; INTEGRATION_FILES=lmTool builds (and so runs) only those whose names contain "lmTool". */
function readdirTests(): string[] {
  const only = process.env.INTEGRATION_FILES;
  return readdirSync(path.join(REPO_ROOT, 'test', 'integration')).filter((f) => f.endsWith('.test.ts') && (!only || f.includes(only)));
}

interface Stats {
  passes: number;
  failures: number;
  pending: number;
  tests: number;
  duration?: number;
  failuresList?: Array<{ title: string; error: string }>;
}

/** Runs the integration suite in code-server's extension host; resolves to its counts. */
export async function runIntegration(): Promise<Stats> {
  const ws = path.join(workspaceDir('integration'), 'todo-api');
  createDemoRepository(ws);
  const resultsFile = path.join(RESULTS, `integration-results-${HOST.id}.json`);
  mkdirSync(RESULTS, { recursive: true });
  rmSync(resultsFile, { force: true });
  const server = await startCodeServer({
    name: 'integration',
    testDriver: true,
    // Installed beside ours (the remote host loads one extensionDevelopmentPath only): test/integration/modelDraft.test.ts.
    extraVsix: [chatModelExtensionVsix()],
    env: { HANDOFF_TEST_RESULTS: resultsFile, HANDOFF_TEST_HOST_LOGS: path.join(HOST_CACHE, 'runs', 'integration', 'user-data', 'logs') },
  });
  const browser = await launchBrowser();
  let ok = false;
  try {
    const host = new URL(server.url).host;
    const remote = (p: string) => `vscode-remote://${host}${p}`;
    let resolveExit!: (v: { code: number }) => void;
    const exited = new Promise<{ code: number }>((r) => (resolveExit = r));
    await browser.page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
      const text = util.format(...(Array.isArray(args) ? args : [args]));
      // Keep the test output; drop the workbench's own chatter (offline marketplace lookups, sockets).
      if (type !== 'error' && !NOISE.test(text)) {
        process.stderr.write(`  ${text}\n`);
      } else if (type === 'error' && !NOISE.test(text)) {
        process.stderr.write(`  [workbench error] ${text.split('\n')[0]}\n`);
      }
    });
    await browser.page.exposeFunction('codeAutomationExit', (code: number) => resolveExit({ code }));
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', remote(REPO_ROOT)],
      ['extensionTestsPath', remote(path.join(OUT, 'index.js'))],
      ['skipWelcome', 'true'],
    ]);
    const t0 = Date.now();
    await browser.page.goto(`${server.url}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(payload)}`, { waitUntil: 'domcontentloaded' });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<{ code: number }>((r) => (timer = setTimeout(() => r({ code: -1 }), INTEGRATION_TIMEOUT_MS)));
    const { code } = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    if (code === -1) {
      await browser.page.screenshot({ path: path.join(RESULTS, 'integration-timeout.png') }).catch(() => undefined);
      throw new Error(
        `timed out after ${INTEGRATION_TIMEOUT_MS} ms waiting for codeAutomationExit (the test run did not finish); screenshot: test-results/integration-timeout.png`,
      );
    }
    log(`integration: codeAutomationExit(${code}) after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const stats: Stats = await waitFor(`${resultsFile} from the extension host`, 5000, () =>
      existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : undefined,
    );
    ok = code === 0 && stats.failures === 0;
    if (code !== 0 && stats.failures === 0) {
      stats.failures = 1;
    }
    return stats;
  } finally {
    if (!ok) {
      log(`integration: logs kept in ${path.relative(REPO_ROOT, server.keepLogs('integration run failed'))}`);
    }
    await browser.close();
    await server.stop();
  }
}

/** Runs the Playwright UI tests (test/e2e) with mocha; resolves to its counts. */
export async function runE2e(): Promise<Stats> {
  // dist/ was built by buildForHost(): package it as it ships.
  execFileSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '-o', 'specialist-handoff.vsix'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const mocha = new Mocha({ ui: 'bdd', timeout: 180_000, reporter: 'spec', color: false });
  const dir = path.join(REPO_ROOT, 'test', 'e2e');
  // E2E_FILES=panel runs only the files whose names contain "panel" (for working on one suite).
  const only = process.env.E2E_FILES;
  for (const f of readdirSync(dir).sort()) {
    if (f.endsWith('.test.ts') && (!only || f.includes(only))) {
      mocha.addFile(path.join(dir, f));
    }
  }
  return new Promise((resolve) => {
    const runner = mocha.run(() => resolve({ ...(runner.stats as Stats) }));
  });
}

/**
 * Runs the reliability suite (test/reliability: concurrent writers, crashes, disk
 * failures, hostile paths and files, secrets, untrusted workspaces) with mocha; the
 * figures each file reports (lines starting with "    figures:") are printed again
 * together at the end of the run.
 */
export async function runReliability(): Promise<Stats & { figures: string[] }> {
  // Packaged as it ships, for the suites that open the workbench.
  execFileSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '-o', 'specialist-handoff.vsix'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // The unit tests' setup (temporary homes for the agents' folders), loaded into this process before the suites.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('../helpers/setup');
  const figures: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('    figures:')) figures.push(args[0].trim().replace(/^figures:\s*/, ''));
    original(...args);
  };
  const mocha = new Mocha({ ui: 'bdd', timeout: 240_000, reporter: 'spec', color: false });
  const dir = path.join(REPO_ROOT, 'test', 'reliability');
  const only = process.env.RELIABILITY_FILES;
  for (const f of readdirSync(dir).sort()) {
    if (f.endsWith('.test.ts') && (!only || f.includes(only))) {
      mocha.addFile(path.join(dir, f));
    }
  }
  try {
    return await new Promise((resolve) => {
      const runner = mocha.run(() => resolve({ ...(runner.stats as Stats), figures }));
    });
  } finally {
    console.log = original;
  }
}

/** Runs the suites `which` names on the one host of this process; resolves to its summary lines and failure count. */
async function runOnThisHost(which: string, withReliability: boolean): Promise<{ summary: string[]; failed: number }> {
  ensureCodeServer();
  const banner = hostBanner();
  log(`=== ${banner}`);
  await buildForHost();
  const summary: string[] = [banner];
  let failed = 0;
  if (which === 'all' || which === 'integration') {
    const s = await runIntegration();
    summary.push(`  integration (extension host): ${s.passes} passing, ${s.failures} failing`);
    for (const f of s.failuresList ?? []) {
      process.stderr.write(`  FAILED ${f.title}\n${f.error}\n`);
    }
    failed += s.failures;
  }
  if (which === 'all' || which === 'e2e') {
    const s = await runE2e();
    summary.push(`  UI (Playwright + workbench): ${s.passes} passing, ${s.failures} failing`);
    failed += s.failures;
  }
  if (withReliability && (which === 'all' || which === 'reliability')) {
    const s = await runReliability();
    summary.push(`  reliability: ${s.passes} passing, ${s.failures} failing`);
    if (s.figures.length) {
      summary.push('  reliability figures:', ...s.figures.map((f) => `    ${f}`));
    }
    failed += s.failures;
  }
  return { summary, failed };
}

async function main(): Promise<void> {
  const which = process.argv[2] ?? 'all';
  if (!existsSync(CHROMIUM) || !['/usr/bin/rg', '/usr/local/bin/rg'].some((p) => existsSync(p))) {
    log('Chromium or ripgrep missing: running scripts/system-packages.sh');
    execFileSync('bash', [path.join(REPO_ROOT, 'scripts', 'system-packages.sh')], { stdio: 'inherit' });
  }
  const hosts = selectedHosts();
  if (hosts.length === 1) {
    // A child of the loop below, or a run on one host: reliability runs unless the parent ran it elsewhere.
    const { summary, failed } = await runOnThisHost(which, process.env.HANDOFF_HOST_SKIP_RELIABILITY !== '1');
    process.stdout.write(`\n${summary.map((l) => `  ${l}`).join('\n')}\n`);
    process.exitCode = failed > 0 ? 1 : 0;
    return;
  }
  // One child process per host: each loads its own host's paths (test/host/install.ts).
  const results: string[] = [];
  let failedHosts = 0;
  hosts.forEach((host, i) => {
    log(`host ${i + 1} of ${hosts.length}: ${host.id} (code-server ${host.codeServer})`);
    const child = spawnSync(process.execPath, [...process.execArgv, __filename, which], {
      stdio: 'inherit',
      env: { ...process.env, [HOSTS_VARIABLE]: host.id, HANDOFF_HOST_SKIP_RELIABILITY: i === 0 ? '0' : '1' },
    });
    const ok = child.status === 0;
    failedHosts += ok ? 0 : 1;
    results.push(`  ${host.id} (code-server ${host.codeServer}, VS Code ${host.vscode}): ${ok ? 'passed' : `FAILED (exit ${child.status ?? child.signal})`}`);
  });
  process.stdout.write(`\nhosts:\n${results.join('\n')}\n`);
  process.exitCode = failedHosts > 0 ? 1 : 0;
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`[host] ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
