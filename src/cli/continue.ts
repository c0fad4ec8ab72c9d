/**
 * `specialist-handoff continue`: starts the terminal agent with the receiving prompt as its first
 * message, or prints that command (`--print`). The agent is spawned with an argv array: no
 * shell ever reads the prompt. `--agent cursor` opens Cursor's prompt link instead.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { AGENT_IDS, posixCommandLine, TERMINAL_AGENT_IDS, isTerminalAgentId, type AgentId } from '../core/agents/continueAgents';
import { prepareContinue, prepareCursorLink } from '../engine/receive/continue';
import type { Values } from './args';
import { EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, type CliIo } from './io';
import { escapeControls, exitCodeOf, fail, failWith } from './wording';
import { cliEnvironment, resolveWorkspace } from './workspace';

/** Per agent, the environment variable naming its executable (the CLI's `handoff.agents.<id>.path`). */
export const AGENT_PATH_VARIABLES: Readonly<Record<AgentId, string>> = Object.fromEntries(
  AGENT_IDS.map((id) => [id, `SPECIALIST_HANDOFF_${id.toUpperCase().replace(/-/g, '_')}`]),
) as Record<AgentId, string>;

export const CONTINUE_AGENT_CHOICES: readonly string[] = [...TERMINAL_AGENT_IDS, 'cursor'];

/**
 * Exit 2 on bad input, 1 when the agent could not start; else the agent's own exit code
 * (128 + signal number when a signal ended it), or 0 after `--print`.
 */
export async function runContinue(values: Values, io: CliIo): Promise<number> {
  const agent = values.agent;
  const choices = CONTINUE_AGENT_CHOICES.join(', ');
  if (agent === undefined) {
    return fail(io, values, `ERROR: --agent is required — pass --agent ${CONTINUE_AGENT_CHOICES.join('|')}`, EXIT_BAD_INPUT, 'agent');
  }
  if (agent !== 'cursor' && !isTerminalAgentId(agent)) {
    return fail(io, values, `ERROR: --agent "${agent}" is not an agent this command starts — pass one of ${choices}`, EXIT_BAD_INPUT, 'agent');
  }
  if ((values.handoff?.length ?? 0) > 1) {
    return fail(io, values, 'ERROR: --handoff given more than once — continue picks up one handoff', EXIT_BAD_INPUT, 'handoff');
  }
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') {
    return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  }
  if (agent === 'cursor') return openCursorLink(values, io, cwd);
  const env = process.env;
  const prepared = await prepareContinue(
    { agent, specialist: values.specialist, handoff: values.handoff?.[0], take: !values['no-take'] && !values.print },
    await cliEnvironment(cwd, values, 'none'),
    { pathEnv: env.PATH ?? env.Path, platform: process.platform, pathExt: env.PATHEXT, paths: { [agent]: env[AGENT_PATH_VARIABLES[agent]] } },
  );
  if (prepared.status === 'error') {
    if (prepared.field === 'agent' && prepared.code === 'not_found') {
      return fail(
        io,
        values,
        `ERROR: --agent ${agent}: ${prepared.problem} — install it, put it on PATH, or set ${AGENT_PATH_VARIABLES[agent]} to the path of its executable`,
        EXIT_BAD_INPUT,
        'agent',
      );
    }
    if (prepared.field === 'agent' && prepared.code === 'bad_setting') {
      return fail(
        io,
        values,
        `ERROR: ${AGENT_PATH_VARIABLES[agent]} ${prepared.problem} — set it to the absolute path of the executable, or unset it to search PATH`,
        EXIT_BAD_INPUT,
        'agent',
      );
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
    const child = spawn(prepared.agent.executable, prepared.argv, {
      cwd: prepared.cwd,
      stdio: [prepared.stdin === null ? 'inherit' : 'pipe', 'inherit', 'inherit'],
      shell: false,
    });
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

/**
 * `--agent cursor`: hands the prompt link to the platform's opener, or prints it (`--print`, no
 * opener). A prompt too long for a link is refused (exit 2). The handoff stays pending: the
 * link fills Cursor's chat in but does not send it.
 */
async function openCursorLink(values: Values, io: CliIo, cwd: string): Promise<number> {
  const env = process.env;
  const prepared = await prepareCursorLink(
    { specialist: values.specialist, handoff: values.handoff?.[0], take: false },
    await cliEnvironment(cwd, values, 'none'),
    { pathEnv: env.PATH ?? env.Path, platform: process.platform, pathExt: env.PATHEXT },
  );
  if (prepared.status === 'error') {
    if (prepared.field === 'handoff' && !prepared.message.includes('--handoff')) {
      return fail(io, values, `ERROR: --handoff: ${prepared.message.replace(/^ERROR: /, '')}`, EXIT_BAD_INPUT, 'handoff');
    }
    return failWith(io, values, prepared, exitCodeOf(prepared));
  }
  prepared.prompt.warnings.forEach((w) => io.stderr(escapeControls(w)));
  if (!prepared.whole) {
    const ref = prepared.prompt.handoff_id ? ` --handoff ${prepared.prompt.handoff_id}` : ` --specialist ${prepared.prompt.specialist}`;
    return fail(
      io,
      values,
      `ERROR: --agent cursor: the receiving prompt is ${prepared.prompt.prompt.length.toLocaleString('en-US')} characters, more than a Cursor link holds — print it with specialist-handoff prompt${ref} --no-take and paste it into Cursor's chat`,
      EXIT_BAD_INPUT,
      'agent',
    );
  }
  const what = prepared.prompt.handoff_id ?? prepared.prompt.specialist;
  if (values.print || !prepared.opener) {
    io.stdout(prepared.url);
    if (!values.print)
      io.stderr(`No program that opens links was found on PATH: open this link to continue ${what} in Cursor (its chat opens with the prompt, not sent)`);
    return EXIT_OK;
  }
  const opener = prepared.opener;
  io.stderr(`Continuing ${what} in Cursor: ${opener.executable} opens its prompt link (the chat opens with the prompt, not sent)`);
  return new Promise<number>((resolve) => {
    const child = spawn(opener.executable, opener.argv, { cwd, stdio: ['ignore', 'inherit', 'inherit'], shell: false });
    child.once('error', (err) => {
      io.stderr(`ERROR: could not start ${opener.executable}: ${escapeControls(err.message)}`);
      resolve(EXIT_FAILURE);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : EXIT_FAILURE)));
  });
}
