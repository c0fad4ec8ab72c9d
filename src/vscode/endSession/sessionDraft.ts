/**
 * The end-of-session command's draft: the same session draft as the panel's
 * (src/engine/draft/draftSession.ts `sessionDraft`), waited for before the summary step, prefilling the
 * summary, decisions, next steps and blockers; the drafted list items offered with their
 * sources to untick; which fields are still as drafted when the user confirms; and the loss
 * report of the confirmation step.
 */
import * as vscode from 'vscode';
import type { Draft as SessionDraft } from '../../core/handoff/draftFields';
import { describeSource, emptySessionDraft } from '../../core/panel/prefill';
import { localTime } from '../timeline/timelineItem';
import { formatCount } from '../../core/handoff/render';
import type { EndSessionModelDrafter } from '../panel/modelDraftPort';
import type { DraftEvidence } from '../../engine/draft/draftSession';
import { BACK, type StepFrame, type StepResult } from './quickInput';

/** How long the summary step waits silently for the draft before it shows a cancellable progress, in ms. */
const QUIET_WAIT_MS = 150;

/**
 * Waits for the session draft: silently for {@link QUIET_WAIT_MS}, then with a cancellable
 * notification. Resolves to undefined when cancelled or when drafting failed (the steps then
 * start empty).
 */
export async function awaitDraft(draft: Promise<SessionDraft | undefined>): Promise<SessionDraft | undefined> {
  const quick = await Promise.race([draft, new Promise<'pending'>((r) => setTimeout(() => r('pending'), QUIET_WAIT_MS))]);
  if (quick !== 'pending') return quick;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Handoff: drafting from the session…', cancellable: true },
    (_p, token) => Promise.race([draft, new Promise<undefined>((r) => token.onCancellationRequested(() => r(undefined)))]),
  );
}

interface KeptItem extends vscode.QuickPickItem {
  readonly index: number;
}

/**
 * The drafted items of a list, all ticked, each with its source: the user unticks what to
 * leave out and accepts. Resolves to the kept items, {@link BACK}, or undefined (Escape).
 */
export function pickDrafted(f: StepFrame, noun: string, items: readonly string[], sources: readonly string[]): Promise<StepResult<string[]>> {
  const pick = vscode.window.createQuickPick<KeptItem>();
  pick.title = f.title;
  pick.step = f.step;
  pick.totalSteps = f.totalSteps;
  pick.ignoreFocusOut = true;
  pick.canSelectMany = true;
  pick.buttons = [vscode.QuickInputButtons.Back];
  pick.placeholder = `Drafted ${noun}s from the session: untick what to leave out, then Enter (you can add more next)`;
  pick.items = items.map((label, index) => ({ label, index, detail: sources[index] ? `Drafted from ${sources[index]}` : 'Drafted from the session' }));
  pick.selectedItems = pick.items;
  return new Promise((resolve) => {
    let settled = false;
    const done = (v: StepResult<string[]>) => {
      if (settled) return;
      settled = true;
      resolve(v);
      pick.dispose();
    };
    pick.onDidTriggerButton((b) => b === vscode.QuickInputButtons.Back && done(BACK));
    pick.onDidHide(() => done(undefined));
    pick.onDidAccept(() => done([...pick.selectedItems].sort((a, b) => a.index - b.index).map((i) => i.label)));
    pick.show();
  });
}

/** The sources of a drafted list's items, in one line each. */
export function draftSources(d: SessionDraft, f: 'decisions' | 'next_steps' | 'blockers'): string[] {
  return d[f].map((i) => describeSource(i.source, localTime));
}

/**
 * "Draft with …" in the end-of-session command: asks the language model once
 * (cancellable from the progress notification) and resolves to `current` with the model's
 * summary, decisions, failed approaches and next steps, its token cost shown and logged; or
 * undefined, with a warning saying why, when it was cancelled, refused or had no model.
 */
export async function draftWithModelOnce(
  drafter: EndSessionModelDrafter,
  evidence: DraftEvidence,
  model: string,
  log: vscode.LogOutputChannel,
  current?: SessionDraft,
): Promise<SessionDraft | undefined> {
  // The drafter shows its own cancellable progress notification (src/vscode/lm/modelDrafter.ts).
  const r = await drafter.draft(evidence);
  if (r?.status !== 'ok' || !('fields' in r)) {
    const why =
      r && 'message' in r && r.message ? r.message : r ? `The draft with ${model} was ${r.status}.` : 'No language model is available in this editor.';
    void vscode.window.showWarningMessage(`${why} The fields keep the session's draft.`);
    return undefined;
  }
  log.info(`end session: drafted with ${model} (${r.input_tokens} tokens sent, ${r.output_tokens} received)`);
  void vscode.window.showInformationMessage(
    `Drafted by ${model}: ${formatCount(r.input_tokens)} tokens sent, ${formatCount(r.output_tokens)} received. Review the fields: nothing is written until you confirm.`,
  );
  return { ...(current ?? emptySessionDraft()), ...r.fields };
}
