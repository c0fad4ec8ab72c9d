/**
 * "Continue in …": the agents a handoff can continue in, and how each takes the receiving
 * prompt as its first message. Pure: which agents there are, the argv each CLI gets (never a
 * shell string), the argument-size limits, and a POSIX quoting of that argv for
 * `specialist-handoff continue --print`. Finding an executable on PATH is the engine's
 * (src/engine/continue.ts); starting it is each surface's (a VS Code terminal, the CLI).
 *
 * How each CLI takes its first message, from its own documentation:
 * - Claude Code: `claude [prompt]` starts the interactive session with the prompt as its
 *   first message (docs.anthropic.com/en/docs/claude-code/cli-reference, "claude \"query\"").
 * - Codex CLI: `codex [PROMPT]` starts the interactive TUI with the prompt as its first
 *   message (github.com/openai/codex, docs/getting-started.md, "codex \"…\"").
 * - Gemini CLI: `gemini -i/--prompt-interactive <prompt>` runs the prompt and continues
 *   interactively (geminicli.com/docs/cli/cli-reference).
 * - Aider: `aider --message <text>` sends one message, processes the reply and exits
 *   (aider.chat/docs/config/options.html, "--message"); aider has no flag that keeps the
 *   chat open after a first message.
 * A `--` ends option parsing before a positional prompt, and option values are joined with
 * `=`, so a prompt starting with `-` is never read as an option.
 */

/** The agents that run in a terminal, by id (the CLI's `--agent` values). */
export const TERMINAL_AGENT_IDS = ['claude', 'codex', 'gemini', 'aider'] as const;

/** An agent that runs in a terminal: `claude`, `codex`, `gemini` or `aider`. */
export type TerminalAgentId = (typeof TERMINAL_AGENT_IDS)[number];

/** Every place a handoff can continue: Copilot Chat, a terminal agent, or the clipboard. */
export type ContinueTarget = 'copilot' | TerminalAgentId | 'copy';

/** Every {@link ContinueTarget}, in the order the picker offers them. */
export const CONTINUE_TARGETS: readonly ContinueTarget[] = ['copilot', ...TERMINAL_AGENT_IDS, 'copy'];

/** How an agent takes the prompt: as a command-line argument, or on standard input. */
export type PromptChannel = 'argument' | 'stdin';

/** What the product knows about one terminal agent. */
export interface TerminalAgent {
  readonly id: TerminalAgentId;
  /** The product's name, as the picker shows it: "Claude Code". */
  readonly label: string;
  /** The executable's name on PATH (without a Windows extension). */
  readonly executable: string;
  /** The VS Code setting holding the executable's path when it is not on PATH. */
  readonly setting: string;
  /** How the prompt reaches the agent (every agent today: an argument). */
  readonly channel: PromptChannel;
  /** Whether the agent exits after answering the first message (Aider's `--message`). */
  readonly exitsAfterFirstMessage: boolean;
  /** The arguments that start the agent with `prompt` as its first message. */
  readonly argv: (prompt: string) => string[];
}

/** The terminal agents, by id (see the file comment for each CLI's documented form). */
export const TERMINAL_AGENTS: Readonly<Record<TerminalAgentId, TerminalAgent>> = {
  claude: { id: 'claude', label: 'Claude Code', executable: 'claude', setting: 'handoff.agents.claude.path', channel: 'argument', exitsAfterFirstMessage: false, argv: (p) => ['--', p] },
  codex: { id: 'codex', label: 'Codex CLI', executable: 'codex', setting: 'handoff.agents.codex.path', channel: 'argument', exitsAfterFirstMessage: false, argv: (p) => ['--', p] },
  gemini: { id: 'gemini', label: 'Gemini CLI', executable: 'gemini', setting: 'handoff.agents.gemini.path', channel: 'argument', exitsAfterFirstMessage: false, argv: (p) => [`--prompt-interactive=${p}`] },
  aider: { id: 'aider', label: 'Aider', executable: 'aider', setting: 'handoff.agents.aider.path', channel: 'argument', exitsAfterFirstMessage: true, argv: (p) => [`--message=${p}`] },
};

