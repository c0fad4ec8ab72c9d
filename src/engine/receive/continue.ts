/**
 * "Continue in …": which agents this machine has, and the argv (never a shell string) that starts one with the
 * receiving prompt as its first message. Starting it is the surface's. Never throws.
 */
import { constants } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { runJob } from '../project/jobError';
import { partsError, type JobError } from '../../core/handoff/errors';
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
import type { JobContext } from '../project/jobContext';
import { buildPrompt, type PromptOutcome, type PromptRequest } from './prompt';

export interface AgentLookup {
  readonly pathEnv: string | undefined;
  /** On `win32` PATH is split on `;` and `PATHEXT` names the extensions. */
  readonly platform: string;
  readonly pathExt?: string;
  /** From `handoff.agents.<id>.path`; empty: search PATH. */
  readonly paths?: Partial<Record<AgentId, string | undefined>>;
}

export interface FoundAgent {
  readonly id: AgentId;
  readonly executable: string;
  readonly via: 'setting' | 'PATH';
}

export type AgentLocation = { ok: true; agent: FoundAgent } | { ok: false; error: JobError };

/** Without a shell: `.cmd` and `.bat` are run by cmd.exe, which parses their arguments. */
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

/** The setting's path (absolute, executable), else PATH. Errors (`not_found`, `bad_setting`) say where it looked and the fix. */
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

/** Absolute PATH entries only; on Windows only `PATHEXT` extensions that are `.exe` or `.com`. */
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

/** In the picker's order. */
export async function findAgents(lookup: AgentLookup): Promise<FoundAgent[]> {
  const found = await Promise.all(AGENT_IDS.map((id) => locateAgent(id, lookup)));
  return found.flatMap((f) => (f.ok ? [f.agent] : []));
}

/** `name` is what Copilot Chat selects it by. */
export interface CustomAgent {
  readonly file: string;
  readonly name: string;
}

/** The same limit the export compares against. */
const MAX_AGENT_FILE_BYTES = 1024 * 1024;

/** `.github/agents/<id>.agent.md`, read for its `name`; undefined when absent or unparsable. */
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

export interface ContinueRequest extends PromptRequest {
  readonly agent: TerminalAgentId;
}

export type PromptOk = Extract<PromptOutcome, { status: 'ok' }>;

export type ContinueOutcome =
  | {
      status: 'ok';
      agent: FoundAgent;
      argv: string[];
      /** Null: the prompt is an argument. */
      stdin: string | null;
      cwd: string;
      prompt: PromptOk;
    }
  | JobError;

/** The agent is located first, so a missing agent changes nothing; the prompt marks a pending handoff accepted unless `take: false`. */
export async function prepareContinue(req: ContinueRequest, env: JobContext, lookup: AgentLookup): Promise<ContinueOutcome> {
  return runJob('preparing the agent', async () => {
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
  });
}

export type CursorLinkOutcome =
  { status: 'ok'; url: string; whole: boolean; prompt: PromptOk; opener: { executable: string; argv: string[] } | null } | JobError;

/** The prompt in Cursor's link when it fits, else a link asking to paste it from the clipboard (`whole: false`). Never throws. */
export async function prepareCursorLink(req: PromptRequest, env: JobContext, lookup: AgentLookup): Promise<CursorLinkOutcome> {
  return runJob('preparing the Cursor link', async () => {
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
  });
}
