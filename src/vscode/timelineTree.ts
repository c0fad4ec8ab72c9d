/**
 * The "Handoff timeline" tree view: the handoff files of the workspace, newest first.
 * The first render needs only file names (they carry the time and the specialist);
 * a FileSystemWatcher refreshes it (debounced). Items have stable ids (the file name).
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { HANDOFFS_DIR } from '../core/naming';
import { SpecialistRegistry } from '../core/specialists';
import { listHandoffFiles, type HandoffFileEntry } from '../store/handoffStore';
import { resolveHandoffRoot } from '../store/paths';
import { Config } from './constants';
import { DisposableOwner } from './lifecycle';
import { currentFolder, readSettings } from './settings';

/** Debounce of watcher-triggered refreshes, in milliseconds. */
export const TIMELINE_REFRESH_DEBOUNCE_MS = 250;

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "5 minutes ago", "yesterday", "3 days ago" for a time in ms since the epoch. */
export function relativeTime(time: number, now = Date.now()): string {
  const s = Math.round((time - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 60) return relative.format(s, 'second');
  if (abs < 3600) return relative.format(Math.round(s / 60), 'minute');
  if (abs < 86400) return relative.format(Math.round(s / 3600), 'hour');
  if (abs < 86400 * 30) return relative.format(Math.round(s / 86400), 'day');
  return new Date(time).toISOString().slice(0, 10);
}

/** TreeDataProvider of handoff files. */
export class TimelineTreeProvider extends DisposableOwner implements vscode.TreeDataProvider<HandoffFileEntry> {
  private readonly changed = this.register(new vscode.EventEmitter<HandoffFileEntry | undefined>());
  /** Fires when the tree must be re-read. */
  readonly onDidChangeTreeData = this.changed.event;
  private readonly filesChanged = this.register(new vscode.EventEmitter<void>());
  /** Fires (debounced) when handoff files were created, changed or deleted, or on refresh. */
  readonly onDidChangeHandoffs = this.filesChanged.event;
  private watcher: vscode.FileSystemWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly registry = new SpecialistRegistry();

  constructor(private readonly log: vscode.LogOutputChannel) {
    super();
    this.watch();
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.rewatch()));
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${Config.section}.${Config.directory}`)) {
          this.rewatch();
        }
      }),
    );
    this.register({ dispose: () => this.timer && clearTimeout(this.timer) });
  }

  /** Re-reads the tree now. */
  refresh(): void {
    this.changed.fire(undefined);
    this.filesChanged.fire();
  }

  /** Number of handoff files in the current folder's handoff root (a directory listing, no file read). */
  async countHandoffs(): Promise<number> {
    const dir = this.handoffsDir();
    return dir ? (await listHandoffFiles(dir).catch(() => [])).length : 0;
  }

  private scheduleRefresh(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => this.refresh(), TIMELINE_REFRESH_DEBOUNCE_MS);
  }

  private handoffsDir(): string | undefined {
    const folder = currentFolder();
    if (!folder) {
      return undefined;
    }
    const root = resolveHandoffRoot(folder.uri.fsPath, readSettings(folder).directory);
    return root.ok ? path.join(root.path, HANDOFFS_DIR) : undefined;
  }

  private watch(): void {
    const dir = this.handoffsDir();
    if (!dir) {
      return;
    }
    this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dir), '*.md'));
    this.watcher.onDidCreate(() => this.scheduleRefresh());
    this.watcher.onDidDelete(() => this.scheduleRefresh());
    this.watcher.onDidChange(() => this.scheduleRefresh());
  }

  private rewatch(): void {
    this.watcher?.dispose();
    this.watch();
    this.refresh();
  }

  override dispose(): void {
    this.watcher?.dispose();
    super.dispose();
  }

  /** Top level: the handoff files, newest first. No nesting yet. */
  async getChildren(element?: HandoffFileEntry): Promise<HandoffFileEntry[]> {
    if (element) {
      return [];
    }
    const dir = this.handoffsDir();
    if (!dir) {
      return [];
    }
    try {
      return (await listHandoffFiles(dir)).reverse();
    } catch (err) {
      this.log.warn(`timeline: ${(err as Error).message}`);
      return [];
    }
  }

  /** One row: the specialist's icon and label, relative time; click opens the file. */
  getTreeItem(e: HandoffFileEntry): vscode.TreeItem {
    const s = this.registry.get(e.specialist);
    const item = new vscode.TreeItem(s?.label ?? e.specialist, vscode.TreeItemCollapsibleState.None);
    item.id = e.name;
    item.description = `${relativeTime(e.time)}${e.partial ? ' · partial' : ''}`;
    item.tooltip = new vscode.MarkdownString(`**${s?.label ?? e.specialist}** ${s?.personaMarker ?? ''}\n\n${new Date(e.time).toISOString()}\n\n\`${e.name}\``);
    item.iconPath = new vscode.ThemeIcon(e.partial ? 'warning' : (s?.icon ?? 'person'));
    item.resourceUri = vscode.Uri.file(e.path);
    item.contextValue = e.partial ? 'handoff.partial' : 'handoff';
    item.command = { command: 'vscode.open', title: 'Open Handoff', arguments: [vscode.Uri.file(e.path)] };
    return item;
  }
}
