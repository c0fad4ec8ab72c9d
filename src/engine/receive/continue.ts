/**
 * "Continue in …" and `specialist-handoff continue`: which agents this machine has (an
 * executable found on PATH, or at the path a setting names), and the command that starts
 * one of them with the receiving specialist's prompt (src/engine/receive/prompt.ts) as its first
 * message — the executable, the argv (src/core/agents/continueAgents.ts: never a shell
 * string) and the workspace folder it runs in. For Cursor, its prompt link and the program
 * that opens links here. For Copilot Chat, the specialist's exported custom agent
 * (`.github/agents/<id>.agent.md`) when there is one. Starting the agent is the surface's
 * (a VS Code terminal, the CLI's child process). Never throws.
 */
import { constants } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { partsError, type HandoverError } from '../../core/handoff/errors';
import {
  AGENT_EXECUTABLES,
  AGENT_IDS,
  agentCommand,
  CURSOR_AGENT,
  cursorPromptLink,
  linkOpener,
  TERMINAL_AGENTS,
  type AgentId,
  type TerminalAgentId,
} from '../../core/agents/continueAgents';
import { agentFileName, folderForTarget } from '../../core/specialists/agentFiles';
import { parseGitHubAgent } from '../../core/specialists/agentFileParse';
import type { HandoverEnvironment } from '../project/environment';
import { buildPrompt, type PromptOutcome, type PromptRequest } from './prompt';

/** Where to look for the agents' executables. */
export interface AgentLookup {
  /** The PATH to search (the process's `PATH`; on Windows `Path` too). */
  readonly pathEnv: string | undefined;
  /** `process.platform`: on `win32` PATH entries are split on `;` and `PATHEXT` names the extensions. */
  readonly platform: string;
  /** Windows' `PATHEXT` (default `.COM;.EXE`). */
  readonly pathExt?: string;
  /** An executable's path per agent, from the settings `handoff.agents.<id>.path` (empty: search PATH). */
  readonly paths?: Partial<Record<AgentId, string | undefined>>;
}

/** An agent found on this machine: its id and the absolute path of its executable. */
export interface FoundAgent {
  readonly id: AgentId;
  readonly executable: string;
  /** Where it was found: the setting's path, or a PATH entry. */
  readonly via: 'setting' | 'PATH';
}

/** Why an agent is not there: the message parts, the setting that points at it. */
export type AgentLocation = { ok: true; agent: FoundAgent } | { ok: false; error: HandoverError };

/** Extensions a Windows executable may have without a shell: `.cmd` and `.bat` are run by cmd.exe, which parses their arguments. */
const WINDOWS_DIRECT = new Set(['.exe', '.com']);

