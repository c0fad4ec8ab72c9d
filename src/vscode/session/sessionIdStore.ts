/**
 * The current session id, kept in workspaceState (a small value; the files in the
 * workspace are the truth). A session ends when a handoff is written and the next one
 * starts with a new id.
 */
import { randomUUID } from 'node:crypto';
import type * as vscode from 'vscode';
import { StorageKeys } from '../constants';

/** Typed wrapper over workspaceState for the session id. */
export class SessionStore {
  constructor(private readonly state: vscode.Memento) {}

  /** The current session id, created (a UUID) on first use. */
  current(): string {
    let id = this.state.get<string>(StorageKeys.sessionId);
    if (!id) {
      id = randomUUID();
      void this.state.update(StorageKeys.sessionId, id);
    }
    return id;
  }

  /** Ends the current session and starts the next with a new id. */
  async rotate(): Promise<string> {
    const id = randomUUID();
    await this.state.update(StorageKeys.sessionId, id);
    return id;
  }
}
