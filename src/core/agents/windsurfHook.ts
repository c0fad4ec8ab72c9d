// Windsurf's Cascade hooks (docs.windsurf.com/windsurf/cascade/hooks): every hook gets one JSON object on standard input,
// `{agent_action_name, trajectory_id, execution_id, timestamp, tool_info}`, `tool_info` by event. Cascade's own
// conversation stores are encrypted, so the hooks are how its sessions are read: the recorder appends the payloads
// of the events below, bounded, one JSON line each, to a log per conversation (trajectory). Pure: no I/O here.
import { createHash } from 'node:crypto';
import path from 'node:path';
import * as z from 'zod';
import { clipText } from '../handoff/text';

/**
 * The events recorded: post-hooks and `pre_user_prompt`, which the recorder never blocks (it exits 0 always; only
 * exit code 2 of a pre-hook blocks Cascade). `post_run_command` carries the command line and folder, no exit code.
 */
export const WINDSURF_RECORDED_EVENTS = ['pre_user_prompt', 'post_run_command', 'post_write_code', 'post_cascade_response'] as const;
export type WindsurfRecordedEvent = (typeof WINDSURF_RECORDED_EVENTS)[number];

/** Every event Cascade names (the documented twelve), to tell a payload of Windsurf's from anything else. */
export const WINDSURF_EVENTS: ReadonlySet<string> = new Set([
  'pre_read_code',
  'post_read_code',
  'pre_write_code',
  'post_write_code',
  'pre_run_command',
  'post_run_command',
  'pre_mcp_tool_use',
  'post_mcp_tool_use',
  'pre_user_prompt',
  'post_cascade_response',
  'post_cascade_response_with_transcript',
  'post_setup_worktree',
]);

/** A stored text field's bound (characters): a prompt or a response past it keeps its start (prompt) or its end (response). */
export const MAX_WINDSURF_TEXT_CHARS = 32_768;
/** Of `post_write_code`'s edits only this many are kept, each side clipped to {@link MAX_WINDSURF_EDIT_CHARS}: the log needs the path. */
export const MAX_WINDSURF_EDITS = 20;
export const MAX_WINDSURF_EDIT_CHARS = 1000;
/** A conversation's log stops growing at this size (bytes); later payloads are not written, and the hook says so. */
export const MAX_WINDSURF_LOG_BYTES = 16 * 1024 * 1024;
/** The log folder inside the workspace's state folder. */
export const WINDSURF_LOG_FOLDER = 'windsurf';

const text = z.string();
const Common = {
  trajectory_id: z.string().trim().min(1).max(200),
  execution_id: z.string().max(200).optional(),
  timestamp: z.string().max(100).optional(),
};

export const WindsurfUserPromptSchema = z.looseObject({
  agent_action_name: z.literal('pre_user_prompt'),
  ...Common,
  tool_info: z.looseObject({ user_prompt: text }),
});
export const WindsurfRunCommandSchema = z.looseObject({
  agent_action_name: z.literal('post_run_command'),
  ...Common,
  tool_info: z.looseObject({ command_line: z.string().min(1), cwd: z.string().optional() }),
});
const EditSchema = z.looseObject({ old_string: text.optional(), new_string: text.optional() });
export const WindsurfWriteCodeSchema = z.looseObject({
  agent_action_name: z.literal('post_write_code'),
  ...Common,
  tool_info: z.looseObject({ file_path: z.string().min(1), edits: z.array(EditSchema).optional() }),
});
export const WindsurfResponseSchema = z.looseObject({
  agent_action_name: z.literal('post_cascade_response'),
  ...Common,
  tool_info: z.looseObject({ response: text }),
});

/** Not recorded by the hook here (a pre-hook), but in other loggers' logs: a command with no `post_run_command` after it never ran. */
export const WindsurfPreRunCommandSchema = z.looseObject({
  agent_action_name: z.literal('pre_run_command'),
  ...Common,
  tool_info: z.looseObject({ command_line: z.string().min(1), cwd: z.string().optional() }),
});

/** One recorded payload, as Cascade sends it and as the log holds it (bounded). */
export const WindsurfHookRecordSchema = z.discriminatedUnion('agent_action_name', [
  WindsurfUserPromptSchema,
  WindsurfRunCommandSchema,
  WindsurfWriteCodeSchema,
  WindsurfResponseSchema,
]);
export type WindsurfHookRecord = z.infer<typeof WindsurfHookRecordSchema>;

