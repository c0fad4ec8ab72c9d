/**
 * The `@handoff` chat participant: `/handover <specialist> [topic…]`, `/timeline`, `/prompt [specialist]`.
 * `/handover` and `/prompt` run git, so they refuse in an untrusted workspace; `/timeline` only
 * reads files. The handler never throws: failures are shown in the chat and logged.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { STATUS_LABELS } from '../../core/handoff/status';
import type { SpecialistRegistry } from '../../core/specialists/registry';
import type { JobError } from '../../core/handoff/errors';
import type { TimelineNode } from '../../core/timeline/chains';
import { buildPrompt } from '../../engine/receive/prompt';
import { runHandoverTool } from '../../engine/agents/agentTool';
import { openTimeline } from '../../engine/timeline/timeline';
import { abortOn, diskFolders, folderForRoot, inlineMarkdown, isTrusted, withSettingsDefaults, type AgentDeps } from './agentContext';
import { folderEnvironment, folderSpecialists, projectOptions } from '../workspace/environment';
import { currentFolder, readSettings } from '../workspace/settings';
import { gatedStream } from './outputGate';
import { MANAGE_TRUST, MANAGE_TRUST_COMMAND, OPEN_FOLDER_COMMAND, trustedFolder, type Refusal } from '../workspace/trust';
import { CHAT_AVATAR } from '../constants';
import { relativeTime, SOURCE_LABELS } from '../timeline/rowText';

/** package.json `contributes.chatParticipants`. */
export const CHAT_PARTICIPANT_ID = 'specialist-handoff.handoff';

/** package.json lists the same names. */
export const ChatCommands = {
  handover: 'handover',
  timeline: 'timeline',
  prompt: 'prompt',
} as const;

export const CHAT_FROM = 'chat';

export const CHAT_TIMELINE_LIMIT = 20;

/** What a response remembers for its follow-ups. */
interface HandoffChatMetadata {
  readonly command: string;
  readonly ok: boolean;
  readonly specialist?: string;
  readonly personaMarker?: string;
}

export interface HandoffChatResult extends vscode.ChatResult {
  readonly metadata: HandoffChatMetadata;
}

/** Multi-line text as Markdown that shows it literally. */
function text(value: string): string {
  return value
    .split(/\r?\n/)
    .map((line) => inlineMarkdown(line))
    .join('  \n');
}

/** A fenced code block that no backtick run inside `body` can close. */
export function fenced(body: string, language = 'markdown'): string {
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${body}\n${fence}\n`;
}

/** `user: …` and `@handoff: …` lines, oldest first. VS Code gives a participant only its own turns. */
export function historyTurns(history: vscode.ChatContext['history']): string[] {
  const out: string[] = [];
  for (const turn of history) {
    if ('prompt' in turn) {
      const line = `${turn.command ? `/${turn.command} ` : ''}${turn.prompt}`.trim();
      if (line) out.push(`user: ${line}`);
    } else if ('response' in turn) {
      const reply = turn.response
        .map((part) => {
          const value = (part as { value?: unknown }).value;
          return value instanceof vscode.MarkdownString ? value.value : '';
        })
        .join('')
        .trim();
      if (reply) out.push(`@handoff: ${reply}`);
    }
  }
  return out;
}

/** First word: the specialist id; rest of the first line: the topic; everything after the id: the summary. */
export function parseHandoverPrompt(prompt: string): { specialist: string; topic: string; summary: string } {
  const trimmed = prompt.trim();
  const m = /^@?(\S+)/.exec(trimmed);
  if (!m) return { specialist: '', topic: '', summary: '' };
  const rest = trimmed.slice(m[0].length).trim();
  return { specialist: m[1], topic: rest.split(/\r?\n/)[0].trim(), summary: rest };
}

export function createChatHandler(deps: AgentDeps): vscode.ChatRequestHandler {
  return async (request, context, raw, token): Promise<HandoffChatResult> => {
    const command = request.command ?? '';
    // The output boundary: every text streamed passes the gate (outputGate.ts).
    const stream = gatedStream(raw);
    try {
      switch (command) {
        case ChatCommands.handover:
          return await handover(deps, request, context, stream, token);
        case ChatCommands.timeline:
          return await timeline(deps, stream);
        case ChatCommands.prompt:
          return await promptFor(deps, request, stream, token);
        default:
          return help(stream);
      }
    } catch (err) {
      deps.log.error(`@handoff /${command}: ${(err as Error)?.stack ?? String(err)}`);
      const message = `Specialist Handoff failed: ${(err as Error)?.message ?? String(err)}. Details are in the "Specialist Handoff" output.`;
      stream.markdown(text(message));
      return { errorDetails: { message }, metadata: { command, ok: false } };
    } finally {
      await stream.flush();
    }
  };
}

function help(stream: vscode.ChatResponseStream): HandoffChatResult {
  stream.markdown(
    [
      'I hand your work over to a specialist, with the touched files from git and what this chat decided.',
      '',
      '- `/handover <specialist> [topic]` — write a handoff and append a briefing; the text after the specialist becomes the summary, this chat the recent turns',
      '- `/timeline` — the newest handoffs of this workspace',
      '- `/prompt [specialist]` — the prompt the receiving specialist needs',
      '',
      'In agent mode, `#handover` lets the model hand over itself (you confirm first).',
    ].join('\n'),
  );
  return { metadata: { command: '', ok: true } };
}

