/**
 * The environment of an engine job: where and how a handoff (or a prompt, a hand-back,
 * an agent call) runs — the workspace folder, its settings, the clock, git, the session
 * log and who asks. Every entry point builds one and passes it to the jobs
 * (docs/ARCHITECTURE.md, "The front door").
 */
import type { GitEvidence, RepositoryProbe } from '../../core/handoff/gitEvidence';
import type { SessionSource } from '../../core/session/events';
import type { SessionLogEvidence } from '../../evidence/session/collectSessionLog';
import type { SessionLocations } from '../../evidence/session/discovery';
import type { InteropSettings } from '../../store/interop/mirrors';

/** Where and how a handoff runs. Only `workspaceRoot` is required. */
export interface HandoverEnvironment {
  /** Absolute path of the workspace folder (the project root). */
  readonly workspaceRoot: string;
  /** `handoff.directory` setting, relative to the workspace folder; default `.handoff`. */
  readonly handoffDirectory?: string;
  /** Clock, for tests; default `() => new Date()`. */
  readonly now?: () => Date;
  /** git executable (VS Code's `git.path`); default `git` on PATH. */
  readonly gitBinary?: string;
  /** Cancels evidence collection. */
  readonly signal?: AbortSignal;
  /** Session id to record; default the request's `session_id`, else a new UUID. */
  readonly sessionId?: string;
  /** Overrides the base commit (the session recorder's); default the latest handoff's HEAD. */
  readonly baseCommit?: string | null;
  /**
   * git's first answers about `workspaceRoot`'s working tree, when finding the workspace
   * already asked them (src/engine/project/project.ts `workspaceFolderOf`: the CLI, the hook); the
   * evidence then starts from them instead of asking again. Default: asked.
   */
  readonly gitProbe?: RepositoryProbe;
  /**
   * Called once the evidence's git processes have been asked for, or when collecting ends
   * without them (src/evidence/git/collectGit.ts `GitEvidenceOptions.onGitStarted`): the hook
   * starts loading its secret scan then, to run beside git rather than before it.
   */
  readonly onGitStarted?: () => void;
  /**
   * Called once the handoff will count no more tokens: measured, fitted and its history file
   * written, before the briefing is written. The CLI ends its tokenizer's worker thread then
   * (src/engine/tokenizers/tokenizer.ts `releaseEncodings`), so the thread's heap is freed while the
   * files are written rather than as the process exits. Not called when the
   * handover fails before that point.
   */
  readonly onCountingDone?: () => void;
  /** Evidence already collected (the command collects while the user types); default: collect now. */
  readonly evidence?: Promise<GitEvidence> | GitEvidence;
  /** The base commit of the recorded session (HEAD when recording began), used when no earlier handoff gives one. */
  readonly sessionBaseCommit?: string | null;
  /** `handoff.maxHandoverDepth`: hops before the hop guard asks for a confirmation (default 3). */
  readonly maxHandoverDepth?: number;
  /** `handoff.pendingWarnAfter` in ms: a handoff of the chain waiting longer for a pick-up or an answer gets a line in the receiving prompt (default 2 days; 0: none). */
  readonly pendingWarnAfterMs?: number;
  /**
   * Who asks: `person` (default: the panel, the palette, the CLI) or `agent` (the language
   * model tool, the MCP server, the chat participant). An agent cannot confirm the hop
   * guard, so for it the guard decides: a hop past `maxHandoverDepth` is refused, and a
   * return to a specialist the chain already visited is refused when nothing changed since
   * (same HEAD and diff hash: the progress guard), allowed and recorded otherwise.
   */
  readonly caller?: 'person' | 'agent';
  /**
   * Copies into other tools' folders once the handoff is written (`src/store/interop/mirrors.ts`):
   * `handoff.interop.itervox` / `handoff.interop.agentZero`, each `auto` (when `.itervox/`
   * or `.a0proj/` exists; the default when absent) or `off`.
   */
  readonly interop?: InteropSettings;
  /**
   * `handoff.userRequestTokens`: tokens of the user's requests a handoff keeps, newest first
   * (default 1,500: `DEFAULT_USER_REQUEST_TOKENS`); the latest request is kept even alone over it.
   */
  readonly userRequestTokens?: number;
  /** Session-log evidence already read (the panel reads it once and reuses it while the user types). */
  readonly sessionEvidence?: SessionLogEvidence;
  /** Session-log reading (docs/DESIGN.md §6); absent: no session log is read. */
  readonly sessionLog?: {
    /** `auto` (find the workspace's transcripts), `none`, or the path of one transcript. Default `auto`. */
    readonly mode?: string;
    /** Readers to use; default all. */
    readonly sources?: readonly SessionSource[];
    /** Location overrides per reader. */
    readonly locations?: SessionLocations;
    /** The recorder file of the current session (the extension's). */
    readonly recorderFile?: string;
    /** Where the per-file read offsets live between handoffs; absent: everything is read each time. */
    readonly statePath?: string;
    /** Home folder for the default locations (tests). */
    readonly home?: string;
  };
}
