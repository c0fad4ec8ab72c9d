// Which reader reads a transcript (by the format found in its content, else by its agent) and which finder discovers each
// agent's sessions for a workspace (docs/DESIGN.md §6).
import type { HostAgent } from '../../core/agents/hostAgent';
import { SESSION_SOURCES, type SessionSource, type TranscriptRead } from '../../core/session/events';
import { readAider, readAiderInputHistory } from './readers/aider';
import { readClaudeCode } from './readers/claudeCode';
import { readClineTask } from './readers/cline';
import { readClineApiHistory } from './readers/clineApi';
import { readCodex } from './readers/codex';
import { readCopilotSession } from './readers/copilot';
import { readCopilotCli, readCopilotCliHistory } from './readers/copilotCli';
import { readCursor } from './readers/cursor';
import { isCursorDbRef, readCursorDb } from './readers/cursorDb';
import { readCursorCli } from './readers/cursorCli';
import { readDroid } from './readers/droid';
import { readWindsurf } from './readers/windsurf';
import { readContinue } from './readers/continueSession';
import { readAmp } from './readers/amp';
import { readGooseSession } from './readers/gooseDb';
import { isSqliteFile } from './readers/sqliteFile';
import { readQwen } from './readers/qwen';
import { readAntigravity } from './readers/antigravity';
import { readZedDb } from './readers/zedDb';
import { readKiroSave } from './readers/kiroCli';
import { readKiroDb } from './readers/kiroCliDb';
import { readKiroSession } from './readers/kiroSession';
import { readKiroSessionExport } from './readers/kiroSessionExport';
import { readGemini } from './readers/gemini';
import { readOpenCode } from './readers/opencode';
import { readOpenCodeExport } from './readers/opencodeExport';
import { readSpecStory } from './readers/specstory';
import type { ReaderOptions } from './readers/common';
import { detectTranscript, sourceOfFormat, type DetectedTranscript, type TranscriptFormat } from './detect';
import { readRecorder } from './recorderLog';
import {
  cursorUserDir,
  defaultLocations,
  findAider,
  findClaudeCode,
  findClineTasks,
  findCodex,
  findCopilot,
  findSpecStory,
  type FoundTranscript,
  type SessionLocations,
} from './discovery';
import { findGemini, findOpenCode } from './discoveryGeminiOpenCode';
import {
  findAmp,
  findAntigravity,
  findContinue,
  findCopilotCli,
  findCursor,
  findDroid,
  findGoose,
  findKiro,
  findQwen,
  findWindsurf,
  findZed,
} from './discoveryCliAgents';

export interface DiscoverOptions {
  readonly workspaceRoot: string;
  /** Default all. */
  readonly sources?: readonly SessionSource[];
  readonly locations?: SessionLocations;
  /** Default: the user's home folder. */
  readonly home?: string;
  /** The VS Code fork the extension runs in, when its own agent is read: found first, in the host's own folder. */
  readonly host?: HostAgent;
}

/** Never throws. */
export type Reader = (file: string, opts: ReaderOptions) => Promise<TranscriptRead>;

/** By the format found in the content, else by the source; JSONL / Markdown from an offset, JSON documents whole. */
export function reader(t: FoundTranscript): Reader {
  switch (t.format) {
    case 'aider-input':
      return readAiderInputHistory;
    case 'aider-chat':
      return readAider;
    case 'cline-api':
      return (f, o) => readClineApiHistory(f, { ...o, source: t.source });
    case 'opencode-export':
      return readOpenCodeExport;
    case 'copilot-cli-history':
      return readCopilotCliHistory;
    case 'kiro-session':
      return readKiroSession;
    case 'kiro-session-export':
      return readKiroSessionExport;
    case 'cline-metadata':
      // Holds no conversation (the detection note says so): nothing to read.
      return async (f) => ({ source: t.source, file: f, events: [], stats: { lines: 0, malformed: 0, skipped: 0, invalid_utf8: 0 }, end_offset: 0 });
  }
  switch (t.source) {
    case 'claude-code':
      return readClaudeCode;
    case 'codex':
      return readCodex;
    case 'aider':
      return (f, o) => (f.endsWith('.aider.input.history') ? readAiderInputHistory(f, o) : readAider(f, o));
    case 'cline':
    case 'roo':
    case 'kilo':
      return (f, o) => readClineTask(f, { ...o, source: t.source });
    case 'specstory':
      return readSpecStory;
    case 'copilot':
      return readCopilotSession;
    case 'recorder':
      return readRecorder;
    case 'gemini':
      return readGemini;
    case 'opencode':
      return readOpenCode;
    case 'copilot-cli':
      return (f, o) => (f.endsWith('.json') ? readCopilotCliHistory(f, o) : readCopilotCli(f, o));
    case 'qwen':
      return readQwen;
    case 'droid':
      return readDroid;
    case 'continue':
      return readContinue;
    case 'cursor':
      return async (f, o) => (isCursorDbRef(f) ? readCursorDb(f, o) : (await isSqliteFile(f)) ? readCursorCli(f, o) : readCursor(f, o));
    case 'amp':
      return readAmp;
    case 'goose':
      return readGooseSession;
    case 'zed':
      return readZedDb;
    case 'kiro':
      return async (f, o) => ((await isSqliteFile(f.includes('#') ? f.slice(0, f.lastIndexOf('#')) : f)) ? readKiroDb(f, o) : readKiroSave(f, o));
    case 'windsurf':
      return readWindsurf;
    case 'antigravity':
      return readAntigravity;
    default:
      return async (f) => ({
        source: t.source,
        file: f,
        events: [],
        stats: { lines: 0, malformed: 0, skipped: 0, invalid_utf8: 0 },
        end_offset: 0,
        error: `${f}: no reader for ${t.source}`,
      });
  }
}

