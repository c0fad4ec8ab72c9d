/** `specialist-handoff record-result`: the receiving specialist hands back (a result per handoff, or a session note). */
import path from 'node:path';
import { recordResult } from '../engine/receive/recordResult';
import type { Values } from './args';
import { EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, type CliIo } from './io';
import { escapeControls, exitCodeOf, fail, failWith } from './wording';
import { cliEnvironment, readSummary, resolveWorkspace, sessionLogMode } from './workspace';

/**
 * Exit 0 written, 2 bad input, 1 when a handoff could not be answered (the others still
 * were) or the disk failed.
 */
export async function runRecordResult(values: Values, io: CliIo): Promise<number> {
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') {
    return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  }
  const summary = await readSummary(values, io);
  if (typeof summary === 'object') {
    return fail(io, values, summary.error, EXIT_BAD_INPUT, 'summary');
  }
  const mode = await sessionLogMode(values, io);
  if (typeof mode === 'object') {
    return fail(io, values, mode.error, EXIT_BAD_INPUT, 'session-log');
  }
  const met = values.met ?? [];
  const request = {
    specialist: values.specialist,
    handoffs: values.handoff ?? [],
    summary,
    criteria_met: met.some((m) => m.trim().toLowerCase() === 'all') ? 'all' : met,
    next_steps: values.next ?? [],
    blockers: values.blocker ?? [],
    proceed_if_taken: values['proceed-if-taken'] === true,
    ...(values.tokenizer ? { tokenizer: values.tokenizer } : {}),
  };
  const result = await recordResult(request, await cliEnvironment(cwd, values, mode));
  if (result.status === 'error') {
    return failWith(io, values, result, exitCodeOf(result));
  }
  if (values.json) {
    io.stdout(JSON.stringify(result, null, 2));
  } else {
    io.stdout(
      [
        ...result.summary,
        ...result.entries.map((e) => `result: ${path.relative(cwd, e.result_file)}`),
        ...(result.note_file ? [`note: ${path.relative(cwd, result.note_file)}`] : []),
      ].join('\n'),
    );
  }
  result.warnings.forEach((w) => io.stderr(escapeControls(w)));
  return result.failures.length ? EXIT_FAILURE : EXIT_OK;
}
