/**
 * What the agent entry points share — the language model tool, the `@handoff` chat
 * participant and the MCP server definition: their dependencies, the workspace folders
 * they may write to, the request defaults of a folder's settings, and cancellation. The
 * engine environment of a folder is the one the panel and the palette use
 * (`folderEnvironment` in src/vscode/workspace/environment.ts).
 */
import * as vscode from 'vscode';
import type { SessionHooks } from '../workspace/environment';
import { readSettings } from '../workspace/settings';
import { workspaceTrusted } from '../workspace/trust';

/** What the agent entry points need from the extension (built once in `extension.ts`). */
export interface AgentDeps {
  /** Where what happens is logged. */
  readonly log: vscode.LogOutputChannel;
  /** The recorded session: id, session-log environment, and the end of the session after a handoff. */
  readonly session: SessionHooks;
  /** Called after a handoff was written (refreshes the timeline and the panel's evidence). */
  readonly onWritten: () => void;
  /** This extension (its folder holds `dist/cli.js`; its version names the MCP server's). */
  readonly extension: vscode.Extension<unknown>;
  /** Whether the workspace is trusted; default `vscode.workspace.isTrusted` (tests pass their own). */
  readonly isTrusted?: () => boolean;
}

/** Why nothing happens in an untrusted workspace, as the tool's `ERROR:` text. */
export const UNTRUSTED_ERROR =
  'ERROR: this workspace is not trusted — in an untrusted workspace Specialist Handoff starts no git process and writes no file. ' +
  'Ask the user to trust the workspace (Manage Workspace Trust), then call the tool again.';

/** The tool's `ERROR:` text when the caller cancelled before the handoff was written. */
export const CANCELLED_ERROR = 'ERROR: the handoff was cancelled — nothing was written';

/** Whether the workspace is trusted, as `deps` says (default: VS Code's Workspace Trust). */
export function isTrusted(deps: Pick<AgentDeps, 'isTrusted'>): boolean {
  return deps.isTrusted ? deps.isTrusted() : workspaceTrusted();
}

/** The workspace folders on disk (`file:` scheme), in workspace order: where a handoff may be written. */
export function diskFolders(): vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
}

/** The folder whose path is exactly `root` (the tool's resolved project root), else the first folder on disk. */
export function folderForRoot(root: string): vscode.WorkspaceFolder | undefined {
  const folders = diskFolders();
  return folders.find((f) => f.uri.fsPath === root) ?? folders[0];
}

/**
 * Request defaults from the settings of the folder a handoff is for (`max_context_tokens`
 * from `handoff.maxContextTokens`, `include_recent_turns` from `handoff.includeRecentTurns`),
 * under what the caller passed: a field the caller set is kept, and a budget preset (`budget`)
 * stands for `max_context_tokens`, so the setting is not added beside it. Non-objects pass through
 * (the tool's validation reports them).
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

/** An AbortController that aborts when `token` is cancelled; dispose the returned listener when done. */
export function abortOn(token: vscode.CancellationToken): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const listener = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => listener.dispose() };
}

/**
 * Escapes text for one line of inline Markdown in a chat response or a tool confirmation:
 * Markdown's punctuation is backslash-escaped and line breaks become spaces, so a model's or
 * a file's text cannot add links, headings or emphasis of its own.
 */
export function inlineMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#|~]/g, '\\$&').replace(/\r?\n/g, ' ');
}
