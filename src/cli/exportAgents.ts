/** `specialist-handoff export-agents`: the specialists written to `.github/agents/` and `.claude/agents/`. */
import { exportAgents, exportAgentsExitCode, formatExportSummary } from '../engine/agents/exportAgents';
import type { Values } from './args';
import { EXIT_BAD_INPUT, type CliIo } from './io';
import { fail, failWith } from './wording';
import { resolveWorkspace } from './workspace';

/** Exit 0 done, 1 a file could not be written, 2 bad input. */
export async function runExportAgents(values: Values, io: CliIo): Promise<number> {
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') {
    return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  }
  const result = await exportAgents({ target: values.target, force: values.force }, { workspaceRoot: cwd, handoffDirectory: values.dir });
  const code = exportAgentsExitCode(result);
  if (result.status === 'error') {
    return failWith(io, values, result, code);
  }
  if (values.json) {
    io.stdout(JSON.stringify(result, null, 2));
  } else {
    io.stdout(formatExportSummary(result));
  }
  for (const w of result.warnings) {
    io.stderr(w.startsWith('WARNING:') ? w : `WARNING: ${w}`);
  }
  return code;
}
