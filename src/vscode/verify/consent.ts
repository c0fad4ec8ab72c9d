/** The words of "Handoff: Verify"; the dialogs are in verifyCommand.ts. */
import path from 'node:path';
import { shownCommand } from '../../core/receive/shownCommand';
import type { RecheckCounts } from '../../core/receive/verification';

/** One recorded command as the confirmation lists it (the engine's `PlannedRecheck`). */
export interface ListedRecheck {
  readonly kind: 'test' | 'build';
  readonly command: string;
  /** Absolute. */
  readonly cwd: string;
  readonly recorded: { readonly result: 'ok' | 'failed' | 'unknown'; readonly exit_code: number | null };
  /** Why it cannot run; absent when it can. */
  readonly missing?: string;
}

export const VerifyChoices = {
  run: (n: number) => (n === 1 ? 'Run 1 Command' : `Run ${n} Commands`),
  withoutRunning: 'Verify Without Running',
} as const;

/** "the workspace folder", relative inside it, absolute outside. */
export function shownFolder(workspaceRoot: string, cwd: string): string {
  const rel = path.relative(workspaceRoot, cwd);
  if (!rel) return 'the workspace folder';
  return shownCommand(rel.startsWith('..') || path.isAbsolute(rel) ? cwd : rel.split(path.sep).join('/'));
}

/** "passed at handoff (exit code 0)", "failed at handoff (exit code 2)", "outcome unknown at handoff". */
export function recordedOutcome(r: ListedRecheck['recorded'], kind: ListedRecheck['kind']): string {
  const code = r.exit_code === null ? '' : ` (exit code ${r.exit_code})`;
  if (r.result === 'ok') return `${kind === 'test' ? 'passed' : 'succeeded'} at handoff${code}`;
  if (r.result === 'failed') return `failed at handoff${code}`;
  return `outcome unknown at handoff${code}`;
}

/** @param timeoutSeconds `handoff.verify.timeoutSeconds` */
export function consentDetail(workspaceRoot: string, rechecks: readonly ListedRecheck[], timeoutSeconds: number): string {
  const runnable = rechecks.filter((r) => !r.missing);
  const missing = rechecks.filter((r) => r.missing);
  const line = (r: ListedRecheck) =>
    `• ${shownCommand(r.command)} — ${r.kind}, in ${shownFolder(workspaceRoot, r.cwd)}; ${recordedOutcome(r.recorded, r.kind)}`;
  const intro =
    runnable.length === 1
      ? "Verify re-runs this recorded command as a VS Code task, in the folder it ran in, with your shell, and compares its outcome with the handoff's:"
      : `Verify re-runs these ${runnable.length} recorded commands as VS Code tasks, one after the other, each in the folder it ran in, with your shell, and compares each outcome with the handoff's:`;
  const out = [intro, '', ...runnable.map(line)];
  if (missing.length) out.push('', 'Cannot run (counted unverifiable):', ...missing.map((r) => `• ${shownCommand(r.command)} — ${r.missing}`));
  out.push(
    '',
    `Each command is stopped after ${timeoutSeconds.toLocaleString('en-US')} seconds (setting handoff.verify.timeoutSeconds).`,
    `"${VerifyChoices.withoutRunning}" runs nothing: it reports what changed since the handoff and counts the commands not run.`,
  );
  return out.join('\n');
}

/** The progress notification's message while a command runs: "npm test (1 of 2)". */
export function progressMessage(done: number, total: number, command: string): string {
  return total > 0 && done < total ? `${shownCommand(command)} (${done + 1} of ${total})` : shownCommand(command);
}

/** Bad news shows as a warning, not as information. */
export function isBadNews(counts: RecheckCounts): boolean {
  return counts.contradicted > 0;
}
