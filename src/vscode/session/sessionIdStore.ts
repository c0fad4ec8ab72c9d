/** The session id in workspaceState; a written handoff ends the session and the next gets a new id. */
import { randomUUID } from 'node:crypto';
import type * as vscode from 'vscode';
import { StorageKeys } from '../constants';

export class SessionStore {
  constructor(private readonly state: vscode.Memento) {}

  /** Created (a UUID) on first use. */
  current(): string {
    let id = this.state.get<string>(StorageKeys.sessionId);
    if (!id) {
      id = randomUUID();
      void this.state.update(StorageKeys.sessionId, id);
    }
    return id;
  }

  async rotate(): Promise<string> {
    const id = randomUUID();
    await this.state.update(StorageKeys.sessionId, id);
    return id;
  }
}
