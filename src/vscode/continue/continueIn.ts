/**
 * "Continue in …": start the receiving specialist in Copilot Chat (prompt unsent), Cursor's
 * chat, a terminal agent (the agent is the terminal's process and the prompt an argument: no
 * shell reads it), or the clipboard. Only agents found on this machine are offered.
 */
import { spawn } from 'node:child_process';
import * as vscode from 'vscode';
import { errorText } from '../../core/handoff/errors';
import {
  AGENT_EXECUTABLES,
  AGENT_IDS,
  CONTINUE_TARGETS,
  isContinueTarget,
  isTerminalAgentId,
  TARGET_LABELS,
  TERMINAL_AGENT_IDS,
  TERMINAL_AGENTS,
  type ContinueTarget,
  type TerminalAgentId,
} from '../../core/agents/continueAgents';
import { customAgentFor, findAgents, prepareContinue, prepareCursorLink, type AgentLookup, type FoundAgent } from '../../engine/receive/continue';
import { isHandoffFile } from '../../engine/handover/handoffFiles';
import { buildPrompt } from '../../engine/receive/prompt';
import { Commands, Config, StorageKeys } from '../constants';
import { DisposableOwner } from '../lifecycle';
import { folderEnvironment, type SessionHooks } from '../workspace/environment';
import { trustedHandoffRoot, warnRefusal } from '../workspace/trust';
import { availableChatModels } from '../lm/chatModels';
import { offerPickUp } from '../timeline/pickUp';
import { copilotChatAvailable, openNewChat } from './copilotChat';

/** A timeline element, a handoff's URI, `{ agent, handoff }`, or nothing. */
type Target =
  | { readonly type: 'entry'; readonly node: { readonly file: { readonly path: string; readonly source: string } } }
  | vscode.Uri
  | { readonly agent?: string; readonly handoff?: string }
  | undefined;

export interface ContinueResult {
  readonly target: ContinueTarget;
  readonly prompt: string;
  /** For a terminal agent. */
  readonly executable?: string;
  readonly argv?: readonly string[];
  readonly cwd?: string;
  /** For Copilot Chat: the custom agent's name. */
  readonly mode?: string;
  /** For Cursor: the link, and the program that opened it (absent: this editor is Cursor). */
  readonly url?: string;
  readonly opener?: string;
  /** The prompt was copied: the target was missing, or the link could not hold it. */
  readonly fellBackToClipboard?: boolean;
}

const REFUSALS = warnRefusal({
  noFolder: 'Open a folder first: handoffs live in a workspace folder.',
  untrusted: 'Specialist Handoff works only in trusted workspaces: continuing starts an agent. Trust this workspace to continue.',
});

interface TargetItem extends vscode.QuickPickItem {
  readonly target: ContinueTarget;
}

