/**
 * `specialist-handoff verify`: what changed since a handoff was written, and with `--run` (the
 * user's consent) its recorded test and build commands re-run through the shell and judged.
 * Without `--run` nothing runs and nothing is written.
 */
import path from 'node:path';
import { shownCommand } from '../core/receive/shownCommand';
import type { Recheck } from '../core/receive/verification';
import { DEFAULT_VERIFY_TIMEOUT_MS, MAX_VERIFY_TIMEOUT_MS, shellCommandRunner, verifyHandoff } from '../engine/receive/verify';
import { integer, type Values } from './args';
import { EXIT_BAD_INPUT, EXIT_OK, type CliIo } from './io';
import { escapeControls, exitCodeOf, fail, failWith } from './wording';
import { cliEnvironment, resolveWorkspace } from './workspace';

/** Exit code of `verify` when a re-run contradicts a recorded result. */
export const EXIT_CONTRADICTED = 3;

const MARK: Record<Recheck['verdict'], string> = {
  verified: '✅ verified',
  contradicted: '❌ contradicted',
  unverifiable: '❔ unverifiable',
  not_run: '⏸️ not run',
};

/** `--timeout SECONDS` → ms; 1 s to a day, default 600 s. */
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

/** Exit 0 nothing contradicted, {@link EXIT_CONTRADICTED}, 2 bad input, 1 not recorded or internal failure. */
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
