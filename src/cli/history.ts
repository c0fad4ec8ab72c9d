/** `specialist-handoff history`: the session behind a handoff, read again from its transcripts, as Markdown or --json. */
import { DEFAULT_HISTORY_MAX_TOKENS, fullHistory } from '../engine/timeline/history';
import { integer, type Values } from './args';
import { EXIT_BAD_INPUT, EXIT_OK, type CliIo } from './io';
import { escapeControls, exitCodeOf, fail, failWith } from './wording';
import { cliEnvironment, resolveWorkspace, sessionLogMode } from './workspace';

/** Exit 0 printed, 2 bad input (including no such handoff or no transcript), 1 an unreadable folder or internal failure. */
export async function runHistory(values: Values, io: CliIo): Promise<number> {
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') {
    return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  }
  if ((values.handoff?.length ?? 0) > 1) {
    return fail(io, values, 'ERROR: --handoff given more than once — history reads one handoff', EXIT_BAD_INPUT, 'handoff');
  }
  const maxTokens = integer(values['max-tokens'], 'max-tokens');
  if (typeof maxTokens === 'object') {
    return fail(io, values, `${maxTokens.error} — from 1000 to ${DEFAULT_HISTORY_MAX_TOKENS}, or leave it out`, EXIT_BAD_INPUT, 'max_tokens');
  }
  const mode = await sessionLogMode(values, io);
  if (typeof mode !== 'string') {
    return fail(io, values, mode.error, EXIT_BAD_INPUT, 'session-log');
  }
  const result = await fullHistory({ handoff: values.handoff?.[0], maxTokens }, await cliEnvironment(cwd, values, mode));
  if (result.status === 'error') {
    return failWith(io, values, result, exitCodeOf(result));
  }
  io.stdout(values.json ? JSON.stringify(result, null, 2) : result.text.trimEnd());
  result.warnings.forEach((w) => io.stderr(escapeControls(w)));
  return EXIT_OK;
}
