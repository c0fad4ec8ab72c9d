/**
 * `specialist-handoff`: dispatches to the subcommands, each a file of this folder loaded when it runs.
 * Exit codes (docs/CLI.md): 0 success; 2 bad input; 1 a read or write failed, and every failure of
 * `hook`, which never exits 2 (Claude Code treats 2 as "block"); 3 `verify` contradicted.
 */
import { foreignOption, parseCommandLine, type Values } from './args';
import { EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, gateIo, type CliIo } from './io';
import { COMMAND_LIST, USAGE, VERSION, commandUsage } from './usage';
import { fail } from './wording';
import type * as HandoverCommand from './handover';
import type * as DraftCommand from './draft';
import type * as SpecialistsCommand from './specialists';
import type * as PromptCommand from './prompt';
import type * as HistoryCommand from './history';
import type * as RecordResultCommand from './recordResult';
import type * as McpCommand from './mcp';
import type * as HookCommand from './hook';
import type * as ExportAgentsCommand from './exportAgents';
import type * as ContinueCommand from './continue';
import type * as VerifyCommand from './verify';
import type * as InsightsCommand from './insights';

export { joinNegativeNumbers } from './args';
export { EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, type CliIo } from './io';
export { cliErrorText, escapeControls } from './wording';
export { parseTurn } from '../core/handoff/request';

/** Lazy: `hook` runs under a time limit and must not pay for the MCP SDK and the like. */
/* eslint-disable @typescript-eslint/no-require-imports -- each subcommand's module is required when that command runs */
const COMMANDS: Readonly<Record<string, () => (values: Values, io: CliIo) => Promise<number>>> = {
  handover: () => (require('./handover') as typeof HandoverCommand).runHandover,
  draft: () => (require('./draft') as typeof DraftCommand).runDraft,
  specialists: () => (require('./specialists') as typeof SpecialistsCommand).runSpecialists,
  prompt: () => (require('./prompt') as typeof PromptCommand).runPrompt,
  history: () => (require('./history') as typeof HistoryCommand).runHistory,
  'record-result': () => (require('./recordResult') as typeof RecordResultCommand).runRecordResult,
  mcp: () => (require('./mcp') as typeof McpCommand).runMcp,
  hook: () => (require('./hook') as typeof HookCommand).runHook,
  'export-agents': () => (require('./exportAgents') as typeof ExportAgentsCommand).runExportAgents,
  continue: () => (require('./continue') as typeof ContinueCommand).runContinue,
  verify: () => (require('./verify') as typeof VerifyCommand).runVerify,
  insights: () => (require('./insights') as typeof InsightsCommand).runInsights,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Runs the CLI with `argv` (without `node` and the script); never throws: a failure prints `ERROR:` and returns 1. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const gated = gateIo(io);
  try {
    return await runUngated(argv, gated);
  } finally {
    await gated.flush();
  }
}

async function runUngated(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(argv);
  if (!parsed.ok) {
    // `hook` never exits 2 (Claude Code blocks on 2), not even for a mistyped option.
    const code = parsed.args.find((a) => !a.startsWith('-')) === 'hook' ? EXIT_FAILURE : EXIT_BAD_INPUT;
    return fail(io, { json: parsed.args.includes('--json') }, parsed.message, code);
  }
  const { values, positionals } = parsed;
  if (values.version) {
    io.stdout(VERSION);
    return EXIT_OK;
  }
  const command = positionals[0];
  if (values.help || command === 'help') {
    const about = command === 'help' ? positionals[1] : command;
    io.stdout((about !== undefined && commandUsage(about)) || USAGE);
    return EXIT_OK;
  }
  if (!command) {
    io.stdout(USAGE);
    return fail(io, values, `ERROR: no command given — use ${COMMAND_LIST} (usage above)`, EXIT_BAD_INPUT);
  }
  if (positionals.length > 1) {
    return fail(
      io,
      values,
      `ERROR: unexpected argument "${positionals[1]}" — quote text that contains spaces, e.g. --summary "two words"`,
      command === 'hook' ? EXIT_FAILURE : EXIT_BAD_INPUT,
    );
  }
  const foreign = foreignOption(command, values);
  if (foreign) {
    return fail(io, values, foreign, command === 'hook' ? EXIT_FAILURE : EXIT_BAD_INPUT);
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) {
    return fail(io, values, `ERROR: unknown command "${command}" — use ${COMMAND_LIST}`, EXIT_BAD_INPUT);
  }
  try {
    return await load()(values, io);
  } catch (err) {
    return fail(io, values, `ERROR: ${(err as Error)?.message ?? String(err)}`, EXIT_FAILURE, 'internal');
  }
}

let started = false;

/** Runs the CLI as the process, once. */
export function runProcess(): void {
  if (started) return;
  started = true;
  // A closed pipe (`… | head`) ends the output quietly; any other stdout failure is exit 1.
  const onStdoutError = (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') {
      process.stderr.write(`ERROR: could not write the output: ${err.message}\n`);
    }
    process.exit(err.code === 'EPIPE' ? EXIT_OK : EXIT_FAILURE);
  };
  process.stdout.on('error', onStdoutError);
  void runCli(process.argv.slice(2), {
    stdout: (t) => {
      process.stdout.write(`${t}\n`);
    },
    stderr: (t) => {
      process.stderr.write(`${t}\n`);
    },
    cwd: process.cwd(),
  }).then((code) => {
    process.exitCode = process.exitCode || code;
    // Exit once both streams have drained: simple-git's exit grace timer
    // (GIT_EXIT_GRACE_MS) would otherwise hold the process open.
    let pending = 2;
    const drained = () => {
      if (--pending === 0) process.exit();
    };
    process.stdout.write('', drained);
    process.stderr.write('', drained);
  });
}

if (require.main === module) {
  runProcess();
}
