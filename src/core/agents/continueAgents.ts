// The agents a handoff can continue in and the argv each takes its first message in (never a shell string), per each CLI's reference.
// Aider and Amp answer and exit: neither has an argument form that keeps the chat open. Qwen's bare prompt runs once, hence
// `--prompt-interactive`. `--` ends options before a positional prompt and values are joined with `=`, so a leading `-` is never an option.

export const TERMINAL_AGENT_IDS = ['claude', 'codex', 'gemini', 'aider', 'copilot-cli', 'qwen', 'opencode', 'amp', 'kiro', 'droid', 'goose'] as const;

export type TerminalAgentId = (typeof TERMINAL_AGENT_IDS)[number];

export type AgentId = TerminalAgentId | 'cursor';

/** Copilot Chat, Cursor's chat, a terminal agent, or the clipboard (`copy`). */
export type ContinueTarget = 'copilot' | 'cursor' | TerminalAgentId | 'copy';

/** In the picker's order. */
export const CONTINUE_TARGETS: readonly ContinueTarget[] = ['copilot', 'cursor', ...TERMINAL_AGENT_IDS, 'copy'];

export type PromptChannel = 'argument' | 'stdin';

export interface AgentExecutable {
  readonly id: AgentId;
  readonly label: string;
  readonly executable: string;
  /** Holds the executable's path when it is not on PATH. */
  readonly setting: string;
}

export interface TerminalAgent extends AgentExecutable {
  readonly id: TerminalAgentId;
  readonly channel: PromptChannel;
  readonly exitsAfterFirstMessage: boolean;
  readonly argv: (prompt: string) => string[];
}

const agent = (
  id: TerminalAgentId,
  label: string,
  executable: string,
  setting: string,
  argv: (p: string) => string[],
  exitsAfterFirstMessage = false,
): TerminalAgent => ({
  id,
  label,
  executable,
  setting: `handoff.agents.${setting}.path`,
  channel: 'argument',
  exitsAfterFirstMessage,
  argv,
});

export const TERMINAL_AGENTS: Readonly<Record<TerminalAgentId, TerminalAgent>> = {
  claude: agent('claude', 'Claude Code', 'claude', 'claude', (p) => ['--', p]),
  codex: agent('codex', 'Codex CLI', 'codex', 'codex', (p) => ['--', p]),
  gemini: agent('gemini', 'Gemini CLI', 'gemini', 'gemini', (p) => [`--prompt-interactive=${p}`]),
  aider: agent('aider', 'Aider', 'aider', 'aider', (p) => [`--message=${p}`], true),
  'copilot-cli': agent('copilot-cli', 'GitHub Copilot CLI', 'copilot', 'copilotCli', (p) => [`--interactive=${p}`]),
  qwen: agent('qwen', 'Qwen Code', 'qwen', 'qwen', (p) => [`--prompt-interactive=${p}`]),
  opencode: agent('opencode', 'OpenCode', 'opencode', 'opencode', (p) => [`--prompt=${p}`]),
  amp: agent('amp', 'Amp', 'amp', 'amp', (p) => [`--execute=${p}`], true),
  kiro: agent('kiro', 'Kiro CLI', 'kiro-cli', 'kiro', (p) => ['chat', '--', p]),
  droid: agent('droid', 'Factory Droid', 'droid', 'droid', (p) => ['--', p]),
  goose: agent('goose', 'Goose', 'goose', 'goose', (p) => ['run', '--interactive', `--text=${p}`]),
};

/** Found by its `cursor` command (or by running inside Cursor), reached by its prompt link. */
export const CURSOR_AGENT: AgentExecutable = { id: 'cursor', label: 'Cursor', executable: 'cursor', setting: 'handoff.agents.cursor.path' };

export const AGENT_EXECUTABLES: Readonly<Record<AgentId, AgentExecutable>> = { ...TERMINAL_AGENTS, cursor: CURSOR_AGENT };

/** In the picker's order. */
export const AGENT_IDS: readonly AgentId[] = ['cursor', ...TERMINAL_AGENT_IDS];

export const TARGET_LABELS: Readonly<Record<ContinueTarget, string>> = {
  copilot: 'Copilot Chat',
  cursor: CURSOR_AGENT.label,
  ...(Object.fromEntries(TERMINAL_AGENT_IDS.map((id) => [id, TERMINAL_AGENTS[id].label])) as Record<TerminalAgentId, string>),
  copy: 'Copy prompt',
};

