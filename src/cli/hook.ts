/**
 * `specialist-handoff hook`: the command of Claude Code's `SessionEnd` and `PreCompact`
 * hooks. Reads the hook's JSON from standard input and runs the hook job
 * (src/engine/hook.ts), then prints one line on stderr. Exit 0 written or skipped, 1 on
 * every error — never 2, on which Claude Code would block.
 */
import { readSync } from 'node:fs';
import path from 'node:path';
import { isatty } from 'node:tty';
import { MAX_HOOK_INPUT_BYTES, SAFETY_NET_EVENTS } from '../core/agents/claudeHook';
import { formatCount } from '../core/handoff/render';
import { runClaudeHook } from '../engine/hook';
import { releaseEncodings } from '../engine/tokenizer';
import type { Values } from './args';
import { EXIT_FAILURE, EXIT_OK, type CliIo } from './io';
import { cliErrorText, escapeControls, fail, failWith } from './wording';

/** The hook input's size bound in words: what a too-large input is told. */
function tooLarge(maxBytes: number): { error: string } {
  return { error: `ERROR: the hook input on standard input is larger than ${formatCount(maxBytes)} bytes — pipe in the hook's JSON only` };
}

/**
 * Reads the rest of standard input through `process.stdin` (a stream), after `chunks` of
 * `size` bytes were read already.
 */
async function readStdinStream(chunks: Buffer[], size: number, maxBytes: number): Promise<string | { error: string }> {
  try {
    for await (const chunk of process.stdin) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buf.length;
      if (size > maxBytes) return tooLarge(maxBytes);
      chunks.push(buf);
    }
  } catch (err) {
    return { error: `ERROR: standard input cannot be read: ${(err as Error).message}` };
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reads the process's standard input whole, refusing a terminal (nothing would ever arrive)
 * and more than `maxBytes`. Read with blocking reads of file descriptor 0 (`readSync`): 0.3 ms
 * for a hook's JSON, where setting up `process.stdin` and its async iterator took ~4.7 ms
 * (issue 19: a hook runs under a time limit). When descriptor 0 will not block (its writer
 * opened it non-blocking: EAGAIN), the stream reads the rest; on Windows a closed pipe reads
 * as the error EOF.
 */
async function readProcessStdin(maxBytes: number): Promise<string | { error: string }> {
  if (isatty(0)) {
    return { error: 'ERROR: the hook input must be piped to standard input (it is a terminal) — run this from a Claude Code hook, or pipe the JSON in: echo \'{…}\' | specialist-handoff hook' };
  }
  const chunks: Buffer[] = [];
  const buf = Buffer.allocUnsafe(64 * 1024);
  let size = 0;
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EOF') break;
      if (code === 'EAGAIN') return readStdinStream(chunks, size, maxBytes);
      return { error: `ERROR: standard input cannot be read: ${(err as Error).message}` };
    }
    if (n === 0) break;
    size += n;
    if (size > maxBytes) return tooLarge(maxBytes);
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Runs `hook`: --specialist (default implementation_engineer), --topic (default the
 * branch or `session <short id>`), --cwd (a folder to write to, even outside git), --dir.
 */
export async function runHook(values: Values, io: CliIo): Promise<number> {
  const raw = await (io.readStdin ?? readProcessStdin)(MAX_HOOK_INPUT_BYTES);
  if (typeof raw !== 'string') {
    return fail(io, values, raw.error, EXIT_FAILURE, 'stdin');
  }
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
    io.stderr(escapeControls(`specialist-handoff hook: ${outcome.event}: skipped, nothing written — the hook writes a safety net on ${SAFETY_NET_EVENTS.join(' and ')} only; remove this event from the hook's settings`));
    return EXIT_OK;
  }
  const cwd = outcome.workspaceRoot;
  if (outcome.status === 'skipped') {
    io.stderr(escapeControls(`specialist-handoff hook: ${outcome.event}: nothing written — ${cwd} is not in a git repository (the safety net writes only into git projects; pass --cwd ${cwd} to write one there anyway)`));
    return EXIT_OK;
  }
  const rel = path.relative(cwd, outcome.result.handoff_file).split(path.sep).join('/');
  io.stderr(escapeControls(`specialist-handoff hook: ${outcome.event}: safety-net handoff to ${outcome.result.persona_marker} written: ${rel} (${outcome.notes.join(', ')})`));
  return EXIT_OK;
}