async function isExecutableFile(file: string, platform: string): Promise<boolean> {
  try {
    const s = await stat(file);
    if (!s.isFile()) return false;
    if (platform === 'win32') return WINDOWS_DIRECT.has(path.extname(file).toLowerCase());
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds one agent's executable: the path its setting names (absolute, an executable
 * regular file), else the first executable of that name on PATH (on Windows with an
 * extension of `PATHEXT`, `.exe` or `.com` only).
 * @returns the agent, or an error (field `agent`, code `not_found` or `bad_setting`) whose
 *   problem says where it looked and whose fix names the install and the setting
 */
export async function locateAgent(id: AgentId, lookup: AgentLookup): Promise<AgentLocation> {
  const spec = AGENT_EXECUTABLES[id];
  const configured = lookup.paths?.[id]?.trim();
  if (configured) {
    if (!path.isAbsolute(configured) || !(await isExecutableFile(configured, lookup.platform))) {
      return {
        ok: false,
        error: partsError(
          'agent',
          {
            path: [spec.setting],
            subject: spec.setting,
            problem: `"${configured}" is not an executable file${path.isAbsolute(configured) ? '' : ' (the path must be absolute)'}`,
            fix: `set it to the absolute path of ${spec.executable}, or clear it to search PATH`,
          },
          'bad_setting',
        ),
      };
    }
    return { ok: true, agent: { id, executable: configured, via: 'setting' } };
  }
  const file = await findExecutable(spec.executable, lookup);
  if (file) return { ok: true, agent: { id, executable: file, via: 'PATH' } };
  return {
    ok: false,
    error: partsError(
      'agent',
      {
        path: ['agent'],
        subject: spec.label,
        problem: `was not found: no executable "${spec.executable}" on PATH`,
        fix: `install ${spec.label}, or set ${spec.setting} to the path of its executable`,
      },
      'not_found',
    ),
  };
}

/**
 * The first executable named `name` on the lookup's PATH (absolute entries only; on Windows
 * with an extension of `PATHEXT` that is `.exe` or `.com`).
 * @returns its absolute path, or undefined
 */
export async function findExecutable(name: string, lookup: Pick<AgentLookup, 'pathEnv' | 'platform' | 'pathExt'>): Promise<string | undefined> {
  const separator = lookup.platform === 'win32' ? ';' : ':';
  const dirs = (lookup.pathEnv ?? '').split(separator).filter((d) => d && path.isAbsolute(d));
  const names =
    lookup.platform === 'win32'
      ? (lookup.pathExt ?? '.COM;.EXE')
          .split(';')
          .filter((e) => WINDOWS_DIRECT.has(e.toLowerCase()))
          .map((e) => name + e.toLowerCase())
      : [name];
  for (const dir of dirs) {
    for (const candidate of names) {
      const file = path.join(dir, candidate);
      if (await isExecutableFile(file, lookup.platform)) return file;
    }
  }
  return undefined;
}

/** Every agent found on this machine (Cursor's `cursor` and the terminal agents), in the picker's order ({@link locateAgent} for each). */
export async function findAgents(lookup: AgentLookup): Promise<FoundAgent[]> {
  const found = await Promise.all(AGENT_IDS.map((id) => locateAgent(id, lookup)));
  return found.flatMap((f) => (f.ok ? [f.agent] : []));
}

/** The specialist's exported VS Code custom agent: its file and the `name` Copilot Chat selects it by. */
export interface CustomAgent {
  readonly file: string;
  readonly name: string;
}

/** Largest agent file read: 1 MiB (what the export compares, src/store/specialists/agentFolders.ts). */
const MAX_AGENT_FILE_BYTES = 1024 * 1024;

/**
 * The specialist's custom agent in `.github/agents/<id>.agent.md` (written by "Export
 * Specialists to Agent Folders…", docs/AGENTS.md), read for its `name`; undefined when
 * there is none or it does not parse.
 */
export async function customAgentFor(workspaceRoot: string, specialist: string): Promise<CustomAgent | undefined> {
  const rel = `${folderForTarget('github').dir}/${agentFileName('github', specialist)}`;
  const file = path.join(workspaceRoot, ...rel.split('/'));
  try {
    const s = await stat(file);
    if (!s.isFile() || s.size > MAX_AGENT_FILE_BYTES) return undefined;
    const parsed = parseGitHubAgent(path.basename(file), await readFile(file, 'utf8'), rel);
    return parsed.ok ? { file, name: parsed.agent.specialist.label } : undefined;
  } catch {
    return undefined;
  }
}

/** What to continue and where: the prompt's request (a handoff, a specialist) and the agent. */
export interface ContinueRequest extends PromptRequest {
  readonly agent: TerminalAgentId;
}

/** The receiving prompt, ready to start an agent with. */
export type PromptOk = Extract<PromptOutcome, { status: 'ok' }>;

/** Outcome of {@link prepareContinue}: the command to start, or an error. */
export type ContinueOutcome =
  | {
      status: 'ok';
      agent: FoundAgent;
      /** The arguments after the executable (the prompt among them). */
      argv: string[];
      /** Text for the agent's standard input (null: the prompt is an argument). */
      stdin: string | null;
      /** The folder the agent runs in: the workspace folder. */
      cwd: string;
      /** The receiving prompt and what building it reported. */
      prompt: PromptOk;
    }
  | HandoverError;

/**
 * Builds the command that continues a handoff in a terminal agent: locates the agent
 * ({@link locateAgent}), builds the receiving prompt ({@link buildPrompt}: marks a pending
 * handoff accepted unless `take: false`) and the agent's argv. The agent is located first,
 * so a missing agent changes nothing.
 */
export async function prepareContinue(req: ContinueRequest, env: HandoverEnvironment, lookup: AgentLookup): Promise<ContinueOutcome> {
  try {
    const located = await locateAgent(req.agent, lookup);
    if (!located.ok) return located.error;
    const prompt = await buildPrompt(req, env);
    if (prompt.status === 'error') return prompt;
    const command = agentCommand(req.agent, prompt.prompt, lookup.platform);
    if ('error' in command) {
      return partsError(
        'agent',
        {
          path: ['agent'],
          subject: TERMINAL_AGENTS[req.agent].label,
          problem: `cannot take this prompt: ${command.error}`,
          fix: 'copy the prompt instead and paste it into the agent',
        },
        'refused',
      );
    }
    return { status: 'ok', agent: located.agent, argv: command.argv, stdin: command.stdin, cwd: path.resolve(env.workspaceRoot), prompt };
  } catch (err) {
    return partsError('internal', { problem: `internal error while preparing the agent: ${(err as Error)?.message ?? String(err)}` }, 'internal');
  }
}

/** Outcome of {@link prepareCursorLink}: Cursor's prompt link (carrying the whole prompt, or a pointer to the clipboard), or an error. */
export type CursorLinkOutcome =
  { status: 'ok'; url: string; whole: boolean; prompt: PromptOk; opener: { executable: string; argv: string[] } | null } | HandoverError;

/**
 * Builds the link that continues a handoff in Cursor's chat: the receiving prompt
 * ({@link buildPrompt}: marks a pending handoff accepted unless `take: false`) in Cursor's
 * prompt link when the link fits, else a link whose text asks to paste the prompt from the
 * clipboard (`whole: false`: the surface puts the prompt there), and the program that opens
 * links on this platform when it is on PATH ({@link linkOpener}; null otherwise). Opening the
 * link is the surface's. Never throws.
 */
export async function prepareCursorLink(req: PromptRequest, env: HandoverEnvironment, lookup: AgentLookup): Promise<CursorLinkOutcome> {
  try {
    const prompt = await buildPrompt(req, env);
    if (prompt.status === 'error') return prompt;
    const what = prompt.handoff_id ? `handoff ${prompt.handoff_id}` : `the ${prompt.specialist} briefing`;
    const short = `Pick up ${what} as ${prompt.persona_marker}: its receiving prompt (${prompt.prompt.length.toLocaleString('en-US')} characters, longer than a Cursor link holds) is on the clipboard — paste it here in place of this line, then send.`;
    const link = cursorPromptLink(prompt.prompt, short);
    if ('error' in link) {
      return partsError(
        'agent',
        {
          path: ['agent'],
          subject: CURSOR_AGENT.label,
          problem: `cannot take this prompt: ${link.error}`,
          fix: 'copy the prompt instead and paste it into Cursor',
        },
        'refused',
      );
    }
    const opener = linkOpener(lookup.platform);
    const executable = opener && (await findExecutable(opener.executable, lookup));
    return { status: 'ok', url: link.url, whole: link.whole, prompt, opener: opener && executable ? { executable, argv: opener.argv(link.url) } : null };
  } catch (err) {
    return partsError('internal', { problem: `internal error while preparing the Cursor link: ${(err as Error)?.message ?? String(err)}` }, 'internal');
  }
}
