/**
 * The text of `specialist-handoff --help` and `<command> --help` (src/cli/usage.ts): the mcp
 * paragraph names every tool the MCP server serves (request_full_history came with issue 18
 * and the help still listed four), and each subcommand's paragraph is wrapped for a terminal
 * (the prompt paragraph had a line of 152 characters).
 */
import assert from 'node:assert/strict';
import { COMMAND_USAGE, commandUsage, USAGE } from '../../../src/cli/usage';
import { MCP_TOOL_NAMES } from '../../../src/mcp/tools';

/** Columns of a paragraph line: the longest option lines of the page (docs/CLI.md) fit in 96. */
const COLUMNS = 96;

describe('cli: --help text', () => {
  it('the mcp paragraph names every MCP tool, in --help and in "mcp --help"', () => {
    const mcp = commandUsage('mcp') ?? '';
    for (const name of MCP_TOOL_NAMES) {
      assert.match(mcp, new RegExp(`\\b${name}\\b`), `"mcp --help" names ${name}`);
      assert.match(USAGE, new RegExp(`\\b${name}\\b`), `--help names ${name}`);
    }
  });

  it(`every subcommand's paragraph and option lines fit in ${COLUMNS} columns`, () => {
    for (const [command, u] of Object.entries(COMMAND_USAGE)) {
      for (const line of u.details.split('\n')) assert.ok(line.length <= COLUMNS, `${command}: ${line.length} columns: ${line}`);
    }
  });
});
