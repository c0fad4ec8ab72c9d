// Google Antigravity (the IDE and its `agy` CLI) keeps each conversation under `~/.gemini/<app data dir>/` (`antigravity`,
// `antigravity-ide`, `antigravity-cli`): `conversations/<id>.pb` (encrypted) or `<id>.db` (SQLite of protobuf steps, no
// schema published), and a plain folder `brain/<id>/` with the agent's Markdown artifacts (`task.md`, a checklist with
// `[x]` done, `[/]` in progress, `[ ]` open; `implementation_plan.md`; `walkthrough.md`, the agent's own account), each with
// `<name>.metadata.json` `{artifactType, summary, updatedAt, version}` and `<name>.resolved[.N]` copies. Newer builds also
// write `brain/<id>/.system_generated/logs/transcript.jsonl`, one JSON step a line: `{step_index, source: USER_EXPLICIT |
// MODEL | SYSTEM, type: USER_INPUT | PLANNER_RESPONSE | RUN_COMMAND | CODE_ACTION | CHECKPOINT | …, status, created_at,
// content?, exit_code?, tool_calls?: [{name, args}]}`, every tool argument JSON-encoded into a string. A tool call is a
// PLANNER_RESPONSE step; its result is a later step of the tool's own type. The transcript is what is read here; the
// conversation's `task.md` beside it is its plan and `walkthrough.md` the agent's claim, never a result of its own.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { cleanTurnText, outputTail, type SessionAccumulator, type TranscriptRead } from '../../../core/session/events';
import { forEachJsonLine, openRegularForReading } from '../lines';
import { accumulator, relativePath, transcriptRead, unreadable, type ReaderOptions } from './common';
import { droidExitCode } from './droid';
import { checklistPlan } from './planTools';
import { ANTIGRAVITY_SUMMARIES_DB, antigravitySummaries } from './antigravityDb';
import { AntigravityStepSchema, type AntigravityStep as Step } from './antigravitySchema';

/** Tools read here and the step type of their result; the file tools take `TargetFile`. */
const RESULT_TYPE: Record<string, string> = {
  run_command: 'RUN_COMMAND',
  write_to_file: 'CODE_ACTION',
  replace_file_content: 'CODE_ACTION',
  multi_replace_file_content: 'CODE_ACTION',
};
const MAX_PENDING = 2000;
const MAX_ARTIFACT_BYTES = 1024 * 1024;
/** The runtime's own words on a command that exited 0 (no `exit_code` in older builds). */
const COMPLETED = /^\s*The command completed successfully\./m;
const REFUSED = /\b(?:user (?:rejected|denied|declined|cancell?ed)|(?:rejected|denied|cancell?ed) by (?:the )?user)\b/i;
const NOT_RUN_STATUS = /CANCEL|REJECT|DENIED|SKIPPED/;
/** The typed request inside what the IDE sends (`<USER_REQUEST>` beside `<ADDITIONAL_METADATA>`, `<USER_SETTINGS_CHANGE>` …). */
const USER_REQUEST = /<USER_REQUEST>\s*([\s\S]*?)\s*<\/USER_REQUEST>/g;
const ANY_BLOCK = /<([A-Z][A-Z_]*)>[\s\S]*?<\/\1>/g;

interface Call {
  readonly name: string;
  readonly args: Record<string, string | undefined>;
  readonly time?: string;
}

/** Every argument arrives JSON-encoded (`"\"cat hello.txt\""`); a bare literal (`5000`, `true`) is kept as written. */
export function toolArg(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(v);
    return typeof parsed === 'string' ? parsed : v;
  } catch {
    return v;
  }
}

/** The `<USER_REQUEST>` bodies; a content with no tag at all is the request itself; one with only other tags is none. */
export function antigravityRequestText(content: string): string | undefined {
  const bodies = [...content.matchAll(USER_REQUEST)].map((m) => m[1]);
  if (bodies.length) return cleanTurnText(bodies.join('\n\n'));
  return cleanTurnText(content.replace(ANY_BLOCK, ''));
}

/** `brain/<id>/` of a transcript at `brain/<id>/.system_generated/logs/transcript.jsonl`. */
export function brainFolderOf(file: string): string | undefined {
  const logs = path.dirname(file);
  const generated = path.dirname(logs);
  if (path.basename(logs) !== 'logs' || path.basename(generated) !== '.system_generated') return undefined;
  return path.dirname(generated);
}

