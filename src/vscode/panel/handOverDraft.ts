/**
 * The host side of the "Hand over" panel's draft: the draft and its revision, the
 * evidence (collected in the background with progress in the view, refreshable, reused
 * while the user types), the estimate (recomputed, debounced, as the draft changes —
 * token counting runs here, not in the webview), the preview and the hand-over itself.
 * The view (handOverView.ts) passes messages in and posts what this says.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { budgetTokens, draftToRequest, emptyDraft, newerDraft, type Draft, type RevisedDraft } from '../../core/panel/draft';
import { draftedFields, prefill } from '../../core/panel/prefill';
import type { HostToWebview } from '../../core/panel/protocol';
import { errorText } from '../../core/handoff/errors';
import { collectDraftEvidence, draftEnvironment, evidenceView, previewHandoff, sessionDraft, type DraftEvidence } from '../../engine/draft/draftSession';
import { prepareHandover, previewFit, writeHandover, type HandoverEnvironment } from '../../engine/handover/handover';
import { Views } from '../constants';
import { askOverBudget } from '../endSession/confirm';
import { showHandoffSummary } from '../endSession/summaryDialog';
import { currentFolder, readSettings } from '../workspace/settings';
import { folderEnvironment, type SessionHooks } from '../workspace/environment';
import { trustedFolder } from '../workspace/trust';
import { panelErrorText } from './panelWording';
import type { PanelModelDrafter } from './modelDraftPort';
import type { PreviewDocuments } from './previewDocuments';

/** Debounce of estimate recomputation after a draft change, in milliseconds. */
export const ESTIMATE_DEBOUNCE_MS = 150;

/**
 * What an estimate assumes of a draft not yet complete: a specialist and a topic (the mandate's
 * size is close for every specialist), and the hop guard confirmed, so the meter and the
 * guard's warning show together.
 */
const ESTIMATE_STAND_INS = (request: Record<string, unknown>) => ({
  specialist: (request.specialist as string) || 'hacker',
  topic: (request.topic as string) || 'untitled',
  hop_guard_confirmed: true,
});

/** Thrown inside the evidence step when there is no trusted folder: the panel shows its state, not an error. */
const NO_TRUSTED_FOLDER = 'no trusted folder';

/** What the draft needs of the view and the extension. */
export interface DraftHostDeps {
  readonly log: vscode.LogOutputChannel;
  readonly session: SessionHooks;
  /** Called after a handoff was written (refreshes the timeline). */
  readonly onWritten: () => void;
  /** Posts a message to the webview (queued until it is ready). */
  readonly post: (message: HostToWebview) => void;
  /** Whether the view is open and its script ready (evidence is collected only then). */
  readonly isShown: () => boolean;
  /** Where previews are shown. */
  readonly previews: PreviewDocuments;
  /** "Draft with …" (src/vscode/lm); absent, the action says it is not available. */
  readonly modelDrafter?: PanelModelDrafter;
}

/** After collecting the evidence: send the session's draft (`initial`), send it as asked for (`redraft`), or not (`none`: a hand-over reads git afresh). */
type DraftAfter = 'initial' | 'redraft' | 'none';

/** The draft, its evidence and estimate, and the preview and hand-over requests of the panel. */
export class HandOverDraft implements vscode.Disposable {
  /**
   * The draft, created on first use: `emptyDraft()` is the first run of the draft's zod
   * schema, which compiles it (slow in the extension host) — not at activation.
   */
  private held: Draft | undefined;
  private get current(): Draft {
    return (this.held ??= emptyDraft());
  }
  private set current(draft: Draft) {
    this.held = draft;
  }
  private rev = 0;
  /**
   * Whether collected evidence is drafted on its own: until a handoff is written from this
   * window (the fresh draft then stays empty — it would repeat what was just handed over —
   * until the user asks with Redraft, or the window reloads).
   */
  private autoDraft = true;
  private evidence: Promise<DraftEvidence> | undefined;
  private evidenceReady: DraftEvidence | undefined;
  private estimateTimer: NodeJS.Timeout | undefined;
  private estimateSeq = 0;
  /** The handoffs written from this panel, by id: the files the banner's actions may act on. */
  private readonly written = new Map<string, string>();

  constructor(private readonly deps: DraftHostDeps) {}

  /** The draft as the host holds it. */
  get draft(): Draft {
    return this.current;
  }

  /** Its revision (raised by the webview on every edit, and here when the draft is cleared). */
  get revision(): number {
    return this.rev;
  }

