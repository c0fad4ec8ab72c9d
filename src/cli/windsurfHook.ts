/**
 * `specialist-handoff hook --agent windsurf`: the command of Windsurf's Cascade hooks. Appends the payload to the
 * conversation's log and exits 0 whatever happens: Cascade blocks a pre-hook's action on exit code 2, and any other
 * failure would only show as an error in its panel. Standard output stays empty; a problem is one line on standard error.
 */
import path from 'node:path';
import { WINDSURF_RECORDED_EVENTS } from '../core/agents/windsurfHook';
import { recordWindsurfHook } from '../engine/agents/windsurfHook';
import type { Values } from './args';
import { EXIT_OK, type CliIo } from './io';
import { cliErrorText, escapeControls } from './wording';

/** Bytes read from standard input at most: `post_write_code` carries the edits' text, a response its whole markdown. */
export const MAX_WINDSURF_INPUT_BYTES = 32 * 1024 * 1024;

type StdinReader = (maxBytes: number) => Promise<string | { error: string }>;

export async function runWindsurfHook(values: Values, io: CliIo, readStdin: StdinReader): Promise<number> {
  const say = (text: string) => io.stderr(escapeControls(`specialist-handoff hook --agent windsurf: ${text.split('\n')[0]}`));
  const raw = await readStdin(MAX_WINDSURF_INPUT_BYTES);
  if (typeof raw !== 'string') {
    // The reader's fix names Claude Code: say Cascade's instead.
    const problem = raw.error.replace(/^ERROR: /, '').split(' — ')[0];
    say(`${problem} — Cascade pipes each hook's JSON in: run this from .windsurf/hooks.json, or pipe a payload in (nothing recorded)`);
    return EXIT_OK;
  }
  const outcome = await recordWindsurfHook(raw, { folder: values.cwd === undefined ? io.cwd : path.resolve(io.cwd, values.cwd) });
  if (outcome.status === 'error') say(`${cliErrorText(outcome).replace(/^ERROR: /, '')} (nothing recorded)`);
  else if (outcome.status === 'skipped' && outcome.because === 'event')
    say(`${outcome.event}: not recorded — the log keeps ${WINDSURF_RECORDED_EVENTS.join(', ')}; remove this event from .windsurf/hooks.json`);
  else if (outcome.status === 'skipped') say(`${outcome.event}: not recorded — ${outcome.file} reached its size limit; start a new Cascade conversation`);
  return EXIT_OK;
}
