/** Base for classes that `register` what they create; dispose releases it all, newest first. */
import type * as vscode from 'vscode';

export abstract class DisposableOwner implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposed = false;

  /** Returns `d`; disposes it at once if the owner already is. */
  protected register<T extends vscode.Disposable>(d: T): T {
    if (this.disposed) {
      d.dispose();
    } else {
      this.owned.push(d);
    }
    return d;
  }

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
