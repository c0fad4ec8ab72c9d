/** The end-of-session handoff's last step, before anything is written. */
import * as vscode from 'vscode';
import type { SessionDraft } from '../../core/handoff/draftFields';
import { warningText } from '../../core/handoff/errors';
import { formatCount } from '../../core/handoff/limits';
import type { TouchedFile } from '../../core/handoff/schema';
import { describeCuts, describeLeftOut } from '../../core/handoff/summary';
import { previewFit, type PreparedHandover } from '../../engine/handover/handover';
import { BACK, pickOne, type StepFrame } from './quickInput';

export type Choice = 'write' | 'fit' | 'over';
/** Only rows with a choice can be accepted. */
interface ConfirmItem extends vscode.QuickPickItem {
  readonly choice?: Choice;
}

const FILE_ICONS: Record<string, string> = {
  A: '$(diff-added)',
  D: '$(diff-removed)',
  R: '$(diff-renamed)',
  C: '$(diff-renamed)',
  '?': '$(question)',
  U: '$(warning)',
};
function fileIcon(f: TouchedFile): string {
  return FILE_ICONS[f.status] ?? '$(diff-modified)';
}

function fileDescription(f: TouchedFile): string {
  const counts = f.binary ? 'binary' : f.status === '?' ? 'untracked' : f.added !== null ? `+${f.added} −${f.deleted}` : '';
  return [f.status, counts, f.old_path ? `from ${f.old_path}` : ''].filter(Boolean).join('  ');
}

/** `3,199 / 3,000 tokens`, plus `(estimate)` when long runs were chunked. */
function tokensOf(p: PreparedHandover): string {
  return `${formatCount(p.pkg.estimated_tokens)}${p.pkg.tokens_estimated ? ' (estimate)' : ''} / ${formatCount(p.pkg.max_context_tokens)} tokens`;
}

/** The two over-budget choices, worded the same on every surface. */
function overBudgetItems(p: PreparedHandover): ConfirmItem[] {
  const fit = previewFit(p);
  return [
    {
      label: '$(fold) Fit to budget and hand over',
      description: `${formatCount(fit.pkg.estimated_tokens)} / ${formatCount(p.pkg.max_context_tokens)} tokens${fit.fits ? '' : ' — still over'}`,
      detail: fit.pkg.dropped.length ? `Cuts ${describeCuts(fit.pkg.dropped)}; the cut text is kept in .handoff/history/.` : undefined,
      choice: 'fit',
    },
    { label: '$(warning) Hand over without fitting', description: `${tokensOf(p)} — over budget`, choice: 'over' },
  ];
}

/** The over-budget question asked alone (the panel's Hand Over); undefined on Escape: nothing is written. */
export async function askOverBudget(p: PreparedHandover, title: string): Promise<'fit' | 'over' | undefined> {
  const r = await pickOne<ConfirmItem>(
    { title: `${title}: ${p.specialist.personaMarker} — ${tokensOf(p)}` },
    {
      items: overBudgetItems(p),
      placeholder: `Over the budget by ${formatCount(p.pkg.estimated_tokens - p.pkg.max_context_tokens)} tokens: fit it, or hand over as it is (Escape writes nothing)`,
      accept: (i) => i.choice !== undefined,
    },
  );
  return r === BACK || r === undefined || r.choice === 'write' ? undefined : r.choice;
}

/** Resolves to how to write, or undefined to cancel (Escape writes nothing). */
export async function confirmHandover(p: PreparedHandover, draft: SessionDraft | undefined, frame: StepFrame): Promise<Choice | undefined> {
  const pkg = p.pkg;
  const tokens = tokensOf(p);
  const items: ConfirmItem[] = [];
  if (!pkg.oversize_warning) {
    items.push({ label: `$(check) Hand over to ${p.specialist.label}`, description: tokens, choice: 'write' });
  } else {
    items.push(...overBudgetItems(p));
  }
  // The loss report: what the session log holds that this handoff does not carry.
  const leftOut = draft && describeLeftOut(pkg.left_out);
  if (draft) {
    items.push({ label: 'From the session log', kind: vscode.QuickPickItemKind.Separator });
    items.push({
      label: `$(archive) ${leftOut ? `Not carried: ${leftOut}` : 'Everything the session log holds is carried'}`,
      description: pkg.oversize_warning ? 'fit to budget would cut more (above)' : 'fit to budget cuts nothing',
    });
  }
  const files = pkg.touched_files;
  const total = files.length + pkg.touched_files_omitted;
  items.push({ label: `Touched files (${formatCount(total)})`, kind: vscode.QuickPickItemKind.Separator });
  if (total === 0) {
    items.push({ label: '$(info) No changes against HEAD', description: pkg.evidence_notes[0] ?? '' });
  }
  for (const f of files.slice(0, 200)) {
    items.push({ label: `${fileIcon(f)} ${f.path}`, description: fileDescription(f) });
  }
  if (total > 200) {
    items.push({ label: `… and ${formatCount(total - 200)} more` });
  }
  if (pkg.evidence_notes.length || p.warnings.length) {
    items.push({ label: 'Notes', kind: vscode.QuickPickItemKind.Separator });
    for (const n of new Set([...pkg.evidence_notes, ...p.warnings.map(warningText)])) {
      items.push({ label: `$(warning) ${n}` });
    }
  }
  const r = await pickOne<ConfirmItem>(
    { ...frame, title: `${frame.title}: ${p.specialist.personaMarker} — ${tokens}` },
    { items, placeholder: `Check the touched files and the token estimate, then hand over (Escape writes nothing)`, accept: (i) => i.choice !== undefined },
  );
  return r === BACK || r === undefined ? undefined : r.choice;
}
