/**
 * What VS Code itself does with the extension's agent integrations (issue 17), seen through
 * the host's own API and commands, on the host that has each feature, and the clean
 * fallback where it does not:
 * - the MCP server definition (VS Code 1.101+): VS Code lists the definition and starts the
 *   server (`workbench.mcp.startServer` with `waitForLiveTools`); the server's answer to
 *   `tools/list` reaches `vscode.lm.tools` as `mcp_…` tools — every tool but
 *   `handover_to_specialist`, which the chat gets once, from the language model tool;
 * - the `handoffs:` of the exported `.github/agents/<id>.agent.md` custom agents (VS Code
 *   1.106+): VS Code reads them as custom agents (language `chatagent`) and validates every
 *   handoff (its `agent` must name an agent VS Code knows): the exported files get no
 *   warning, and a probe whose handoff names no agent gets VS Code's "Unknown agent"
 *   warning listing the agents it knows — every exported specialist among them.
 * On 1.99 neither API exists: nothing is offered, nothing fails.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { BUILTIN_SPECIALISTS } from '../../src/core/specialists/registry';

const EXTENSION_ID = 'specialist-handoff.specialist-handoff';
const START_SERVER = 'workbench.mcp.startServer';
/** The tools of the CLI's MCP server but the one the language model tool offers (src/mcp/tools.ts). */
const MCP_ONLY_TOOLS = ['list_specialists', 'prior_handoffs', 'record_result'];

function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test workspace folder is open');
  return folder.uri.fsPath;
}

