/** Typed access to the `handoff.*` settings and the folder a command works on. */
import * as vscode from 'vscode';
import { DEFAULT_MAX_HANDOVER_DEPTH, MAX_HOP_DEPTH } from '../../core/handoff/compose';
import { DEFAULT_INCLUDE_RECENT_TURNS, DEFAULT_MAX_CONTEXT_TOKENS, DEFAULT_USER_REQUEST_TOKENS } from '../../core/handoff/request';
import { TokenizerNameSchema, type TokenizerName } from '../../core/handoff/schema';
import { SESSION_SOURCES, type SessionSource } from '../../core/session/events';
import { MAX_VERIFY_TIMEOUT_MS } from '../../engine/receive/verify';
import { parsePendingWarnAfter } from '../../core/timeline/waiting';
import { DEFAULT_HANDOFF_DIRECTORY, type InteropMode, type InteropSettings, type SessionLocations } from '../../engine/project/settings';
import { Config } from '../constants';

/** `handoff.*` settings of one folder, defaults applied. */
export interface HandoffSettings {
  readonly directory: string;
  readonly maxContextTokens: number;
  readonly includeRecentTurns: number;
  /** Newest first; the latest request is always kept. */
  readonly userRequestTokens: number;
  readonly tokenizer: TokenizerName;
  /** From the git extension's `git.path`. */
  readonly gitPath: string | undefined;
  readonly maxHandoverDepth: number;
  readonly sessionLogSources: SessionSource[];
  readonly sessionLogLocations: SessionLocations;
  readonly interop: Required<InteropSettings>;
  readonly verifyTimeoutSeconds: number;
  /** 0 means off. */
  readonly pendingWarnAfterMs: number;
  /** Why `handoff.pendingWarnAfter` fell back to the default; undefined when valid. */
  readonly pendingWarnAfterProblem?: string;
}

/** Seconds per re-run command, the engine's default. */
export const DEFAULT_VERIFY_TIMEOUT_SECONDS = 600;

export const InteropConfig = {
  itervox: 'interop.itervox',
  agentZero: 'interop.agentZero',
} as const;

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
  continue: 'continue',
  cursor: 'cursor',
  amp: 'amp',
  goose: 'goose',
  zed: 'zed',
  kiro: 'kiro',
  windsurf: 'windsurf',
  antigravity: 'antigravity',
  kiroSessions: 'kiro-sessions',
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
 * Invalid values fall back to defaults. Without a folder, reads for `null`: VS Code warns about
 * resource-scoped settings read with no resource otherwise.
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

function pendingWarnAfter(value: unknown): Pick<HandoffSettings, 'pendingWarnAfterMs' | 'pendingWarnAfterProblem'> {
  const read = parsePendingWarnAfter(value, `"${Config.section}.${Config.pendingWarnAfter}"`);
  return read.ok ? { pendingWarnAfterMs: read.ms } : { pendingWarnAfterMs: read.ms, pendingWarnAfterProblem: `${read.problem} — ${read.fix}` };
}

/** The active editor's folder, else the first `file:` folder. */
export function currentFolder(): vscode.WorkspaceFolder | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  const fromEditor = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  return fromEditor ?? vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
}
