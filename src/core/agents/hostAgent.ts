import type { SessionSource } from '../session/events';

/**
 * The VS Code forks whose own agent the session log reads, by the host's `vscode.env.uriScheme`: in such a fork the
 * user's session is most likely with that agent, so its store is looked up in the host's own user data folder (where a
 * portable install or `--user-data-dir` keeps it) and read before the others.
 */
const FORK_AGENTS: Readonly<Record<string, SessionSource>> = {
  cursor: 'cursor',
  windsurf: 'windsurf',
  antigravity: 'antigravity',
};

/** The session source of the fork's own agent; undefined in VS Code itself and in forks whose agent is not read. */
export function hostAgentSource(uriScheme: string): SessionSource | undefined {
  return Object.prototype.hasOwnProperty.call(FORK_AGENTS, uriScheme) ? FORK_AGENTS[uriScheme] : undefined;
}

/** The editor the extension runs in, when it is a fork whose own agent is read. */
export interface HostAgent {
  readonly source: SessionSource;
  /** The host's `User` folder (its settings, `globalStorage` and `workspaceStorage`); default: the agent's usual one. */
  readonly userDir?: string;
}
