/** The end-of-session command's draft: the panel's session draft, prefilling the steps. */
import * as vscode from 'vscode';
import type { SessionDraft } from '../../core/handoff/draftFields';
import { describeSource, emptySessionDraft } from '../../core/panel/prefill';
import { localTime } from '../timeline/timelineItem';
import { formatCount } from '../../core/handoff/limits';
import type { EndSessionModelDrafter } from '../panel/modelDraftPort';
import type { DraftEvidence } from '../../engine/draft/draftSession';
import { BACK, type StepFrame, type StepResult } from './quickInput';

/** Silent wait (ms) for the draft before a cancellable progress shows. */
const QUIET_WAIT_MS = 150;

/** Undefined when cancelled or drafting failed: the steps then start empty. */
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

/** Drafted items, all ticked, with their sources. Resolves to the kept items, {@link BACK}, or undefined (Escape). */
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

export function draftSources(d: SessionDraft, f: 'decisions' | 'next_steps' | 'blockers'): string[] {
  return d[f].map((i) => describeSource(i.source, localTime));
}

/** Asks the model once; undefined, after a warning saying why, when cancelled, refused or without a model. */
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
