/**
 * One owner for every disposable: classes extend {@link DisposableOwner} and `register`
 * what they create; disposing the owner releases all of it, newest first.
 */
import type * as vscode from 'vscode';

/** Base class that owns disposables. */
export abstract class DisposableOwner implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposed = false;

  /** Registers a disposable to release with this owner; returns it for chaining. */
  protected register<T extends vscode.Disposable>(d: T): T {
    if (this.disposed) {
      d.dispose();
    } else {
      this.owned.push(d);
    }
    return d;
  }

  /** Releases everything registered, newest first. Safe to call twice. */
  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    for (const d of this.owned.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // one failing disposable must not keep the others alive
      }
    }
  }
}
