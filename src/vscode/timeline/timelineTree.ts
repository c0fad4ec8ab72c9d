/**
 * The "Handoff Timeline" tree view: the handoffs and results of the workspace (ours,
 * itervox's `.itervox/handoff/` and Agent Zero's `.a0proj/handover/`), grouped by chain
 * — each hop nested under its parent — newest first (`handoff.timeline.order` flips it).
 *
 * The first render needs only file names (they carry the time and the specialist); chain
 * links, status and topic are read lazily from the start of each file, newest first, and
 * the tree regroups as they arrive. Tooltips (summary, tokens, files) are read when
 * hovered (resolveTreeItem; getTreeItem sets no tooltip, or VS Code would never ask for
 * it). FileSystemWatchers, created when the view first asks for items, refresh it
 * (debounced). Items have stable ids (source and file name), so selection, expansion and
 * reveal survive a refresh; a file that appears while the view is shown (a handoff
 * written here or elsewhere, a chain continued) is announced by `onDidAddEntry` once it
 * is placed in its chain, so the view can reveal and select it. A handoff's latest
 * verification (read in bulk once per render) sets its row's icon, a word in its
 * description and the last line of its tooltip (./verdict.ts).
 */
import * as vscode from 'vscode';
import { formatCount } from '../../core/handoff/limits';
import { BUILTIN_SPECIALISTS, type Specialist } from '../../core/specialists/registry';
import { STATUS_LABELS } from '../../core/handoff/status';
import { groupChains, TIMELINE_PAGE_SIZE, type TimelineFile, type TimelineNode, type TimelineSource } from '../../core/timeline/chains';
import { errorText } from '../../core/handoff/errors';
import { readHandoffHead } from '../../engine/handover/handoffFiles';
import { openProject } from '../../engine/project/project';
import {
  listTimeline,
  listTimelineStatus,
  readTimelineInfos,
  timelineFolders,
  timelineVerifications,
  type TimelineEntryInfo,
  type TimelineLocation,
  type TimelineStatusListing,
} from '../../engine/timeline/timeline';
import { Config } from '../constants';
import { DisposableOwner } from '../lifecycle';
import { folderHandoffRoot, projectOptions } from '../workspace/environment';
import { currentFolder } from '../workspace/settings';
import { timelineRowText } from './rowText';
import { resultIcon, timelineTooltip } from './timelineItem';
import { rowVerdict, verdictIcon, verdictWord, type VerificationShown } from './verdict';
import { appendWaiting, PendingWarnAfterSetting, waitingIcon, waitingWord } from './waitingMark';
import { nodeWaiting } from '../../core/timeline/waiting';

/** Debounce of watcher-triggered refreshes, in milliseconds. */
export const TIMELINE_REFRESH_DEBOUNCE_MS = 250;
export { TIMELINE_PAGE_SIZE } from '../../core/timeline/chains';
/** Files whose chain links are read at once in the background: 100. */
export const CHAIN_INFO_BATCH = 100;
/** Most often the tree regroups while chain links arrive, in milliseconds: 1,000. */
export const REGROUP_INTERVAL_MS = 1000;
/**
 * Up to this many unread files, chain links are read before the tree renders (a few small
 * reads, so chains appear nested at once); beyond it the first render uses names only and
 * the tree regroups as the links arrive: 200.
 */
export const EAGER_CHAIN_INFO_FILES = 200;

/** An element of the tree: a timeline entry (with its hops below it), or the "Show more" row. */
export type TimelineElement =
  { readonly type: 'entry'; readonly node: TimelineNode } | { readonly type: 'more'; readonly shown: number; readonly total: number };