/** Any file name, or a Cline / Roo / Kilo task folder or one of its files; undefined when it holds no transcript we read. */
export async function readByContent(
  p: string,
  opts: { workspaceRoot?: string } = {},
): Promise<{ detected: DetectedTranscript; read: TranscriptRead } | undefined> {
  const detected = await detectTranscript(p);
  if (!detected) return undefined;
  const read = await reader({ source: detected.source, format: detected.format, file: detected.file, mtimeMs: 0 })(detected.file, {
    workspaceRoot: opts.workspaceRoot,
  });
  return { detected, read };
}

/** Whatever the file's name. */
export async function readAsFormat(file: string, format: TranscriptFormat | SessionSource, opts: { workspaceRoot?: string } = {}): Promise<TranscriptRead> {
  return reader({ source: sourceOfFormat(format, file), format, file, mtimeMs: 0 })(file, { workspaceRoot: opts.workspaceRoot });
}

/** Undefined when the path holds no transcript this extension reads. */
export async function detectSource(p: string): Promise<SessionSource | undefined> {
  return (await detectTranscript(p))?.source;
}

/** What `auto` finds (docs/DESIGN.md §6): each enabled reader's finder with the location overrides; a failing finder finds none. */
export async function discover(opts: DiscoverOptions): Promise<FoundTranscript[]> {
  const enabled = new Set(opts.sources ?? SESSION_SOURCES);
  const loc = { ...defaultLocations(opts.workspaceRoot, opts.home), ...opts.locations };
  const ws = opts.workspaceRoot;
  const host = opts.host;
  const cursorUser = opts.locations?.cursor ? undefined : host?.source === 'cursor' && host.userDir ? host.userDir : cursorUserDir(opts.home);
  const finders: Array<readonly [SessionSource, () => Promise<FoundTranscript[]>]> = [
    ['claude-code', () => findClaudeCode(loc['claude-code'], ws)],
    ['codex', () => findCodex(loc.codex, ws)],
    ['aider', () => findAider(loc.aider)],
    ['cline', () => findClineTasks(loc.cline, ws, 'cline')],
    ['roo', () => findClineTasks(loc.roo, ws, 'roo')],
    ['kilo', () => findClineTasks(loc.kilo, ws, 'kilo')],
    ['specstory', () => findSpecStory(loc.specstory)],
    ['copilot', () => findCopilot(loc.copilot, ws)],
    ['gemini', () => findGemini(loc.gemini, ws)],
    ['opencode', () => findOpenCode(loc.opencode, ws)],
    ['copilot-cli', () => findCopilotCli(loc['copilot-cli'], ws)],
    ['qwen', () => findQwen(loc.qwen, ws)],
    ['droid', () => findDroid(loc.droid, ws)],
    ['continue', () => findContinue(loc.continue, ws)],
    ['cursor', () => findCursor(loc.cursor, ws, cursorUser)],
    ['amp', () => findAmp(loc.amp, ws)],
    ['goose', () => findGoose(loc.goose, ws)],
    ['zed', () => findZed(loc.zed, ws)],
    ['kiro', () => findKiro(loc.kiro, ws, loc['kiro-sessions'])],
    ['windsurf', () => findWindsurf(loc.windsurf, ws)],
    ['antigravity', () => findAntigravity(loc.antigravity, ws)],
  ];
  // The host's own agent first: where two transcripts tie, collectSessionLog takes the earlier one's turns and summary.
  const ordered = [...finders.filter(([s]) => s === host?.source), ...finders.filter(([s]) => s !== host?.source)];
  const found = ordered.filter(([s]) => enabled.has(s)).map(([, find]) => find().catch(() => []));
  return (await Promise.all(found)).flat();
}
