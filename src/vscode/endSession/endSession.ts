/**
 * "Handoff: End Session and Hand Over…" without the panel: input steps prefilled from the session's
 * draft, a confirmation, then both files are written; Escape at any step writes nothing. With
 * arguments (`{specialist, topic, …}`) it runs without prompts and returns the result.
 */
import * as vscode from 'vscode';
import { errorText } from '../../core/handoff/errors';
import type { GitEvidence } from '../../core/handoff/gitEvidence';
import { plural } from '../../core/handoff/text';
import { DEFAULT_INCLUDE_RECENT_TURNS } from '../../core/handoff/request';
import type { SessionDraft } from '../../core/handoff/draftFields';
import type { HandoverResult } from '../../core/handoff/schema';
import type { Specialist, SpecialistRegistry, SpecialistSource } from '../../core/specialists/registry';
import { slugifyTopic } from '../../core/handoff/topic';
import { briefingFileName } from '../../core/handoff/naming';
import { mandateHeadline } from '../../core/specialists/headline';
import { collectEvidenceFor, prepareHandover, writeHandover, type JobContext } from '../../engine/handover/handover';
import { collectDraftEvidence, draftEnvironment, sessionDraft } from '../../engine/draft/draftSession';
import { StorageKeys } from '../constants';
import { draftedAnswers, stillDrafted } from '../../core/panel/prefill';
import { awaitDraft, draftSources, draftWithModelOnce, pickDrafted } from './sessionDraft';
import { confirmHandover } from './confirm';
import { showHandoffSummary } from './summaryDialog';
import { DisposableOwner } from '../lifecycle';
import { BACK, DRAFT_WITH_MODEL, askList, askText, LINE_BREAK_MARK, pickOne, type StepFrame } from './quickInput';
import type { EndSessionModelDrafter } from '../panel/modelDraftPort';
import type { DraftEvidence } from '../../engine/draft/draftSession';
import { readSettings, type HandoffSettings } from '../workspace/settings';
import { folderEnvironment, folderSpecialists, type SessionHooks } from '../workspace/environment';
import { trustedFolder, warnRefusal } from '../workspace/trust';

const TITLE = 'End Session and Hand Over';

const REFUSALS = warnRefusal({
  noFolder: 'Open a folder to hand over its work: the handoff is written into the workspace.',
  openFolder: 'Open Folder…',
  untrusted: 'Specialist Handoff runs git and writes files only in trusted workspaces. Trust this workspace to hand over.',
});

/** Registry order: built-in, custom, then other tools' agent folders. */
const SOURCE_GROUPS: Record<SpecialistSource, string> = {
  builtin: 'Built-in specialists',
  custom: 'Custom specialists',
  'github-agent': 'From .github/agents',
  'claude-agent': 'From .claude/agents',
};
const TOTAL_STEPS = 7;

interface SpecialistItem extends vscode.QuickPickItem {
  readonly specialist?: Specialist;
}

interface Answers {
  specialist?: Specialist;
  topic: string;
  summary: string;
  decisions: string[];
  nextSteps: string[];
  blockers: string[];
  failedApproaches: string[];
  /** Undefined: none, or cancelled. */
  draft?: SessionDraft;
  /** Drafted items are offered once per list. */
  reviewed: Set<string>;
}

