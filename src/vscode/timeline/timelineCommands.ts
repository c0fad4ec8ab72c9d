/** Timeline and receiving-side commands; each refuses in an untrusted workspace, saying so. */
import path from 'node:path';
import * as vscode from 'vscode';
import { errorText } from '../../core/handoff/errors';
import { acceptanceCriteria } from '../../core/receive/handBack';
import { RESULT_ICONS } from '../../core/receive/handBackPolicy';
import { STATUS_LABELS, type SettableStatus } from '../../core/handoff/status';
import type { JobContext } from '../../engine/handover/handover';
import { briefingOf, isHandoffFile, listHandoffs, markPartial, openHandoffs, readHandoffHead, setHandoffStatus } from '../../engine/handover/handoffFiles';
import { buildPrompt } from '../../engine/receive/prompt';
import { recordResult } from '../../engine/receive/recordResult';
import { Commands, Views } from '../constants';
import { DisposableOwner } from '../lifecycle';
import { folderEnvironment, type SessionHooks } from '../workspace/environment';
import { trustedHandoffRoot, warnRefusal } from '../workspace/trust';
import { BRIEFING_SCHEME, BriefingDocuments } from './briefingView';
import { offerPickUp } from './pickUp';
import type { TimelineElement, TimelineTreeProvider } from './timelineTree';

/** A timeline element, a URI, or nothing (the active editor's file). */
type Target = TimelineElement | vscode.Uri | undefined;

const REFUSALS = warnRefusal({
  noFolder: 'Open a folder first: handoffs live in a workspace folder.',
  untrusted: 'Specialist Handoff works only in trusted workspaces: it runs git and writes files. Trust this workspace to continue.',
});