/** TreeDataProvider of the timeline. */
export class TimelineTreeProvider extends DisposableOwner implements vscode.TreeDataProvider<TimelineElement> {
  private readonly changed = this.register(new vscode.EventEmitter<TimelineElement | undefined>());
  /** Fires when the tree must be re-read. */
  readonly onDidChangeTreeData = this.changed.event;
  private readonly filesChanged = this.register(new vscode.EventEmitter<void>());
  /** Fires (debounced) when timeline files were created, changed or deleted, or on refresh. */
  readonly onDidChangeHandoffs = this.filesChanged.event;
  private readonly added = this.register(new vscode.EventEmitter<TimelineElement>());
  /**
   * Fires after a render holding an entry whose file was not listed by the render before
   * (the newest such, once it is placed in its chain): to reveal and select it.
   */
  readonly onDidAddEntry = this.added.event;
  /** Keys listed by the last render; undefined before the first one (nothing is new then). */
  private listedBefore: Set<string> | undefined;
  /** New keys not announced yet (their chain links are still being read, or not shown). */
  private readonly fresh = new Set<string>();

  private watchers: vscode.FileSystemWatcher[] = [];
  private watching = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly info = new Map<string, TimelineEntryInfo | null>();
  /**
   * Keys whose file changed since its chain links were read: read again on the next
   * render, while rows keep showing what was read before (a row never loses its topic
   * between a watcher event and the re-read).
   */
  private readonly stale = new Set<string>();
  private specialists = new Map<string, Specialist>(BUILTIN_SPECIALISTS.map((s) => [s.id, s]));
  /** The latest verification of each verified handoff, by id: read in bulk once per render. */
  private verifications: ReadonlyMap<string, VerificationShown> = new Map();
  private elements = new Map<string, { element: TimelineElement; parent: TimelineElement | undefined }>();
  private roots: TimelineElement[] = [];
  private pages = 1;
  /** `handoff.pendingWarnAfter`, read once per render. */
  private readonly warnAfter = new PendingWarnAfterSetting();
  private loading: Promise<void> | undefined;
  /** One listing of the handoff root's status/ per timeline read, dropped when a status event is created or deleted. */
  private statusListing: Promise<TimelineStatusListing> | undefined;
  private generation = 0;

