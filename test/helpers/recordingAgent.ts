/**
 * A real executable standing in for an agent's CLI (`claude`, `codex` …) in tests: a Node
 * script that records what it was started with — its arguments, its standard input (read
 * to the end unless it is a terminal), its working folder — as JSON in a file, then exits 0.
 * It proves what the agent would receive; it answers nothing.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What a recording agent saw. */
export interface AgentRecord {
  readonly argv: string[];
  readonly stdin: string;
  readonly stdinIsTTY: boolean;
  readonly cwd: string;
}

/**
 * Writes an executable named `name` into `dir` that records to `recordFile` (written
 * whole, by rename, so a reader never sees half of it).
 * @returns the executable's absolute path
 */
export function writeRecordingAgent(dir: string, name: string, recordFile: string): string {
  const file = path.join(dir, name);
  const script = `#!${process.execPath}
const fs = require('fs');
const record = ${JSON.stringify(recordFile)};
const chunks = [];
const done = () => {
  const text = JSON.stringify({ argv: process.argv.slice(2), stdin: Buffer.concat(chunks).toString('utf8'), stdinIsTTY: !!process.stdin.isTTY, cwd: process.cwd() });
  fs.writeFileSync(record + '.tmp', text);
  fs.renameSync(record + '.tmp', record);
};
if (process.stdin.isTTY) done();
else { process.stdin.on('data', (c) => chunks.push(c)); process.stdin.on('end', done); process.stdin.on('error', done); }
`;
  writeFileSync(file, script);
  chmodSync(file, 0o755);
  return file;
}

/** The record a recording agent wrote, or undefined while there is none. */
export function readAgentRecord(recordFile: string): AgentRecord | undefined {
  return existsSync(recordFile) ? (JSON.parse(readFileSync(recordFile, 'utf8')) as AgentRecord) : undefined;
}
