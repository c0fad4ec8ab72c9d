import * as vscode from 'vscode';
import { Commands } from '../constants';
import type { AgentDeps } from './agentContext';
import { registerChatParticipant } from './chatParticipant';
import { exportAgentsCommand } from './exportAgents';
import { registerFullHistoryTool } from './historyTool';
import { registerLanguageModelTool } from './lmTool';
import { registerMcpServerDefinitions } from './mcpServerDefinitionProvider';

/** Each agent entry point is registered only where this VS Code has its API. */
export function registerAgents(context: vscode.ExtensionContext, deps: AgentDeps): void {
  context.subscriptions.push(
    ...registerLanguageModelTool(deps),
    ...registerFullHistoryTool(deps),
    ...registerChatParticipant(deps),
    ...registerMcpServerDefinitions(deps),
    vscode.commands.registerCommand(Commands.exportAgents, (args?: unknown) => exportAgentsCommand(deps.log, args)),
  );
}
