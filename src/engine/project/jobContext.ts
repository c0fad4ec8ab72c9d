import type { HostAgent } from '../../core/agents/hostAgent';
import type { GitEvidence, RepositoryProbe } from '../../core/handoff/gitEvidence';
import type { SessionSource } from '../../core/session/events';
import type { SessionLogEvidence } from '../../evidence/session/collectSessionLog';
import type { SessionLocations } from '../../evidence/session/discovery';
import type { InteropSettings } from '../../store/interop/mirrors';

/** Where and how a handoff runs. Only `workspaceRoot` is required. */
export interface JobContext {
  readonly workspaceRoot: string;
  readonly handoffDirectory?: string;
  readonly now?: () => Date;
  readonly gitBinary?: string;
  readonly signal?: AbortSignal;
  readonly sessionId?: string;
  readonly baseCommit?: string | null;
  /** git's answers from finding the workspace, so the evidence does not ask again. */
  readonly gitProbe?: RepositoryProbe;
  readonly onGitStarted?: () => void;
  /** Called once the handoff will count no more tokens, so the CLI can free its tokenizer worker early; not called if it fails before. */
  readonly onCountingDone?: () => void;
  readonly evidence?: Promise<GitEvidence> | GitEvidence;
  readonly sessionBaseCommit?: string | null;
  readonly maxHandoverDepth?: number;
  readonly pendingWarnAfterMs?: number;
  /** An `agent` cannot confirm the hop guard, so it decides: past `maxHandoverDepth`, or back to a visited specialist with nothing changed, is refused. */
  readonly caller?: 'person' | 'agent';
  readonly interop?: InteropSettings;
  readonly userRequestTokens?: number;
  readonly sessionEvidence?: SessionLogEvidence;
  readonly sessionLog?: {
    /** `auto` (find the workspace's transcripts), `none`, or the path of one transcript. */
    readonly mode?: string;
    readonly sources?: readonly SessionSource[];
    readonly locations?: SessionLocations;
    readonly recorderFile?: string;
    readonly statePath?: string;
    readonly home?: string;
    readonly host?: HostAgent;
  };
}
