// The error result every engine job returns instead of throwing: one `ERROR:` line, plus the parts a surface needs to word it its own way.

/** `bad_request`: fix the input; `bad_setting`: a workspace setting is invalid; `refused`: valid, but a guard stops it; `io`: the disk failed; `internal`: a bug. */
export type ErrorCode = 'bad_request' | 'bad_setting' | 'not_found' | 'refused' | 'io' | 'internal';

/** `message` is the whole text; when the parts are given it is exactly {@link composeError} of them. Read `code` with {@link errorCode}, which always answers. */
export interface JobError {
  status: 'error';
  message: string;
  field?: string;
  code?: ErrorCode;
  /** Path into the request (`["decisions", 0]`); a surface maps it to its own name. */
  path?: Array<string | number>;
  /** How the message names what is at fault (`decisions.0 items`, `hop guard:`); absent: the message starts with the problem. */
  subject?: string;
  /** Without the subject: `must be positive`. */
  problem?: string;
  /** In the engine's words (setting and field names). */
  fix?: string;
  /** The setting `fix` names, quoted, for {@link fixFor}. */
  setting?: string;
}

/** `ERROR: <subject> <problem> — <fix>`: sources return the parts so no surface has to take a message apart. */
export interface ErrorParts {
  readonly path?: ReadonlyArray<string | number>;
  readonly subject?: string;
  readonly problem: string;
  readonly fix?: string;
  readonly setting?: string;
}

export interface ErrorDetail extends Partial<ErrorParts> {
  readonly code?: ErrorCode;
}

export const ERROR_PREFIX = 'ERROR: ';

/** Every source that gives parts builds its message with this. */
export function composeError(parts: ErrorParts): string {
  return `${ERROR_PREFIX}${parts.subject ? `${parts.subject} ` : ''}${parts.problem}${parts.fix ? ` — ${parts.fix}` : ''}`;
}

/** Only the parts given become keys, so an error built without them has exactly `status`, `message` and `field`. */
export function jobError(message: string, field?: string, detail?: ErrorDetail): JobError {
  const error: JobError = { status: 'error', message: message.startsWith('ERROR:') ? message : `${ERROR_PREFIX}${message}`, field };
  if (detail?.code) error.code = detail.code;
  if (detail?.path) error.path = [...detail.path];
  if (detail?.subject !== undefined) error.subject = detail.subject;
  if (detail?.problem !== undefined) error.problem = detail.problem;
  if (detail?.fix !== undefined) error.fix = detail.fix;
  if (detail?.setting !== undefined) error.setting = detail.setting;
  return error;
}

export function partsError(field: string | undefined, parts: ErrorParts, code?: ErrorCode): JobError {
  return jobError(composeError(parts), field, { ...parts, ...(code ? { code } : {}) });
}

export function fieldError(field: string, problem: string, fix?: string, code?: ErrorCode): JobError {
  return partsError(field, { path: [field], subject: field, problem, ...(fix ? { fix } : {}) }, code);
}

const FIELD_CODES: Readonly<Record<string, ErrorCode>> = {
  io: 'io',
  internal: 'internal',
  'handoff.directory': 'bad_setting',
  maxHandoverDepth: 'bad_setting',
  hop_guard: 'refused',
  taken: 'refused',
};

/** The code of an error: its own `code`, else the one its field implies, else `bad_request`. */
export function errorCode(error: Pick<JobError, 'code' | 'field'>): ErrorCode {
  return error.code ?? (error.field !== undefined && Object.hasOwn(FIELD_CODES, error.field) ? FIELD_CODES[error.field] : undefined) ?? 'bad_request';
}

/** Without the leading `ERROR: `, for a surface that shows it in its own frame. */
export function errorText(error: { readonly message: string } | string): string {
  const message = typeof error === 'string' ? error : error.message;
  return message.startsWith(ERROR_PREFIX) ? message.slice(ERROR_PREFIX.length) : message;
}

export const WARNING_PREFIX = 'WARNING: ';

export function warningText(warning: string): string {
  return warning.startsWith(WARNING_PREFIX) ? warning.slice(WARNING_PREFIX.length) : warning;
}

/** Rewords the fix for a surface that names the setting otherwise (`{"handoff.directory": "--dir"}`): `set "<setting>" to` becomes `pass <name> with`. */
export function fixFor(error: Pick<JobError, 'fix' | 'setting'>, names: Readonly<Record<string, string>>): string | undefined {
  const { fix, setting } = error;
  if (fix === undefined || setting === undefined || !Object.hasOwn(names, setting)) return fix;
  const name = names[setting];
  return fix.split(`set "${setting}" to`).join(`pass ${name} with`).split(`"${setting}"`).join(name);
}
