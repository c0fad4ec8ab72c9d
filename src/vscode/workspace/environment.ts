/** The engine's options and environment for a workspace folder, built one way for every entry point. */
import type * as vscode from 'vscode';
import type { JobError } from '../../core/handoff/schema';
import type { SpecialistRegistry } from '../../core/specialists/registry';
import { collectEvidenceFor, type JobContext } from '../../engine/handover/handover';
import { handoffRootOf, loadRegistry, type ProjectOptions } from '../../engine/project/project';
import { readSettings, type HandoffSettings } from './settings';

export interface SessionHooks {
  sessionId(): string;
  /** Session-log settings and the recorded base commit for a handoff of `folder`. */
  environment(folder: vscode.WorkspaceFolder, settings: HandoffSettings): Promise<Pick<JobContext, 'sessionLog' | 'sessionBaseCommit'>>;
  /** A handoff was written: the session ends and the next one starts. */
  ended(): Promise<void>;
}

export function projectOptions(folder: vscode.WorkspaceFolder, settings: HandoffSettings = readSettings(folder)): ProjectOptions {
  return { workspaceRoot: folder.uri.fsPath, handoffDirectory: settings.directory };
}

/** Root, or the error naming the `handoff.directory` setting. */
export function folderHandoffRoot(folder: vscode.WorkspaceFolder, settings?: HandoffSettings): { ok: true; path: string } | { ok: false; error: JobError } {
  return handoffRootOf(projectOptions(folder, settings));
}

/** Throws when the specialist folders cannot be read; warnings name each skipped specialist file. */
export async function folderSpecialists(
  folder: vscode.WorkspaceFolder,
  settings?: HandoffSettings,
): Promise<{ ok: true; root: string; registry: SpecialistRegistry; warnings: string[] } | { ok: false; error: JobError }> {
  const root = folderHandoffRoot(folder, settings);
  if (!root.ok) return root;
  const { registry, warnings } = await loadRegistry(root.path, folder.uri.fsPath);
  return { ok: true, root: root.path, registry, warnings };
}

export interface EnvironmentOptions {
  /** Default: read now. */
  readonly settings?: HandoffSettings;
  /** Stops git when it aborts. */
  readonly signal?: AbortSignal;
  /** Needs `signal`: collect git evidence now and fail the handoff, before anything is written, if `signal` aborted by then. */
  readonly failWhenCancelled?: boolean;
}

/** Thrown in the evidence step on cancel; the engine turns it into an error result, so nothing is written. */
class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

export async function folderEnvironment(folder: vscode.WorkspaceFolder, session: SessionHooks, options: EnvironmentOptions = {}): Promise<JobContext> {
  const settings = options.settings ?? readSettings(folder);
  const { signal } = options;
  const env: JobContext = {
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
