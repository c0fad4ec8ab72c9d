/**
 * `specialist-handoff verify`: verify a handoff on receipt (src/engine/receive/verify.ts, docs/DESIGN.md
 * §9 "Verify on receipt") — what changed since it was written, and, with `--run` (the user's
 * consent), each recorded test and build command re-run in its folder through the shell and
 * judged against what the handoff recorded. Without `--run` nothing runs and nothing is
 * written: it lists what would run. Ctrl-C stops the running command (its whole process group).
 */
import path from 'node:path';
import { shownCommand } from '../core/receive/shownCommand';
import type { Recheck } from '../core/receive/verification';
import { DEFAULT_VERIFY_TIMEOUT_MS, MAX_VERIFY_TIMEOUT_MS, shellCommandRunner, verifyHandoff } from '../engine/receive/verify';
import { integer, type Values } from './args';
import { EXIT_BAD_INPUT, EXIT_OK, type CliIo } from './io';
import { escapeControls, exitCodeOf, fail, failWith } from './wording';
import { cliEnvironment, resolveWorkspace } from './workspace';

/** Exit code of `verify` when a recorded result is contradicted by its re-run: 3 (0 when none is; 2 bad input; 1 an I/O or internal failure). */
export const EXIT_CONTRADICTED = 3;

const MARK: Record<Recheck['verdict'], string> = {
  verified: '✅ verified',
  contradicted: '❌ contradicted',
  unverifiable: '❔ unverifiable',
  not_run: '⏸️ not run',
};

/** `--timeout SECONDS`: a whole number of seconds from 1 to 86,400 (a day); default 600. */
function timeoutMs(values: Values): number | { error: string } {
  const n = integer(values.timeout, 'timeout');
  if (n === undefined) return DEFAULT_VERIFY_TIMEOUT_MS;
  if (typeof n === 'object') return n;
  if (n < 1 || n * 1000 > MAX_VERIFY_TIMEOUT_MS)
    return {
      error: `ERROR: --timeout must be from 1 to ${MAX_VERIFY_TIMEOUT_MS / 1000} seconds (got ${n}) — give the seconds each command may run, e.g. --timeout 600`,
    };
  return n * 1000;
}

/**
 * Runs `verify`: exit 0 nothing contradicted (verified, unverifiable or not run),
 * {@link EXIT_CONTRADICTED} something contradicted, 2 bad input (a bad flag, no such
 * handoff), 1 the verification could not be recorded or an internal failure.
 */
export async function runVerify(values: Values, io: CliIo): Promise<number> {
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  if ((values.handoff?.length ?? 0) > 1)
    return fail(io, values, 'ERROR: --handoff given more than once — verify checks one handoff', EXIT_BAD_INPUT, 'handoff');
  const timeout = timeoutMs(values);
  if (typeof timeout === 'object') return fail(io, values, timeout.error, EXIT_BAD_INPUT, 'timeout');
  const run = values.run === true;
  // The commands run in their own process group, which Ctrl-C does not reach: stop them ourselves.
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  if (run) process.once('SIGINT', onSigint);
  let result;
  try {
    result = await verifyHandoff(
      { handoff: values.handoff?.[0], run, timeoutMs: timeout },
      {
        ...(await cliEnvironment(cwd, values, 'none')),
        signal: abort.signal,
        runner: shellCommandRunner,
        onProgress: (done, total, command) => io.stderr(escapeControls(`verify: [${done + 1}/${total}] running ${shownCommand(command)}`)),
      },
    );
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
  if (result.status === 'error') {
    return failWith(io, values, result, exitCodeOf(result));
  }
  const v = result.verification;
  if (values.json) {
    io.stdout(JSON.stringify(result, null, 2));
  } else {
    const rel = (p: string) => path.relative(cwd, p).split(path.sep).join('/');
    const lines = [`Verification of ${v.handoff_id} (${rel(result.handoff_file)})`, result.line];
    for (const r of v.rechecks)
      lines.push(`  ${MARK[r.verdict]}: ${shownCommand(r.command)} (${r.kind}${r.cwd && r.cwd !== '.' ? ` in ${shownCommand(r.cwd)}` : ''}) — ${r.reason}`);
    if (v.staleness.length) lines.push('Staleness:', ...v.staleness.map((s) => `  - ${s}`));
    else lines.push('Staleness: the handoff matches the workspace.');
    const runnable = v.rechecks.filter((r) => r.verdict === 'not_run').length;
    if (!run && runnable)
      lines.push(
        `Nothing was run: add --run to re-run ${runnable === 1 ? 'this command' : `these ${runnable} commands`} (each stopped after ${timeout / 1000} s; --timeout SECONDS).`,
      );
    if (result.verification_file) lines.push(`recorded: ${rel(result.verification_file)}`);
    if (result.briefing_file) lines.push(`briefing: ${rel(result.briefing_file)}`);
    io.stdout(escapeControls(lines.join('\n')));
  }
  result.warnings.forEach((w) => io.stderr(escapeControls(w)));
  return v.counts.contradicted > 0 ? EXIT_CONTRADICTED : EXIT_OK;
}