function sayRefusal(deps: AgentDeps, stream: vscode.ChatResponseStream, what: string): (refusal: Refusal) => void {
  return (refusal) => {
    if (refusal === 'no-folder') {
      stream.markdown('Open a folder first: handoffs are written into a workspace folder.');
      stream.button({ command: OPEN_FOLDER_COMMAND, title: 'Open Folder…' });
      return;
    }
    stream.markdown(
      `This workspace is not trusted, so I cannot ${what}: in an untrusted workspace Specialist Handoff starts no git process and writes no file. Trust the workspace, then ask again.`,
    );
    stream.button({ command: MANAGE_TRUST_COMMAND, title: MANAGE_TRUST });
    deps.log.info(`@handoff: refused to ${what}: the workspace is not trusted`);
  };
}

function trustedFolderOrSay(deps: AgentDeps, stream: vscode.ChatResponseStream, what: string): Promise<vscode.WorkspaceFolder | undefined> {
  return trustedFolder(sayRefusal(deps, stream, what), () => isTrusted(deps));
}

/** `/timeline` only reads files, so it needs no trust. */
function folderOrSay(deps: AgentDeps, stream: vscode.ChatResponseStream): vscode.WorkspaceFolder | undefined {
  const folder = currentFolder();
  if (!folder) sayRefusal(deps, stream, 'read the timeline')('no-folder');
  return folder;
}

async function registryOf(
  folder: vscode.WorkspaceFolder,
  stream: vscode.ChatResponseStream,
  log: vscode.LogOutputChannel,
): Promise<{ root: string; registry: SpecialistRegistry } | undefined> {
  const project = await folderSpecialists(folder);
  if (!project.ok) {
    sayProjectError(stream, project.error);
    return undefined;
  }
  project.warnings.forEach((w) => log.warn(w));
  return { root: project.root, registry: project.registry };
}

function sayProjectError(stream: vscode.ChatResponseStream, error: JobError): void {
  stream.markdown(text(error.message));
  stream.button({ command: 'workbench.action.openSettings', arguments: ['handoff.directory'], title: 'Open Settings' });
}

