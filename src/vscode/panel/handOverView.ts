/**
 * The "Hand over" webview view: the panel where the user picks the specialist, edits
 * the draft (topic, summary, decisions, failed approaches, next steps, blockers, return
 * condition, reason), reviews the evidence (each item can be left out), watches the token
 * meter, previews the handoff and hands over.
 *
 * The host holds the model: the draft (re-sent on every resolve, so hiding or moving the
 * view loses nothing; the webview's own state covers a window reload), the evidence
 * (collected in the background with progress, refreshable) and the estimate (recomputed,
 * debounced, as the draft changes — token counting runs here, not in the webview).
 *
 * Security: CSP `default-src 'none'`, the script by nonce from crypto.randomBytes,
 * styles and fonts only from the webview's cspSource, localResourceRoots only the built
 * webview folder and media/; every message from the webview is validated with zod and
 * invalid ones are logged and ignored.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { draftToRequest, emptyDraft, newerDraft, parseSavedDraft, testKey, type Draft } from '../../core/panel/draft';
import type { GitEvidence } from '../../core/handoff/gitEvidence';
import { HostToWebviewSchema, parseWebviewMessage, type EvidenceView, type HostToWebview, type PanelState, type SpecialistView, type WebviewToHost } from '../../core/panel/protocol';
import { renderHandoff } from '../../core/handoff/render';
import { handoffId } from '../../core/handoff/naming';
import type { HandoffFrontmatter } from '../../core/handoff/schema';
import { loadRegistry } from '../../engine/project';
import { collectEvidenceFor, latestHandoff, prepareHandover, previewFit, readSessionLog, writeHandover, type HandoverEnvironment } from '../../engine/handover';
import type { SessionLogEvidence } from '../../evidence/session/collectSessionLog';
import { resolveHandoffRoot } from '../../store/pathGuard';
import { Commands, Views } from '../constants';
import type { SessionHooks } from '../endSession/endSession';
import { showHandoffSummary } from '../handoffSummary';
import { DisposableOwner } from '../lifecycle';
import { currentFolder, readSettings } from '../workspace/settings';
import { folderEnvironment } from '../workspace/environment';

/** Supplies the panel state on demand (folder open, trusted, number of handoffs). */
export type PanelStateSource = () => Promise<PanelState>;

/** Debounce of estimate recomputation after a draft change, in milliseconds. */
export const ESTIMATE_DEBOUNCE_MS = 150;
/** URI scheme of the read-only handoff preview documents. */
export const PREVIEW_SCHEME = 'handoff-preview';

/** Read-only documents holding rendered previews. */
class PreviewDocuments implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(uri: vscode.Uri, text: string): void {
    this.docs.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.changed.dispose();
  }
}

interface EvidenceCache {
  readonly git: GitEvidence;
  readonly session: SessionLogEvidence | undefined;
  readonly latest: (HandoffFrontmatter & { readonly file_ref: string }) | undefined;
}

