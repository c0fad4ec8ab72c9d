/**
 * "Handoff: Show Insights": the engine's figures of the workspace's handoffs, posted to a
 * webview as they are, each message checked against the zod protocol.
 */
import * as vscode from 'vscode';
import { errorText } from '../../core/handoff/errors';
import {
  InsightsToWebviewSchema,
  parseInsightsMessage,
  PERIOD_DAYS,
  type InsightsPeriod,
  type InsightsShow,
  type InsightsSpecialist,
  type InsightsToHost,
} from '../../core/panel/insightsProtocol';
import { CHAT_AVATAR, Views } from '../constants';
import { DisposableOwner } from '../lifecycle';
import { MANAGE_TRUST_COMMAND, OPEN_FOLDER_COMMAND, workspaceTrusted } from '../workspace/trust';
import { currentFolder } from '../workspace/settings';
import { insightsHtml } from './insightsHtml';
import { readFolderInsights } from './folderInsights';

export const INSIGHTS_TITLE = 'Handoff Insights';

const DAY_MS = 24 * 60 * 60 * 1000;

export class InsightsPanel extends DisposableOwner {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private period: InsightsPeriod = 'all';
  /** Counts the reads: a slower, older read never overwrites a newer one. */
  private generation = 0;
  /** The page shows this period's figures: a refresh keeps them until the new ones arrive. */
  private shown = false;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.register({ dispose: () => this.panel?.dispose() });
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  show(): void {
    if (this.panel) {
      this.panel.reveal(undefined, false);
      return;
    }
    const panel = vscode.window.createWebviewPanel(Views.insights, INSIGHTS_TITLE, vscode.ViewColumn.Active, this.options());
    this.adopt(panel);
  }

  /**
   * Adopts the panel VS Code restores after a reload (the page keeps its own period). With a
   * panel already open, the restored one is closed: there is at most one.
   */
  restore(panel: vscode.WebviewPanel): void {
    if (this.panel) {
      panel.dispose();
      return;
    }
    panel.webview.options = this.options();
    this.adopt(panel);
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
  }

  private adopt(panel: vscode.WebviewPanel): void {
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    panel.iconPath = { light: vscode.Uri.joinPath(this.extensionUri, CHAT_AVATAR.light), dark: vscode.Uri.joinPath(this.extensionUri, CHAT_AVATAR.dark) };
    this.panel = panel;
    this.ready = false;
    this.shown = false;
    // Hidden, the webview's page is dropped; shown again it loads anew and says `ready`.
    panel.webview.html = insightsHtml(panel.webview, webviewRoot, media);
    const sub = panel.webview.onDidReceiveMessage((raw: unknown) => void this.onMessage(raw));
    panel.onDidDispose(() => {
      sub.dispose();
      if (this.panel === panel) {
        this.panel = undefined;
        this.ready = false;
      }
    });
  }

  /** Re-reads and shows the figures, when the panel is open and its page ready. */
  refresh(): void {
    if (this.panel && this.ready) void this.update();
  }

  private async onMessage(raw: unknown): Promise<void> {
    const parsed = parseInsightsMessage(raw);
    if (!parsed.ok) {
      this.log.warn(`insights: ignored an invalid message from the Handoff Insights view: ${parsed.error}`);
      return;
    }
    const msg: InsightsToHost = parsed.message;
    try {
      switch (msg.type) {
        case 'ready':
          this.ready = true;
          this.shown = false;
          await this.update();
          break;
        case 'setPeriod':
          if (msg.period !== this.period) {
            this.period = msg.period;
            this.shown = false;
          }
          await this.update();
          break;
        case 'runCommand':
          await this.runCommand(msg.command);
          break;
      }
    } catch (err) {
      this.log.error(`insights: ${(err as Error)?.stack ?? String(err)}`);
      this.post({
        type: 'show',
        status: 'error',
        period: this.period,
        insights: null,
        specialists: [],
        pending_warn_after: '',
        message: `Something went wrong: ${(err as Error)?.message ?? String(err)}`,
      });
    }
  }

  private async runCommand(command: Extract<InsightsToHost, { type: 'runCommand' }>['command']): Promise<void> {
    switch (command) {
      case 'openFolder':
        await vscode.commands.executeCommand(OPEN_FOLDER_COMMAND);
        break;
      case 'manageTrust':
        await vscode.commands.executeCommand(MANAGE_TRUST_COMMAND);
        break;
      case 'showTimeline':
        await vscode.commands.executeCommand(`${Views.timeline}.focus`);
        break;
      case 'openSettings':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'handoff.pendingWarnAfter');
        break;
    }
  }

  private async update(): Promise<void> {
    const generation = ++this.generation;
    const period = this.period;
    const base = { type: 'show' as const, period, insights: null, specialists: [] as InsightsSpecialist[], pending_warn_after: '' };
    const folder = currentFolder();
    if (!folder) return this.post({ ...base, status: 'no-folder' });
    if (!workspaceTrusted()) return this.post({ ...base, status: 'untrusted' });
    if (!this.shown) this.post({ ...base, status: 'loading' });
    const now = new Date();
    const since = period === 'all' ? undefined : new Date(now.getTime() - PERIOD_DAYS[period] * DAY_MS);
    const read = await readFolderInsights(folder, { now, since });
    if (generation !== this.generation) return;
    if (!read.ok) {
      this.log.warn(`insights: ${errorText(read.error)}`);
      return this.post({ ...base, status: 'error', message: errorText(read.error) });
    }
    read.warnings.forEach((w) => this.log.warn(`insights: ${w}`));
    this.shown = true;
    this.post({ ...base, status: 'ready', insights: read.insights, specialists: read.specialists, pending_warn_after: read.pendingWarnAfter });
  }

  private post(message: InsightsShow): void {
    const checked = InsightsToWebviewSchema.safeParse(message);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      this.log.error(`insights: refusing to post an invalid ${message.status} message (${issue?.path.join('.')}: ${issue?.message})`);
      if (message.status !== 'error') {
        this.post({
          type: 'show',
          status: 'error',
          period: message.period,
          insights: null,
          specialists: [],
          pending_warn_after: '',
          message: 'The insights could not be shown (a figure is out of range). Details are in the "Specialist Handoff" output.',
        });
      }
      return;
    }
    void this.panel?.webview.postMessage(checked.data);
  }
}
