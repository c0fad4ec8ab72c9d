/**
 * `specialist-handoff continue --agent claude|codex|gemini|aider [--handoff REF]`: starts
 * the agent in the workspace folder with the receiving specialist's prompt as its first
 * message (src/engine/continue.ts builds the command), its standard streams the terminal's;
 * or, with `--print`, prints that command quoted for a POSIX shell. The agent is spawned
 * with an argv array: no shell ever reads the prompt.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { posixCommandLine, TERMINAL_AGENT_IDS, isTerminalAgentId, type TerminalAgentId } from '../core/agents/continueAgents';
import { prepareContinue } from '../engine/continue';
import type { Values } from './args';
import { EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, type CliIo } from './io';
import { escapeControls, exitCodeOf, fail, failWith } from './wording';
import { cliEnvironment, resolveWorkspace } from './workspace';

/** The environment variable per agent that points at its executable in the CLI (the VS Code settings are `handoff.agents.<id>.path`). */
export const AGENT_PATH_VARIABLES: Readonly<Record<TerminalAgentId, string>> = {
  claude: 'SPECIALIST_HANDOFF_CLAUDE',
  codex: 'SPECIALIST_HANDOFF_CODEX',
  gemini: 'SPECIALIST_HANDOFF_GEMINI',
  aider: 'SPECIALIST_HANDOFF_AIDER',
};

/**
 * Runs `continue`: exit 2 on bad input (no or unknown `--agent`, the agent not found, no
 * handoff), 1 when the agent could not start; else the agent's own exit code (128 + the
 * signal number when a signal ended it), or 0 after `--print`.
 */
export async function runContinue(values: Values, io: CliIo): Promise<number> {
  const agent = values.agent;
  const choices = TERMINAL_AGENT_IDS.join(', ');
  if (agent === undefined) {
    return fail(io, values, `ERROR: --agent is required — pass --agent ${TERMINAL_AGENT_IDS.join('|')}`, EXIT_BAD_INPUT, 'agent');
  }
  if (!isTerminalAgentId(agent)) {
    return fail(io, values, `ERROR: --agent "${agent}" is not an agent this command starts — pass one of ${choices}`, EXIT_BAD_INPUT, 'agent');
  }
  if ((values.handoff?.length ?? 0) > 1) {
    return fail(io, values, 'ERROR: --handoff given more than once — continue picks up one handoff', EXIT_BAD_INPUT, 'handoff');
  }
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') {
    return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  }
  const env = process.env;
  const prepared = await prepareContinue(
    { agent, specialist: values.specialist, handoff: values.handoff?.[0], take: !values['no-take'] && !values.print },
    await cliEnvironment(cwd, values, 'none'),
    { pathEnv: env.PATH ?? env.Path, platform: process.platform, pathExt: env.PATHEXT, paths: { [agent]: env[AGENT_PATH_VARIABLES[agent]] } },
  );
  if (prepared.status === 'error') {
    if (prepared.field === 'agent' && prepared.code === 'not_found') {
      return fail(io, values, `ERROR: --agent ${agent}: ${prepared.problem} — install it, put it on PATH, or set ${AGENT_PATH_VARIABLES[agent]} to the path of its executable`, EXIT_BAD_INPUT, 'agent');
    }
    if (prepared.field === 'agent' && prepared.code === 'bad_setting') {
      return fail(io, values, `ERROR: ${AGENT_PATH_VARIABLES[agent]} ${prepared.problem} — set it to the absolute path of the executable, or unset it to search PATH`, EXIT_BAD_INPUT, 'agent');
    }
    if (prepared.field === 'handoff' && !prepared.message.includes('--handoff')) {
      return fail(io, values, `ERROR: --handoff: ${prepared.message.replace(/^ERROR: /, '')}`, EXIT_BAD_INPUT, 'handoff');
    }
    return failWith(io, values, prepared, exitCodeOf(prepared));
  }
  prepared.prompt.warnings.forEach((w) => io.stderr(escapeControls(w)));
  if (values.print) {
    io.stdout(posixCommandLine(prepared.agent.executable, prepared.argv, prepared.cwd));
    return EXIT_OK;
  }
  io.stderr(`Continuing ${prepared.prompt.handoff_id ?? prepared.prompt.specialist} in ${agent} (${prepared.agent.executable}) in ${prepared.cwd}`);
  return new Promise<number>((resolve) => {
    const child = spawn(prepared.agent.executable, prepared.argv, { cwd: prepared.cwd, stdio: [prepared.stdin === null ? 'inherit' : 'pipe', 'inherit', 'inherit'], shell: false });
    if (prepared.stdin !== null) child.stdin?.end(prepared.stdin);
    child.once('error', (err) => {
      io.stderr(`ERROR: could not start ${prepared.agent.executable}: ${escapeControls(err.message)}`);
      resolve(EXIT_FAILURE);
    });
    child.once('exit', (code, signal) => {
      resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : EXIT_FAILURE));
    });
  });
}
