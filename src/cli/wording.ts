/**
 * How the CLI words what the engine reports: an error names the CLI's flag (`--max-tokens`,
 * `--dir`, `--decision #1`) where the engine names a request field or a setting, and gives
 * the CLI's fix ("pass --dir …"). The engine gives each error's field, path, problem and fix
 * (src/core/handoff/errors.ts); the flag and the fix are looked up here by field — the
 * message text is never taken apart. What is printed has its control characters escaped.
 */
import { fixFor, type HandoverError } from '../core/handoff/errors';
import type { HandoffPackage } from '../core/handoff/schema';
import { overBudgetWarning } from '../core/handoff/summary';
import type { Values } from './args';
import { EXIT_BAD_INPUT, EXIT_FAILURE, type CliIo } from './io';

/** The flag that sets each request field and setting (the first segment of an error's path). */
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

/** The flag that sets each VS Code setting the engine's fixes name (src/core/handoff/errors.ts, `setting`). */
export const SETTING_FLAGS: Readonly<Record<string, string>> = {
  'handoff.directory': '--dir',
  'handoff.maxContextTokens': '--max-tokens',
  'handoff.includeRecentTurns': '--recent-turns',
  'handoff.tokenizer': '--tokenizer',
  'handoff.maxHandoverDepth': '--max-depth',
  'handoff.userRequestTokens': '--user-request-tokens',
};

/** The CLI's fix for an error of a field, where it differs from the engine's (which names settings). */
const FIELD_FIXES: Readonly<Record<string, string>> = {
  'handoff.directory': 'pass --dir with a folder inside the workspace, such as .handoff',
  hop_guard: 'confirm the handoff to proceed (--confirm-hop), or hand over to someone else',
  taken: 'record yours anyway with --proceed-if-taken, or leave it to that session',
};

function lookup(table: Readonly<Record<string, string>>, key: string | number | undefined): string | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * The flag of a value at `path`: `["max_context_tokens"]` → `--max-tokens`; an item of a
 * repeatable flag is its use counted from 1 (`["decisions", 0]` → `--decision #1`); a path
 * deeper than that keeps its segments (`--turn.0.role`).
 * @returns undefined when no flag sets the value
 */
export function flagOf(path: ReadonlyArray<string | number>): string | undefined {
  const flag = lookup(FIELD_FLAGS, path[0]);
  if (!flag) return undefined;
  if (path.length === 2 && typeof path[1] === 'number') return `${flag} #${path[1] + 1}`;
  return [flag, ...path.slice(1)].join('.');
}

/**
 * An engine error in the CLI's words: `ERROR: <flag> <problem> — <fix>` when the error
 * gives its parts (the flag for its path, else the engine's subject; the CLI's fix for its
 * field, else the engine's), else the engine's message as it is.
 */
export function cliErrorText(error: HandoverError): string {
  if (error.problem === undefined) return error.message;
  const subject = (error.path && flagOf(error.path)) ?? error.subject;
  // A fix that names a setting is reworded with its flag; else the CLI's fix for the field, else the engine's.
  const fix =
    (error.setting !== undefined && Object.hasOwn(SETTING_FLAGS, error.setting) ? fixFor(error, SETTING_FLAGS) : undefined) ??
    lookup(FIELD_FIXES, error.field) ??
    error.fix;
  return `ERROR: ${subject ? `${subject} ` : ''}${error.problem}${fix ? ` — ${fix}` : ''}`;
}

/**
 * A warning of a handoff in the CLI's words: the over-budget warning names `--max-tokens`
 * (the engine's names the request field); every other warning is the engine's.
 * @param pkg the written package (its tokens, budget and encoding)
 * @param fitted whether fit-to-budget ran (`--no-fit` not given)
 */
export function cliHandoverWarning(
  warning: string,
  pkg: Pick<HandoffPackage, 'estimated_tokens' | 'max_context_tokens' | 'tokenizer'>,
  fitted: boolean,
): string {
  return warning === overBudgetWarning(pkg, fitted) ? overBudgetWarning(pkg, fitted, '--max-tokens') : warning;
}

/** Control characters of what the user typed, shown escaped: an echoed ESC sequence must not drive the terminal. */
export function escapeControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * Prints a failure: the first line of `text` on stderr (control characters escaped) and,
 * with `--json`, the error object `{status, message, field}` on stdout.
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

/** The exit code of an engine error: 1 when the disk failed (`io`: a folder that cannot be listed or written) or for a bug (`internal`), else 2 (bad input). */
export function exitCodeOf(error: Pick<HandoverError, 'field'>): number {
  return error.field === 'io' || error.field === 'internal' ? EXIT_FAILURE : EXIT_BAD_INPUT;
}

/** Prints an engine error in the CLI's words ({@link cliErrorText}, {@link fail}). */
export function failWith(io: CliIo, values: Partial<Values>, error: HandoverError, code: number): number {
  return fail(io, values, cliErrorText(error), code, error.field);
}
