/**
 * "Continue in …": the agents a handoff can continue in, and how each takes the receiving
 * prompt as its first message. Pure: which agents there are, the argv each CLI gets (never a
 * shell string), the argument-size limits, Cursor's prompt link, and a POSIX quoting of that
 * argv for `specialist-handoff continue --print`. Finding an executable on PATH is the
 * engine's (src/engine/continue.ts); starting it is each surface's (a VS Code terminal, the CLI).
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
 * - GitHub Copilot CLI: `copilot -i/--interactive <prompt>` starts an interactive session and
 *   runs the prompt (GitHub Copilot CLI command reference).
 * - Qwen Code: `qwen --prompt-interactive <prompt>` runs the prompt and continues in
 *   interactive mode (Qwen Code CLI overview; a bare positional prompt runs once and exits).
 * - OpenCode: `opencode --prompt <prompt>` starts the TUI with the prompt (opencode.ai/docs/cli, `tui`).
 * - Amp: `amp -x/--execute <prompt>` sends the prompt, prints the final answer and exits
 *   (Amp owner's manual, CLI); its interactive mode takes a first message only on standard
 *   input, which a terminal of the editor cannot carry, so Amp, like Aider, answers and exits.
 * - Kiro CLI: `kiro-cli chat [INPUT]` starts the chat with INPUT as the first question
 *   (kiro.dev CLI commands reference; `--no-interactive` would make it one-shot).
 * - Factory Droid: `droid "query"` starts the REPL with the initial prompt
 *   (docs.factory.ai CLI reference).
 * - Goose: `goose run --text <text> --interactive` processes the text, then continues in
 *   interactive mode (goose CLI commands, `run`).
 * - Cursor: its prompt deeplink `cursor://anysphere.cursor-deeplink/prompt?text=<text>` opens
 *   Cursor's chat with the prompt filled in, not sent (Cursor docs, Deeplinks); a link is at
 *   most {@link CURSOR_LINK_MAX_CHARS} characters.
 * A `--` ends option parsing before a positional prompt, and option values are joined with
 * `=`, so a prompt starting with `-` is never read as an option.
 */

/** The agents that run in a terminal, by id (the CLI's `--agent` values). */
export const TERMINAL_AGENT_IDS = ['claude', 'codex', 'gemini', 'aider', 'copilot-cli', 'qwen', 'opencode', 'amp', 'kiro', 'droid', 'goose'] as const;

/** An agent that runs in a terminal: `claude`, `codex`, `gemini`, `aider`, `copilot-cli`, `qwen`, `opencode`, `amp`, `kiro`, `droid` or `goose`. */
export type TerminalAgentId = (typeof TERMINAL_AGENT_IDS)[number];

/** Every agent with an executable to find: the terminal agents, and Cursor (found by its `cursor` command, reached by its prompt link). */
export type AgentId = TerminalAgentId | 'cursor';

/** Every place a handoff can continue: Copilot Chat, Cursor's chat, a terminal agent, or the clipboard. */
export type ContinueTarget = 'copilot' | 'cursor' | TerminalAgentId | 'copy';

/** Every {@link ContinueTarget}, in the order the picker offers them. */
export const CONTINUE_TARGETS: readonly ContinueTarget[] = ['copilot', 'cursor', ...TERMINAL_AGENT_IDS, 'copy'];

/** How an agent takes the prompt: as a command-line argument, or on standard input. */
export type PromptChannel = 'argument' | 'stdin';

/** An agent's executable: its name, the product's name and the VS Code setting naming its path. */
export interface AgentExecutable {
  readonly id: AgentId;
  /** The product's name, as the picker shows it: "Claude Code". */
  readonly label: string;
  /** The executable's name on PATH (without a Windows extension). */
  readonly executable: string;
  /** The VS Code setting holding the executable's path when it is not on PATH. */
  readonly setting: string;
}