/** The CLI's `--agent`, the setting `handoff.continueIn`. */
export function isTerminalAgentId(value: unknown): value is TerminalAgentId {
  return typeof value === 'string' && (TERMINAL_AGENT_IDS as readonly string[]).includes(value);
}

export function isContinueTarget(value: unknown): value is ContinueTarget {
  return typeof value === 'string' && (CONTINUE_TARGETS as readonly string[]).includes(value);
}

/** Linux MAX_ARG_STRLEN (128 KiB with the NUL); macOS ARG_MAX less a quarter for the environment; Windows: UTF-16 units for the whole command line. */
export const ARGUMENT_LIMITS: Readonly<Record<'linux' | 'darwin' | 'win32' | 'other', { readonly bytes: number; readonly unit: 'bytes' | 'characters' }>> = {
  linux: { bytes: 131_072 - 1, unit: 'bytes' },
  darwin: { bytes: 196_608, unit: 'bytes' },
  win32: { bytes: 32_767 - 1024, unit: 'characters' },
  other: { bytes: 131_072 - 1, unit: 'bytes' },
};

/** @returns `{ error }` in words when an argument is longer than the platform passes ({@link ARGUMENT_LIMITS}). */
export function agentCommand(agent: TerminalAgentId, prompt: string, platform: string): { argv: string[]; stdin: string | null } | { error: string } {
  const spec = TERMINAL_AGENTS[agent];
  if (spec.channel === 'stdin') return { argv: [], stdin: prompt };
  const argv = spec.argv(prompt);
  const limit = ARGUMENT_LIMITS[platform === 'linux' || platform === 'darwin' || platform === 'win32' ? platform : 'other'];
  const size = limit.unit === 'bytes' ? Math.max(...argv.map((a) => new TextEncoder().encode(a).length)) : argv.reduce((n, a) => n + a.length + 3, 0);
  if (size > limit.bytes) {
    return {
      error: `the prompt is ${size.toLocaleString('en-US')} ${limit.unit}, more than the ${limit.bytes.toLocaleString('en-US')} ${limit.unit} ${spec.label} can take as an argument on this system`,
    };
  }
  return { argv, stdin: null };
}

/** The whole link (Cursor docs, Deeplinks); the link fills Cursor's chat in without sending it. */
export const CURSOR_LINK_MAX_CHARS = 8_000;

export const CURSOR_PROMPT_LINK = 'cursor://anysphere.cursor-deeplink/prompt?text=';

/** Falls back to the link for `short` (`whole: false`) when `prompt`'s is too long; `{ error }` when even that does not fit. */
export function cursorPromptLink(prompt: string, short: string): { url: string; whole: boolean } | { error: string } {
  const whole = CURSOR_PROMPT_LINK + encodeURIComponent(prompt);
  if (whole.length <= CURSOR_LINK_MAX_CHARS) return { url: whole, whole: true };
  const pointer = CURSOR_PROMPT_LINK + encodeURIComponent(short);
  if (pointer.length <= CURSOR_LINK_MAX_CHARS) return { url: pointer, whole: false };
  return { error: `a Cursor link holds at most ${CURSOR_LINK_MAX_CHARS.toLocaleString('en-US')} characters` };
}

/** `xdg-open` or `open`; undefined on Windows, whose `start` needs a shell. */
export function linkOpener(platform: string): { readonly executable: string; readonly argv: (url: string) => string[] } | undefined {
  if (platform === 'darwin') return { executable: 'open', argv: (url) => [url] };
  if (['linux', 'freebsd', 'openbsd', 'netbsd'].includes(platform)) return { executable: 'xdg-open', argv: (url) => [url] };
  return undefined;
}

/** Characters a POSIX shell word may hold unquoted (no expansion, no splitting, no globbing). */
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Single-quoted unless plain (POSIX Shell Command Language §2.2.3): nothing inside single quotes is special, newlines included. */
export function posixQuote(arg: string): string {
  if (arg !== '' && SAFE_WORD.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** `cd -- '<cwd>' && '<executable>' '<arg>' …`: what `specialist-handoff continue --print` prints. */
export function posixCommandLine(executable: string, argv: readonly string[], cwd?: string): string {
  const command = [executable, ...argv].map(posixQuote).join(' ');
  return cwd ? `cd -- ${posixQuote(cwd)} && ${command}` : command;
}
