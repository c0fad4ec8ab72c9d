/**
 * Issue 17: on VS Code 1.139 (Node 24) every read of the `navigator` global in the
 * extension host logs "PendingMigrationError: navigator is now a global in nodejs". zod's
 * capability check read it as dist/extension.js loaded. This builds dist/extension.js
 * with the options of esbuild.mjs (into a temporary folder) and loads it in a fresh Node
 * process whose `globalThis.navigator` is a getter that records every read.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { cleanupTempDirs, tempDir } from '../../helpers/repo';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Loads `bundle` with `vscode` answered by an inert proxy, and prints how often `navigator` was read. */
const PROBE = `
const Module = require('node:module');
let reads = 0;
Object.defineProperty(globalThis, 'navigator', { configurable: true, get() { reads++; return { userAgent: 'Node.js/24' }; } });
const inert = new Proxy(function () {}, { get: (t, k) => (k === 'prototype' ? {} : k === Symbol.toPrimitive ? () => '' : inert), apply: () => inert, construct: () => inert });
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? inert : load.call(this, request, ...rest); };
require(process.argv[2]);
process.stdout.write(JSON.stringify({ reads }));
`;

describe('build: dist/extension.js and the navigator global', function () {
  this.timeout(120_000);
  after(cleanupTempDirs);

  it('loading the bundle as it ships never reads globalThis.navigator', async () => {
    const { extensionBuild } = (await import(pathToFileURL(path.join(ROOT, 'esbuild.mjs')).href)) as { extensionBuild: esbuild.BuildOptions };
    const out = tempDir();
    const outfile = path.join(out, 'extension.js');
    await esbuild.build({ ...extensionBuild, absWorkingDir: ROOT, outfile, logLevel: 'error' });
    const probe = path.join(out, 'probe.js');
    writeFileSync(probe, PROBE);
    const result = JSON.parse(execFileSync(process.execPath, [probe, outfile], { cwd: out, encoding: 'utf8' })) as { reads: number };
    assert.equal(result.reads, 0, 'reads of globalThis.navigator while dist/extension.js loads');
  });
});