  constructor(private readonly log: vscode.LogOutputChannel) {
    super();
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.rewatch()));
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${Config.section}.${Config.directory}`)) {
          this.rewatch();
        } else if (
          e.affectsConfiguration(`${Config.section}.${Config.timelineOrder}`) ||
          e.affectsConfiguration(`${Config.section}.${Config.pendingWarnAfter}`)
        ) {
          this.refresh();
        }
      }),
    );
    this.register({ dispose: () => this.timer && clearTimeout(this.timer) });
    this.register({ dispose: () => this.watchers.forEach((w) => w.dispose()) });
  }

  /** Re-reads the tree now (chain links already read are kept unless their file changed). */
  refresh(): void {
    this.changed.fire(undefined);
    this.filesChanged.fire();
  }

  /**
   * Forgets what was read of a timeline file (or of all) and re-reads the tree: for
   * changes made here (status set, result recorded, file renamed) that must show at once,
   * whatever the file watcher reports.
   */
  invalidate(fsPath?: string): void {
    if (fsPath === undefined) {
      this.info.clear();
      this.stale.clear();
    } else {
      for (const { element } of this.elements.values()) {
        if (element.type === 'entry' && element.node.file.path === fsPath) this.stale.add(element.node.file.key);
      }
    }
    this.refresh();
  }

  /** Shows the next page of chains. */
  showMore(): void {
    this.pages += 1;
    this.changed.fire(undefined);
  }

  /** Number of handoff files (ours) in the current folder's handoff root — a directory listing, no file read. */
  async countHandoffs(): Promise<number> {
    const ctx = this.context();
    if (!ctx) return 0;
    const { files } = await listTimeline(ctx, []).catch(() => ({ files: [] as readonly TimelineFile[] }));
    return files.filter((f) => f.source === 'handoff').length;
  }

  /** The element of a timeline file by its key (`<source>:<file name>`), as of the last render — for reveal. */
  elementFor(key: string): TimelineElement | undefined {
    return this.elements.get(key)?.element;
  }

  /** The element showing the file at `fsPath`, as of the last render. */
  elementForPath(fsPath: string): TimelineElement | undefined {
    for (const { element } of this.elements.values()) {
      if (element.type === 'entry' && element.node.file.path === fsPath) return element;
    }
    return undefined;
  }

  /** The current folder and its handoff root; undefined when no folder is open or the `handoff.directory` setting is invalid. */
  private context(): TimelineLocation | undefined {
    const folder = currentFolder();
    if (!folder) return undefined;
    const root = folderHandoffRoot(folder);
    return root.ok ? { workspaceRoot: folder.uri.fsPath, handoffRoot: root.path } : undefined;
  }

  private order(): 'newest' | 'oldest' {
    // Resource-scoped: read for the timeline's folder (VS Code logs a read without a resource).
    const v = vscode.workspace.getConfiguration(Config.section, currentFolder() ?? null).get<string>(Config.timelineOrder);
    return v === 'oldestFirst' ? 'oldest' : 'newest';
  }

  private scheduleRefresh(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.refresh();
    }, TIMELINE_REFRESH_DEBOUNCE_MS);
  }

  /** Starts watching the timeline's folders now, not only on the first render ("Handoff: Show Insights" refreshes on {@link onDidChangeHandoffs}). */
  watchFiles(): void {
    this.ensureWatchers();
  }

  /** Watches the three timeline folders (created on the first render, not at activation). */
  private ensureWatchers(): void {
    if (this.watching) return;
    this.watching = true;
    const ctx = this.context();
    if (!ctx) return;
    const folders = timelineFolders(ctx);
    for (const [source, dir] of Object.entries(folders) as Array<[TimelineSource, string]>) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dir), '*.md'));
      const forget = (uri: vscode.Uri) => {
        this.stale.add(`${source}:${uri.path.split('/').pop()}`);
        this.scheduleRefresh();
      };
      watcher.onDidCreate(forget);
      watcher.onDidChange(forget);
      watcher.onDidDelete(forget);
      this.watchers.push(watcher);
    }
    // A status change is an event file, status/<handoff id>/<time>_<random>.json (docs/DESIGN.md §5 "Status").
    const events = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(ctx.handoffRoot), 'status/*/*.json'));
    const statusChanged = (uri: vscode.Uri) => {
      const id = uri.path.split('/').slice(-2)[0];
      this.stale.add(`handoff:${id}.md`).add(`handoff:${id}.partial.md`);
      this.statusListing = undefined; // a handoff may have its first event: list status/ again
      this.scheduleRefresh();
    };
    events.onDidCreate(statusChanged);
    events.onDidDelete(statusChanged);
    this.watchers.push(events);
    // A verification is an event file too, verifications/<handoff id>/<time>_<random>.json: re-read them all on the next render.
    const verified = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(ctx.handoffRoot), 'verifications/*/*.json'));
    verified.onDidCreate(() => this.scheduleRefresh());
    verified.onDidDelete(() => this.scheduleRefresh());
    this.watchers.push(verified);
  }

  private rewatch(): void {
    this.watchers.forEach((w) => w.dispose());
    this.watchers = [];
    this.watching = false;
    this.info.clear();
    this.stale.clear();
    this.pages = 1;
    this.listedBefore = undefined;
    this.fresh.clear();
    this.refresh();
  }

  /** Roots (chains, one page at a time, then "Show more"), or the hops under an entry. */
  async getChildren(element?: TimelineElement): Promise<TimelineElement[]> {
    if (element) {
      return element.type === 'entry' ? element.node.children.map((n) => this.remember({ type: 'entry', node: n }, element)) : [];
    }
    this.ensureWatchers();
    const folder = currentFolder();
    if (!folder || !this.context()) return [];
    try {
      const opened = await openProject(projectOptions(folder));
      if (!opened.ok) {
        this.log.warn(`timeline: ${errorText(opened.error)}`);
        return [];
      }
      const { project } = opened;
      project.warnings.forEach((w) => this.log.warn(`timeline: ${w}`));
      this.warnAfter.read(folder, this.log);
      this.specialists = new Map(project.registry.all().map((s) => [s.id, s]));
      const listed = await listTimeline(project, [...this.specialists.keys()]);
      this.verifications = await timelineVerifications(project);
      listed.warnings.forEach((w) => this.log.warn(`timeline: ${w}`));
      const listedKeys = new Set(listed.files.map((f) => f.key));
      for (const key of this.stale) {
        if (!listedKeys.has(key)) {
          this.stale.delete(key);
          this.info.delete(key);
        }
      }
      const unread = listed.files.filter((f) => this.unread(f));
      this.statusListing = undefined; // one listing of status/ per timeline read
      if (unread.length > 0 && unread.length <= EAGER_CHAIN_INFO_FILES) {
        const infos = await readTimelineInfos(project, unread, await this.statusOf(project));
        unread.forEach((f, k) => this.learn(f, infos[k]));
      }
      const known = new Map<string, TimelineEntryInfo>();
      for (const [k, v] of this.info) if (v) known.set(k, v);
      const chains = groupChains(listed.files, known, this.order());
      this.elements = new Map();
      const shown = Math.min(chains.length, this.pages * TIMELINE_PAGE_SIZE);
      this.roots = chains.slice(0, shown).map((node) => this.remember({ type: 'entry', node }, undefined));
      this.loadInfoLater(project, listed.files);
      this.announceNew(listedKeys);
      return shown < chains.length ? [...this.roots, { type: 'more', shown, total: chains.length }] : this.roots;
    } catch (err) {
      this.log.warn(`timeline: ${(err as Error).message}`);
      return [];
    }
  }

  /**
   * Notes the keys this render lists that the previous one did not, and announces the
   * newest new entry already placed in its chain (its links read) after this render.
   */
  private announceNew(listedKeys: Set<string>): void {
    if (this.listedBefore) {
      for (const key of listedKeys) if (!this.listedBefore.has(key)) this.fresh.add(key);
    }
    this.listedBefore = listedKeys;
    let newest: TimelineElement | undefined;
    for (const key of [...this.fresh]) {
      if (!listedKeys.has(key)) {
        this.fresh.delete(key);
        continue;
      }
      const element = this.elements.get(key)?.element;
      if (!element || element.type !== 'entry' || !this.info.has(key) || this.stale.has(key)) continue;
      this.fresh.delete(key);
      if (!newest || (newest.type === 'entry' && element.node.file.time > newest.node.file.time)) newest = element;
    }
    // After getChildren has returned: reveal asks the tree again.
    if (newest) {
      const element = newest;
      setTimeout(() => this.added.fire(element), 0);
    }
  }

  /** Whether a file's chain links are still to be read: never read, or changed since. */
  private unread(file: TimelineFile): boolean {
    return !this.info.has(file.key) || this.stale.has(file.key);
  }

  /** Keeps what was read of a file (null: nothing readable) and clears its stale mark. */
  private learn(file: TimelineFile, info: TimelineEntryInfo | undefined): void {
    this.info.set(file.key, info ?? null);
    this.stale.delete(file.key);
  }

  private remember(element: TimelineElement, parent: TimelineElement | undefined): TimelineElement {
    if (element.type === 'entry') {
      this.elements.set(element.node.file.key, { element, parent });
      for (const child of element.node.children) this.remember({ type: 'entry', node: child }, element);
    }
    return element;
  }

  getParent(element: TimelineElement): TimelineElement | undefined {
    return element.type === 'entry' ? this.elements.get(element.node.file.key)?.parent : undefined;
  }

  /** The listing of status/ of this timeline read, taken on first use ({@link readTimelineInfos} of every batch shares it). */
  private statusOf(where: TimelineLocation): Promise<TimelineStatusListing> {
    return (this.statusListing ??= listTimelineStatus(where));
  }

  /** Reads the chain links of files not read yet, newest first, in batches (one status/ listing for all); regroups after each batch. */
  private loadInfoLater(where: TimelineLocation, files: readonly TimelineFile[]): void {
    const missing = files.filter((f) => this.unread(f)).sort((a, b) => b.time - a.time);
    if (!missing.length || this.loading) return;
    const generation = ++this.generation;
    this.loading = (async () => {
      let regrouped = Date.now();
      for (let i = 0; i < missing.length; i += CHAIN_INFO_BATCH) {
        const batch = missing.slice(i, i + CHAIN_INFO_BATCH);
        const infos = await readTimelineInfos(where, batch, await this.statusOf(where));
        if (generation !== this.generation) return;
        batch.forEach((f, k) => this.learn(f, infos[k]));
        // Regroup at most once a second while reading, and once at the end.
        if (Date.now() - regrouped >= REGROUP_INTERVAL_MS || i + CHAIN_INFO_BATCH >= missing.length || batch.some((f) => this.fresh.has(f.key))) {
          regrouped = Date.now();
          this.changed.fire(undefined);
        }
      }
    })().finally(() => {
      this.loading = undefined;
    });
  }

  /**
   * One row: the topic as its label, status words first in its description, then the
   * specialist, relative time and source (./timelineItem.ts); the specialist's icon. No
   * tooltip: resolveTreeItem supplies it on hover.
   */
  getTreeItem(element: TimelineElement): vscode.TreeItem {
    if (element.type === 'more') {
      const item = new vscode.TreeItem(
        `Show more (${formatCount(element.shown)} of ${formatCount(element.total)} chains shown)`,
        vscode.TreeItemCollapsibleState.None,
      );
      item.id = 'timeline:more';
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: 'handoff.timeline.showMore', title: 'Show More' };
      return item;
    }
    const { file, children } = element.node;
    const info = this.info.get(file.key) ?? undefined;
    const s = this.specialists.get(file.specialist);
    const verification = this.verificationOf(file);
    const waiting = this.waitingOf(element.node);
    const text = timelineRowText({
      specialist: s?.label ?? file.specialist,
      kind: info?.kind,
      topic: info?.topic ?? file.topic,
      status: file.partial ? 'partial' : info ? (STATUS_LABELS[info.status as keyof typeof STATUS_LABELS] ?? info.status) : undefined,
      waiting: waitingWord(waiting),
      verdict: verdictWord(verification),
      time: file.time,
      source: file.source,
    });
    const item = new vscode.TreeItem(text.label, children.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    item.id = file.key;
    item.description = text.description;
    item.accessibilityInformation = { label: text.accessibility };
    // Precedence (./waitingMark.ts): partial, contradicted, waiting, verified, the specialist's icon.
    const contradicted = verification && rowVerdict(verification.counts) === 'contradicted';
    item.iconPath =
      (file.partial ? undefined : contradicted ? verdictIcon(verification) : waiting ? waitingIcon() : verdictIcon(verification)) ??
      new vscode.ThemeIcon(file.partial ? 'warning' : info?.kind === 'result' ? resultIcon(info.status) : (s?.icon ?? 'person'));
    item.resourceUri = vscode.Uri.file(file.path);
    item.contextValue = ['timelineEntry', file.source, file.partial ? 'partial' : 'whole', info?.kind ?? 'unknown'].join('.');
    item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(file.path)] };
    return item;
  }

  /** The tooltip, read when hovered: status, summary, tokens, files, chain. */
  async resolveTreeItem(item: vscode.TreeItem, element: TimelineElement): Promise<vscode.TreeItem> {
    if (element.type !== 'entry') return item;
    const { file } = element.node;
    const head = file.source === 'handoff' ? await readHandoffHead(file.path) : undefined;
    item.tooltip = timelineTooltip(file, head, this.specialists.get(file.specialist), this.verificationOf(file), (md, esc) =>
      appendWaiting(md, this.waitingOf(element.node), this.warnAfter.ms, esc),
    );
    return item;
  }

  /** Whether an entry waits too long for a pick-up or an answer, now. */
  private waitingOf(node: TimelineNode): ReturnType<typeof nodeWaiting> {
    return nodeWaiting(node, (key) => this.info.get(key) ?? undefined, Date.now(), this.warnAfter.ms);
  }

  /** The latest verification of one of our handoffs (its id is its file name without `.partial` and `.md`). */
  private verificationOf(file: TimelineFile): VerificationShown | undefined {
    return file.source === 'handoff' ? this.verifications.get(file.name.replace(/(\.partial)?\.md$/, '')) : undefined;
  }
}
