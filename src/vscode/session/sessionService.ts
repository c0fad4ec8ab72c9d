/** The recorded session as the commands see it: id, recorder, and a handoff's session-log settings. */
import path from 'node:path';
import * as vscode from 'vscode';
import { readHeadCommit, recorderIgnores, sessionStatePath } from '../../engine/project/session';
import type { SessionLocations } from '../../engine/project/settings';
import { hostAgentSource } from '../../core/agents/hostAgent';
import { DisposableOwner } from '../lifecycle';
import { SessionRecorder } from './sessionRecorder';
import { SessionStore } from './sessionIdStore';
import { projectOptions, type SessionHooks } from '../workspace/environment';
import { currentFolder, readSettings, type HandoffSettings } from '../workspace/settings';
import { workspaceTrusted } from '../workspace/trust';

/** Owns the session store and the recorder of the first workspace folder. */
export class SessionService extends DisposableOwner implements SessionHooks {
  private readonly store: SessionStore;
  private recorder: SessionRecorder | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.store = new SessionStore(context.workspaceState);
  }

  /** Starts recording when a folder is open and trusted (again when trust is granted later). */
  async startRecording(): Promise<void> {
    const folder = currentFolder();
    if (!folder || !this.context.storageUri || !workspaceTrusted()) {
      return;
    }
    if (!this.recorder) {
      // Settings are read at the first event, not here: the first getConfiguration is slow.
      let ignores: ((fsPath: string) => boolean) | undefined;
      this.recorder = this.register(
        new SessionRecorder(
          this.context.storageUri.fsPath,
          folder,
          this.store,
          this.context.workspaceState,
          () => readHeadCommit(folder.uri.fsPath, readSettings(folder).gitPath),
          this.log,
          (fsPath) => (ignores ??= recorderIgnores(projectOptions(folder, readSettings(folder))))(fsPath),
        ),
      );
    }
    await this.recorder.start();
  }

  get activeRecorder(): SessionRecorder | undefined {
    return this.recorder;
  }

  sessionId(): string {
    return this.store.current();
  }

  async environment(folder: vscode.WorkspaceFolder, settings: HandoffSettings) {
    await this.recorder?.flush();
    const global = this.context.globalStorageUri.fsPath;
    const storage = this.context.storageUri?.fsPath;
    // Other extensions' storage sits beside ours: global storage side by side, Copilot's chat
    // sessions next to our workspace storage.
    const defaults: SessionLocations = {
      cline: path.join(path.dirname(global), 'saoudrizwan.claude-dev', 'tasks'),
      roo: path.join(path.dirname(global), 'rooveterinaryinc.roo-cline', 'tasks'),
      kilo: path.join(path.dirname(global), 'kilocode.kilo-code', 'tasks'),
      ...(storage ? { copilot: path.join(path.dirname(storage), 'chatSessions') } : {}),
    };
    void folder;
    const hostSource = hostAgentSource(vscode.env.uriScheme);
    return {
      sessionBaseCommit: (await this.recorder?.currentBaseCommit()) ?? undefined,
      sessionLog: {
        mode: settings.sessionLogSources.length ? 'auto' : 'none',
        sources: settings.sessionLogSources,
        locations: { ...defaults, ...settings.sessionLogLocations },
        recorderFile: this.recorder?.currentFile(),
        statePath: storage ? sessionStatePath(storage) : undefined,
        // globalStorageUri is <User>/globalStorage/<extension id>: the fork's own User folder, wherever it keeps it.
        ...(hostSource ? { host: { source: hostSource, userDir: path.dirname(path.dirname(global)) } } : {}),
      },
    };
  }

  async ended(): Promise<void> {
    if (this.recorder) {
      await this.recorder.startNewSession();
    } else {
      await this.store.rotate();
    }
  }

  /** "Handoff: Start New Session". */
  async startNewSession(): Promise<void> {
    if (!workspaceTrusted()) {
      void vscode.window.showWarningMessage('Specialist Handoff records sessions only in trusted workspaces.');
      return;
    }
    await this.ended();
    const base = await this.recorder?.currentBaseCommit();
    void vscode.window.showInformationMessage(
      `New handoff session started${base ? ` at ${base.slice(0, 10)}` : ''}: commits and commands from now on belong to the next handoff.`,
    );
  }
}
