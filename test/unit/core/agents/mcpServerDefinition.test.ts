/** The MCP server definitions offered to VS Code 1.101+: one stdio server per folder, running the bundled CLI's `mcp`. */
import assert from 'node:assert/strict';
import path from 'node:path';
import { MCP_SERVER_LABEL, mcpServerSpecs } from '../../../../src/core/agents/mcpServerDefinition';

const EXT = path.join(path.sep, 'ext', 'specialist-handoff');
const NODE = path.join(path.sep, 'usr', 'bin', 'node');

describe('MCP server definitions', () => {
  it('one folder: the CLI’s mcp subcommand with --cwd, run by the host’s Node.js', () => {
    const [spec, ...rest] = mcpServerSpecs({ execPath: NODE, extensionPath: EXT, folders: [{ name: 'todo-api', path: '/work/todo api' }], version: '0.1.0' });
    assert.equal(rest.length, 0);
    assert.deepEqual(spec, {
      label: MCP_SERVER_LABEL,
      command: NODE,
      args: [path.join(EXT, 'dist', 'cli.js'), 'mcp', '--cwd', '/work/todo api'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
      cwd: '/work/todo api',
      version: '0.1.0',
    });
  });

  it('several folders: one server each, labelled by folder name, labels unique', () => {
    const specs = mcpServerSpecs({
      execPath: NODE,
      extensionPath: EXT,
      folders: [
        { name: 'api', path: '/a/api' },
        { name: 'web', path: '/b/web' },
        { name: 'api', path: '/c/api' },
      ],
      version: '1.2.3',
    });
    assert.deepEqual(
      specs.map((s) => [s.label, s.args.at(-1)]),
      [
        ['Specialist Handoff: api', '/a/api'],
        ['Specialist Handoff: web', '/b/web'],
        ['Specialist Handoff: api (2)', '/c/api'],
      ],
    );
    assert.equal(new Set(specs.map((s) => s.label)).size, specs.length);
  });

  it('no folder: no server', () => {
    assert.deepEqual(mcpServerSpecs({ execPath: NODE, extensionPath: EXT, folders: [], version: '0.1.0' }), []);
  });
});