function isInside(p: string, dir: string | undefined): boolean {
  if (!dir) return false;
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The command's output after the runtime's `Output:` line. */
function commandOutput(content: string): string {
  const at = content.indexOf('Output:');
  return (at >= 0 ? content.slice(at + 'Output:'.length) : content).replace(/^[\t ]+/gm, '').trim();
}

function addResult(acc: SessionAccumulator, call: Call, step: Step, brain: string | undefined, opts: ReaderOptions): void {
  const time = step.created_at ?? call.time;
  const at = time ? { time } : {};
  const content = step.content ?? '';
  const refused = NOT_RUN_STATUS.test(step.status ?? '') || REFUSED.test(content.slice(0, 300));
  if (call.name === 'run_command') {
    const command = call.args.CommandLine;
    if (!command) return;
    const running = step.status === 'RUNNING';
    const exit = refused || running ? null : (step.exit_code ?? (COMPLETED.test(content) ? 0 : droidExitCode(content)));
    acc.add({
      kind: 'command',
      command,
      cwd: call.args.Cwd ?? null,
      exit_code: exit,
      ...(step.status === 'ERROR' && !refused && exit === null ? { failed: true } : {}),
      ran: !refused,
      output_tail: outputTail(commandOutput(content)),
      ...at,
    });
    return;
  }
  const target = call.args.TargetFile;
  // A write into the conversation's own brain folder is an artifact (task.md …), not a change to the workspace.
  if (!target || refused || step.status === 'ERROR' || isInside(target, brain) || /[\\/]\.gemini[\\/]antigravity[^\\/]*[\\/]brain[\\/]/.test(target)) return;
  acc.add({ kind: 'file_edit', path: relativePath(target, opts.workspaceRoot ?? call.args.Cwd), tool: call.name, ...at });
}

async function artifactText(file: string): Promise<{ text: string; time: string } | undefined> {
  try {
    const fh = await openRegularForReading(file);
    try {
      const st = await fh.stat();
      if (st.size > MAX_ARTIFACT_BYTES) return undefined;
      return { text: await fh.readFile('utf8'), time: st.mtime.toISOString() };
    } finally {
      await fh.close().catch(() => undefined);
    }
  } catch {
    return undefined;
  }
}

/** The `updatedAt` of `<artifact>.metadata.json`, else the file's own time. */
async function artifactTime(file: string, fallback: string): Promise<string> {
  try {
    const meta = z.looseObject({ updatedAt: z.string() }).safeParse(JSON.parse(await readFile(`${file}.metadata.json`, 'utf8')));
    return meta.success ? meta.data.updatedAt : fallback;
  } catch {
    return fallback;
  }
}

/**
 * `task.md` as the plan; `walkthrough.md` as the agent's words (its claim, so never a command or a result), only in a
 * read from the start, so that a read of new lines does not repeat it.
 */
export async function addBrainArtifacts(acc: SessionAccumulator, brain: string, withWalkthrough = true): Promise<void> {
  const walkthrough = path.join(brain, 'walkthrough.md');
  const w = withWalkthrough ? await artifactText(walkthrough) : undefined;
  const text = w ? cleanTurnText(w.text) : undefined;
  if (w && text) acc.add({ kind: 'turn', role: 'assistant', text, time: await artifactTime(walkthrough, w.time) });
  const task = path.join(brain, 'task.md');
  const t = await artifactText(task);
  const plan = t ? checklistPlan('task.md', t.text, await artifactTime(task, t.time)) : undefined;
  if (plan) acc.add(plan);
}

function addStep(acc: SessionAccumulator, step: Step, pending: Map<string, Call[]>, brain: string | undefined, opts: ReaderOptions): void {
  const at = step.created_at ? { time: step.created_at } : {};
  if (step.type === 'USER_INPUT' && step.source === 'USER_EXPLICIT') {
    flushUnanswered(acc, pending);
    const text = antigravityRequestText(step.content ?? '');
    if (text) acc.add({ kind: 'turn', role: 'user', text, ...at });
    return;
  }
  if (step.type === 'PLANNER_RESPONSE') {
    const text = cleanTurnText(step.content ?? '');
    if (text) acc.add({ kind: 'turn', role: 'assistant', text, ...at });
    for (const c of step.tool_calls ?? []) {
      const resultType = RESULT_TYPE[c.name];
      if (!resultType) continue;
      const args: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(c.args ?? {})) args[k] = toolArg(v);
      const queue = pending.get(resultType) ?? [];
      queue.push({ name: c.name, args, ...at });
      if (queue.length > MAX_PENDING) queue.shift();
      pending.set(resultType, queue);
    }
    return;
  }
  const call = pending.get(step.type)?.shift();
  if (call) addResult(acc, call, step, brain, opts);
}

/** A command whose result never came before the user's next request was not run (refused, or the turn cut off). */
function flushUnanswered(acc: SessionAccumulator, pending: Map<string, Call[]>): void {
  for (const call of pending.get('RUN_COMMAND') ?? []) {
    const command = call.args.CommandLine;
    if (command) acc.add({ kind: 'command', command, cwd: call.args.Cwd ?? null, exit_code: null, ran: false, ...(call.time ? { time: call.time } : {}) });
  }
  pending.clear();
}

/** From `opts.fromOffset`; the brain folder's `task.md` and `walkthrough.md` are read whole each time. Never throws. */
export async function readAntigravity(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  const pending = new Map<string, Call[]>();
  const brain = brainFolderOf(file);
  try {
    if (path.basename(file) === ANTIGRAVITY_SUMMARIES_DB) {
      // Found only when this Node cannot read it (the throw names the fix); it names conversations and holds none.
      antigravitySummaries(file);
      throw new Error("it lists conversations and holds none of their steps: give a conversation's brain folder (brain/<id>)");
    }
    if ((await stat(file)).isDirectory()) {
      await addBrainArtifacts(acc, file);
      return transcriptRead('antigravity', file, acc, { lines: 0, malformed: 0, skipped: 0, invalid_utf8: 0 }, 0);
    }
    const { endOffset, stats } = await forEachJsonLine(file, opts.fromOffset ?? 0, (r, info) => {
      const step = AntigravityStepSchema.safeParse(r);
      if (!step.success) {
        info.stats.skipped++;
        return;
      }
      addStep(acc, step.data, pending, brain, opts);
    });
    if (brain) await addBrainArtifacts(acc, brain, !opts.fromOffset);
    return transcriptRead('antigravity', file, acc, stats, endOffset);
  } catch (err) {
    return unreadable('antigravity', file, err);
  }
}