export class EndSessionCommand extends DisposableOwner {
  private running = false;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly session: SessionHooks,
    private readonly onWritten: () => void,
    private readonly workspaceState: vscode.Memento,
    /** Asked only when the user presses the summary step's button. */
    private readonly modelDrafter?: EndSessionModelDrafter,
  ) {
    super();
  }

  /** With `args` (at least `specialist` and `topic`) there are no prompts. Undefined when cancelled or refused. */
  async run(args?: unknown): Promise<HandoverResult | undefined> {
    if (this.running && args === undefined) {
      void vscode.window.showInformationMessage('A handoff is already being prepared — finish or cancel it first.');
      return undefined;
    }
    const folder = await trustedFolder((refusal) => {
      void REFUSALS(refusal);
      if (refusal === 'untrusted') this.log.info('end session refused: workspace is not trusted (no git process started, nothing written)');
    });
    if (!folder) {
      return undefined;
    }
    const settings = readSettings(folder);
    const abort = new AbortController();
    const env = await folderEnvironment(folder, this.session, { settings, signal: abort.signal });
    const started = Date.now();
    const evidence = collectEvidenceFor(env).then((ev) => {
      this.log.info(
        `git evidence: ${plural(ev.touchedFiles.length + ev.touchedFilesOmitted, 'touched file')}, ${plural(ev.commits.length, 'commit')} in ${Date.now() - started} ms${ev.notes.length ? `; notes: ${ev.notes.join(' | ')}` : ''}`,
      );
      return ev;
    });
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Handoff: collecting git changes' }, () => evidence);
    this.running = args === undefined;
    try {
      if (args !== undefined) {
        return await this.runWithArgs(args, settings, { ...env, evidence });
      }
      return await this.runInteractive(folder, settings, { ...env, evidence }, abort);
    } catch (err) {
      this.log.error(`end session failed: ${(err as Error)?.stack ?? String(err)}`);
      void vscode.window.showErrorMessage(`Handoff failed: ${(err as Error)?.message ?? String(err)}`);
      return undefined;
    } finally {
      this.running = false;
      abort.abort();
    }
  }

  private requestDefaults(settings: HandoffSettings): Record<string, unknown> {
    return {
      max_context_tokens: settings.maxContextTokens,
      include_recent_turns: settings.includeRecentTurns ?? DEFAULT_INCLUDE_RECENT_TURNS,
      tokenizer: settings.tokenizer,
    };
  }

  private async runWithArgs(args: unknown, settings: HandoffSettings, env: JobContext): Promise<HandoverResult> {
    const input = typeof args === 'object' && args !== null ? { ...this.requestDefaults(settings), ...(args as Record<string, unknown>) } : args;
    const prepared = await prepareHandover(input, env);
    if (prepared.status === 'error') {
      this.log.warn(`end session (arguments) refused: ${prepared.message}`);
      void vscode.window.showErrorMessage(prepared.message);
      return { status: 'error', message: prepared.message, field: prepared.field };
    }
    const result = await writeHandover(prepared.prepared);
    await this.afterWrite(result, false);
    return result;
  }

  private async runInteractive(
    folder: vscode.WorkspaceFolder,
    settings: HandoffSettings,
    env: JobContext,
    abort: AbortController,
  ): Promise<HandoverResult | undefined> {
    const project = await folderSpecialists(folder, settings);
    if (!project.ok) {
      const open = 'Open Settings';
      void vscode.window
        .showErrorMessage(project.error.message, open)
        .then((c) => c === open && vscode.commands.executeCommand('workbench.action.openSettings', 'handoff.directory'));
      return undefined;
    }
    const { registry, warnings } = project;
    for (const w of warnings) {
      this.log.warn(w);
    }
    // Git, the session log and the latest handoff, read once: the draft and the handoff use the same.
    const collected = collectDraftEvidence(env);
    const drafted = collected
      .then((c) => sessionDraft(c, settings))
      .catch((err: unknown) => {
        this.log.error(`end session: drafting from the session failed: ${(err as Error)?.stack ?? String(err)}`);
        return undefined;
      });
    const answers = await this.ask(registry, drafted, collected);
    if (!answers?.specialist) {
      this.log.info('end session cancelled before writing; nothing written');
      abort.abort();
      return undefined;
    }
    const request = {
      ...this.requestDefaults(settings),
      specialist: answers.specialist.id,
      topic: answers.topic,
      summary: answers.summary,
      decisions: answers.decisions,
      next_steps: answers.nextSteps,
      blockers: answers.blockers,
      failed_approaches: answers.failedApproaches,
      ...(answers.draft
        ? {
            completed: answers.draft.completed.map((i) => i.text),
            user_requests: answers.draft.user_requests.map((r) => ({ text: r.text, time: r.time, source: r.source })),
            commands_run: answers.draft.commands_run,
            drafted: stillDrafted(answers.draft, answers),
          }
        : {}),
    };
    await this.workspaceState.update(StorageKeys.lastSpecialist, answers.specialist.id);

    const evidence = env.evidence as Promise<GitEvidence>;
    const pending = await Promise.race([collected.then(() => evidence).then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 150))]);
    const withEvidence = async () => draftEnvironment(env, await collected, { files: [], tests: [], commits: [], turns: [] });
    const prepared = pending
      ? await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: 'Handoff: collecting git changes…', cancellable: true },
          async (_p, token) => {
            token.onCancellationRequested(() => abort.abort());
            return prepareHandover(request, await withEvidence());
          },
        )
      : await prepareHandover(request, await withEvidence());
    if (abort.signal.aborted) {
      this.log.info('end session cancelled while collecting; nothing written');
      return undefined;
    }
    if (prepared.status === 'error') {
      void vscode.window.showErrorMessage(prepared.message);
      return { status: 'error', message: prepared.message, field: prepared.field };
    }
    const choice = await confirmHandover(prepared.prepared, answers.draft, { title: TITLE, step: TOTAL_STEPS, totalSteps: TOTAL_STEPS });
    if (!choice) {
      this.log.info('end session cancelled at confirmation; nothing written');
      return undefined;
    }
    for (;;) {
      const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Handoff: writing…' }, () =>
        writeHandover(prepared.prepared, { fit: choice === 'fit' }),
      );
      if (result.status === 'ok') {
        await this.afterWrite(result, true);
        return result;
      }
      this.log.error(result.message);
      const retry = 'Retry';
      const pick = await vscode.window.showErrorMessage(result.message, { modal: true, detail: 'Your answers are kept: fix the cause and retry.' }, retry);
      if (pick !== retry) {
        return result;
      }
    }
  }

  private async ask(registry: SpecialistRegistry, drafted: Promise<SessionDraft | undefined>, collected: Promise<DraftEvidence>): Promise<Answers | undefined> {
    const a: Answers = { topic: '', summary: '', decisions: [], nextSteps: [], blockers: [], failedApproaches: [], reviewed: new Set() };
    let waited = false;
    let model: string | undefined;
    const last = this.workspaceState.get<string>(StorageKeys.lastSpecialist);
    let step = 1;
    while (step <= 6) {
      const f: StepFrame = { title: TITLE, step, totalSteps: TOTAL_STEPS };
      let r: unknown;
      switch (step) {
        case 1:
          r = await this.pickSpecialist(f, registry, a.specialist?.id ?? last);
          if (r && r !== BACK) {
            a.specialist = r as Specialist;
          }
          break;
        case 2:
          r = await askText(
            { ...f, title: `${TITLE}: ${a.specialist?.personaMarker}` },
            {
              prompt: 'Topic: a short phrase naming the work (it becomes part of the briefing file name).',
              placeholder: 'e.g. token auth for the todo API',
              value: a.topic,
              required: 'A topic is required: type a short phrase such as "token auth".',
              validate: (v) => {
                if (!v.trim()) {
                  return undefined;
                }
                const s = slugifyTopic(v);
                if (!s.ok) {
                  return errorText(s);
                }
                return {
                  message: `Briefing file: ${briefingFileName(a.specialist?.id ?? 'x', s.slug, new Date())}`,
                  severity: vscode.InputBoxValidationSeverity.Info,
                };
              },
            },
          );
          if (typeof r === 'string') a.topic = r;
          break;
        case 3:
          if (!waited) {
            // Once: the session's draft fills the fields; going back never refills them.
            waited = true;
            a.draft = await awaitDraft(drafted);
            if (a.draft) Object.assign(a, draftedAnswers(a.draft));
            // What "Draft with …" may say: looking the models up sends no request.
            const described = await this.modelDrafter?.describe().catch(() => undefined);
            model = described?.state === 'available' ? (described.model ?? 'the language model') : undefined;
          }
          r = await askText(f, {
            prompt: `${a.draft && a.summary ? 'Summary: drafted from the session — edit it, or press Enter to keep it.' : 'Summary: what happened in this session (optional).'} ${LINE_BREAK_MARK} marks a line break.`,
            placeholder: 'What was done, what state the work is in',
            value: a.summary,
            multiline: true,
            draftWith: model
              ? `Draft with ${model}… (summary, decisions, failed approaches, next steps; you review them before anything is written)`
              : undefined,
          });
          if (r === DRAFT_WITH_MODEL) {
            await this.draftWithModel(a, await collected, model ?? 'the language model');
            continue;
          }
          if (typeof r === 'string') {
            a.summary = r;
          }
          break;
        case 4:
          r = await this.askDraftedList(f, a, 'decisions', 'decision', 'e.g. Bearer tokens instead of cookie sessions');
          break;
        case 5:
          r = await this.askDraftedList(f, a, 'next_steps', 'next step', 'e.g. Review src/auth.ts for timing-safe comparison');
          break;
        case 6:
          r = await this.askDraftedList(f, a, 'blockers', 'blocker', 'e.g. No token issuer yet');
          break;
      }
      if (r === undefined) {
        return undefined;
      }
      step = r === BACK ? Math.max(1, step - 1) : step + 1;
    }
    return a;
  }

  /** The model's fields replace the session's draft, to review in the steps that follow. */
  private async draftWithModel(a: Answers, evidence: DraftEvidence, model: string): Promise<void> {
    const d = this.modelDrafter && (await draftWithModelOnce(this.modelDrafter, evidence, model, this.log, a.draft));
    if (d) {
      a.draft = d;
      Object.assign(a, draftedAnswers(d), { blockers: a.blockers });
      a.reviewed.clear();
    }
  }

  /** Drafted items first (once, all ticked), then one more at a time. */
  private async askDraftedList(f: StepFrame, a: Answers, field: 'decisions' | 'next_steps' | 'blockers', noun: string, placeholder: string): Promise<unknown> {
    const key = field === 'next_steps' ? 'nextSteps' : field;
    if (a.draft && a[key].length > 0 && !a.reviewed.has(field)) {
      const kept = await pickDrafted(f, noun, a[key], draftSources(a.draft, field));
      if (kept === undefined || kept === BACK) return kept;
      a[key] = kept;
      a.reviewed.add(field);
    }
    return askList(f, noun, a[key], placeholder);
  }

  private async pickSpecialist(f: StepFrame, registry: SpecialistRegistry, lastId: string | undefined): Promise<Specialist | typeof BACK | undefined> {
    const all = registry.all();
    const items: SpecialistItem[] = [];
    let section: string | undefined;
    for (const s of all) {
      const group = SOURCE_GROUPS[s.source];
      if (group !== section) {
        items.push({ label: group, kind: vscode.QuickPickItemKind.Separator });
        section = group;
      }
      // The label names the specialist once (its persona marker and id repeat it); the mandate's
      // head fits the detail line, where a first sentence was cut off.
      items.push({ label: `$(${s.icon}) ${s.label}`, detail: mandateHeadline(s.mandate), specialist: s });
    }
    const active = items.find((i) => i.specialist?.id === lastId);
    const r = await pickOne(f, {
      items,
      placeholder: 'Hand over to which specialist?',
      active,
      matchOnDetail: true,
      accept: (i) => i.specialist !== undefined,
    });
    return r === BACK || r === undefined ? r : r.specialist;
  }

  private async afterWrite(result: HandoverResult, interactive: boolean): Promise<void> {
    if (result.status !== 'ok') {
      this.log.error(result.message);
      return;
    }
    this.log.info(`handoff written: ${result.handoff_file} (${result.package.estimated_tokens}/${result.package.max_context_tokens} tokens)`);
    for (const w of result.warnings) {
      this.log.warn(w);
    }
    await this.session.ended();
    this.onWritten();
    await showHandoffSummary(result, interactive, this.log);
  }
}
