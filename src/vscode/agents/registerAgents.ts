/**
 * The agents' part of activation: the language model tools (`#handover`, `#fullHistory`), the `@handoff`
 * chat participant and the MCP server definition — each where this VS Code has its API —
 * and "Handoff: Export Specialists to Agent Folders…".
 */
import * as vscode from 'vscode';
import { Commands } from '../constants';
import type { AgentDeps } from './agentContext';
import { registerChatParticipant } from './chatParticipant';
import { exportAgentsCommand } from './exportAgents';
import { registerFullHistoryTool } from './historyTool';
import { registerLanguageModelTool } from './lmTool';
import { registerMcpServerDefinitions } from './mcpServerDefinitionProvider';

/** Registers the agent entry points and the export command; disposed with the extension. */
export function registerAgents(context: vscode.ExtensionContext, deps: AgentDeps): void {
  context.subscriptions.push(
    ...registerLanguageModelTool(deps),
    ...registerFullHistoryTool(deps),
    ...registerChatParticipant(deps),
    ...registerMcpServerDefinitions(deps),
    vscode.commands.registerCommand(Commands.exportAgents, (args?: unknown) => exportAgentsCommand(deps.log, args)),
  );
}
