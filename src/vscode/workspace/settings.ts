/**
 * Typed access to the extension's settings (`handoff.*`) and the folder a command works
 * on (whether the workspace is trusted is src/vscode/workspace/trust.ts).
 */
import * as vscode from 'vscode';
import { DEFAULT_MAX_HANDOVER_DEPTH, MAX_HOP_DEPTH } from '../../core/handoff/compose';
import { DEFAULT_INCLUDE_RECENT_TURNS, DEFAULT_MAX_CONTEXT_TOKENS, DEFAULT_USER_REQUEST_TOKENS } from '../../core/handoff/request';
import { TokenizerNameSchema, type TokenizerName } from '../../core/handoff/schema';
import { SESSION_SOURCES, type SessionSource } from '../../core/session/events';
import { MAX_VERIFY_TIMEOUT_MS } from '../../engine/receive/verify';
import { parsePendingWarnAfter } from '../../core/timeline/waiting';
import { DEFAULT_HANDOFF_DIRECTORY, type InteropMode, type InteropSettings, type SessionLocations } from '../../engine/project/settings';
import { Config } from '../constants';

/** The extension's settings for one workspace folder, with defaults applied. */
export interface HandoffSettings {
  /** `handoff.directory`: handoff root relative to the folder (default `.handoff`). */
  readonly directory: string;
  /** `handoff.maxContextTokens`: token budget of a handoff (default 3,000 tokens). */
  readonly maxContextTokens: number;
  /** `handoff.includeRecentTurns`: recent turns kept (default 5). */
  readonly includeRecentTurns: number;
  /** `handoff.userRequestTokens`: tokens of the user's requests kept, newest first (default 1,500; the latest always). */
  readonly userRequestTokens: number;
  /** `handoff.tokenizer`: encoding the budget is counted in (default `o200k_base`). */
  readonly tokenizer: TokenizerName;
  /** git executable from the built-in git extension's `git.path`, when it names one. */
  readonly gitPath: string | undefined;
  /** `handoff.maxHandoverDepth`: hops before the hop guard asks for a confirmation (default 3). */
  readonly maxHandoverDepth: number;
  /** `handoff.sessionLog.sources`: the session-log readers used (default all). */
  readonly sessionLogSources: SessionSource[];
  /** `handoff.sessionLog.locations`: folder overrides per reader. */
  readonly sessionLogLocations: SessionLocations;
  /** `handoff.interop.itervox` and `handoff.interop.agentZero`: `auto` (default) or `off`; pass as `HandoverEnvironment.interop`. */
  readonly interop: Required<InteropSettings>;
  /** `handoff.verify.timeoutSeconds`: seconds each command "Handoff: Verify" re-runs may take before it is stopped (default {@link DEFAULT_VERIFY_TIMEOUT_SECONDS}, at most 86,400: the engine's `MAX_VERIFY_TIMEOUT_MS`). */
  readonly verifyTimeoutSeconds: number;
  /** `handoff.pendingWarnAfter` in ms: how long a handoff may wait for a pick-up or an answer before the timeline and the prompt warn (default 2 days; 0: `off`). */
  readonly pendingWarnAfterMs: number;
  /** Why `handoff.pendingWarnAfter` was not used (the default is), naming the setting and the fix; undefined when it is valid. */
  readonly pendingWarnAfterProblem?: string;
}

/** Default of `handoff.verify.timeoutSeconds`: 600 seconds (10 minutes) per re-run command, the engine's default (docs/DESIGN.md §9 "Verify on receipt"). */
export const DEFAULT_VERIFY_TIMEOUT_SECONDS = 600;

/** Setting keys of the interop copies (`handoff.interop.*`), under {@link Config.section}. */
export const InteropConfig = {
  itervox: 'interop.itervox',
  agentZero: 'interop.agentZero',
} as const;

/** An interop setting's value: `off` only when it says so, else `auto` (the default). */
function interopMode(value: unknown): InteropMode {
  return value === 'off' ? 'off' : 'auto';
}

