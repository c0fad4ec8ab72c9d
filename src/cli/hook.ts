/**
 * `specialist-handoff hook`: the command of Claude Code's `SessionEnd` and `PreCompact`
 * hooks, and of the session-start hooks of Claude Code, Codex CLI, Gemini CLI, VS Code and
 * Cline. Reads the hook's JSON from standard input; a session-start event is answered with
 * the workspace's pending handoffs (./sessionStart.ts), any other event runs the safety-net
 * job (src/engine/agents/hook.ts). Prints one line on stderr. Exit 0 written, answered or skipped,
 * 1 on every error — never 2, on which Claude Code would block.
 */
import path from 'node:path';
import { isatty } from 'node:tty';
import { MAX_HOOK_INPUT_BYTES, SAFETY_NET_EVENTS } from '../core/agents/claudeHook';
import { readSessionStartInput } from '../core/agents/sessionStart';
import { formatCount } from '../core/handoff/render';
import { runClaudeHook } from '../engine/agents/hook';
import { releaseEncodings } from '../engine/tokenizers/tokenizer';
import type { Values } from './args';
import { EXIT_FAILURE, EXIT_OK, type CliIo } from './io';
import { answerSessionStart, sessionStartFailed } from './sessionStart';
import { cliErrorText, escapeControls, fail, failWith } from './wording';

/**
 * How long `hook` waits for its input to end on standard input, from the start of the read:
 * 10,000 ms. Claude Code writes the hook's whole JSON at once and closes the pipe, so the
 * input ends within milliseconds of the start; a pipe still open after 10 s is one nobody
 * will close (the command run by hand with a pipe left open, a wrapper that keeps it), and
 * the hook would otherwise wait forever, holding Claude Code's session end or compaction.
 */
export const HOOK_INPUT_TIMEOUT_MS = 10_000;

/** The hook input's size bound in words: what a too-large input is told. */
function tooLarge(maxBytes: number): { error: string } {
  return { error: `ERROR: the hook input on standard input is larger than ${formatCount(maxBytes)} bytes — pipe in the hook's JSON only` };
}

/** What a hook whose input did not end in time is told: nothing arrived, or this much without its end. */
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
 * Reads the process's standard input whole through `process.stdin` (the stream: a read that
 * can be bounded in time, where a blocking read of descriptor 0 cannot), refusing a terminal
 * (nothing would ever arrive), more than `maxBytes`, and an input that has not ended
 * {@link HOOK_INPUT_TIMEOUT_MS} after the start.
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
      // What is left unread (a pipe nobody closes, the rest of a too-large input) keeps the process no longer.
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

/**
 * Runs `hook`: on a session-start event, the pending handoffs' context (--cwd, --dir);
 * else the safety net: --specialist (default implementation_engineer), --topic (default the
 * branch or `session <short id>`), --cwd (a folder to write to, even outside git), --dir.
 */
export async function runHook(values: Values, io: CliIo): Promise<number> {
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
    // The process ends after the hook: its tokenizer's worker can go as soon as the counting is done.
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
