/**
 * The "Hand over" webview view. The host holds the draft (handOverDraft.ts) and re-sends it on
 * every resolve, so hiding or moving the view loses nothing. Messages from the webview are
 * validated (invalid ones logged and ignored); messages to it are checked before posting.
 */
import * as vscode from 'vscode';
import { parseSavedDraft } from '../../core/panel/draft';
import {
  HostToWebviewSchema,
  parseWebviewMessage,
  type HostToWebview,
  type PanelState,
  type SpecialistView,
  type WebviewToHost,
} from '../../core/panel/protocol';
import { Commands } from '../constants';
import type { SessionHooks } from '../workspace/environment';
import { folderSpecialists } from '../workspace/environment';
import { DisposableOwner } from '../lifecycle';
import { currentFolder, readSettings } from '../workspace/settings';
import { HandOverDraft } from './handOverDraft';
import type { PanelModelDrafter } from './modelDraftPort';
import { runPanelCommand } from './panelCommands';
import { panelHtml } from './panelHtml';
import { PREVIEW_SCHEME, PreviewDocuments } from './previewDocuments';

/** Folder open, trusted, number of handoffs. */
export type PanelStateSource = () => Promise<PanelState>;

export class HandOverViewProvider extends DisposableOwner implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private queue: HostToWebview[] = [];
  private resolvedOnce = false;
  /** The webview's saved state, read into the model once the webview is ready. */
  private savedState: unknown;
  private readonly previews = this.register(new PreviewDocuments());
  private readonly model: HandOverDraft;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    private readonly state: PanelStateSource,
    session: SessionHooks,
    onWritten: () => void,
    /** `performance.now()` at activate(): the first resolve logs the time since. */
    private readonly activatedAt?: number,
    /** Called only on the user's click. */
    modelDrafter?: PanelModelDrafter,
  ) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, this.previews));
    this.model = this.register(
      new HandOverDraft({
        log,
        session,
        onWritten,
        post: (m) => this.post(m),
        isShown: () => this.view !== undefined && this.ready,
        previews: this.previews,
        modelDrafter,
      }),
    );
  }

  resolveWebviewView(view: vscode.WebviewView, context: vscode.WebviewViewResolveContext<unknown>): void {
    if (this.activatedAt !== undefined && !this.resolvedOnce) {
      this.log.info(`first "Hand over" view resolved ${(performance.now() - this.activatedAt).toFixed(1)} ms after activate() entry`);
    }
    this.resolvedOnce = true;
    this.view = view;
    this.ready = false;
    this.queue = [];
    // A window reload keeps the webview's state but not the host's: the draft is taken from
    // there once the webview is ready, so parsing it does not delay the first paint.
    this.savedState = context.state;
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [webviewRoot, media] };
    view.webview.html = panelHtml(view.webview, webviewRoot, media);
    const subs = [
      view.webview.onDidReceiveMessage((raw: unknown) => void this.onMessage(raw)),
      view.onDidChangeVisibility(() => view.visible && void this.pushState()),
    ];
    view.onDidDispose(() => {
      subs.forEach((d) => d.dispose());
      if (this.view === view) {
        this.view = undefined;
        this.ready = false;
      }
    });
  }

  /** Trust granted or folder changed: init, evidence and estimate again. */
  async reload(): Promise<void> {
    this.model.forgetEvidence();
    if (this.view && this.ready) {
      await this.onReady();
    }
  }

  async pushState(): Promise<void> {
    this.post({ type: 'state', state: await this.state() });
  }

  invalidateEvidence(): void {
    this.model.invalidateEvidence();
  }

  private post(message: HostToWebview): void {
    const checked = HostToWebviewSchema.safeParse(message);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      this.log.error(`panel: refusing to post an invalid ${message.type} message (${issue?.path.join('.')}: ${issue?.message})`);
      // The panel must not wait forever for what will not come: say so where it waits.
      if (message.type === 'evidence') {
        this.post({
          type: 'evidence',
          status: 'error',
          evidence: null,
          message: `The evidence could not be shown (${issue?.path.join('.') ?? 'a value'} is out of range). Details are in the "Specialist Handoff" output.`,
        });
      } else if (message.type !== 'banner') {
        this.post({
          type: 'banner',
          kind: 'error',
          message: `Something could not be shown in the panel (${message.type}). Details are in the "Specialist Handoff" output.`,
        });
      }
      return;
    }
    if (!this.view || !this.ready) {
      this.queue.push(message);
      return;
    }
    void this.view.webview.postMessage(message);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.log.warn(`panel: ignored an invalid message from the Hand over view: ${parsed.error}`);
      return;
    }
    const msg: WebviewToHost = parsed.message;
    try {
      switch (msg.type) {
        case 'ready':
          await this.onReady();
          break;
        case 'draftChanged':
          this.model.update(msg.draft, msg.revision);
          this.model.scheduleEstimate();
          break;
        case 'refreshEvidence':
          await this.model.refreshEvidence();
          break;
        case 'redraft':
          await this.model.redraft();
          break;
        case 'draftWithModel':
          await this.model.draftWithModel();
          break;
        case 'cancelModelDraft':
          this.model.cancelModelDraft();
          break;
        case 'verify':
          // The host asks the user's consent (a modal) before any recorded command re-runs.
          await vscode.commands.executeCommand(Commands.verify, { handoff: msg.handoff });
          break;
        case 'runCommand': {
          // The banner's actions name the handoff they act on: only one this panel wrote.
          const file = msg.handoff === undefined ? undefined : this.model.writtenFile(msg.handoff);
          if (msg.handoff !== undefined && !file) {
            this.log.warn(`panel: ignored ${msg.command} for handoff "${msg.handoff.slice(0, 100)}": not written from this panel`);
            break;
          }
          await runPanelCommand(msg.command, () => this.invalidateEvidence(), file);
          break;
        }
        case 'request':
          this.model.update(msg.draft, msg.revision);
          if (msg.method === 'preview') {
            await this.model.preview(msg.id);
          } else {
            await this.model.handOver(msg.id);
          }
          break;
      }
    } catch (err) {
      this.log.error(`panel: ${(err as Error)?.stack ?? String(err)}`);
      this.post({ type: 'banner', kind: 'error', message: `Something went wrong: ${(err as Error)?.message ?? String(err)}` });
    }
  }

  private async onReady(): Promise<void> {
    this.ready = true;
    const saved = this.savedState;
    this.savedState = undefined;
    this.model.restore(parseSavedDraft(saved));
    const state = await this.state();
    const folder = currentFolder();
    const settings = readSettings(folder);
    let specialists: SpecialistView[] = [];
    if (folder) {
      const project = await folderSpecialists(folder, settings);
      if (project.ok) {
        project.warnings.forEach((w) => this.log.warn(w));
        specialists = project.registry.all().map((s) => ({
          id: s.id,
          label: s.label,
          icon: s.icon,
          mandate: s.mandate,
          persona_marker: s.personaMarker,
          return_condition: s.returnCondition,
          source: s.source,
        }));
      }
    }
    const init: HostToWebview = {
      type: 'init',
      draft: this.model.draft,
      revision: this.model.revision,
      specialists,
      settings: {
        maxContextTokens: settings.maxContextTokens,
        tokenizer: settings.tokenizer,
        maxHandoverDepth: settings.maxHandoverDepth,
        includeRecentTurns: settings.includeRecentTurns,
      },
      state,
    };
    void this.view?.webview.postMessage(init);
    for (const m of this.queue.splice(0)) {
      void this.view?.webview.postMessage(m);
    }
    if (state.hasFolder && state.trusted) {
      void this.model.describeModelDraft();
      await this.model.showEvidence();
      this.model.scheduleEstimate();
    }
  }
}
