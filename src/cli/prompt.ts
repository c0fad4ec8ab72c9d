/** `specialist-handoff prompt`: what the receiving agent needs to pick a handoff up, printed or --json. */
import { buildPrompt } from '../engine/receive/prompt';
import type { Values } from './args';
import { EXIT_BAD_INPUT, EXIT_OK, type CliIo } from './io';
import { escapeControls, exitCodeOf, fail, failWith } from './wording';
import { cliEnvironment, resolveWorkspace } from './workspace';

/** Exit 0 printed, 2 bad input, 1 an unreadable handoff folder or internal failure. */
export async function runPrompt(values: Values, io: CliIo): Promise<number> {
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') {
    return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  }
  if ((values.handoff?.length ?? 0) > 1) {
    return fail(io, values, 'ERROR: --handoff given more than once — prompt picks up one handoff', EXIT_BAD_INPUT, 'handoff');
  }
  const result = await buildPrompt(
    { specialist: values.specialist, handoff: values.handoff?.[0], take: !values['no-take'] },
    await cliEnvironment(cwd, values, 'none'),
  );
  if (result.status === 'error') {
    return failWith(io, values, result, exitCodeOf(result));
  }
  io.stdout(values.json ? JSON.stringify(result, null, 2) : result.prompt);
  result.warnings.forEach((w) => io.stderr(escapeControls(w)));
  return EXIT_OK;
}
