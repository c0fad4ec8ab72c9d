/** `specialist-handoff specialists`: built-in, then custom and discovered specialists, with their mandates. */
import { describeSpecialist } from '../core/specialists/registry';
import { openProject } from '../engine/project/project';
import type { Values } from './args';
import { EXIT_BAD_INPUT, EXIT_OK, type CliIo } from './io';
import { exitCodeOf, fail, failWith } from './wording';
import { resolveWorkspace } from './workspace';

/** Exit 0, or 2 for a bad --cwd or --dir; a skipped specialist file is a WARNING on stderr. */
export async function runSpecialists(values: Values, io: CliIo): Promise<number> {
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') {
    return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  }
  const opened = await openProject({ workspaceRoot: cwd, handoffDirectory: values.dir });
  if (!opened.ok) {
    return failWith(io, values, opened.error, exitCodeOf(opened.error));
  }
  const { registry, warnings } = opened.project;
  const all = registry.all();
  if (values.json) {
    io.stdout(JSON.stringify(all.map(describeSpecialist), null, 2));
  } else {
    const width = Math.max(...all.map((s) => s.id.length));
    for (const s of all) {
      io.stdout(`${s.id.padEnd(width)}  ${s.personaMarker}${s.source !== 'builtin' ? ` (${s.source}: ${s.file})` : ''}\n${' '.repeat(width + 2)}${s.mandate}`);
    }
  }
  for (const w of warnings) {
    io.stderr(`WARNING: ${w}`);
  }
  return EXIT_OK;
}
