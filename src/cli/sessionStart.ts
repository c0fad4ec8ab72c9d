/**
 * `hook` on a session-start event: prints the agent's JSON with the pending handoffs' context.
 * Marks nothing picked up. Cline blocks the task on any exit but 0, so its errors exit 0 with
 * an empty answer; the other agents get exit 1, a non-blocking failure.
 */
import path from 'node:path';
import { sessionStartOutput, type SessionStartInput } from '../core/agents/sessionStart';
import { formatCount } from '../core/handoff/limits';
import { sessionStartJob } from '../engine/agents/sessionStart';
import type { Values } from './args';
import { EXIT_FAILURE, EXIT_OK, type CliIo } from './io';
import { cliErrorText, escapeControls } from './wording';

export function sessionStartFailed(io: CliIo, dialect: SessionStartInput['dialect'], message: string): number {
  io.stderr(escapeControls(message.split('\n')[0]));
  if (dialect === 'cline') {
    io.stdout(sessionStartOutput('cline', undefined));
    return EXIT_OK;
  }
  return EXIT_FAILURE;
}

/** The folder is `--cwd`, else the input's, else the hook's working folder. */
export async function answerSessionStart(input: SessionStartInput, values: Values, io: CliIo): Promise<number> {
  const prefix = `specialist-handoff hook: ${input.event}`;
  if (!input.startsSession) {
    io.stdout(sessionStartOutput(input.dialect, undefined));
    io.stderr(
      escapeControls(
        `${prefix}: nothing to add — the hook answers TaskStart and TaskResume with the pending handoffs, and writes a safety net on Claude Code's SessionEnd and PreCompact; remove this event from the hook's settings`,
      ),
    );
    return EXIT_OK;
  }
  const folder = path.resolve(io.cwd, values.cwd ?? input.cwd ?? '.');
  const outcome = await sessionStartJob({ folder, handoffDirectory: values.dir });
  if (outcome.status === 'error') {
    const text = cliErrorText(outcome);
    return sessionStartFailed(io, input.dialect, `${text} (${input.event}; nothing was added or marked)`);
  }
  if (outcome.status === 'none') {
    io.stdout(sessionStartOutput(input.dialect, undefined));
    io.stderr(escapeControls(`${prefix}: no pending handoff in ${outcome.workspaceRoot}; nothing added`));
    return EXIT_OK;
  }
  outcome.warnings.forEach((w) => io.stderr(escapeControls(w)));
  const { context } = outcome;
  io.stdout(sessionStartOutput(input.dialect, context.text));
  const what =
    context.form === 'prompt'
      ? `the receiving prompt of ${outcome.newestId} added (${formatCount(context.text.length)} characters)`
      : `${formatCount(outcome.pending)} pending handoff${outcome.pending === 1 ? '' : 's'} listed (${formatCount(context.text.length)} characters; the newest one's prompt did not fit)`;
  io.stderr(escapeControls(`${prefix}: ${what}; nothing marked picked up`));
  return EXIT_OK;
}