function streamIds(stream: vscode.ChatResponseStream, registry: SpecialistRegistry): void {
  stream.markdown(
    `\n\nSpecialists:\n\n${registry
      .all()
      .map((s) => `- \`${s.id}\` — ${inlineMarkdown(s.personaMarker)} ${inlineMarkdown(s.label)}`)
      .join('\n')}\n`,
  );
}

async function handover(
  deps: AgentDeps,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<HandoffChatResult> {
  const fail = (specialist?: string): HandoffChatResult => ({ metadata: { command: ChatCommands.handover, ok: false, ...(specialist ? { specialist } : {}) } });
  const folder = await trustedFolderOrSay(deps, stream, 'hand over');
  if (!folder) return fail();
  const reg = await registryOf(folder, stream, deps.log);
  if (!reg) return fail();
  const parsed = parseHandoverPrompt(request.prompt);
  if (!parsed.specialist) {
    stream.markdown(text('ERROR: name the specialist to hand over to: /handover <specialist> [topic]'));
    streamIds(stream, reg.registry);
    return fail();
  }
  const lookup = reg.registry.lookup(parsed.specialist);
  if (!lookup.ok) {
    stream.markdown(text(lookup.message));
    streamIds(stream, reg.registry);
    return fail(parsed.specialist);
  }
  const specialist = lookup.specialist;
  const turns = historyTurns(context.history);
  const lastPrompt = [...context.history].reverse().find((t): t is vscode.ChatRequestTurn => 'prompt' in t && t.prompt.trim() !== '');
  const topic = parsed.topic || lastPrompt?.prompt.trim().split(/\r?\n/)[0].slice(0, 80) || `${specialist.label} handover`;
  stream.progress(`Handing over to ${specialist.personaMarker}: collecting git changes and the session log…`);
  const abort = abortOn(token);
  try {
    const input = {
      specialist_profile: specialist.id,
      topic,
      ...(parsed.summary ? { summary: parsed.summary } : {}),
      ...(turns.length ? { recent_turns: turns } : {}),
      handover_reason: 'Handed over from the @handoff chat (/handover).',
      project_root: folder.uri.fsPath,
    };
    const folders = diskFolders();
    const outcome = await runHandoverTool(withSettingsDefaults(input, folder), {
      defaultRoot: folder.uri.fsPath,
      allowedRoots: folders.map((f) => f.uri.fsPath),
      from: CHAT_FROM,
      tokenizerFor: () => readSettings(folder).tokenizer,
      environment: async (root) => folderEnvironment(folderForRoot(root) ?? folder, deps.session, { signal: abort.signal, failWhenCancelled: true }),
    });
    if (!outcome.ok) {
      const message = abort.signal.aborted ? 'ERROR: the handoff was cancelled — nothing was written' : outcome.text;
      deps.log.warn(`@handoff /handover: ${message}`);
      stream.markdown(text(message));
      return fail(specialist.id);
    }
    const r = outcome.result;
    deps.log.info(`@handoff /handover: handoff written: ${r.handoff_file} (${r.package.estimated_tokens}/${r.package.max_context_tokens} tokens)`);
    r.warnings.forEach((w) => deps.log.warn(w));
    await deps.session.ended();
    deps.onWritten();
    const files = r.package.touched_files.length + r.package.touched_files_omitted;
    stream.markdown(`**${inlineMarkdown(r.persona_marker)}** takes over **${inlineMarkdown(r.package.topic_title || r.package.topic)}**.\n\nHandoff: `);
    stream.anchor(vscode.Uri.file(r.handoff_file), path.basename(r.handoff_file));
    stream.markdown(' · briefing: ');
    stream.anchor(vscode.Uri.file(r.briefing.path), path.basename(r.briefing.path));
    stream.markdown(
      `\n\n${r.package.estimated_tokens.toLocaleString('en')} / ${r.package.max_context_tokens.toLocaleString('en')} tokens · ${files.toLocaleString('en')} touched file${files === 1 ? '' : 's'} · ${r.package.recent_turns.length} recent turn${r.package.recent_turns.length === 1 ? '' : 's'}\n\n`,
    );
    stream.markdown(`**Next step:** ${inlineMarkdown(r.next_step)}`);
    if (r.warnings.length) {
      stream.markdown(`\n\n${r.warnings.map((w) => `- ${inlineMarkdown(w)}`).join('\n')}`);
    }
    return { metadata: { command: ChatCommands.handover, ok: true, specialist: specialist.id, personaMarker: r.persona_marker } };
  } finally {
    abort.dispose();
  }
}

async function timeline(deps: AgentDeps, stream: vscode.ChatResponseStream): Promise<HandoffChatResult> {
  const done = (ok: boolean): HandoffChatResult => ({ metadata: { command: ChatCommands.timeline, ok } });
  const folder = folderOrSay(deps, stream);
  if (!folder) return done(false);
  const opened = await openTimeline(projectOptions(folder), { newest: CHAT_TIMELINE_LIMIT });
  if (!opened.ok) {
    sayProjectError(stream, opened.error);
    return done(false);
  }
  const { project, timeline: t } = opened;
  project.warnings.forEach((w) => deps.log.warn(w));
  const { files, newest, info, warnings } = t;
  if (!files.length) {
    stream.markdown(`No handoffs yet in **${inlineMarkdown(folder.name)}**. Hand over with \`/handover <specialist> [topic]\`.`);
    return done(true);
  }
  const lines: string[] = [];
  const stack: Array<{ node: TimelineNode; depth: number }> = [...t.chains].reverse().map((node) => ({ node, depth: 0 }));
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    const f = node.file;
    const i = info.get(f.key);
    const s = project.registry.get(f.specialist);
    const topic = i?.topic ?? f.topic;
    const status = i ? (STATUS_LABELS[i.status as keyof typeof STATUS_LABELS] ?? i.status) : undefined;
    const parts = [
      `${inlineMarkdown(s?.personaMarker ?? `[${f.specialist}]`)}${topic ? ` **${inlineMarkdown(topic)}**` : ''}${i?.kind === 'result' ? ' (result)' : ''}`,
      [status, relativeTime(f.time), f.partial ? '⚠ partial' : '', SOURCE_LABELS[f.source]].filter(Boolean).join(' · '),
      `[${inlineMarkdown(f.name)}](${vscode.Uri.file(f.path).toString()})`,
    ];
    lines.push(`${'  '.repeat(depth)}- ${parts.join(' — ')}`);
    for (const child of [...node.children].reverse()) stack.push({ node: child, depth: depth + 1 });
  }
  stream.markdown(
    `Newest handoffs in **${inlineMarkdown(folder.name)}**${files.length > newest.length ? ` (${newest.length} of ${files.length})` : ''}:\n\n${lines.join('\n')}\n`,
  );
  for (const w of warnings) stream.markdown(text(`\nWARNING: ${w}`));
  if (files.length > newest.length) {
    stream.button({ command: 'handoff.timeline.focus', title: 'Open the Handoff Timeline' });
  }
  return done(true);
}