export type WindsurfPayloadCheck =
  | { readonly ok: true; readonly record: WindsurfHookRecord }
  | { readonly ok: false; readonly skipped: true; readonly event: string }
  | { readonly ok: false; readonly skipped?: undefined; readonly problem: string };

/** The last `max` characters, `…` first when clipped (a response's closing words are at its end). */
function clipStart(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `…${chars.slice(chars.length - max + 1).join('')}`;
}

/** The payload of standard input, checked; `skipped` for an event of Cascade's the recorder does not keep. Never throws. */
export function checkWindsurfPayload(raw: string): WindsurfPayloadCheck {
  if (!raw.trim()) return { ok: false, problem: 'no hook input on standard input' };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, problem: 'the hook input on standard input is not JSON' };
  }
  const name = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>).agent_action_name : undefined;
  if (typeof name !== 'string' || !WINDSURF_EVENTS.has(name)) {
    return { ok: false, problem: 'the hook input is no Cascade hook payload (its agent_action_name names no Cascade hook event)' };
  }
  if (!(WINDSURF_RECORDED_EVENTS as readonly string[]).includes(name)) return { ok: false, skipped: true, event: name };
  const parsed = WindsurfHookRecordSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `the ${name} payload's ${issue?.path.join('.') || 'value'} is not what Cascade sends (${issue?.message ?? 'invalid'})` };
  }
  return { ok: true, record: boundWindsurfRecord(parsed.data) };
}

/** The fields the log keeps, each text bounded; unknown fields are dropped (they may hold file contents). */
export function boundWindsurfRecord(r: WindsurfHookRecord): WindsurfHookRecord {
  const common = {
    trajectory_id: r.trajectory_id,
    ...(r.execution_id !== undefined ? { execution_id: r.execution_id } : {}),
    ...(r.timestamp !== undefined ? { timestamp: r.timestamp } : {}),
  };
  switch (r.agent_action_name) {
    case 'pre_user_prompt':
      return { agent_action_name: r.agent_action_name, ...common, tool_info: { user_prompt: clipText(r.tool_info.user_prompt, MAX_WINDSURF_TEXT_CHARS) } };
    case 'post_run_command':
      return {
        agent_action_name: r.agent_action_name,
        ...common,
        tool_info: {
          command_line: clipText(r.tool_info.command_line, MAX_WINDSURF_TEXT_CHARS),
          ...(r.tool_info.cwd !== undefined ? { cwd: r.tool_info.cwd } : {}),
        },
      };
    case 'post_write_code': {
      const edits = r.tool_info.edits?.slice(0, MAX_WINDSURF_EDITS).map((e) => ({
        old_string: clipText(e.old_string ?? '', MAX_WINDSURF_EDIT_CHARS),
        new_string: clipText(e.new_string ?? '', MAX_WINDSURF_EDIT_CHARS),
      }));
      return { agent_action_name: r.agent_action_name, ...common, tool_info: { file_path: r.tool_info.file_path, ...(edits ? { edits } : {}) } };
    }
    case 'post_cascade_response':
      return { agent_action_name: r.agent_action_name, ...common, tool_info: { response: clipStart(r.tool_info.response, MAX_WINDSURF_TEXT_CHARS) } };
  }
}

/** The conversation's log file name: the trajectory id when it is a plain name, else its SHA-1. */
export function windsurfLogName(trajectoryId: string): string {
  const id = /^[A-Za-z0-9._-]{1,100}$/.test(trajectoryId) && !/^\.+$/.test(trajectoryId) ? trajectoryId : createHash('sha1').update(trajectoryId).digest('hex');
  return `${id}.jsonl`;
}

/** The per-workspace folder name under the CLI's state folder: SHA-1 of the resolved path, 16 hex characters. */
export function workspaceStateId(workspaceRoot: string): string {
  return createHash('sha1').update(path.resolve(workspaceRoot)).digest('hex').slice(0, 16);
}

/** `<state base>/<workspace id>/windsurf`: where the workspace's Cascade hook logs are. */
export function windsurfLogDir(stateBase: string, workspaceRoot: string): string {
  return path.join(stateBase, workspaceStateId(workspaceRoot), WINDSURF_LOG_FOLDER);
}
