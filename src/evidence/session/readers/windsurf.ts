// Windsurf Cascade's hook log: one hook payload per line, as `specialist-handoff hook --agent windsurf` appends them
// (src/core/agents/windsurfHook.ts), or as anyone's logger of the raw payloads writes them. `pre_user_prompt` is the
// user's request; `post_run_command` a command that ran, its result unknown (Cascade gives no exit code);
// `post_write_code` an edit; `post_cascade_response` the agent's words since the prompt, whose closing part is its turn
// and the claimed result of a test run it gave no result for. A logger that keeps pre-hooks too shows a refused
// command: a `pre_run_command` no `post_run_command` of the same command line follows before the response.
import { WINDSURF_EVENTS, WindsurfHookRecordSchema, WindsurfPreRunCommandSchema } from '../../../core/agents/windsurfHook';
import { claimedTestResult } from '../../../core/session/claimedResult';
import { cleanTurnText, type SessionCommand, type TranscriptRead } from '../../../core/session/events';
import { testRunner } from '../../../core/session/testDetection';
import { forEachJsonLine } from '../lines';
import { accumulator, relativePath, str, transcriptRead, unreadable, type ReaderOptions } from './common';

const PLANNER_HEADING = /^#{1,6}[ \t]*Planner Response[ \t]*$/m;
/** The rules a response lists as triggered (`- (Always On) Triggered Rule: x.md`): bookkeeping, not the agent's words. */
const TRIGGERED_RULE = /^[ \t]*[-*][ \t]*\([^)]*\)[ \t]*Triggered Rule:.*$/gm;
/** Held test runs at most, waiting for the response that may state their result. */
const MAX_HELD = 200;

/** The agent's closing words: the last "Planner Response" section of the response, else all of it. */
export function windsurfClosingWords(response: string): string | undefined {
  const sections = response.split(PLANNER_HEADING);
  const last = sections.length > 1 ? sections.reverse().find((s) => s.trim()) : response;
  return cleanTurnText((last ?? '').replace(TRIGGERED_RULE, ''));
}

/** True for a record that is a Cascade hook payload (`agent_action_name` of a Cascade event, with `tool_info`). */
export function isWindsurfPayload(r: Record<string, unknown>): boolean {
  return typeof r.agent_action_name === 'string' && WINDSURF_EVENTS.has(r.agent_action_name) && typeof r.tool_info === 'object' && r.tool_info !== null;
}

/** From `opts.fromOffset`. Never throws. */
export async function readWindsurf(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  let held: SessionCommand[] = [];
  /** Commands announced by `pre_run_command`, not yet seen run. */
  let announced: SessionCommand[] = [];
  const refuseAnnounced = () => {
    for (const c of announced) acc.add({ ...c, ran: false });
    announced = [];
  };
  const release = (words?: string) => {
    for (const c of held) {
      const claimed = words ? claimedTestResult(words) : undefined;
      acc.add(claimed ? { ...c, claimed } : c);
    }
    held = [];
  };
  try {
    const { endOffset, stats } = await forEachJsonLine(file, opts.fromOffset ?? 0, (raw, info) => {
      const pre = raw.agent_action_name === 'pre_run_command' ? WindsurfPreRunCommandSchema.safeParse(raw) : undefined;
      if (pre?.success) {
        const t = pre.data.timestamp;
        announced.push({
          kind: 'command',
          command: pre.data.tool_info.command_line,
          cwd: pre.data.tool_info.cwd ?? null,
          exit_code: null,
          ran: false,
          ...(t ? { time: t } : {}),
        });
        if (announced.length > MAX_HELD) announced.shift();
        return;
      }
      const parsed = WindsurfHookRecordSchema.safeParse(raw);
      if (!parsed.success) {
        info.stats.skipped++;
        return;
      }
      const r = parsed.data;
      const at = r.timestamp ? { time: r.timestamp } : {};
      switch (r.agent_action_name) {
        case 'pre_user_prompt': {
          refuseAnnounced();
          release();
          const text = cleanTurnText(r.tool_info.user_prompt);
          if (text) acc.add({ kind: 'turn', role: 'user', text, ...at });
          return;
        }
        case 'post_run_command': {
          const i = announced.findIndex((c) => c.command === r.tool_info.command_line);
          if (i >= 0) announced.splice(i, 1);
          const command: SessionCommand = {
            kind: 'command',
            command: r.tool_info.command_line,
            cwd: str(r.tool_info.cwd) ?? null,
            exit_code: null,
            ran: true,
            ...at,
          };
          if (testRunner(command.command)) {
            held.push(command);
            if (held.length > MAX_HELD) release();
          } else acc.add(command);
          return;
        }
        case 'post_write_code':
          acc.add({ kind: 'file_edit', path: relativePath(r.tool_info.file_path, opts.workspaceRoot), tool: 'write_code', ...at });
          return;
        case 'post_cascade_response': {
          const words = windsurfClosingWords(r.tool_info.response);
          refuseAnnounced();
          release(words);
          if (words) acc.add({ kind: 'turn', role: 'assistant', text: words, ...at });
          return;
        }
      }
    });
    // A command announced at the end may still be running: neither run nor refused yet.
    release();
    return transcriptRead('windsurf', file, acc, stats, endOffset);
  } catch (err) {
    return unreadable('windsurf', file, err);
  }
}
