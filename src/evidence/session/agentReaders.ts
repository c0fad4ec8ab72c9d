// Which reader reads a transcript (by the format found in its content, else by its agent) and which finder discovers each
// agent's sessions for a workspace (docs/DESIGN.md §6).
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
import { readContinue } from './readers/continueSession';
import { readAmp } from './readers/amp';
import { isSqliteFile, readGooseSession } from './readers/gooseDb';
import { readQwen } from './readers/qwen';
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
import { findAmp, findContinue, findCopilotCli, findCursor, findDroid, findGoose, findKiro, findQwen, findZed } from './discoveryCliAgents';

export interface DiscoverOptions {
  readonly workspaceRoot: string;
  /** Default all. */
  readonly sources?: readonly SessionSource[];
  readonly locations?: SessionLocations;
  /** Default: the user's home folder. */
  readonly home?: string;
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
  const finders: Array<Promise<FoundTranscript[]>> = [];
  if (enabled.has('claude-code')) finders.push(findClaudeCode(loc['claude-code'], ws));
  if (enabled.has('codex')) finders.push(findCodex(loc.codex, ws));
  if (enabled.has('aider')) finders.push(findAider(loc.aider));
  if (enabled.has('cline')) finders.push(findClineTasks(loc.cline, ws, 'cline'));
  if (enabled.has('roo')) finders.push(findClineTasks(loc.roo, ws, 'roo'));
  if (enabled.has('kilo')) finders.push(findClineTasks(loc.kilo, ws, 'kilo'));
  if (enabled.has('specstory')) finders.push(findSpecStory(loc.specstory));
  if (enabled.has('copilot')) finders.push(findCopilot(loc.copilot, ws));
  if (enabled.has('gemini')) finders.push(findGemini(loc.gemini, ws));
  if (enabled.has('opencode')) finders.push(findOpenCode(loc.opencode, ws));
  if (enabled.has('copilot-cli')) finders.push(findCopilotCli(loc['copilot-cli'], ws));
  if (enabled.has('qwen')) finders.push(findQwen(loc.qwen, ws));
  if (enabled.has('droid')) finders.push(findDroid(loc.droid, ws));
  if (enabled.has('continue')) finders.push(findContinue(loc.continue, ws));
  if (enabled.has('cursor')) finders.push(findCursor(loc.cursor, ws, opts.locations?.cursor ? undefined : cursorUserDir(opts.home)));
  if (enabled.has('amp')) finders.push(findAmp(loc.amp, ws));
  if (enabled.has('goose')) finders.push(findGoose(loc.goose, ws));
  if (enabled.has('zed')) finders.push(findZed(loc.zed, ws));
  if (enabled.has('kiro')) finders.push(findKiro(loc.kiro, ws, loc['kiro-sessions']));
  return (await Promise.all(finders.map((f) => f.catch(() => [])))).flat();
}
