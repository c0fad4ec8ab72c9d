/** The Windsurf Cascade hook job: one payload from standard input, checked, redacted and appended to its conversation's log. */
import path from 'node:path';
import {
  MAX_WINDSURF_LOG_BYTES,
  WINDSURF_RECORDED_EVENTS,
  WindsurfHookRecordSchema,
  checkWindsurfPayload,
  windsurfLogDir,
  windsurfLogName,
} from '../../core/agents/windsurfHook';
import { jobError, type JobError } from '../../core/handoff/errors';
import { sanitizeValue } from '../../core/safety/gate';
import { appendHookLogLine } from '../../store/hookLog';
import { cliStateBase } from '../../store/sessionLogState';
import { workspaceFolderOf } from '../project/project';

export interface WindsurfHookOptions {
  /** The workspace: Cascade runs a hook in the workspace root (or the repository being worked on) unless the hook names another. */
  readonly folder: string;
  /** The state folder holding every workspace's logs; default `$XDG_STATE_HOME/specialist-handoff`. */
  readonly stateBase?: string;
}

export type WindsurfHookOutcome =
  | { readonly status: 'recorded'; readonly event: string; readonly file: string; readonly workspaceRoot: string }
  | { readonly status: 'skipped'; readonly because: 'event'; readonly event: string }
  | { readonly status: 'skipped'; readonly because: 'full'; readonly event: string; readonly file: string }
  | JobError;

/** Never throws: bad input, a missing folder or a failed write come back as errors, and nothing half-written is left. */
export async function recordWindsurfHook(raw: string, options: WindsurfHookOptions): Promise<WindsurfHookOutcome> {
  try {
    const checked = checkWindsurfPayload(raw);
    if (!checked.ok) {
      if (checked.skipped) return { status: 'skipped', because: 'event', event: checked.event };
      return jobError(`${checked.problem} — set this command on Cascade's ${WINDSURF_RECORDED_EVENTS.join(', ')} hooks, which pipe their JSON in`, 'stdin', {
        code: 'bad_request',
      });
    }
    const folder = await workspaceFolderOf(path.resolve(options.folder));
    if (!folder.ok) return jobError(`the workspace folder ${folder.problem}${folder.fix ? ` — ${folder.fix}` : ''}`, 'cwd', { code: 'bad_request' });
    // Prompts, commands and responses can hold secrets: the log keeps them redacted, as every text this project stores.
    const record = WindsurfHookRecordSchema.parse(await sanitizeValue(checked.record));
    const file = path.join(windsurfLogDir(options.stateBase ?? cliStateBase(), folder.path), windsurfLogName(checked.record.trajectory_id));
    const appended = await appendHookLogLine(file, `${JSON.stringify(record)}\n`, MAX_WINDSURF_LOG_BYTES);
    if (appended.status === 'full') return { status: 'skipped', because: 'full', event: record.agent_action_name, file };
    return { status: 'recorded', event: record.agent_action_name, file, workspaceRoot: folder.path };
  } catch (err) {
    const message = (err as Error)?.message ?? String(err);
    return jobError(message, 'stdin', { code: 'io' });
  }
}