/** WebviewViewProvider of the "Hand over" view. */
export class HandOverViewProvider extends DisposableOwner implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private queue: HostToWebview[] = [];
  private draft: Draft = emptyDraft();
  private revision = 0;
  private resolvedOnce = false;
  private evidence: Promise<EvidenceCache> | undefined;
  private evidenceReady: EvidenceCache | undefined;
  private estimateTimer: NodeJS.Timeout | undefined;
  private estimateSeq = 0;
  private readonly previews = this.register(new PreviewDocuments());

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    private readonly state: PanelStateSource,
    private readonly session: SessionHooks,
    private readonly onWritten: () => void,
    /** `performance.now()` at activate() entry: the first resolve logs how long after it came (the bench reads it). */
    private readonly activatedAt?: number,
  ) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, this.previews));
    this.register({ dispose: () => this.estimateTimer && clearTimeout(this.estimateTimer) });
  }

  /** Called by VS Code when the view becomes visible the first time (or after being disposed). */
  resolveWebviewView(view: vscode.WebviewView, context: vscode.WebviewViewResolveContext<unknown>): void {
    if (this.activatedAt !== undefined && !this.resolvedOnce) {
      this.log.info(`first "Hand over" view resolved ${(performance.now() - this.activatedAt).toFixed(1)} ms after activate() entry`);
    }
    this.resolvedOnce = true;
    this.view = view;
    this.ready = false;
    this.queue = [];
    // A window reload loses the host's memory but not the webview's state: take the draft from there.
    const restored = parseSavedDraft(context.state);
    if (restored) {
      ({ draft: this.draft, revision: this.revision } = newerDraft(restored, { draft: this.draft, revision: this.revision }));
    }
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [webviewRoot, media] };
    view.webview.html = this.html(view.webview, webviewRoot, media);
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

  /** Starts over from the host's model (trust granted, folder changed): init, evidence, estimate. */
  async reload(): Promise<void> {
    this.evidence = undefined;
    this.evidenceReady = undefined;
    if (this.view && this.ready) {
      await this.onReady();
    }
  }

  /** Sends the current state to the webview. */
  async pushState(): Promise<void> {
    this.post({ type: 'state', state: await this.state() });
  }

  /** Evidence is stale (files changed, a handoff was written): collect it again if the view is open. */
  invalidateEvidence(): void {
    this.evidence = undefined;
    this.evidenceReady = undefined;
    if (this.view && this.ready) {
      void this.loadEvidence();
    }
  }

  private post(message: HostToWebview): void {
    const checked = HostToWebviewSchema.safeParse(message);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      this.log.error(`panel: refusing to post an invalid ${message.type} message (${issue?.path.join('.')}: ${issue?.message})`);
      // The panel must not wait forever for what will not come: say so where it waits.
      if (message.type === 'evidence') {
        this.post({ type: 'evidence', status: 'error', evidence: null, message: `The evidence could not be shown (${issue?.path.join('.') ?? 'a value'} is out of range). Details are in the "Specialist Handoff" output.` });
      } else if (message.type !== 'banner') {
        this.post({ type: 'banner', kind: 'error', message: `Something could not be shown in the panel (${message.type}). Details are in the "Specialist Handoff" output.` });
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
          this.draft = msg.draft;
          this.revision = msg.revision;
          this.scheduleEstimate();
          break;
        case 'refreshEvidence':
          this.evidence = undefined;
          await this.loadEvidence();
          break;
        case 'runCommand':
          await this.runCommand(msg.command);
          break;
        case 'request':
          this.draft = msg.draft;
          this.revision = msg.revision;
          if (msg.method === 'preview') {
            await this.preview(msg.id);
          } else {
            await this.handOver(msg.id);
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
    const state = await this.state();
    const folder = currentFolder();
    const settings = readSettings(folder);
    let specialists: SpecialistView[] = [];
    if (folder) {
      const root = resolveHandoffRoot(folder.uri.fsPath, settings.directory);
      if (root.ok) {
        const { registry, warnings } = await loadRegistry(root.path, folder.uri.fsPath);
        warnings.forEach((w) => this.log.warn(w));
        specialists = registry.all().map((s) => ({
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
      draft: this.draft,
      revision: this.revision,
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
      await this.loadEvidence();
      this.scheduleEstimate();
    }
  }

  private async environment(): Promise<{ env: HandoverEnvironment; folder: vscode.WorkspaceFolder } | undefined> {
    const folder = currentFolder();
    if (!folder || !vscode.workspace.isTrusted) {
      return undefined;
    }
    const settings = readSettings(folder);
    return {
      folder,
      env: await folderEnvironment(folder, settings, this.session),
    };
  }

  /** Collects git and session-log evidence in the background, with progress in the view. */
  private loadEvidence(): Promise<EvidenceCache | undefined> {
    if (this.evidence) {
      return this.evidence;
    }
    const started = this.environment().then(async (ctx) => {
      if (!ctx) {
        throw new Error('no trusted folder');
      }
      this.post({ type: 'evidence', status: 'loading', evidence: null });
      const [git, session, latest] = await vscode.window.withProgress({ location: { viewId: Views.handOver }, title: 'Collecting evidence' }, () =>
        Promise.all([collectEvidenceFor(ctx.env), readSessionLog(ctx.env).then((r) => r?.evidence), latestHandoff(ctx.env)]),
      );
      const cache: EvidenceCache = { git, session, latest };
      this.evidenceReady = cache;
      this.post({ type: 'evidence', status: 'ready', evidence: evidenceView(cache) });
      return cache;
    });
    this.evidence = started;
    return started.catch((err) => {
      if ((err as Error).message !== 'no trusted folder') {
        this.log.error(`panel: evidence: ${(err as Error)?.stack ?? String(err)}`);
        this.post({ type: 'evidence', status: 'error', evidence: null, message: `Collecting the evidence failed: ${(err as Error)?.message ?? String(err)}. Details are in the "Specialist Handoff" output.` });
      }
      this.evidence = undefined;
      return undefined;
    });
  }

  private scheduleEstimate(): void {
    if (this.estimateTimer) {
      clearTimeout(this.estimateTimer);
    }
    this.estimateTimer = setTimeout(() => void this.estimate(), ESTIMATE_DEBOUNCE_MS);
  }

  /** Builds the engine environment for the current draft: evidence minus what the user left out. */
  private async draftEnvironment(): Promise<{ env: HandoverEnvironment; request: Record<string, unknown> } | undefined> {
    const ctx = await this.environment();
    const cache = this.evidenceReady ?? (await this.loadEvidence());
    if (!ctx || !cache) {
      return undefined;
    }
    const settings = readSettings(ctx.folder);
    const d = this.draft;
    const files = new Set(d.excluded.files);
    const commits = new Set(d.excluded.commits);
    const tests = new Set(d.excluded.tests);
    const turns = new Set(d.excluded.turns);
    const git: GitEvidence = {
      ...cache.git,
      touchedFiles: cache.git.touchedFiles.filter((f) => !files.has(f.path)),
      commits: cache.git.commits.filter((c) => !commits.has(c.sha)),
    };
    const session: SessionLogEvidence | undefined = cache.session && {
      ...cache.session,
      tests_run: cache.session.tests_run.filter((t) => !tests.has(testKey(t))),
      recent_turns: cache.session.recent_turns.filter((_, i) => !turns.has(i)),
    };
    return {
      env: { ...ctx.env, evidence: git, sessionEvidence: session ?? emptySession() },
      request: draftToRequest(d, settings, cache.latest?.file_ref),
    };
  }

  private async estimate(): Promise<void> {
    const seq = ++this.estimateSeq;
    const built = await this.draftEnvironment();
    if (!built || seq !== this.estimateSeq) {
      return;
    }
    const settings = readSettings(currentFolder());
    // Estimate as if confirmed, so the meter and the guard's warning show together.
    const prepared = await prepareHandover({ ...built.request, specialist: (built.request.specialist as string) || 'hacker', topic: (built.request.topic as string) || 'untitled', hop_guard_confirmed: true }, built.env);
    if (seq !== this.estimateSeq) {
      return;
    }
    const problem = !this.draft.specialist ? 'Pick a specialist.' : !this.draft.topic.trim() ? 'Type a topic.' : null;
    if (prepared.status === 'error') {
      this.post({ type: 'estimate', tokens: 0, budget: settings.maxContextTokens, estimated: false, over: false, cuts: [], fitted_tokens: null, hop: 1, hop_guard: null, problem: prepared.message.replace(/^ERROR: /, '') });
      return;
    }
    const pkg = prepared.prepared.pkg;
    const fit = pkg.oversize_warning ? previewFit(prepared.prepared) : undefined;
    this.post({
      type: 'estimate',
      tokens: pkg.estimated_tokens,
      budget: pkg.max_context_tokens,
      estimated: pkg.tokens_estimated,
      over: pkg.oversize_warning,
      cuts: fit?.pkg.dropped ?? [],
      fitted_tokens: fit ? fit.pkg.estimated_tokens : null,
      hop: pkg.hop,
      hop_guard: pkg.hop_guard ? { ...pkg.hop_guard, confirmed: this.draft.hop_guard_confirmed } : null,
      problem,
    });
  }

  private async preview(id: number): Promise<void> {
    const built = await this.draftEnvironment();
    if (!built) {
      this.post({ type: 'response', id, ok: false, message: 'Open a trusted folder first.' });
      return;
    }
    const prepared = await prepareHandover({ ...built.request, hop_guard_confirmed: true }, built.env);
    if (prepared.status === 'error') {
      this.post({ type: 'response', id, ok: false, message: panelWording(prepared.message) });
      return;
    }
    const p = prepared.prepared;
    const pkg = this.draft.fit && p.pkg.oversize_warning ? previewFit(p).pkg : p.pkg;
    const now = new Date();
    const meta = { id: handoffId(now, p.specialist.id), created: now.toISOString(), status: 'pending' as const, briefingFile: null, historyFile: null };
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/Preview of handoff to ${p.specialist.label}.md` });
    this.previews.set(uri, renderHandoff(pkg, meta, p.specialist));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true });
    this.post({ type: 'response', id, ok: true });
  }

  private async handOver(id: number): Promise<void> {
    // The files are written from the worktree as it is now, not as it was when the panel opened.
    this.evidence = undefined;
    this.evidenceReady = undefined;
    await this.loadEvidence();
    const built = await this.draftEnvironment();
    if (!built) {
      this.post({ type: 'response', id, ok: false, message: 'Open a trusted folder first.' });
      return;
    }
    const prepared = await prepareHandover(built.request, built.env);
    if (prepared.status === 'error') {
      this.post({ type: 'response', id, ok: false, message: panelWording(prepared.message) });
      return;
    }
    const result = await vscode.window.withProgress({ location: { viewId: Views.handOver }, title: 'Writing the handoff' }, () => writeHandover(prepared.prepared));
    if (result.status === 'error') {
      this.log.error(result.message);
      // The draft stays: the user fixes the cause and hands over again.
      this.post({ type: 'response', id, ok: false, message: panelWording(result.message) });
      this.post({ type: 'banner', kind: 'error', message: `${result.message.replace(/^ERROR: /, '')} — your draft is kept; fix the cause and hand over again.` });
      return;
    }
    this.log.info(`handoff written from the panel: ${result.handoff_file}`);
    result.warnings.forEach((w) => this.log.warn(w));
    await this.session.ended();
    this.draft = emptyDraft();
    this.revision += 1;
    this.post({ type: 'response', id, ok: true });
    this.post({
      type: 'handedOver',
      persona_marker: result.persona_marker,
      handoff_file: vscode.workspace.asRelativePath(result.handoff_file),
      tokens: result.package.estimated_tokens,
      budget: result.package.max_context_tokens,
      revision: this.revision,
    });
    this.onWritten();
    this.invalidateEvidence();
    void showHandoffSummary(result, true);
  }

  private async runCommand(command: string): Promise<void> {
    switch (command) {
      case 'endSession':
        await vscode.commands.executeCommand(Commands.endSession);
        break;
      case 'manageTrust':
        await vscode.commands.executeCommand('workbench.trust.manage');
        break;
      case 'openFolder':
        await vscode.commands.executeCommand('workbench.action.files.openFolder');
        break;
      case 'openSettings':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'handoff.');
        break;
      case 'openHandoffFolder':
        await vscode.commands.executeCommand(Commands.openHandoffFolder);
        break;
      case 'initRepository':
        // VS Code's built-in Git extension; the evidence is collected again afterwards.
        await vscode.commands.executeCommand('git.init');
        this.invalidateEvidence();
        break;
      case 'copyPrompt':
        await vscode.commands.executeCommand(Commands.copyPrompt);
        break;
      case 'openInChat':
        await vscode.commands.executeCommand(Commands.openInChat);
        break;
      case 'openGitSettings':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'git.path');
        break;
    }
  }

  private html(webview: vscode.Webview, webviewRoot: vscode.Uri, media: vscode.Uri): string {
    const nonce = randomBytes(16).toString('base64');
    const csp = [`default-src 'none'`, `style-src ${webview.cspSource}`, `font-src ${webview.cspSource}`, `img-src ${webview.cspSource} data:`, `script-src 'nonce-${nonce}'`].join('; ');
    const asset = (base: vscode.Uri, file: string) => webview.asWebviewUri(vscode.Uri.joinPath(base, file));
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset(webviewRoot, 'codicon.css')}">
<link rel="stylesheet" href="${asset(media, 'panel.css')}">
<title>Hand over</title>
</head>
<body>
<main id="app" aria-busy="true"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${asset(webviewRoot, 'main.js')}"></script>
</body>
</html>`;
  }
}

/** Rewrites engine wording (request field names) into what the panel shows. */
function panelWording(message: string): string {
  return message
    .replace(/\(hop_guard_confirmed\)/g, '(tick "Hand over anyway")')
    .replace(/\bmax_context_tokens\b/g, 'handoff.maxContextTokens')
    .replace(/\binclude_recent_turns\b/g, 'handoff.includeRecentTurns');
}

function emptySession(): SessionLogEvidence {
  return { tests_run: [], recent_turns: [], file_edits: [], transcripts: [], notes: [], next_state: { version: 1, files: {} } };
}

/** The evidence as the panel lists it. */
function evidenceView(cache: EvidenceCache): EvidenceView {
  return {
    touched_files: [...cache.git.touchedFiles],
    touched_files_omitted: cache.git.touchedFilesOmitted,
    tests_run: cache.session?.tests_run ?? [],
    commits: [...cache.git.commits],
    recent_turns: cache.session?.recent_turns ?? [],
    branch: cache.git.branch,
    head_commit: cache.git.headCommit,
    notes: [...cache.git.notes, ...(cache.session?.notes ?? [])],
    git_problem: cache.git.problem,
    latest: cache.latest ? { id: cache.latest.id, specialist: cache.latest.specialist, hop: cache.latest.hop, chain: [...cache.latest.chain] } : null,
  };
}
