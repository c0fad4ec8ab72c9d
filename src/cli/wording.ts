/**
 * How the CLI words engine errors: it names the flag (`--max-tokens`, `--decision #1`) where the
 * engine names a request field or setting, looked up by field, never parsed from the message.
 */
import { fixFor, type JobError } from '../core/handoff/errors';
import type { HandoffPackage } from '../core/handoff/schema';
import { overBudgetWarning } from '../core/handoff/summary';
import type { Values } from './args';
import { EXIT_BAD_INPUT, EXIT_FAILURE, type CliIo } from './io';

/** Keyed by the first segment of an error's path. */
const FIELD_FLAGS: Readonly<Record<string, string>> = {
  specialist: '--specialist',
  topic: '--topic',
  summary: '--summary',
  decisions: '--decision',
  failed_approaches: '--failed',
  next_steps: '--next',
  blockers: '--blocker',
  completed: '--done',
  userRequestTokens: '--user-request-tokens',
  artifacts: '--artifact',
  recent_turns: '--turn',
  return_condition: '--return-condition',
  handover_reason: '--reason',
  reason_kind: '--reason-kind',
  from: '--from',
  max_context_tokens: '--max-tokens',
  budget: '--budget',
  max_tokens: '--max-tokens',
  include_recent_turns: '--recent-turns',
  tokenizer: '--tokenizer',
  session_id: '--session-id',
  parent: '--parent',
  'handoff.directory': '--dir',
  cwd: '--cwd',
};

/** The flag for each VS Code setting the engine's fixes name. */
export const SETTING_FLAGS: Readonly<Record<string, string>> = {
  'handoff.directory': '--dir',
  'handoff.maxContextTokens': '--max-tokens',
  'handoff.includeRecentTurns': '--recent-turns',
  'handoff.tokenizer': '--tokenizer',
  'handoff.maxHandoverDepth': '--max-depth',
  'handoff.userRequestTokens': '--user-request-tokens',
};

/** The CLI's fix where it differs from the engine's. */
const FIELD_FIXES: Readonly<Record<string, string>> = {
  'handoff.directory': 'pass --dir with a folder inside the workspace, such as .handoff',
  hop_guard: 'confirm the handoff to proceed (--confirm-hop), or hand over to someone else',
  taken: 'record yours anyway with --proceed-if-taken, or leave it to that session',
};

function lookup(table: Readonly<Record<string, string>>, key: string | number | undefined): string | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * `["max_context_tokens"]` → `--max-tokens`, `["decisions", 0]` → `--decision #1`, deeper paths
 * keep their segments (`--turn.0.role`); undefined when no flag sets the value.
 */
export function flagOf(path: ReadonlyArray<string | number>): string | undefined {
  const flag = lookup(FIELD_FLAGS, path[0]);
  if (!flag) return undefined;
  if (path.length === 2 && typeof path[1] === 'number') return `${flag} #${path[1] + 1}`;
  return [flag, ...path.slice(1)].join('.');
}

/** `ERROR: <flag> <problem> — <fix>` when the error has parts, else the engine's message. */
export function cliErrorText(error: JobError): string {
  if (error.problem === undefined) return error.message;
  const subject = (error.path && flagOf(error.path)) ?? error.subject;
  const fix =
    (error.setting !== undefined && Object.hasOwn(SETTING_FLAGS, error.setting) ? fixFor(error, SETTING_FLAGS) : undefined) ??
    lookup(FIELD_FIXES, error.field) ??
    error.fix;
  return `ERROR: ${subject ? `${subject} ` : ''}${error.problem}${fix ? ` — ${fix}` : ''}`;
}

/** The over-budget warning names `--max-tokens`; every other warning is the engine's. */
export function cliHandoverWarning(
  warning: string,
  pkg: Pick<HandoffPackage, 'estimated_tokens' | 'max_context_tokens' | 'tokenizer'>,
  fitted: boolean,
): string {
  return warning === overBudgetWarning(pkg, fitted) ? overBudgetWarning(pkg, fitted, '--max-tokens') : warning;
}

/** Escapes control characters: an echoed ESC sequence must not drive the terminal. */
export function escapeControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * Prints the first line of `text` on stderr and, with `--json`, `{status, message, field}` on stdout.
 * @returns `code`, for `return fail(…)`
 */
export function fail(io: CliIo, values: Partial<Values>, text: string, code: number, field?: string): number {
  const line = escapeControls(text.split('\n')[0]);
  if (values.json) {
    io.stdout(JSON.stringify({ status: 'error', message: line, ...(field ? { field } : {}) }, null, 2));
  }
  io.stderr(line);
  return code;
}

/** 1 for a disk (`io`) or internal failure, else 2. */
export function exitCodeOf(error: Pick<JobError, 'field'>): number {
  return error.field === 'io' || error.field === 'internal' ? EXIT_FAILURE : EXIT_BAD_INPUT;
}

export function failWith(io: CliIo, values: Partial<Values>, error: JobError, code: number): number {
  return fail(io, values, cliErrorText(error), code, error.field);
}
