/**
 * A Claude Code transcript built from the lines of a real one: the typed request, a Bash
 * `tool_use` line and its `tool_result` line of `../shared/fixtures/session-logs/claude-code/pyrycode-clean-trimmed.jsonl`
 * (Claude Code 2.1.128, read in place, never copied into the repository) are the templates;
 * each command run gets a copy of the Bash pair with its command, folder, time, ids and
 * output set as Claude Code writes them (a failing call: `is_error: true` and
 * "Error: Exit code N", see test/helpers/claudeSession.ts). For the verify tests (issue 18).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The real transcript the line templates come from. */
export const CLAUDE_TEMPLATE = path.resolve(__dirname, '..', '..', '..', 'shared', 'fixtures', 'session-logs', 'claude-code', 'pyrycode-clean-trimmed.jsonl');

/** One Bash call of the session: the command, the folder it ran in (absolute), whether it failed (with its exit code) and what it printed. */
export interface BashRun {
  readonly command: string;
  readonly cwd: string;
  readonly exitCode: number;
  readonly output: string;
}

type Json = Record<string, unknown>;

function templates(): { request: Json; toolUse: Json; toolResult: Json; reply: Json } {
  const lines = readFileSync(CLAUDE_TEMPLATE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Json);
  const content = (l: Json) => (l.message as Json | undefined)?.content;
  const request = lines.find((l) => l.type === 'user' && typeof content(l) === 'string');
  const toolUse = lines.find(
    (l) => l.type === 'assistant' && Array.isArray(content(l)) && (content(l) as Json[]).some((b) => b.type === 'tool_use' && b.name === 'Bash'),
  );
  const use = toolUse && (content(toolUse) as Json[]).find((b) => b.type === 'tool_use');
  const toolResult = lines.find((l) => l.type === 'user' && Array.isArray(content(l)) && (content(l) as Json[]).some((b) => b.tool_use_id === use?.id));
  const reply = lines.find(
    (l) => l.type === 'assistant' && Array.isArray(content(l)) && (content(l) as Json[]).length === 1 && (content(l) as Json[])[0].type === 'text',
  );
  if (!request || !toolUse || !toolResult || !reply)
    throw new Error(`${CLAUDE_TEMPLATE}: no typed request, Bash call and its result, and assistant text to copy`);
  return { request, toolUse, toolResult, reply };
}

/**
 * Writes `<session id>.jsonl` into `dir`: the user's `request` typed in `cwd`, then each run
 * of `runs` a minute apart from 2026-12-01T10:00Z, and returns its path.
 */
export function writeClaudeTranscript(
  dir: string,
  cwd: string,
  request: string,
  runs: readonly BashRun[],
  sessionId = '5e0c2f7a-3b1d-4c8e-9a6f-2d4b6c8e0a1f',
): string {
  const t = templates();
  const at = (minute: number) => `2026-12-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
  const clone = (x: Json): Json => JSON.parse(JSON.stringify(x)) as Json;
  let parent: string | null = null;
  const out: Json[] = [];
  const push = (line: Json, folder: string, minute: number) => {
    const uuid = `00000000-0000-4000-8000-${String(out.length + 1).padStart(12, '0')}`;
    out.push({ ...line, cwd: folder, sessionId, uuid, parentUuid: parent, timestamp: at(minute) });
    parent = uuid;
  };
  const req = clone(t.request);
  (req.message as Json).content = request;
  push(req, cwd, 0);
  runs.forEach((run, i) => {
    const id = `toolu_verify${String(i + 1).padStart(4, '0')}`;
    const use = clone(t.toolUse);
    (use.message as Json).content = [
      { type: 'tool_use', id, name: 'Bash', input: { command: run.command, description: `Run ${run.command}` }, caller: { type: 'direct' } },
    ];
    push(use, run.cwd, i + 1);
    const result = clone(t.toolResult);
    const failed = run.exitCode !== 0;
    (result.message as Json).content = [
      { tool_use_id: id, type: 'tool_result', content: failed ? `Error: Exit code ${run.exitCode}\n${run.output}` : run.output, is_error: failed },
    ];
    result.toolUseResult = { stdout: run.output, stderr: '', interrupted: false, isImage: false, noOutputExpected: false };
    result.sourceToolAssistantUUID = out[out.length - 1].uuid;
    push(result, run.cwd, i + 1);
  });
  const file = path.join(dir, `${sessionId}.jsonl`);
  writeFileSync(file, `${out.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return file;
}

/** One step of a session written by {@link writeClaudeSession}: a typed user turn, an assistant's text turn, or a Bash call. */
export type SessionStep = { readonly user: string } | { readonly assistant: string } | BashRun;

/**
 * Writes `<session id>.jsonl` into `dir` with the lines of the real template: each step a
 * typed user turn, an assistant's text turn, or a Bash call with its result (as
 * {@link writeClaudeTranscript} writes them), a minute apart from 2026-12-01T10:00Z, all in
 * `cwd` unless a Bash call names its folder; returns its path.
 */
export function writeClaudeSession(dir: string, cwd: string, steps: readonly SessionStep[], sessionId = '7a1c2e3f-4b5d-4c6e-8f7a-9b0c1d2e3f4a'): string {
  const t = templates();
  const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 10, minute)).toISOString();
  const clone = (x: Json): Json => JSON.parse(JSON.stringify(x)) as Json;
  let parent: string | null = null;
  const out: Json[] = [];
  const push = (line: Json, folder: string, minute: number) => {
    const uuid = `00000000-0000-4000-8000-${String(out.length + 1).padStart(12, '0')}`;
    out.push({ ...line, cwd: folder, sessionId, uuid, parentUuid: parent, timestamp: at(minute) });
    parent = uuid;
  };
  steps.forEach((step, i) => {
    if ('user' in step) {
      const req = clone(t.request);
      (req.message as Json).content = step.user;
      push(req, cwd, i);
      return;
    }
    if ('assistant' in step) {
      const reply = clone(t.reply);
      (reply.message as Json).content = [{ type: 'text', text: step.assistant }];
      push(reply, cwd, i);
      return;
    }
    const id = `toolu_session${String(i + 1).padStart(4, '0')}`;
    const use = clone(t.toolUse);
    (use.message as Json).content = [
      { type: 'tool_use', id, name: 'Bash', input: { command: step.command, description: 'Run a command' }, caller: { type: 'direct' } },
    ];
    push(use, step.cwd, i);
    const result = clone(t.toolResult);
    const failed = step.exitCode !== 0;
    (result.message as Json).content = [
      { tool_use_id: id, type: 'tool_result', content: failed ? `Error: Exit code ${step.exitCode}\n${step.output}` : step.output, is_error: failed },
    ];
    result.toolUseResult = { stdout: step.output, stderr: '', interrupted: false, isImage: false, noOutputExpected: false };
    result.sourceToolAssistantUUID = out[out.length - 1].uuid;
    push(result, step.cwd, i);
  });
  const file = path.join(dir, `${sessionId}.jsonl`);
  writeFileSync(file, `${out.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return file;
}
