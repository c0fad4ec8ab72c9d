/**
 * `specialist-handoff hook` on a session-start event (Claude Code, Codex CLI, Gemini CLI and
 * VS Code `SessionStart`; Cline `TaskStart` / `TaskResume`): prints the agent's JSON with the
 * context of the workspace's pending handoffs (src/engine/agents/sessionStart.ts) on standard output
 * and one line on standard error. Marks nothing picked up and writes nothing.
 * Exit codes: 0 answered (with or without context); 1 on an error for the agents that take it
 * as a non-blocking failure. Cline blocks the task on any exit but 0, so for Cline an error is
 * still exit 0 with `{"cancel":false}` and the error on standard error.
 */
import path from 'node:path';
import { sessionStartOutput, type SessionStartInput } from '../core/agents/sessionStart';
import { formatCount } from '../core/handoff/render';
import { sessionStartJob } from '../engine/agents/sessionStart';
import type { Values } from './args';
import { EXIT_FAILURE, EXIT_OK, type CliIo } from './io';
import { cliErrorText, escapeControls } from './wording';

/** An error of a session-start answer: exit 1 for the agents that go on, exit 0 and an empty answer for Cline. */
export function sessionStartFailed(io: CliIo, dialect: SessionStartInput['dialect'], message: string): number {
  io.stderr(escapeControls(message.split('\n')[0]));
  if (dialect === 'cline') {
    io.stdout(sessionStartOutput('cline', undefined));
    return EXIT_OK;
  }
  return EXIT_FAILURE;
}

/** Answers a session-start input: the folder is `--cwd`, else the input's, else the hook's working folder. */
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