async function promptFor(
  deps: AgentDeps,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<HandoffChatResult> {
  const done = (ok: boolean, specialist?: string): HandoffChatResult => ({
    metadata: { command: ChatCommands.prompt, ok, ...(specialist ? { specialist } : {}) },
  });
  const folder = await trustedFolderOrSay(deps, stream, 'build the prompt');
  if (!folder) return done(false);
  const id = request.prompt.trim().split(/\s+/)[0]?.replace(/^@/, '') || undefined;
  stream.progress('Building the prompt: mandate, staleness and prior handoffs…');
  const abort = abortOn(token);
  try {
    const env = await folderEnvironment(folder, deps.session, { signal: abort.signal });
    const result = await buildPrompt({ specialist: id, take: false }, env);
    if (result.status === 'error') {
      stream.markdown(text(result.message));
      if (result.field === 'specialist') {
        const reg = await registryOf(folder, stream, deps.log);
        if (reg) streamIds(stream, reg.registry);
      }
      return done(false, id);
    }
    result.warnings.forEach((w) => deps.log.warn(w));
    stream.markdown(
      `The prompt for **${inlineMarkdown(result.persona_marker)}**${result.handoff_id ? ` (handoff \`${result.handoff_id}\`)` : ' (no handoff to pick up yet)'}:\n\n`,
    );
    stream.markdown(fenced(result.prompt));
    if (result.stale) {
      stream.markdown("\nThe workspace changed since the handoff: see the prompt's staleness section before acting on it.\n");
    }
    if (result.handoff_file) {
      stream.markdown('\nCopying it with the button also marks the handoff *accepted* by this session.\n');
      stream.button({ command: 'handoff.copyPrompt', arguments: [vscode.Uri.file(result.handoff_file)], title: 'Copy Prompt for Specialist' });
    }
    return done(true, result.specialist);
  } finally {
    abort.dispose();
  }
}

function followups(result: vscode.ChatResult): vscode.ChatFollowup[] {
  const m = (result as Partial<HandoffChatResult>).metadata;
  if (m?.command === ChatCommands.handover && m.ok && m.specialist) {
    return [
      { prompt: m.specialist, command: ChatCommands.prompt, label: `Show the prompt for ${m.personaMarker ?? m.specialist}` },
      { prompt: '', command: ChatCommands.timeline, label: 'Show the handoff timeline' },
    ];
  }
  if (m?.command === '') return [{ prompt: '', command: ChatCommands.timeline, label: 'Show the handoff timeline' }];
  return [];
}

/** Empty where this VS Code has no `vscode.chat.createChatParticipant` (logged). */
export function registerChatParticipant(deps: AgentDeps): vscode.Disposable[] {
  if (typeof vscode.chat?.createChatParticipant !== 'function') {
    deps.log.info(`chat participant @handoff not registered: VS Code ${vscode.version} has no vscode.chat.createChatParticipant`);
    return [];
  }
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, createChatHandler(deps));
  participant.iconPath = {
    light: vscode.Uri.joinPath(deps.extension.extensionUri, CHAT_AVATAR.light),
    dark: vscode.Uri.joinPath(deps.extension.extensionUri, CHAT_AVATAR.dark),
  };
  participant.followupProvider = { provideFollowups: (result) => followups(result) };
  return [participant];
}
