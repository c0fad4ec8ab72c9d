/**
 * The engine's view of a workspace folder, built one way for every entry point (the
 * panel, the palette, the timeline commands, the language model tool and the chat
 * participant): the project options (folder and `handoff.directory` setting), its handoff
 * root and specialists, and the engine environment of a handoff — the handoff folder, git
 * binary, hop limit and interop settings of the folder, the recorded session's id, and
 * its session-log environment.
 */
import type * as vscode from 'vscode';
import type { HandoverError } from '../../core/handoff/schema';
import type { SpecialistRegistry } from '../../core/specialists/registry';
import { collectEvidenceFor, type HandoverEnvironment } from '../../engine/handover/handover';
import { handoffRootOf, loadRegistry, type ProjectOptions } from '../../engine/project/project';
import { readSettings, type HandoffSettings } from './settings';

/** What the commands need of the recorded session: its id, the session-log environment, and the end of the session. */
export interface SessionHooks {
  /** The current session id. */
  sessionId(): string;
  /** Session-log settings and the recorded base commit for a handoff of `folder`. */
  environment(folder: vscode.WorkspaceFolder, settings: HandoffSettings): Promise<Pick<HandoverEnvironment, 'sessionLog' | 'sessionBaseCommit'>>;
  /** A handoff was written: the session ends and the next one starts. */
  ended(): Promise<void>;
}

/** The project options of `folder`: its path and its `handoff.directory` setting. */
export function projectOptions(folder: vscode.WorkspaceFolder, settings: HandoffSettings = readSettings(folder)): ProjectOptions {
  return { workspaceRoot: folder.uri.fsPath, handoffDirectory: settings.directory };
}

/**
 * The handoff root of `folder` (`<folder>/.handoff` by default).
 * @returns the absolute root, or the error naming the `handoff.directory` setting
 */
export function folderHandoffRoot(
  folder: vscode.WorkspaceFolder,
  settings?: HandoffSettings,
): { ok: true; path: string } | { ok: false; error: HandoverError } {
  return handoffRootOf(projectOptions(folder, settings));
}

/**
 * The handoff root and the specialists of `folder` (built-in, custom, and those of other
 * tools' agent folders), with a warning per specialist file that was skipped.
 * @returns the error naming the `handoff.directory` setting when the root is invalid
 * @throws when the specialist folders cannot be read
 */
export async function folderSpecialists(
  folder: vscode.WorkspaceFolder,
  settings?: HandoffSettings,
): Promise<{ ok: true; root: string; registry: SpecialistRegistry; warnings: string[] } | { ok: false; error: HandoverError }> {
  const root = folderHandoffRoot(folder, settings);
  if (!root.ok) return root;
  const { registry, warnings } = await loadRegistry(root.path, folder.uri.fsPath);
  return { ok: true, root: root.path, registry, warnings };
}

/** Options of {@link folderEnvironment}. */
export interface EnvironmentOptions {
  /** The folder's settings, when the caller read them already; default: read now. */
  readonly settings?: HandoffSettings;
  /** Stops git when it aborts. */
  readonly signal?: AbortSignal;
  /**
   * Collect the git evidence now, and fail the handoff before anything is written when it
   * completes after `signal` aborted (the agents' cancellation: the caller then reports
   * that the handoff was cancelled). Needs `signal`.
   */
  readonly failWhenCancelled?: boolean;
}

/** Raised inside the engine's evidence step when the caller cancelled: the engine turns it into an error result, so nothing is written. */
class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/** The {@link HandoverEnvironment} for a handoff of `folder`: the one builder every entry point uses. */
export async function folderEnvironment(folder: vscode.WorkspaceFolder, session: SessionHooks, options: EnvironmentOptions = {}): Promise<HandoverEnvironment> {
  const settings = options.settings ?? readSettings(folder);
  const { signal } = options;
  const env: HandoverEnvironment = {
    workspaceRoot: folder.uri.fsPath,
    handoffDirectory: settings.directory,
    gitBinary: settings.gitPath,
    sessionId: session.sessionId(),
    maxHandoverDepth: settings.maxHandoverDepth,
    pendingWarnAfterMs: settings.pendingWarnAfterMs,
    userRequestTokens: settings.userRequestTokens,
    interop: settings.interop,
    ...(signal ? { signal } : {}),
    ...(await session.environment(folder, settings)),
  };
  if (!signal || !options.failWhenCancelled) return env;
  const evidence = collectEvidenceFor(env).then((ev) => {
    if (signal.aborted) throw new Cancelled();
    return ev;
  });
  // The engine awaits it; until then a rejection must not count as unhandled.
  evidence.catch(() => undefined);
  return { ...env, evidence };
}