  /** Takes the draft the webview kept over a window reload, when it is newer than the host's. */
  restore(saved: RevisedDraft | undefined): void {
    if (saved) {
      ({ draft: this.current, revision: this.rev } = newerDraft(saved, { draft: this.current, revision: this.rev }));
    }
  }

  /** The webview's draft changed (an edit, or the draft sent with a request). */
  update(draft: Draft, revision: number): void {
    this.current = draft;
    this.rev = revision;
  }

  /** The file of the handoff `id` this panel wrote, or undefined (not one of its own). */
  writtenFile(id: string): string | undefined {
    return this.written.get(id);
  }

  /** Forgets the evidence (trust granted, folder changed): the next load collects it again. */
  forgetEvidence(): void {
    this.evidence = undefined;
    this.evidenceReady = undefined;
  }

  /**
   * Evidence is stale (files changed, a handoff was written): collect it again if the view
   * is open, and estimate again from it — the meter always counts the draft with the
   * evidence shown (after a handoff: the new empty draft, never a bare 0).
   */
  invalidateEvidence(): void {
    this.forgetEvidence();
    if (this.deps.isShown()) {
      void this.loadEvidence().then(() => this.scheduleEstimate());
    }
  }

  /**
   * The view's webview (re)started: posts the evidence collected already — a webview created
   * again (VS Code 1.99 re-creates it when the collapsed view is expanded) starts with none and
   * would show "No evidence yet" — then collects it when there is none.
   */
  async showEvidence(): Promise<void> {
    if (this.evidence && this.evidenceReady) this.deps.post({ type: 'evidence', status: 'ready', evidence: evidenceView(this.evidenceReady) });
    await this.loadEvidence();
  }

  /** "Refresh" in the view: collects the evidence again (the last one stays in use until the new one is there). */
  refreshEvidence(): Promise<DraftEvidence | undefined> {
    this.evidence = undefined;
    return this.loadEvidence('none');
  }

  /**
   * "Redraft": collects the evidence again and sends the session's draft from it,
   * marked as asked for (the webview re-fills the fields not edited and says so). Writes nothing.
   */
  async redraft(): Promise<void> {
    this.autoDraft = true;
    this.evidence = undefined;
    await this.loadEvidence('redraft');
    this.scheduleEstimate();
  }