export class ContinueIn extends DisposableOwner {
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly session: SessionHooks,
    private readonly state: vscode.Memento,
    private readonly onTaken: (file: string) => void,
  ) {
    super();
    this.register(
      vscode.commands.registerCommand(Commands.continueIn, async (arg?: Target) => {
        try {
          return await this.run(arg);
        } catch (err) {
          this.log.error(`${Commands.continueIn}: ${(err as Error)?.stack ?? String(err)}`);
          void vscode.window.showErrorMessage(`Specialist Handoff: ${(err as Error)?.message ?? String(err)}`);
          return undefined;
        }
      }),
    );
  }

  private async run(arg: Target): Promise<ContinueResult | undefined> {
    const where = await trustedHandoffRoot(REFUSALS);
    if (!where) return undefined;
    const { folder, settings, root } = where;
    const file = arg instanceof vscode.Uri ? arg.fsPath : arg && 'type' in arg ? arg.node.file.path : arg?.handoff;
    const handoff = file && isHandoffFile(root, file) ? file : arg && !(arg instanceof vscode.Uri) && !('type' in arg) ? arg.handoff : undefined;
    const config = vscode.workspace.getConfiguration(Config.section, folder.uri);
    const lookup: AgentLookup = {
      pathEnv: process.env.PATH ?? process.env.Path,
      platform: process.platform,
      pathExt: process.env.PATHEXT,
      paths: Object.fromEntries(AGENT_IDS.map((id) => [id, config.get<string>(AGENT_EXECUTABLES[id].setting.replace(/^handoff\./, ''))])),
    };
    const asked = arg && !(arg instanceof vscode.Uri) && !('type' in arg) ? arg.agent : undefined;
    if (asked !== undefined && !isContinueTarget(asked)) {
      void vscode.window.showErrorMessage(`Cannot continue in "${asked}": pick one of ${CONTINUE_TARGETS.join(', ')}.`);
      return undefined;
    }
    const target = asked ?? (await this.choose(lookup, config.get<string>(Config.continueIn)));
    if (!target) return undefined;
    await this.state.update(StorageKeys.continueIn, target);
    const env = await folderEnvironment(folder, this.session, { settings });
    if (isTerminalAgentId(target)) return this.inTerminal(target, handoff, env, lookup, folder);
    if (target === 'cursor') return this.inCursor(handoff, env, lookup);
    // A chat holding the prompt unsent, or the clipboard, has not taken the handoff up: the receiver does (offerPickUp).
    const prompt = await buildPrompt({ handoff, take: false }, env);
    if (prompt.status === 'error') {
      void vscode.window.showErrorMessage(errorText(prompt));
      return undefined;
    }
    prompt.warnings.forEach((w) => this.log.warn(w));
    const what = `the prompt for ${prompt.persona_marker}${prompt.handoff_id ? ` (${prompt.handoff_id})` : ''}`;
    const given = { pending: prompt.pending ? prompt.handoff_file : null, session: this.session, log: this.log, onTaken: this.onTaken };
    if (target === 'copilot' && (await copilotChatAvailable())) {
      const agent = await customAgentFor(env.workspaceRoot, prompt.specialist);
      await openNewChat(prompt.prompt, agent?.name);
      void offerPickUp({
        ...given,
        message: `Opened a new chat${agent ? ` in the custom agent "${agent.name}"` : ''} with ${what}, not sent: review it and send.`,
      });
      return { target, prompt: prompt.prompt, ...(agent ? { mode: agent.name } : {}) };
    }
    await vscode.env.clipboard.writeText(prompt.prompt);
    const why = target === 'copilot' ? `Copilot Chat is not available in this VS Code (${vscode.version}), so ` : '';
    const said = `${why}${what} is on the clipboard: paste it into the receiving agent.`;
    void offerPickUp({ ...given, message: said[0].toUpperCase() + said.slice(1) });
    return { target, prompt: prompt.prompt, ...(target === 'copilot' ? { fellBackToClipboard: true } : {}) };
  }

  /** The setting's default when that agent is here, else the user's pick (this workspace's last choice first). */
  private async choose(lookup: AgentLookup, preferred: string | undefined): Promise<ContinueTarget | undefined> {
    const [chat, agents, models] = await Promise.all([copilotChatAvailable(), findAgents(lookup), availableChatModels()]);
    // Without a chat model the chat can only ask the user to set one up: offered after the others, saying so.
    const noModel = chat && !models.ok;
    const inCursor = vscode.env.uriScheme === 'cursor';
    const others: ContinueTarget[] = [...(inCursor && !agents.some((a) => a.id === 'cursor') ? (['cursor'] as const) : []), ...agents.map((a) => a.id), 'copy'];
    const here: ContinueTarget[] = chat ? (noModel ? [...others, 'copilot'] : ['copilot', ...others]) : others;
    if (isContinueTarget(preferred) && here.includes(preferred)) return preferred;
    const last = this.state.get<string>(StorageKeys.continueIn);
    const ordered = isContinueTarget(last) && here.includes(last) && !(noModel && last === 'copilot') ? [last, ...here.filter((t) => t !== last)] : here;
    const missing = AGENT_IDS.filter((id) => !here.includes(id)).map((id) => AGENT_EXECUTABLES[id].label);
    const items: TargetItem[] = ordered.map((t) => ({
      target: t,
      label: `${ICONS[t]} ${TARGET_LABELS[t]}`,
      description: t === 'copilot' && noModel ? 'no chat model signed in' : t === last ? 'last used here' : undefined,
      detail:
        t === 'copilot' && noModel ? 'No chat model is available: the chat will ask you to set up GitHub Copilot before it can answer' : detailOf(t, agents),
    }));
    const pick = await vscode.window.showQuickPick(items, {
      title: 'Continue in…',
      placeHolder: missing.length
        ? `Where the receiving specialist continues (not found on this machine: ${missing.join(', ')})`
        : 'Where the receiving specialist continues',
      matchOnDetail: true,
    });
    return pick?.target;
  }

  private async inTerminal(
    agent: TerminalAgentId,
    handoff: string | undefined,
    env: Awaited<ReturnType<typeof folderEnvironment>>,
    lookup: AgentLookup,
    folder: vscode.WorkspaceFolder,
  ): Promise<ContinueResult | undefined> {
    const prepared = await prepareContinue({ agent, handoff }, env, lookup);
    if (prepared.status === 'error') {
      void vscode.window.showErrorMessage(errorText(prepared));
      return undefined;
    }
    prepared.prompt.warnings.forEach((w) => this.log.warn(w));
    if (prepared.prompt.taken && prepared.prompt.handoff_file) this.onTaken(prepared.prompt.handoff_file);
    const spec = TERMINAL_AGENTS[agent];
    const terminal = vscode.window.createTerminal({
      name: `${spec.label}: ${prepared.prompt.persona_marker}`,
      shellPath: prepared.agent.executable,
      shellArgs: prepared.argv,
      cwd: folder.uri,
      iconPath: new vscode.ThemeIcon('debug-continue'),
    });
    terminal.show();
    this.log.info(
      `continue: ${prepared.agent.executable} (${prepared.argv.length} arguments, prompt ${prepared.prompt.prompt.length} characters) in ${prepared.cwd}`,
    );
    if (spec.exitsAfterFirstMessage) {
      void vscode.window.showInformationMessage(
        `${spec.label} answers the prompt and exits (its CLI takes a first message only so); run ${spec.executable} again in the workspace to keep going.`,
      );
    }
    return { target: agent, prompt: prepared.prompt.prompt, executable: prepared.agent.executable, argv: prepared.argv, cwd: prepared.cwd };
  }

  /** Via Cursor's prompt link: opened by this editor when it is Cursor, else by the platform's link opener. */
  private async inCursor(
    handoff: string | undefined,
    env: Awaited<ReturnType<typeof folderEnvironment>>,
    lookup: AgentLookup,
  ): Promise<ContinueResult | undefined> {
    // Not taken: the link fills Cursor's chat in, the user sends it.
    const prepared = await prepareCursorLink({ handoff, take: false }, env, lookup);
    if (prepared.status === 'error') {
      void vscode.window.showErrorMessage(errorText(prepared));
      return undefined;
    }
    prepared.prompt.warnings.forEach((w) => this.log.warn(w));
    if (prepared.prompt.taken && prepared.prompt.handoff_file) this.onTaken(prepared.prompt.handoff_file);
    const prompt = prepared.prompt.prompt;
    const base = { target: 'cursor' as const, prompt, url: prepared.url, ...(prepared.whole ? {} : { fellBackToClipboard: true }) };
    if (!prepared.whole) await vscode.env.clipboard.writeText(prompt);
    const pasteNote = prepared.whole ? '' : ' The prompt is longer than a Cursor link holds: it is on the clipboard — paste it into the chat.';
    if (vscode.env.uriScheme === 'cursor') {
      // This editor is Cursor: it handles its own link as the desktop would hand it over.
      await vscode.env.openExternal(vscode.Uri.parse(prepared.url));
      void vscode.window.showInformationMessage(`Opened Cursor's chat with the prompt for ${prepared.prompt.persona_marker}; review it and send.${pasteNote}`);
      return base;
    }
    const opener = prepared.opener;
    if (!opener) {
      await vscode.env.clipboard.writeText(prompt);
      void vscode.window.showInformationMessage(
        `No program that opens links was found here: the prompt for ${prepared.prompt.persona_marker} is on the clipboard — paste it into Cursor's chat.`,
      );
      return { ...base, fellBackToClipboard: true };
    }
    // The link goes to the opener as one argument, exactly as built: no shell, and no re-encoding of it as a URI.
    const child = spawn(opener.executable, opener.argv, { cwd: env.workspaceRoot, stdio: 'ignore', shell: false, detached: true });
    child.once('error', (err) => {
      this.log.error(`continue in Cursor: could not start ${opener.executable}: ${err.message}`);
      void vscode.window.showErrorMessage(`Could not start ${opener.executable} to open Cursor's link: ${err.message}`);
    });
    child.unref();
    this.log.info(`continue: ${opener.executable} opens Cursor's prompt link (${prepared.url.length} characters)`);
    void vscode.window.showInformationMessage(`Opening Cursor's chat with the prompt for ${prepared.prompt.persona_marker}; review it and send.${pasteNote}`);
    return { ...base, opener: opener.executable };
  }
}

const ICONS: Readonly<Record<ContinueTarget, string>> = {
  copilot: '$(copilot)',
  cursor: '$(link-external)',
  ...(Object.fromEntries(TERMINAL_AGENT_IDS.map((id) => [id, '$(terminal)'])) as Record<TerminalAgentId, string>),
  copy: '$(copy)',
};

function detailOf(target: ContinueTarget, agents: readonly FoundAgent[]): string {
  if (target === 'copilot') return "A new chat with the prompt filled in, not sent — in the specialist's custom agent when exported";
  if (target === 'copy') return 'The prompt on the clipboard, to paste into any agent';
  if (target === 'cursor')
    return `Cursor's chat with the prompt filled in, not sent (its prompt link${agents.some((a) => a.id === 'cursor') ? '' : '; this editor is Cursor'})`;
  const found = agents.find((a) => a.id === target);
  return `A terminal in the workspace folder running ${found?.executable ?? TERMINAL_AGENTS[target].executable} with the prompt as its first message`;
}
