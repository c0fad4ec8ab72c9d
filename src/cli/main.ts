/**
 * `specialist-handoff`: the handoff engine in a terminal, for people, agents and CI.
 * This file only dispatches: each subcommand is a file of this folder (handover.ts,
 * draft.ts, prompt.ts, history.ts, recordResult.ts, specialists.ts, mcp.ts, hook.ts, exportAgents.ts), the
 * options are in args.ts, the help text in usage.ts, and the CLI's wording of engine
 * errors (flags, not field names) in wording.ts (docs/CLI.md describes every subcommand).
 *
 *   specialist-handoff <command> [options]   (commands and their options: COMMAND_OPTIONS in
 *                                             args.ts, their usage: COMMAND_USAGE in usage.ts)
 *
 * Exit codes: 0 success; 2 bad input (the `ERROR:` line on stderr); 1 the handoff could
 * not be written (disk, permissions) — and every failure of `hook`, which never exits 2
 * (Claude Code treats 2 as "block"); `verify` exits 3 when a re-run contradicts the handoff.
 */
import { foreignOption, parseCommandLine } from './args';
import { runContinue } from './continue';
import { runDraft } from './draft';
import { runExportAgents } from './exportAgents';
import { runHandover } from './handover';
import { runHistory } from './history';
import { runHook } from './hook';
import { EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, gateIo, type CliIo } from './io';
import { runMcp } from './mcp';
import { runPrompt } from './prompt';
import { runRecordResult } from './recordResult';
import { runSpecialists } from './specialists';
import { runVerify } from './verify';
import { COMMAND_LIST, USAGE, VERSION, commandUsage } from './usage';
import { fail } from './wording';

export { joinNegativeNumbers } from './args';
export { formatSummary } from './handover';
export { EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, type CliIo } from './io';
export { cliErrorText, escapeControls } from './wording';
/** Parses `--turn "user: text"` (see `parseTurn` in src/core/handoff/request.ts). */
export { parseTurn } from '../core/handoff/request';

/**
 * Runs the CLI with `argv` (without `node` and the script path).
 * @returns the exit code; never throws (unexpected failures print `ERROR:` and return 1)
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  // The output boundary: every line printed passes the gate (src/cli/io.ts, gateIo).
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
    // `<command> --help` and `help <command>`: that command's usage only.
    const about = command === 'help' ? positionals[1] : command;
    io.stdout((about !== undefined && commandUsage(about)) || USAGE);
    return EXIT_OK;
  }
  if (!command) {
    io.stdout(USAGE);
    return fail(io, values, `ERROR: no command given — use ${COMMAND_LIST} (usage above)`, EXIT_BAD_INPUT);
  }
  if (positionals.length > 1) {
    return fail(io, values, `ERROR: unexpected argument "${positionals[1]}" — quote text that contains spaces, e.g. --summary "two words"`, command === 'hook' ? EXIT_FAILURE : EXIT_BAD_INPUT);
  }
  const foreign = foreignOption(command, values);
  if (foreign) {
    return fail(io, values, foreign, command === 'hook' ? EXIT_FAILURE : EXIT_BAD_INPUT);
  }
  try {
    switch (command) {
      case 'handover':
        return await runHandover(values, io);
      case 'draft':
        return await runDraft(values, io);
      case 'specialists':
        return await runSpecialists(values, io);
      case 'prompt':
        return await runPrompt(values, io);
      case 'history':
        return await runHistory(values, io);
      case 'record-result':
        return await runRecordResult(values, io);
      case 'mcp':
        return await runMcp(values, io);
      case 'hook':
        return await runHook(values, io);
      case 'export-agents':
        return await runExportAgents(values, io);
      case 'continue':
        return await runContinue(values, io);
      case 'verify':
        return await runVerify(values, io);
      default:
        return fail(io, values, `ERROR: unknown command "${command}" — use ${COMMAND_LIST}`, EXIT_BAD_INPUT);
    }
  } catch (err) {
    return fail(io, values, `ERROR: ${(err as Error)?.message ?? String(err)}`, EXIT_FAILURE, 'internal');
  }
}

if (require.main === module) {
  // A closed pipe (`specialist-handoff specialists | head`) ends the output quietly; any
  // other stdout failure (a full disk behind a redirect) is one ERROR line and exit 1.
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
  });
}