async function waitFor<T>(what: string, ms: number, get: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const hasMcpApi = typeof (vscode.lm as unknown as { registerMcpServerDefinitionProvider?: unknown }).registerMcpServerDefinitionProvider === 'function';

describe('VS Code reads the MCP server definition and the exported custom agents', function () {
  this.timeout(120_000);

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
  });

  it(
    hasMcpApi
      ? 'VS Code lists the MCP server definition and starts it: its tools reach vscode.lm.tools, and handover_to_specialist is listed once'
      : 'without the MCP API (VS Code 1.99): no MCP server starts and the chat has the language model tool alone',
    async () => {
      const commands = await vscode.commands.getCommands(true);
      if (!hasMcpApi) {
        // 1.99 has MCP servers from settings (none here): starting all of them starts none of ours.
        if (commands.includes(START_SERVER)) await vscode.commands.executeCommand(START_SERVER, '*', { waitForLiveTools: true });
        await new Promise((r) => setTimeout(r, 2000));
        const ours = vscode.lm.tools.filter((t) => /handover_to_specialist|list_specialists|prior_handoffs|record_result|request_full_history/.test(t.name));
        assert.deepEqual(ours.map((t) => t.name).sort(), ['handover_to_specialist', 'request_full_history']);
        return;
      }
      assert.ok(commands.includes(START_SERVER), `${START_SERVER} exists where the MCP API does`);
      // '*': every server VS Code lists — in this test profile, only the definitions our provider gave. Until VS Code
      // has asked the provider for its definitions the list is empty and the command starts nothing: ask again until it has.
      const mcpTools = await waitFor('the MCP server tools in vscode.lm.tools', 60_000, async () => {
        const found = vscode.lm.tools.filter((t) => t.name.startsWith('mcp_') && MCP_ONLY_TOOLS.some((n) => t.name.endsWith(`_${n}`)));
        if (found.length === MCP_ONLY_TOOLS.length) return found;
        await vscode.commands.executeCommand(START_SERVER, '*', { waitForLiveTools: true });
        return undefined;
      });
      console.log(`[mcp] VS Code ${vscode.version} started the server; its tools: ${mcpTools.map((t) => t.name).join(', ')}`);
      for (const n of MCP_ONLY_TOOLS) {
        const tool = mcpTools.find((t) => t.name.endsWith(`_${n}`));
        assert.ok(tool, n);
        assert.equal((tool.inputSchema as { type?: string } | undefined)?.type, 'object', `${n} carries the server's input schema`);
      }
      assert.deepEqual(
        vscode.lm.tools.filter((t) => /handover_to_specialist$/.test(t.name)).map((t) => t.name),
        ['handover_to_specialist'],
        'the chat gets handover_to_specialist once: the language model tool, not the MCP server too',
      );
      assert.deepEqual(
        vscode.lm.tools.filter((t) => /request_full_history$/.test(t.name)).map((t) => t.name),
        ['request_full_history'],
        'the chat gets request_full_history once too (issue 18): the language model tool',
      );
    },
  );

  it(
    hasMcpApi
      ? "VS Code reads the exported agents' handoffs: no warning on the exported files, and an unknown handoff agent is named with the agents VS Code knows"
      : 'without custom agents (VS Code 1.99): the exported .agent.md files are plain Markdown and nothing reports on them',
    async () => {
      const exported = await vscode.commands.executeCommand('handoff.exportAgents', { targets: ['github'] });
      assert.ok(exported, 'the specialists were exported');
      const dir = path.join(workspaceRoot(), '.github', 'agents');
      const reviewer = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(dir, 'quality_reviewer.agent.md')));
      assert.match(reviewer.getText(), /^handoffs:\n {2}- label: "Hand over to Implementation engineer"\n {4}agent: "Implementation engineer"/m);
      // VS Code 1.106 reads custom agents (.agent.md); its language id is chatagent there.
      const customAgents = reviewer.languageId === 'chatagent';
      console.log(`[agents] VS Code ${vscode.version}: ${path.basename(reviewer.fileName)} is ${reviewer.languageId}`);
      if (!customAgents) {
        assert.equal(hasMcpApi && Number(vscode.version.split('.')[1]) >= 106, false, `VS Code ${vscode.version} should read .agent.md as a custom agent`);
        await new Promise((r) => setTimeout(r, 2000));
        assert.deepEqual(
          vscode.languages.getDiagnostics(reviewer.uri).map((d) => d.message),
          [],
        );
        return;
      }
      // The probe: the exported quality reviewer under another name, with one more handoff, to an agent nobody exported.
      const probeFile = path.join(dir, 'zz-handoff-probe.agent.md');
      const probeText = reviewer
        .getText()
        .replace(/^name: "Quality reviewer"$/m, 'name: "Handoff probe"')
        .replace(/^handoffs:\n/m, 'handoffs:\n  - label: "Hand over to nobody"\n    agent: "No such specialist"\n    prompt: "Continue."\n    send: false\n');
      writeFileSync(probeFile, probeText);
      try {
        // VS Code validates an agent file shown in an editor, against the agents it has found so far: the files just
        // exported are found by its file watcher a moment later, so the probe is rewritten (validated again) until then.
        const probe = await vscode.workspace.openTextDocument(vscode.Uri.file(probeFile));
        await vscode.window.showTextDocument(probe);
        let round = 0;
        const unknown = await waitFor("VS Code's warning on the probe's handoff, naming every exported agent", 60_000, () => {
          const found = vscode.languages.getDiagnostics(probe.uri).find((d) => /Unknown agent 'No such specialist'/.test(d.message));
          if (found && BUILTIN_SPECIALISTS.every((s) => found.message.includes(s.label))) return found;
          if (++round % 8 === 0) writeFileSync(probeFile, `${probeText}\n<!-- round ${round} -->\n`);
          return undefined;
        });
        assert.equal(unknown.severity, vscode.DiagnosticSeverity.Warning);
        assert.equal(probe.getText(unknown.range), '"No such specialist"', "the warning is on the handoff's agent");
        for (const s of BUILTIN_SPECIALISTS) {
          assert.ok(unknown.message.includes(s.label), `VS Code knows the exported agent "${s.label}": ${unknown.message}`);
        }
        // The exported handoffs in the same file (to Implementation engineer, Release auditor): nothing else reported.
        assert.deepEqual(
          vscode.languages.getDiagnostics(probe.uri).map((d) => d.message),
          [unknown.message],
        );
        const reported: string[] = [];
        for (const s of BUILTIN_SPECIALISTS) {
          const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(dir, `${s.id}.agent.md`)));
          await vscode.window.showTextDocument(doc);
          await new Promise((r) => setTimeout(r, 1000));
          reported.push(...vscode.languages.getDiagnostics(doc.uri).map((x) => `${path.basename(doc.fileName)}:${x.range.start.line + 1}: ${x.message}`));
        }
        assert.deepEqual(reported, [], 'VS Code reports nothing on the exported agents: every handoff names an agent it knows');
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        rmSync(probeFile, { force: true });
      }
    },
  );
});
