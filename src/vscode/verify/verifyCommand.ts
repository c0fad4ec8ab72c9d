/**
 * "Handoff: Verify": a handoff's staleness report, with its recorded test and build commands
 * re-run as tasks only after the user consents in a modal that lists them. Trusted workspaces only.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { errorText } from '../../core/handoff/errors';
import { isHandoffFile, listHandoffs } from '../../engine/handover/handoffFiles';
import { planVerification, verifyHandoff, type VerifyOutcome } from '../../engine/receive/verify';
import { Commands } from '../constants';
import type { TimelineElement, TimelineTreeProvider } from '../timeline/timelineTree';
import { folderEnvironment, folderSpecialists, type SessionHooks } from '../workspace/environment';
import { trustedHandoffRoot, warnRefusal } from '../workspace/trust';
import { consentDetail, isBadNews, progressMessage, VerifyChoices } from './consent';
import { TaskCommandRunner } from './taskRunner';

/** `handoff`: an id, file name, path or `latest`. */
export interface VerifyArgs {
  readonly handoff?: string;
  /** true: re-run without asking (the caller consents); false: verify without running; absent: ask. */
  readonly run?: boolean;
}

const REFUSALS = warnRefusal({
  noFolder: 'Open a folder first: Verify checks a handoff of a workspace folder.',
  untrusted:
    'Verify runs git and re-runs the commands a handoff recorded, so it works only in a trusted workspace. Trust this workspace to verify its handoffs.',
});

export const OPEN_BRIEFING = 'Open Briefing';

function handoffOf(arg: unknown, root: string): { ref?: string; run?: boolean } {
  if (arg instanceof vscode.Uri) return isHandoffFile(root, arg.fsPath) ? { ref: path.basename(arg.fsPath) } : {};
  if (arg && typeof arg === 'object' && (arg as TimelineElement).type === 'entry' && 'node' in arg) {
    const file = (arg as Extract<TimelineElement, { type: 'entry' }>).node.file;
    return file.source === 'handoff' ? { ref: file.name } : {};
  }
  if (arg && typeof arg === 'object') {
    const a = arg as VerifyArgs;
    const ref = typeof a.handoff === 'string' && a.handoff.trim() ? (path.isAbsolute(a.handoff) ? path.basename(a.handoff) : a.handoff.trim()) : undefined;
    return { ...(ref ? { ref } : {}), ...(typeof a.run === 'boolean' ? { run: a.run } : {}) };
  }
  return {};
}

async function pickHandoff(root: string): Promise<string | undefined> {
  const files = (await listHandoffs(root)).reverse().slice(0, 200);
  if (!files.length) {
    void vscode.window.showInformationMessage('There are no handoffs in this workspace to verify yet.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    files.map((f) => ({ label: f.specialist, description: `${new Date(f.time).toISOString()}${f.partial ? ' · partial' : ''}`, detail: f.name })),
    { placeHolder: 'Verify which handoff? Its recorded tests and builds can be re-run after you confirm.', matchOnDescription: true, matchOnDetail: true },
  );
  return pick?.detail;
}

/** The id when the folder's registry has no label for it. */
async function specialistLabel(folder: vscode.WorkspaceFolder, id: string): Promise<string> {
  const project = await folderSpecialists(folder).catch(() => undefined);
  return (project?.ok && project.registry.all().find((s) => s.id === id)?.label) || id;
}

/** Undefined when nothing was verified; an engine error is returned after it was shown. */
export async function runVerify(
  arg: unknown,
  deps: { log: vscode.LogOutputChannel; session: SessionHooks; timeline: TimelineTreeProvider },
): Promise<VerifyOutcome | undefined> {
  const where = await trustedHandoffRoot(REFUSALS);
  if (!where) return undefined;
  const { folder, settings, root } = where;
  const asked = handoffOf(arg, root);
  const ref = asked.ref ?? (await pickHandoff(root));
  if (!ref) return undefined;
  const env = await folderEnvironment(folder, deps.session, { settings });
  const plan = await planVerification({ handoff: ref }, env);
  if (plan.status === 'error') {
    void vscode.window.showErrorMessage(errorText(plan));
    return plan;
  }
  plan.warnings.forEach((w) => deps.log.warn(`verify: ${w}`));
  const name = path.basename(plan.handoff_file);
  let run = asked.run;
  const runnable = plan.rechecks.filter((r) => !r.missing).length;
  if (run === undefined) {
    if (runnable === 0) {
      // Nothing to consent to: no recorded command can run here (those whose folder is gone count unverifiable).
      run = true;
    } else {
      const pick = await vscode.window.showWarningMessage(
        `Verify the handoff to ${await specialistLabel(folder, plan.specialist)} (${name})?`,
        { modal: true, detail: consentDetail(folder.uri.fsPath, plan.rechecks, settings.verifyTimeoutSeconds) },
        VerifyChoices.run(runnable),
        VerifyChoices.withoutRunning,
      );
      if (pick === undefined) return undefined;
      run = pick !== VerifyChoices.withoutRunning;
    }
  }
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Verifying ${name}`, cancellable: true },
    async (progress, token) => {
      const stop = new AbortController();
      const sub = token.onCancellationRequested(() => stop.abort());
      try {
        let last = 0;
        return await verifyHandoff(
          { handoff: plan.handoff_id, run, timeoutMs: settings.verifyTimeoutSeconds * 1000 },
          {
            ...env,
            signal: stop.signal,
            runner: new TaskCommandRunner(folder, deps.log, stop.signal),
            onProgress: (done, total, command) => {
              const increment = total > 0 ? ((done - last) / total) * 100 : 0;
              last = done;
              progress.report({ message: progressMessage(done, total, command), increment });
            },
          },
        );
      } finally {
        sub.dispose();
      }
    },
  );
  if (outcome.status === 'error') {
    void vscode.window.showErrorMessage(errorText(outcome));
    return outcome;
  }
  outcome.warnings.forEach((w) => deps.log.warn(`verify: ${w}`));
  deps.log.info(`verify: ${name}: ${outcome.line} (${outcome.verification_file})`);
  deps.timeline.invalidate(outcome.handoff_file);
  const message = `${name}: ${outcome.line}`;
  const shown = isBadNews(outcome.verification.counts)
    ? vscode.window.showWarningMessage(message, OPEN_BRIEFING)
    : vscode.window.showInformationMessage(message, OPEN_BRIEFING);
  // Not awaited: the notification stays until the user closes it; the command is done.
  void shown.then((pick) => {
    if (pick === OPEN_BRIEFING) void vscode.commands.executeCommand(Commands.timelineOpenBriefing, vscode.Uri.file(outcome.handoff_file));
  });
  return outcome;
}

export function registerVerify(
  context: vscode.ExtensionContext,
  deps: { log: vscode.LogOutputChannel; session: SessionHooks; timeline: TimelineTreeProvider },
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(Commands.verify, async (arg?: unknown) => {
      try {
        return await runVerify(arg, deps);
      } catch (err) {
        deps.log.error(`${Commands.verify}: ${(err as Error)?.stack ?? String(err)}`);
        void vscode.window.showErrorMessage(`Specialist Handoff: ${(err as Error)?.message ?? String(err)}`);
        return undefined;
      }
    }),
  );
}