/** What the product knows about one terminal agent. */
export interface TerminalAgent extends AgentExecutable {
  readonly id: TerminalAgentId;
  /** How the prompt reaches the agent (every agent today: an argument). */
  readonly channel: PromptChannel;
  /** Whether the agent exits after answering the first message (Aider's `--message`, Amp's `--execute`). */
  readonly exitsAfterFirstMessage: boolean;
  /** The arguments that start the agent with `prompt` as its first message. */
  readonly argv: (prompt: string) => string[];
}

const agent = (id: TerminalAgentId, label: string, executable: string, setting: string, argv: (p: string) => string[], exitsAfterFirstMessage = false): TerminalAgent => ({
  id,
  label,
  executable,
  setting: `handoff.agents.${setting}.path`,
  channel: 'argument',
  exitsAfterFirstMessage,
  argv,
});

/** The terminal agents, by id (see the file comment for each CLI's documented form). */
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

/** Cursor: found by its `cursor` command (or running inside Cursor), reached by its prompt link ({@link cursorPromptLink}). */
export const CURSOR_AGENT: AgentExecutable = { id: 'cursor', label: 'Cursor', executable: 'cursor', setting: 'handoff.agents.cursor.path' };

/** Every agent's executable, by id. */
export const AGENT_EXECUTABLES: Readonly<Record<AgentId, AgentExecutable>> = { ...TERMINAL_AGENTS, cursor: CURSOR_AGENT };

/** Every agent with an executable, in the picker's order. */
export const AGENT_IDS: readonly AgentId[] = ['cursor', ...TERMINAL_AGENT_IDS];

/** Each target's name, as the picker shows it. */
export const TARGET_LABELS: Readonly<Record<ContinueTarget, string>> = {
  copilot: 'Copilot Chat',
  cursor: CURSOR_AGENT.label,
  ...(Object.fromEntries(TERMINAL_AGENT_IDS.map((id) => [id, TERMINAL_AGENTS[id].label])) as Record<TerminalAgentId, string>),
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

/** Most characters of a Cursor link, the link whole (Cursor docs, Deeplinks: 8,000). */
export const CURSOR_LINK_MAX_CHARS = 8_000;

/** The start of Cursor's prompt link, before the URL-encoded text. */
export const CURSOR_PROMPT_LINK = 'cursor://anysphere.cursor-deeplink/prompt?text=';

/**
 * Cursor's prompt link for `prompt` (the text URL-encoded as `encodeURIComponent` does); when
 * that link is longer than {@link CURSOR_LINK_MAX_CHARS}, the link for `short` instead
 * (`whole: false`), for a surface that puts the prompt on the clipboard.
 * @returns the link and whether it carries the whole prompt; `{ error }` when even `short` does not fit
 */
export function cursorPromptLink(prompt: string, short: string): { url: string; whole: boolean } | { error: string } {
  const whole = CURSOR_PROMPT_LINK + encodeURIComponent(prompt);
  if (whole.length <= CURSOR_LINK_MAX_CHARS) return { url: whole, whole: true };
  const pointer = CURSOR_PROMPT_LINK + encodeURIComponent(short);
  if (pointer.length <= CURSOR_LINK_MAX_CHARS) return { url: pointer, whole: false };
  return { error: `a Cursor link holds at most ${CURSOR_LINK_MAX_CHARS.toLocaleString('en-US')} characters` };
}

/**
 * The program that hands a link to the desktop's handler for its scheme, started with the link
 * as its one argument: `xdg-open` (freedesktop.org xdg-utils) on Linux and the BSDs, `open` on
 * macOS. Windows has none that takes a link without a shell (`start` is a command of cmd.exe).
 * @returns the executable's name and its argv, or undefined on a platform without one
 */
export function linkOpener(platform: string): { readonly executable: string; readonly argv: (url: string) => string[] } | undefined {
  if (platform === 'darwin') return { executable: 'open', argv: (url) => [url] };
  if (['linux', 'freebsd', 'openbsd', 'netbsd'].includes(platform)) return { executable: 'xdg-open', argv: (url) => [url] };
  return undefined;
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