/** The names of the non-terminal targets, as the picker shows them. */
export const TARGET_LABELS: Readonly<Record<ContinueTarget, string>> = {
  copilot: 'Copilot Chat',
  claude: TERMINAL_AGENTS.claude.label,
  codex: TERMINAL_AGENTS.codex.label,
  gemini: TERMINAL_AGENTS.gemini.label,
  aider: TERMINAL_AGENTS.aider.label,
  copy: 'Copy prompt',
};

/** Whether `value` is a terminal agent's id (the CLI's `--agent`, the setting `handoff.continueIn`). */
export function isTerminalAgentId(value: unknown): value is TerminalAgentId {
  return typeof value === 'string' && (TERMINAL_AGENT_IDS as readonly string[]).includes(value);
}

/** Whether `value` is a {@link ContinueTarget}. */
export function isContinueTarget(value: unknown): value is ContinueTarget {
  return typeof value === 'string' && (CONTINUE_TARGETS as readonly string[]).includes(value);
}

/**
 * The longest single argument the system passes to a program, in bytes of UTF-8: Linux's
 * MAX_ARG_STRLEN (32 pages of 4 KiB, the terminating NUL included) and macOS's ARG_MAX
 * (256 KiB for all arguments and the environment; a quarter kept for the environment);
 * Windows' CreateProcess takes a command line of at most 32,767 UTF-16 code units in all.
 */
export const ARGUMENT_LIMITS: Readonly<Record<'linux' | 'darwin' | 'win32' | 'other', { readonly bytes: number; readonly unit: 'bytes' | 'characters' }>> = {
  linux: { bytes: 131_072 - 1, unit: 'bytes' },
  darwin: { bytes: 196_608, unit: 'bytes' },
  win32: { bytes: 32_767 - 1024, unit: 'characters' },
  other: { bytes: 131_072 - 1, unit: 'bytes' },
};

/**
 * The command that starts `agent` with `prompt` as its first message: the arguments after
 * the executable, and, for an agent that reads standard input, the text to write there.
 * @returns `{ argv, stdin }`, or `{ error }` (the problem in words) when an argument is
 *   longer than the platform passes (see {@link ARGUMENT_LIMITS})
 */
export function agentCommand(agent: TerminalAgentId, prompt: string, platform: string): { argv: string[]; stdin: string | null } | { error: string } {
  const spec = TERMINAL_AGENTS[agent];
  if (spec.channel === 'stdin') return { argv: [], stdin: prompt };
  const argv = spec.argv(prompt);
  const limit = ARGUMENT_LIMITS[platform === 'linux' || platform === 'darwin' || platform === 'win32' ? platform : 'other'];
  const size = limit.unit === 'bytes' ? Math.max(...argv.map((a) => new TextEncoder().encode(a).length)) : argv.reduce((n, a) => n + a.length + 3, 0);
  if (size > limit.bytes) {
    return { error: `the prompt is ${size.toLocaleString('en-US')} ${limit.unit}, more than the ${limit.bytes.toLocaleString('en-US')} ${limit.unit} ${spec.label} can take as an argument on this system` };
  }
  return { argv, stdin: null };
}

/** Characters a POSIX shell word may hold unquoted (no expansion, no splitting, no globbing). */
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * One argument quoted for a POSIX shell (IEEE Std 1003.1, Shell Command Language §2.2.3):
 * unquoted when every character is plain, else in single quotes, each `'` written `'\''`.
 * Inside single quotes nothing is special, newlines included, so the shell reads back
 * exactly `arg`.
 */
export function posixQuote(arg: string): string {
  if (arg !== '' && SAFE_WORD.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line a POSIX shell runs to start `executable` with `argv` in `cwd`:
 * `cd -- '<cwd>' && '<executable>' '<arg>' …`, every word quoted by {@link posixQuote}.
 * What `specialist-handoff continue --print` prints.
 */
export function posixCommandLine(executable: string, argv: readonly string[], cwd?: string): string {
  const command = [executable, ...argv].map(posixQuote).join(' ');
  return cwd ? `cd -- ${posixQuote(cwd)} && ${command}` : command;
}
