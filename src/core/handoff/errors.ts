/**
 * The error result every engine job returns instead of throwing (handover, prompt, record
 * result, export, the agent tool): one `ERROR:` line for logs and tests, plus the parts a
 * surface needs to word the error itself — the field at fault, a machine-readable code,
 * and, where the engine knows them, the problem and the fix as separate texts. The CLI
 * names its flags (`--max-tokens`, `--dir`), VS Code its settings; neither matches the
 * message text (docs/ARCHITECTURE.md, "Errors").
 */

/**
 * What kind of failure an error is:
 * - `bad_request`: a value of the request is missing or invalid (fix the input);
 * - `bad_setting`: a setting of the workspace is invalid (`handoff.directory`, the hop limit);
 * - `not_found`: a named thing does not exist (a handoff reference, a specialist file);
 * - `refused`: the request is valid but a guard stops it (the hop guard, a taken handoff);
 * - `io`: reading or writing the disk failed (nothing to fix in the request);
 * - `internal`: a bug.
 */
export type ErrorCode = 'bad_request' | 'bad_setting' | 'not_found' | 'refused' | 'io' | 'internal';

/**
 * A failed job. `message` always starts with `ERROR:` and is the whole text as the
 * engine words it (field names of the request, setting names). `field` names the input at
 * fault (`specialist`, `topic`, `decisions.0`, `handoff.directory` …) or `io` / `internal`.
 * `code` is set where the source knows more than the field says; read it with
 * {@link errorCode}, which always answers.
 *
 * Where the source knows them it also gives the message's parts (see {@link ErrorParts}):
 * then `message` is exactly {@link composeError} of them, so a surface can put its own
 * name for the field (a CLI flag, a VS Code setting) and its own fix around the same
 * problem text.
 */
export interface HandoverError {
  status: 'error';
  message: string;
  field?: string;
  code?: ErrorCode;
  /** The value at fault as a path into the request (`["decisions", 0]`, `["handoff.directory"]`); a surface maps it to its own name. */
  path?: Array<string | number>;
  /** How the message names what is at fault, at its start: `decisions.0 items`, `handoff.directory`, `hop guard:` (absent: the message starts with the problem). */
  subject?: string;
  /** What is wrong, without the subject: `must be positive`, `"/tmp/x" is an absolute path`. */
  problem?: string;
  /** How to fix it, in the engine's words (setting and field names): `set "handoff.directory" to a folder inside the workspace, such as .handoff`. */
  fix?: string;
  /** The setting `fix` names, quoted (`"handoff.directory"`): a surface that sets it otherwise (the CLI: `--dir`) words the fix with its own name ({@link fixFor}). */
  setting?: string;
}

/**
 * The parts of an error message: `ERROR: <subject> <problem> — <fix>` (subject and fix
 * optional), and the path of the value at fault. Sources that know them return these
 * with their message, so that no surface has to take a message apart.
 */
export interface ErrorParts {
  readonly path?: ReadonlyArray<string | number>;
  readonly subject?: string;
  readonly problem: string;
  readonly fix?: string;
  /** The setting `fix` names, quoted (see {@link HandoverError.setting}). */
  readonly setting?: string;
}

/** The structured parts of an error, besides its message and field (see {@link HandoverError}). */
export interface ErrorDetail extends Partial<ErrorParts> {
  readonly code?: ErrorCode;
}

/** The prefix of every error message. */
export const ERROR_PREFIX = 'ERROR: ';

/**
 * The message of an error from its parts: `ERROR: <subject> <problem>`, then ` — <fix>`
 * when there is one. Every source that gives parts builds its message with this.
 */
export function composeError(parts: ErrorParts): string {
  return `${ERROR_PREFIX}${parts.subject ? `${parts.subject} ` : ''}${parts.problem}${parts.fix ? ` — ${parts.fix}` : ''}`;
}