const LOCATION_KEYS: Record<string, keyof SessionLocations> = {
  claudeCode: 'claude-code',
  codex: 'codex',
  aider: 'aider',
  cline: 'cline',
  roo: 'roo',
  kilo: 'kilo',
  specstory: 'specstory',
  copilot: 'copilot',
  gemini: 'gemini',
  opencode: 'opencode',
  copilotCli: 'copilot-cli',
  qwen: 'qwen',
  droid: 'droid',
};

function readLocations(value: unknown): SessionLocations {
  const out: SessionLocations = {};
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const key = LOCATION_KEYS[k];
      if (key && typeof v === 'string' && v.trim()) {
        out[key] = v.trim();
      }
    }
  }
  return out;
}

function positiveInt(value: unknown, fallback: number, min: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min ? value : fallback;
}

/**
 * Reads the settings for `folder` (resource-scoped), replacing invalid values by defaults.
 * Without a folder they are read for no particular resource (`null`, as VS Code asks: it
 * logs "Accessing a resource scoped configuration without providing a resource" otherwise).
 */
export function readSettings(folder?: vscode.WorkspaceFolder): HandoffSettings {
  const cfg = vscode.workspace.getConfiguration(Config.section, folder ?? null);
  const tokenizer = TokenizerNameSchema.safeParse(cfg.get(Config.tokenizer));
  const gitPath = vscode.workspace.getConfiguration('git').get<unknown>('path');
  return {
    directory: cfg.get<string>(Config.directory) || DEFAULT_HANDOFF_DIRECTORY,
    maxContextTokens: positiveInt(cfg.get(Config.maxContextTokens), DEFAULT_MAX_CONTEXT_TOKENS, 1),
    includeRecentTurns: positiveInt(cfg.get(Config.includeRecentTurns), DEFAULT_INCLUDE_RECENT_TURNS, 0),
    userRequestTokens: positiveInt(cfg.get(Config.userRequestTokens), DEFAULT_USER_REQUEST_TOKENS, 0),
    tokenizer: tokenizer.success ? tokenizer.data : 'o200k_base',
    gitPath: typeof gitPath === 'string' && gitPath.trim() ? gitPath.trim() : undefined,
    maxHandoverDepth: Math.min(MAX_HOP_DEPTH, positiveInt(cfg.get(Config.maxHandoverDepth), DEFAULT_MAX_HANDOVER_DEPTH, 1)),
    sessionLogSources: (() => {
      const v = cfg.get<unknown>(Config.sessionLogSources);
      return Array.isArray(v) ? v.filter((x): x is SessionSource => SESSION_SOURCES.includes(x as SessionSource)) : [...SESSION_SOURCES];
    })(),
    sessionLogLocations: readLocations(cfg.get<unknown>(Config.sessionLogLocations)),
    interop: { itervox: interopMode(cfg.get(InteropConfig.itervox)), agentZero: interopMode(cfg.get(InteropConfig.agentZero)) },
    verifyTimeoutSeconds: Math.min(MAX_VERIFY_TIMEOUT_MS / 1000, positiveInt(cfg.get(Config.verifyTimeoutSeconds), DEFAULT_VERIFY_TIMEOUT_SECONDS, 1)),
    ...pendingWarnAfter(cfg.get<unknown>(Config.pendingWarnAfter)),
  };
}

/** `handoff.pendingWarnAfter` read ({@link parsePendingWarnAfter}): the ms, and the problem when a bad value fell back to the default. */
function pendingWarnAfter(value: unknown): Pick<HandoffSettings, 'pendingWarnAfterMs' | 'pendingWarnAfterProblem'> {
  const read = parsePendingWarnAfter(value, `"${Config.section}.${Config.pendingWarnAfter}"`);
  return read.ok ? { pendingWarnAfterMs: read.ms } : { pendingWarnAfterMs: read.ms, pendingWarnAfterProblem: `${read.problem} — ${read.fix}` };
}

/** The folder a handoff is for: the active editor's folder, else the first folder; undefined when none is open. */
export function currentFolder(): vscode.WorkspaceFolder | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  const fromEditor = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  return fromEditor ?? vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
}