export class TimelineCommands extends DisposableOwner {
  private readonly briefings = this.register(new BriefingDocuments());
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly session: SessionHooks,
    private readonly timeline: TimelineTreeProvider,
    private readonly treeView: vscode.TreeView<TimelineElement>,
  ) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(BRIEFING_SCHEME, this.briefings));
    const reg = (id: string, run: (arg?: unknown) => unknown) =>
      this.register(
        vscode.commands.registerCommand(id, async (arg?: unknown) => {
          try {
            return await run(arg);
          } catch (err) {
            this.log.error(`${id}: ${(err as Error)?.stack ?? String(err)}`);
            void vscode.window.showErrorMessage(`Specialist Handoff: ${(err as Error)?.message ?? String(err)}`);
            return undefined;
          }
        }),
      );
    reg(Commands.timelineShowMore, () => this.timeline.showMore());
    reg(Commands.timelineOpenBriefing, (a) => this.openBriefing(a as Target));
    reg(Commands.timelineReveal, (a) => this.reveal(a as Target));
    reg(Commands.timelineSetStatus, (a) => this.setStatus(a as Target));
    reg(Commands.timelineMarkPartial, (a) => this.markPartial(a as Target));
    reg(Commands.timelineDelete, (a) => this.delete(a as Target));
    reg(Commands.copyPrompt, (a) => this.prompt(a as Target, 'copy'));
    reg(Commands.openInChat, (a) => this.prompt(a as Target, 'chat'));
    reg(Commands.recordResult, (a) => this.recordResult(a));
  }

  /** Undefined, after telling the user, without a trusted folder or a valid root. */
  private async environment(): Promise<{ env: JobContext; root: string } | undefined> {
    const where = await trustedHandoffRoot(REFUSALS);
    if (!where) return undefined;
    const { folder, settings, root } = where;
    return {
      root,
      env: await folderEnvironment(folder, this.session, { settings }),
    };
  }

  private fileOf(target: Target): { path: string; source: string } | undefined {
    if (target instanceof vscode.Uri) return { path: target.fsPath, source: 'handoff' };
    if (target && target.type === 'entry') return { path: target.node.file.path, source: target.node.file.source };
    const active = vscode.window.activeTextEditor?.document.uri;
    return active?.scheme === 'file' ? { path: active.fsPath, source: 'handoff' } : undefined;
  }

  private async pickHandoff(root: string, placeHolder: string): Promise<string | undefined> {
    const files = (await listHandoffs(root)).reverse().slice(0, 200);
    if (!files.length) {
      void vscode.window.showInformationMessage('There are no handoffs in this workspace yet.');
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      files.map((f) => ({
        label: f.specialist,
        description: `${new Date(f.time).toISOString()}${f.partial ? ' · partial' : ''}`,
        detail: f.name,
        file: f.path,
      })),
      { placeHolder, matchOnDescription: true, matchOnDetail: true },
    );
    return pick?.file;
  }

  private async ourHandoff(target: Target, placeHolder: string): Promise<{ file: string; root: string; env: JobContext } | undefined> {
    const ctx = await this.environment();
    if (!ctx) return undefined;
    const from = this.fileOf(target);
    const file = from && isHandoffFile(ctx.root, from.path) ? from.path : await this.pickHandoff(ctx.root, placeHolder);
    return file ? { file, root: ctx.root, env: ctx.env } : undefined;
  }

  private async openBriefing(target: Target): Promise<void> {
    const f = this.fileOf(target);
    if (f?.source === 'agent-zero') {
      // Agent Zero's files are briefings themselves.
      const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(f.path));
      await this.briefings.show(path.basename(f.path, '.md'), new TextDecoder().decode(bytes));
      return;
    }
    const ctx = await this.ourHandoff(target, 'Open the briefing of which handoff?');
    if (!ctx) return;
    const { head, briefing, text } = await briefingOf(ctx.root, ctx.file);
    if (!briefing) {
      void vscode.window.showInformationMessage(
        `${path.basename(ctx.file)} has no briefing file${head?.frontmatter.kind === 'result' ? ' (results are not appended to briefings)' : ''}.`,
      );
      return;
    }
    // A briefing folder holds one file per section: shown together, in name order, read-only beside what is open.
    if (text === undefined) {
      void vscode.window.showErrorMessage(`The briefing of ${path.basename(ctx.file)} cannot be read: ${vscode.workspace.asRelativePath(briefing)}.`);
      return;
    }
    await this.briefings.show(path.basename(briefing, '.md'), text);
  }

  private async reveal(target: Target): Promise<void> {
    const f = this.fileOf(target);
    if (f) await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(f.path));
  }

  private async setStatus(target: Target): Promise<void> {
    const ctx = await this.ourHandoff(target, 'Set the status of which handoff?');
    if (!ctx) return;
    const head = await readHandoffHead(ctx.file);
    const choices: Array<{ label: string; status: SettableStatus }> = [
      { label: `$(pass) ${STATUS_LABELS.complete}`, status: 'complete' },
      { label: `$(sync) ${STATUS_LABELS.in_progress}`, status: 'in_progress' },
      { label: `$(circle-slash) ${STATUS_LABELS.blocked}`, status: 'blocked' },
    ];
    const options = choices.map((o) => ({ ...o, description: head?.frontmatter.status === o.status ? 'current' : undefined }));
    const pick = await vscode.window.showQuickPick(options, {
      placeHolder: `Status of ${path.basename(ctx.file)} (now ${head ? STATUS_LABELS[head.frontmatter.status] : 'unknown'}); the previous one is kept in its history`,
    });
    if (!pick) return;
    const r = await setHandoffStatus(ctx.file, pick.status, { at: new Date().toISOString(), session_id: this.session.sessionId() });
    if (!r.ok) {
      void vscode.window.showErrorMessage(errorText(r));
      return;
    }
    this.timeline.invalidate(ctx.file);
    void vscode.window.showInformationMessage(
      r.change
        ? `${path.basename(ctx.file)}: ${STATUS_LABELS[r.change.from]} → ${STATUS_LABELS[r.change.to]}`
        : `${path.basename(ctx.file)} already was ${STATUS_LABELS[pick.status]}.`,
    );
  }

  private async markPartial(target: Target): Promise<void> {
    const f = this.fileOf(target);
    const ctx = await this.environment();
    if (!ctx || !f) return;
    if (/\.partial\.md$/.test(f.path)) {
      void vscode.window.showInformationMessage(`${path.basename(f.path)} is already marked partial.`);
      return;
    }
    const renamed = await markPartial(f.path);
    if (renamed === f.path) {
      void vscode.window.showErrorMessage(`Could not rename ${path.basename(f.path)} to mark it partial (is it open elsewhere or read-only?).`);
      return;
    }
    this.log.info(`marked partial: ${renamed}`);
    this.timeline.refresh();
    await this.revealInTree(renamed);
  }

  private async delete(target: Target): Promise<void> {
    const f = this.fileOf(target);
    const ctx = await this.environment();
    if (!ctx || !f) return;
    const name = path.basename(f.path);
    const ok = await vscode.window.showWarningMessage(
      `Delete ${name}?`,
      {
        modal: true,
        detail: 'Handoffs are meant to be committed: later handoffs and results may refer to this one. It goes to the trash where the system has one.',
      },
      'Delete',
    );
    if (ok !== 'Delete') return;
    const uri = vscode.Uri.file(f.path);
    try {
      await vscode.workspace.fs.delete(uri, { useTrash: true });
    } catch {
      await vscode.workspace.fs.delete(uri, { useTrash: false });
    }
    this.log.info(`deleted: ${f.path}`);
    this.timeline.refresh();
  }

  private async revealInTree(fsPath: string): Promise<void> {
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await this.timeline.getChildren();
      const element = this.timeline.elementForPath(fsPath);
      if (element) {
        await this.treeView.reveal(element, { select: true, focus: false, expand: true }).then(undefined, () => undefined);
        return;
      }
    }
  }

  private async prompt(target: Target, mode: 'copy' | 'chat'): Promise<string | undefined> {
    const ctx = await this.environment();
    if (!ctx) return undefined;
    const f = this.fileOf(target);
    const handoff = f && f.source === 'handoff' && isHandoffFile(ctx.root, f.path) ? f.path : undefined;
    if (!handoff) {
      const files = await listHandoffs(ctx.root);
      if (!files.length) {
        void vscode.window.showInformationMessage('There is no handoff to pick up yet: hand over first.');
        return undefined;
      }
    }
    // Copying or an unsent chat does not take the handoff up: the receiver does (offerPickUp).
    const result = await vscode.window.withProgress({ location: { viewId: Views.timeline }, title: 'Building the prompt' }, () =>
      buildPrompt({ handoff, take: false }, ctx.env),
    );
    if (result.status === 'error') {
      void vscode.window.showErrorMessage(errorText(result));
      return undefined;
    }
    result.warnings.forEach((w) => this.log.warn(w));
    const what = `The prompt for ${result.persona_marker}${result.handoff_id ? ` (${result.handoff_id})` : ''}`;
    const stale = result.stale ? ' The workspace changed since the handoff: see its Staleness section.' : '';
    const given = {
      pending: result.pending ? result.handoff_file : null,
      session: this.session,
      log: this.log,
      onTaken: (file: string) => this.timeline.invalidate(file),
    };
    if (mode === 'chat' && (await chatAvailable())) {
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: result.prompt, isPartialQuery: true });
      void offerPickUp({ ...given, message: `${what} is in a new chat, not sent: review it and send.${stale}` });
      return result.prompt;
    }
    await vscode.env.clipboard.writeText(result.prompt);
    void offerPickUp({
      ...given,
      message: `${mode === 'chat' ? 'No chat is available here, so t' : 'T'}${what.slice(1)} is on the clipboard: paste it into the receiving agent.${stale}`,
    });
    return result.prompt;
  }

  private async recordResult(arg: unknown): Promise<unknown> {
    const ctx = await this.environment();
    if (!ctx) return undefined;
    // Programmatic: executeCommand('handoff.recordResult', {specialist, handoffs, summary, criteria_met, …}).
    if (arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) && !('type' in arg)) {
      return recordResult(arg, ctx.env);
    }
    const from = this.fileOf(arg as Target);
    let file = from && isHandoffFile(ctx.root, from.path) ? from.path : undefined;
    if (!file) {
      const open = await openHandoffs(ctx.root);
      if (!open.length) {
        void vscode.window.showInformationMessage('No open handoff to answer: every handoff here is complete, blocked or answered.');
        return undefined;
      }
      const pick = await vscode.window.showQuickPick(
        open.map(({ file: f, head: h }) => ({
          label: h.frontmatter.topic_title || h.frontmatter.topic,
          description: `to ${h.frontmatter.specialist} · ${STATUS_LABELS[h.frontmatter.status]}`,
          detail: f.name,
          file: f.path,
        })),
        { placeHolder: 'Record the result of which handoff?', matchOnDetail: true },
      );
      file = pick?.file;
    }
    if (!file) return undefined;
    const head = await readHandoffHead(file);
    if (!head) {
      void vscode.window.showErrorMessage(`${path.basename(file)} cannot be read as a handoff.`);
      return undefined;
    }
    const criteria = acceptanceCriteria(head);
    const met = await vscode.window.showQuickPick(
      criteria.map((c, i) => ({ label: c, description: i === criteria.length - 1 ? 'return condition' : `next step ${i + 1}`, picked: false, index: i })),
      {
        canPickMany: true,
        placeHolder: 'Which of these are done? (the result is complete only when all are, and no test failed after the last passing run)',
        ignoreFocusOut: true,
      },
    );
    if (!met) return undefined;
    const summary = await vscode.window.showInputBox({
      prompt: 'Summary of the result',
      placeHolder: 'What was done, and where it stands',
      ignoreFocusOut: true,
    });
    if (summary === undefined) return undefined;
    const blockers = await vscode.window.showInputBox({ prompt: 'Blockers (separate with ";"; empty when nothing blocks)', ignoreFocusOut: true });
    if (blockers === undefined) return undefined;
    const request = {
      specialist: head.frontmatter.specialist,
      handoffs: [head.frontmatter.id],
      summary,
      criteria_met: met.map((m) => String(m.index + 1)),
      blockers: blockers
        .split(';')
        .map((b) => b.trim())
        .filter(Boolean),
    };
    let outcome = await recordResult(request, ctx.env);
    if (outcome.status === 'error' && outcome.field === 'taken') {
      const go = await vscode.window.showWarningMessage(
        outcome.problem ?? errorText(outcome),
        { modal: true, detail: 'Record your result anyway? The other session may still be working on it.' },
        'Record Anyway',
      );
      if (go !== 'Record Anyway') return undefined;
      outcome = await recordResult({ ...request, proceed_if_taken: true }, ctx.env);
    }
    if (outcome.status === 'error') {
      void vscode.window.showErrorMessage(errorText(outcome));
      return outcome;
    }
    outcome.warnings.forEach((w) => this.log.warn(w));
    this.timeline.invalidate();
    const first = outcome.entries[0];
    if (!first && outcome.failures.length > 0) {
      void vscode.window.showErrorMessage(outcome.failures.map((f) => `${f.handoff}: ${errorText(f.message)}`).join(' '));
      return outcome;
    }
    if (first) await this.revealInTree(first.result_file);
    const open = first ? 'Open Result' : undefined;
    const title = first ? `${RESULT_ICONS[first.status]} Result recorded` : 'Session note written';
    const pick = await vscode.window.showInformationMessage(
      title,
      { modal: true, detail: [...outcome.summary, ...(first?.reasons.length ? ['', ...first.reasons] : [])].join('\n') },
      ...(open ? [open] : []),
    );
    if (pick === open && first) await vscode.window.showTextDocument(vscode.Uri.file(first.result_file));
    return outcome;
  }
}

/** The chat command exists and a language model is available (feature-detected). */
async function chatAvailable(): Promise<boolean> {
  const commands = await vscode.commands.getCommands(true);
  if (!commands.includes('workbench.action.chat.open')) return false;
  const lm = (vscode as { lm?: { selectChatModels?: () => Thenable<unknown[]> } }).lm;
  if (!lm?.selectChatModels) return false;
  try {
    return (await lm.selectChatModels()).length > 0;
  } catch {
    return false;
  }
}
