/**
 * The host side of the Hand Over panel's draft: evidence, estimate (token counting runs here,
 * not in the webview), preview and hand-over. The view (handOverView.ts) relays messages.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { budgetTokens, draftToRequest, emptyDraft, newerDraft, type Draft, type RevisedDraft } from '../../core/panel/draft';
import { draftedFields, prefill } from '../../core/panel/prefill';
import type { HostToWebview } from '../../core/panel/protocol';
import { errorText } from '../../core/handoff/errors';
import { collectDraftEvidence, draftEnvironment, evidenceView, previewHandoff, sessionDraft, type DraftEvidence } from '../../engine/draft/draftSession';
import { prepareHandover, previewFit, writeHandover, type JobContext } from '../../engine/handover/handover';
import { Views } from '../constants';
import { askOverBudget } from '../endSession/confirm';
import { showHandoffSummary } from '../endSession/summaryDialog';
import { currentFolder, readSettings } from '../workspace/settings';
import { folderEnvironment, type SessionHooks } from '../workspace/environment';
import { trustedFolder } from '../workspace/trust';
import { panelErrorText } from './panelWording';
import type { PanelModelDrafter } from './modelDraftPort';
import type { PreviewDocuments } from './previewDocuments';

/** Estimate debounce after a draft change (ms). */
export const ESTIMATE_DEBOUNCE_MS = 150;

/** An incomplete draft is estimated with a specialist, a topic and the hop guard confirmed: meter and guard warning show together. */
const ESTIMATE_STAND_INS = (request: Record<string, unknown>) => ({
  specialist: (request.specialist as string) || 'hacker',
  topic: (request.topic as string) || 'untitled',
  hop_guard_confirmed: true,
});

/** Thrown in the evidence step without a trusted folder: the panel shows its state, not an error. */
const NO_TRUSTED_FOLDER = 'no trusted folder';

export interface DraftHostDeps {
  readonly log: vscode.LogOutputChannel;
  readonly session: SessionHooks;
  readonly onWritten: () => void;
  /** Queued until the webview is ready. */
  readonly post: (message: HostToWebview) => void;
  /** Evidence is collected only while the view is open and ready. */
  readonly isShown: () => boolean;
  readonly previews: PreviewDocuments;
  /** Absent: the action says it is not available. */
  readonly modelDrafter?: PanelModelDrafter;
}

/** After collecting evidence: send the session's draft (`initial`), as asked for (`redraft`), or not (`none`). */
type DraftAfter = 'initial' | 'redraft' | 'none';

export class HandOverDraft implements vscode.Disposable {
  /** Created on first use: the first run of the draft's zod schema compiles it, which is slow. */
  private held: Draft | undefined;
  private get current(): Draft {
    return (this.held ??= emptyDraft());
  }
  private set current(draft: Draft) {
    this.held = draft;
  }
  private rev = 0;
  /** False once a handoff is written from this window (a fresh draft would repeat it), until Redraft or a reload. */
  private autoDraft = true;
  private evidence: Promise<DraftEvidence> | undefined;
  private evidenceReady: DraftEvidence | undefined;
  private estimateTimer: NodeJS.Timeout | undefined;
  private estimateSeq = 0;
  /** Handoffs written from this panel, by id: the only files the banner's actions may act on. */
  private readonly written = new Map<string, string>();

  constructor(private readonly deps: DraftHostDeps) {}

  get draft(): Draft {
    return this.current;
  }

  /** Raised by the webview on every edit, and here when the draft is cleared. */
  get revision(): number {
    return this.rev;
  }

  /** Takes the draft the webview kept over a reload, when newer than the host's. */
  restore(saved: RevisedDraft | undefined): void {
    if (saved) {
      ({ draft: this.current, revision: this.rev } = newerDraft(saved, { draft: this.current, revision: this.rev }));
    }
  }

  update(draft: Draft, revision: number): void {
    this.current = draft;
    this.rev = revision;
  }

  writtenFile(id: string): string | undefined {
    return this.written.get(id);
  }

  /** Trust granted or folder changed: the next load collects evidence again. */
  forgetEvidence(): void {
    this.evidence = undefined;
    this.evidenceReady = undefined;
  }

  /** Collects again if the view is open; the meter always counts the draft with the evidence shown. */
  invalidateEvidence(): void {
    this.forgetEvidence();
    if (this.deps.isShown()) {
      void this.loadEvidence().then(() => this.scheduleEstimate());
    }
  }

  /** A re-created webview (VS Code re-creates it on expand) starts with no evidence: post it, or collect it. */
  async showEvidence(): Promise<void> {
    if (this.evidence && this.evidenceReady) this.deps.post({ type: 'evidence', status: 'ready', evidence: evidenceView(this.evidenceReady) });
    await this.loadEvidence();
  }

  /** The last evidence stays in use until the new one is there. */
  refreshEvidence(): Promise<DraftEvidence | undefined> {
    this.evidence = undefined;
    return this.loadEvidence('none');
  }

  /** "Redraft". Writes nothing: the webview re-fills only the fields not edited. */
  async redraft(): Promise<void> {
    this.autoDraft = true;
    this.evidence = undefined;
    await this.loadEvidence('redraft');
    this.scheduleEstimate();
  }

  /** Sends no model request: the drafter only looks models up. */
  async describeModelDraft(): Promise<void> {
    if (!this.deps.modelDrafter) return;
    try {
      this.deps.post({ type: 'modelDraft', ...(await this.deps.modelDrafter.describe()) });
    } catch (err) {
      this.deps.log.warn(`panel: the language-model drafter could not say whether a model is available: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  /** The model gets evidence collected afresh. */
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

  cancelModelDraft(): void {
    this.deps.modelDrafter?.cancel();
  }

  /**
   * A failure is logged and the panel stays undrafted. A draft over budget arrives with Fit to
   * budget on, so the panel opens on a handoff that fits, unless the user already chose.
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

  /** Undefined without a trusted folder. */
  private async environment(): Promise<{ env: JobContext; folder: vscode.WorkspaceFolder } | undefined> {
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

  /** In the background, with progress in the view; reused while it lasts. */
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
      // The draft first: the panel goes from "Drafting" to the drafted fields with nothing in between.
      if (message) this.deps.post(message);
      this.deps.post({ type: 'evidence', status: 'ready', evidence: evidenceView(collected) });
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

  scheduleEstimate(): void {
    if (this.estimateTimer) {
      clearTimeout(this.estimateTimer);
    }
    this.estimateTimer = setTimeout(() => void this.estimate(), ESTIMATE_DEBOUNCE_MS);
  }

  /** The evidence minus what the user left out. */
  private async draftEnvironment(): Promise<{ env: JobContext; request: Record<string, unknown> } | undefined> {
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

  /** Answers request `id`. */
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

  /** Answers request `id`, then clears the draft. */
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

  dispose(): void {
    if (this.estimateTimer) clearTimeout(this.estimateTimer);
  }
}