  /** What "Draft with …" may say before any click (no model request: the drafter only looks models up). */
  async describeModelDraft(): Promise<void> {
    if (!this.deps.modelDrafter) return;
    try {
      this.deps.post({ type: 'modelDraft', ...(await this.deps.modelDrafter.describe()) });
    } catch (err) {
      this.deps.log.warn(`panel: the language-model drafter could not say whether a model is available: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  /** The user clicked "Draft with …": the drafter asks the model with the evidence collected afresh; without one, the panel says why not. */
  async draftWithModel(): Promise<void> {
    const drafter = this.deps.modelDrafter;
    if (!drafter) {
      this.deps.post({
        type: 'modelDraft',
        state: 'unavailable',
        message: 'Drafting with a language model is not available in this editor: the fields are drafted from the session alone (Redraft).',
      });
      return;
    }
    this.evidence = undefined;
    const evidence = await this.loadEvidence('none');
    if (!evidence) return;
    await drafter.start(evidence, (m) => this.deps.post({ type: 'modelDraft', ...m }));
  }

  /** The user cancelled the language-model draft. */
  cancelModelDraft(): void {
    this.deps.modelDrafter?.cancel();
  }

  /**
   * The session's draft from `collected`, as its message; a failure is logged and the panel
   * simply stays undrafted (a redraft says so). A draft that would be over its budget as drafted
   * arrives with Fit to budget on, so the panel opens on a handoff that fits, unless the user
   * already chose Fit to Budget or Don't Fit.
   */
  private async draftMessage(collected: DraftEvidence, redraft: boolean): Promise<HostToWebview | undefined> {
    try {
      const settings = readSettings(currentFolder());
      const draft = sessionDraft(collected, settings);
      const fit = !this.current.fit && !this.current.fit_chosen && (await this.overBudgetAsDrafted(collected, prefill(this.current, draft).draft));
      return { type: 'draft', draft, drafted: draftedFields(draft), redraft, fit };
    } catch (err) {
      this.deps.log.error(`panel: drafting from the session failed: ${(err as Error)?.stack ?? String(err)}`);
      return redraft
        ? {
            type: 'banner',
            kind: 'error',
            message: `Drafting from the session failed: ${(err as Error)?.message ?? String(err)}. Details are in the "Specialist Handoff" output.`,
          }
        : undefined;
    }
  }

  /** Whether `form` with `collected` would be written over its budget (unfitted). */
  private async overBudgetAsDrafted(collected: DraftEvidence, form: Draft): Promise<boolean> {
    const ctx = await this.environment();
    if (!ctx) return false;
    const request = draftToRequest(form, readSettings(ctx.folder), collected.latest?.file_ref);
    const prepared = await prepareHandover(
      { ...request, ...ESTIMATE_STAND_INS(request), fit_to_budget: false },
      draftEnvironment(ctx.env, collected, form.excluded),
    );
    return prepared.status === 'prepared' && prepared.prepared.pkg.oversize_warning;
  }

  /** The folder's engine environment; undefined without a trusted folder. */
  private async environment(): Promise<{ env: HandoverEnvironment; folder: vscode.WorkspaceFolder } | undefined> {
    const folder = await trustedFolder();
    if (!folder) {
      return undefined;
    }
    const settings = readSettings(folder);
    return {
      folder,
      env: await folderEnvironment(folder, this.deps.session, { settings }),
    };
  }

  /**
   * Collects git and session-log evidence in the background, with progress in the view; then
   * (`after`, default `initial`) sends the session's draft from it. Reused while it lasts.
   */
  loadEvidence(after: DraftAfter = 'initial'): Promise<DraftEvidence | undefined> {
    if (this.evidence) {
      return this.evidence;
    }
    const started = this.environment().then(async (ctx) => {
      if (!ctx) {
        throw new Error(NO_TRUSTED_FOLDER);
      }
      this.deps.post({ type: 'evidence', status: 'loading', evidence: null });
      // The evidence and its draft arrive together: the panel says it is drafting until then.
      const drafts = after === 'redraft' || (after === 'initial' && this.autoDraft);
      const { collected, message } = await vscode.window.withProgress({ location: { viewId: Views.handOver }, title: 'Collecting evidence' }, async () => {
        const evidence = await collectDraftEvidence(ctx.env);
        return { collected: evidence, message: drafts ? await this.draftMessage(evidence, after === 'redraft') : undefined };
      });
      this.evidenceReady = collected;
      this.deps.post({ type: 'evidence', status: 'ready', evidence: evidenceView(collected) });
      if (message) this.deps.post(message);
      return collected;
    });
    this.evidence = started;
    return started.catch((err) => {
      if ((err as Error).message !== NO_TRUSTED_FOLDER) {
        this.deps.log.error(`panel: evidence: ${(err as Error)?.stack ?? String(err)}`);
        this.deps.post({
          type: 'evidence',
          status: 'error',
          evidence: null,
          message: `Collecting the evidence failed: ${(err as Error)?.message ?? String(err)}. Details are in the "Specialist Handoff" output.`,
        });
      }
      this.evidence = undefined;
      return undefined;
    });
  }

  /** Recomputes the estimate after {@link ESTIMATE_DEBOUNCE_MS} without a further change. */
  scheduleEstimate(): void {
    if (this.estimateTimer) {
      clearTimeout(this.estimateTimer);
    }
    this.estimateTimer = setTimeout(() => void this.estimate(), ESTIMATE_DEBOUNCE_MS);
  }

  /** Builds the engine environment for the current draft: evidence minus what the user left out. */
  private async draftEnvironment(): Promise<{ env: HandoverEnvironment; request: Record<string, unknown> } | undefined> {
    const ctx = await this.environment();
    const collected = this.evidenceReady ?? (await this.loadEvidence());
    if (!ctx || !collected) {
      return undefined;
    }
    const settings = readSettings(ctx.folder);
    return {
      env: draftEnvironment(ctx.env, collected, this.current.excluded),
      request: draftToRequest(this.current, settings, collected.latest?.file_ref),
    };
  }

  private async estimate(): Promise<void> {
    const seq = ++this.estimateSeq;
    const built = await this.draftEnvironment();
    if (!built || seq !== this.estimateSeq) {
      return;
    }
    const settings = readSettings(currentFolder());
    const prepared = await prepareHandover({ ...built.request, ...ESTIMATE_STAND_INS(built.request) }, built.env);
    if (seq !== this.estimateSeq) {
      return;
    }
    const d = this.current;
    if (prepared.status === 'error') {
      this.deps.post({
        type: 'estimate',
        tokens: 0,
        budget: budgetTokens(d.budget, settings.maxContextTokens),
        estimated: false,
        over: false,
        cuts: [],
        fitted_tokens: null,
        hop: 1,
        hop_guard: null,
        problem: errorText(prepared),
      });
      return;
    }
    const pkg = prepared.prepared.pkg;
    const fit = pkg.oversize_warning ? previewFit(prepared.prepared) : undefined;
    this.deps.post({
      type: 'estimate',
      tokens: pkg.estimated_tokens,
      budget: pkg.max_context_tokens,
      estimated: pkg.tokens_estimated,
      over: pkg.oversize_warning,
      cuts: fit?.pkg.dropped ?? [],
      fitted_tokens: fit ? fit.pkg.estimated_tokens : null,
      hop: pkg.hop,
      hop_guard: pkg.hop_guard ? { ...pkg.hop_guard, confirmed: d.hop_guard_confirmed } : null,
      // A missing specialist or topic is not the meter's to say: the form shows the empty field, and Hand Over says what is missing.
      problem: null,
      left_out: pkg.left_out,
    });
  }

  /** Shows the handoff the draft would write, in a read-only preview editor; answers request `id`. */
  async preview(id: number): Promise<void> {
    const built = await this.draftEnvironment();
    if (!built) {
      this.deps.post({ type: 'response', id, ok: false, message: 'Open a trusted folder first.' });
      return;
    }
    const prepared = await prepareHandover({ ...built.request, hop_guard_confirmed: true }, built.env);
    if (prepared.status === 'error') {
      this.deps.post({ type: 'response', id, ok: false, message: panelErrorText(prepared) });
      return;
    }
    const p = prepared.prepared;
    await this.deps.previews.show(p.specialist.label, previewHandoff(p, this.current.fit));
    this.deps.post({ type: 'response', id, ok: true });
  }

  /** Writes the handoff from the worktree as it is now; answers request `id`, then clears the draft. */
  async handOver(id: number): Promise<void> {
    // The files are written from the worktree as it is now, not as it was when the panel opened.
    this.forgetEvidence();
    await this.loadEvidence('none');
    const built = await this.draftEnvironment();
    if (!built) {
      this.deps.post({ type: 'response', id, ok: false, message: 'Open a trusted folder first.' });
      return;
    }
    const prepared = await prepareHandover(built.request, built.env);
    if (prepared.status === 'error') {
      this.deps.post({ type: 'response', id, ok: false, message: panelErrorText(prepared) });
      return;
    }
    // Over budget, the panel asks as the end-of-session command does, unless "Fit to budget" already said so.
    let fit = this.current.fit;
    if (prepared.prepared.pkg.oversize_warning && !fit) {
      const choice = await askOverBudget(prepared.prepared, 'Hand Over');
      if (!choice) {
        this.deps.post({ type: 'response', id, ok: true });
        this.deps.post({
          type: 'banner',
          kind: 'info',
          message: 'Not handed over: the draft is over the budget. Fit it, shorten it, or hand over without fitting.',
        });
        return;
      }
      fit = choice === 'fit';
    }
    const result = await vscode.window.withProgress({ location: { viewId: Views.handOver }, title: 'Writing the handoff' }, () =>
      writeHandover(prepared.prepared, { fit }),
    );
    if (result.status === 'error') {
      this.deps.log.error(result.message);
      // The draft stays: the user fixes the cause and hands over again.
      this.deps.post({ type: 'response', id, ok: false, message: panelErrorText(result) });
      this.deps.post({ type: 'banner', kind: 'error', message: `${errorText(result)} — your draft is kept; fix the cause and hand over again.` });
      return;
    }
    this.deps.log.info(`handoff written from the panel: ${result.handoff_file}`);
    this.written.set(result.package.id, result.handoff_file);
    result.warnings.forEach((w) => this.deps.log.warn(w));
    await this.deps.session.ended();
    // A new draft; the budget chosen stays, as a setting would.
    this.current = { ...emptyDraft(), budget: this.current.budget };
    this.rev += 1;
    this.deps.post({ type: 'response', id, ok: true });
    // Handoffs live in <root>/handoffs/: the root, when inside the workspace, is what the banner asks to commit.
    const root = vscode.workspace.asRelativePath(path.dirname(path.dirname(result.handoff_file)), false);
    this.deps.post({
      type: 'handedOver',
      handoff_root: path.isAbsolute(root) ? undefined : root,
      persona_marker: result.persona_marker,
      handoff_id: result.package.id,
      handoff_file: vscode.workspace.asRelativePath(result.handoff_file),
      tokens: result.package.estimated_tokens,
      budget: result.package.max_context_tokens,
      revision: this.rev,
    });
    this.deps.onWritten();
    this.autoDraft = false;
    this.invalidateEvidence();
    void showHandoffSummary(result, true);
  }

  /** Stops a pending estimate. */
  dispose(): void {
    if (this.estimateTimer) clearTimeout(this.estimateTimer);
  }
}