/**
 * Builds an error result; prefixes `ERROR: ` when the message does not start with
 * `ERROR:`. `detail` adds the code and the message's parts (only the parts given become
 * keys, so an error built without them has exactly `status`, `message` and `field`).
 */
export function handoverError(message: string, field?: string, detail?: ErrorDetail): HandoverError {
  const error: HandoverError = { status: 'error', message: message.startsWith('ERROR:') ? message : `${ERROR_PREFIX}${message}`, field };
  if (detail?.code) error.code = detail.code;
  if (detail?.path) error.path = [...detail.path];
  if (detail?.subject !== undefined) error.subject = detail.subject;
  if (detail?.problem !== undefined) error.problem = detail.problem;
  if (detail?.fix !== undefined) error.fix = detail.fix;
  if (detail?.setting !== undefined) error.setting = detail.setting;
  return error;
}

/**
 * Builds an error from its parts: the message is {@link composeError} of them.
 * @param field the input at fault, as {@link HandoverError.field}
 */
export function partsError(field: string | undefined, parts: ErrorParts, code?: ErrorCode): HandoverError {
  return handoverError(composeError(parts), field, { ...parts, ...(code ? { code } : {}) });
}

/**
 * The error of one field named by itself: `ERROR: <field> <problem>`, plus ` — <fix>`;
 * path `[field]`, subject `field`.
 */
export function fieldError(field: string, problem: string, fix?: string, code?: ErrorCode): HandoverError {
  return partsError(field, { path: [field], subject: field, problem, ...(fix ? { fix } : {}) }, code);
}

/** The code an error's field implies when the source set none. */
const FIELD_CODES: Readonly<Record<string, ErrorCode>> = {
  io: 'io',
  internal: 'internal',
  'handoff.directory': 'bad_setting',
  maxHandoverDepth: 'bad_setting',
  hop_guard: 'refused',
  taken: 'refused',
};

/** The code of an error: its own `code`, else the one its field implies, else `bad_request`. */
export function errorCode(error: Pick<HandoverError, 'code' | 'field'>): ErrorCode {
  return error.code ?? (error.field !== undefined && Object.hasOwn(FIELD_CODES, error.field) ? FIELD_CODES[error.field] : undefined) ?? 'bad_request';
}

/**
 * An error's message without the leading `ERROR: ` — for a surface that shows it in its
 * own frame (a VS Code notification, a warning line). Takes an error result, an `Error`
 * or a plain message.
 */
export function errorText(error: { readonly message: string } | string): string {
  const message = typeof error === 'string' ? error : error.message;
  return message.startsWith(ERROR_PREFIX) ? message.slice(ERROR_PREFIX.length) : message;
}

/** The prefix of every warning line the engine returns (`WARNING: …`). */
export const WARNING_PREFIX = 'WARNING: ';

/** A warning line without its leading `WARNING: ` — for a surface that shows it in its own frame. */
export function warningText(warning: string): string {
  return warning.startsWith(WARNING_PREFIX) ? warning.slice(WARNING_PREFIX.length) : warning;
}

/**
 * The fix of an error worded for a surface that sets the setting the fix names under
 * another name (the CLI's `--dir` for `handoff.directory`): `set "<setting>" to …` becomes
 * `pass <name> with …`, and the quoted setting elsewhere becomes the name. Only the fix part
 * is reworded, never the message.
 * @param names the surface's name for each setting it has (`{"handoff.directory": "--dir"}`)
 * @returns the reworded fix; the fix as it is when it names no setting the surface has; undefined without a fix
 */
export function fixFor(error: Pick<HandoverError, 'fix' | 'setting'>, names: Readonly<Record<string, string>>): string | undefined {
  const { fix, setting } = error;
  if (fix === undefined || setting === undefined || !Object.hasOwn(names, setting)) return fix;
  const name = names[setting];
  return fix.split(`set "${setting}" to`).join(`pass ${name} with`).split(`"${setting}"`).join(name);
}
