/**
 * `specialist-handoff hook`: the command of the agents' session hooks. A session-start event
 * is answered with the pending handoffs; Claude Code's `SessionEnd`/`PreCompact` run the safety
 * net. Exit 0 or 1, never 2: on 2 Claude Code would block.
 */
import path from 'node:path';
import { isatty } from 'node:tty';
import { MAX_HOOK_INPUT_BYTES, SAFETY_NET_EVENTS } from '../core/agents/claudeHook';
import { readSessionStartInput } from '../core/agents/sessionStart';
import { formatCount } from '../core/handoff/limits';
import { runClaudeHook } from '../engine/agents/hook';
import { releaseEncodings } from '../engine/tokenizers/tokenizer';
import type { Values } from './args';
import { EXIT_FAILURE, EXIT_OK, type CliIo } from './io';
import { answerSessionStart, sessionStartFailed } from './sessionStart';
import { runWindsurfHook } from './windsurfHook';
import { cliErrorText, escapeControls, fail, failWith } from './wording';

/**
 * How long `hook` waits for standard input to end (ms). Claude Code closes the pipe at once; a pipe
 * still open is one nobody will close, and waiting would hold up the session end or compaction.
 */
export const HOOK_INPUT_TIMEOUT_MS = 10_000;

function tooLarge(maxBytes: number): { error: string } {
  return { error: `ERROR: the hook input on standard input is larger than ${formatCount(maxBytes)} bytes — pipe in the hook's JSON only` };
}

function timedOut(received: number): { error: string } {
  const seconds = HOOK_INPUT_TIMEOUT_MS / 1000;
  const what =
    received === 0
      ? `no hook input arrived on standard input within ${seconds} s`
      : `the hook input on standard input did not end within ${seconds} s (${formatCount(received)} bytes arrived, the pipe was never closed)`;
  return {
    error: `ERROR: ${what} — Claude Code pipes the hook's JSON in and closes standard input; run this from a Claude Code hook, or pipe the JSON in: echo '{…}' | specialist-handoff hook (nothing was written)`,
  };
}

/**
 * Reads standard input whole as a stream (unlike a blocking read of fd 0, it can time out);
 * refuses a terminal, more than `maxBytes`, and input not ended after {@link HOOK_INPUT_TIMEOUT_MS}.
 */
async function readProcessStdin(maxBytes: number): Promise<string | { error: string }> {
  if (isatty(0)) {
    return {
      error:
        "ERROR: the hook input must be piped to standard input (it is a terminal) — run this from a Claude Code hook, or pipe the JSON in: echo '{…}' | specialist-handoff hook",
    };
  }
  const stdin = process.stdin;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: string | { error: string }) => {
      clearTimeout(timer);
      stdin.off('data', onData).off('end', onEnd).off('error', onError);
      // Whatever is left unread must not keep the process alive.
      stdin.destroy();
      resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (size > maxBytes) finish(tooLarge(maxBytes));
      else chunks.push(buf);
    };
    const onEnd = () => finish(Buffer.concat(chunks).toString('utf8'));
    const onError = (err: Error) => finish({ error: `ERROR: standard input cannot be read: ${err.message}` });
    const timer = setTimeout(() => finish(timedOut(size)), HOOK_INPUT_TIMEOUT_MS);
    stdin.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

export async function runHook(values: Values, io: CliIo): Promise<number> {
  if (values.agent !== undefined) {
    if (values.agent === 'windsurf') return runWindsurfHook(values, io, io.readStdin ?? readProcessStdin);
    return fail(
      io,
      values,
      `ERROR: --agent ${values.agent} is not a hook this command records — use --agent windsurf (Cascade's hooks), or leave --agent out for Claude Code's and the session-start hooks`,
      EXIT_FAILURE,
      'agent',
    );
  }
  const raw = await (io.readStdin ?? readProcessStdin)(MAX_HOOK_INPUT_BYTES);
  if (typeof raw !== 'string') {
    return fail(io, values, raw.error, EXIT_FAILURE, 'stdin');
  }
  const start = readSessionStartInput(raw);
  if (start && !start.ok) return sessionStartFailed(io, start.dialect, start.message);
  if (start) return answerSessionStart(start.input, values, io);
  const outcome = await runClaudeHook(raw, {
    specialist: values.specialist,
    topic: values.topic,
    folder: values.cwd === undefined ? undefined : path.resolve(io.cwd, values.cwd),
    handoffDirectory: values.dir,
    // The process ends after the hook: the tokenizer's worker can go once counting is done.
    onCountingDone: releaseEncodings,
  });
  if (outcome.status === 'error') {
    return outcome.event === undefined
      ? failWith(io, values, outcome, EXIT_FAILURE)
      : fail(io, values, `${cliErrorText(outcome)} (Claude Code ${outcome.event} hook; nothing was written)`, EXIT_FAILURE, outcome.field);
  }
  if (outcome.status === 'skipped' && outcome.because === 'event') {
    io.stderr(
      escapeControls(
        `specialist-handoff hook: ${outcome.event}: skipped, nothing written — the hook writes a safety net on ${SAFETY_NET_EVENTS.join(' and ')} only; remove this event from the hook's settings`,
      ),
    );
    return EXIT_OK;
  }
  const cwd = outcome.workspaceRoot;
  if (outcome.status === 'skipped') {
    io.stderr(
      escapeControls(
        `specialist-handoff hook: ${outcome.event}: nothing written — ${cwd} is not in a git repository (the safety net writes only into git projects; pass --cwd ${cwd} to write one there anyway)`,
      ),
    );
    return EXIT_OK;
  }
  const rel = path.relative(cwd, outcome.result.handoff_file).split(path.sep).join('/');
  io.stderr(
    escapeControls(
      `specialist-handoff hook: ${outcome.event}: safety-net handoff to ${outcome.result.persona_marker} written: ${rel} (${outcome.notes.join(', ')})`,
    ),
  );
  return EXIT_OK;
}
