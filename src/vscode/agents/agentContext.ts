/** What the agent entry points (language model tools, `@handoff`, the MCP definition) share. */
import * as vscode from 'vscode';
import type { SessionHooks } from '../workspace/environment';
import { readSettings } from '../workspace/settings';
import { workspaceTrusted } from '../workspace/trust';

export interface AgentDeps {
  readonly log: vscode.LogOutputChannel;
  readonly session: SessionHooks;
  readonly onWritten: () => void;
  /** Its folder holds `dist/cli.js`; its version names the MCP server's. */
  readonly extension: vscode.Extension<unknown>;
  /** Default: VS Code's Workspace Trust. */
  readonly isTrusted?: () => boolean;
}

export const UNTRUSTED_ERROR =
  'ERROR: this workspace is not trusted — in an untrusted workspace Specialist Handoff starts no git process and writes no file. ' +
  'Ask the user to trust the workspace (Manage Workspace Trust), then call the tool again.';

export const CANCELLED_ERROR = 'ERROR: the handoff was cancelled — nothing was written';

export function isTrusted(deps: Pick<AgentDeps, 'isTrusted'>): boolean {
  return deps.isTrusted ? deps.isTrusted() : workspaceTrusted();
}

/** `file:` folders in workspace order: where a handoff may be written. */
export function diskFolders(): vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
}

/** The folder whose path is exactly `root`, else the first folder on disk. */
export function folderForRoot(root: string): vscode.WorkspaceFolder | undefined {
  const folders = diskFolders();
  return folders.find((f) => f.uri.fsPath === root) ?? folders[0];
}

/**
 * Fills `max_context_tokens` and `include_recent_turns` from the folder's settings where the
 * caller left them unset; a `budget` preset stands for `max_context_tokens`. Non-objects pass through.
 */
export function withSettingsDefaults(input: unknown, folder: vscode.WorkspaceFolder | undefined): unknown {
  if (!folder || typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const settings = readSettings(folder);
  const given = input as Record<string, unknown>;
  return {
    ...(given.max_context_tokens === undefined && given.budget === undefined ? { max_context_tokens: settings.maxContextTokens } : {}),
    ...(given.include_recent_turns === undefined ? { include_recent_turns: settings.includeRecentTurns } : {}),
    ...given,
  };
}

/** Dispose the returned listener when done. */
export function abortOn(token: vscode.CancellationToken): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const listener = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => listener.dispose() };
}

/** Escapes one line of inline Markdown, so a model's or a file's text cannot add links, headings or emphasis. */
export function inlineMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#|~]/g, '\\$&').replace(/\r?\n/g, ' ');
}
