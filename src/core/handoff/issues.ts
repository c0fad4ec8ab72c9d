/**
 * The words of a zod issue of an input — a handover request, a hand-back request, an agent
 * tool's arguments — in one place, so every surface says the same thing about the same
 * mistake: an absent value "is required", a value of the wrong type "must be a string" (or
 * the schema's own words for that type), a value outside a set "must be one of: …", and
 * zod's own English ("Invalid input: expected boolean, received string") in words an agent
 * or a user can act on.
 */
import type { z } from 'zod';
import { formatCount } from './limits';

/** The problem of a value that is absent where the input needs one. */
export const REQUIRED_PROBLEM = 'is required';

/** A JSON type as a problem names it ("must be a string"); zod's `expected` of an `invalid_type` issue is the key. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  tuple: 'a list',
  object: 'an object',
  record: 'an object',
  null: 'null',
};

/** The value at `path` inside `input`; undefined where the path leads nowhere. */
function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Whether a message is zod's own English rather than the schema's words. */
function isZodWording(message: string): boolean {
  return /^(Invalid|Too big|Too small|Unrecognized)\b/.test(message);
}

/** zod's own wording of an issue in plain words (the schema left the message to zod). */
function plainWording(issue: z.core.$ZodIssue): string {
  const items = (n: unknown) => `${formatCount(Number(n))} item${Number(n) === 1 ? '' : 's'}`;
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'too_big':
      if (issue.origin === 'array') return `must have at most ${items(issue.maximum)}`;
      if (issue.origin === 'string') return `must be at most ${formatCount(Number(issue.maximum))} characters`;
      return `must be at most ${formatCount(Number(issue.maximum))}`;
    case 'too_small':
      if (issue.origin === 'array') return `must have at least ${items(issue.minimum)}`;
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${formatCount(Number(issue.minimum))} characters`;
      return issue.inclusive ? `must be at least ${formatCount(Number(issue.minimum))}` : `must be more than ${formatCount(Number(issue.minimum))}`;
    default:
      return 'is invalid';
  }
}

/** The dotted path of an issue (`decisions.0`); empty for the input itself. */
export function issueSubject(issue: z.core.$ZodIssue | undefined): string {
  return issue?.path.map(String).join('.') ?? '';
}

/**
 * The problem of one zod issue, without its subject (`must be a string`, not
 * `specialist_profile must be a string`):
 * - a value absent where one is needed: `is required`;
 * - a value of the wrong type: the schema's words for it, or `must be <type>` where the
 *   schema has none (zod gives a type check one message for an absent and a wrong value,
 *   so a schema's "is required" only ever describes the absent one);
 * - a value outside a fixed set: `must be one of: a, b`;
 * - zod's own English: plain words (`must be true or false`, `must have at most 50 items`);
 * - anything else: the schema's message, without the subject when it starts with it.
 * @param input the whole input the issue is about (the issue's path leads into it)
 */
export function issueProblem(issue: z.core.$ZodIssue | undefined, input: unknown): string {
  if (!issue) return 'is invalid';
  const subject = issueSubject(issue);
  const own = subject && issue.message.startsWith(`${subject} `) ? issue.message.slice(subject.length + 1) : issue.message;
  if (issue.code === 'invalid_type') {
    if (valueAt(input, issue.path) === undefined) return REQUIRED_PROBLEM;
    return own === REQUIRED_PROBLEM || isZodWording(own) ? plainWording(issue) : own;
  }
  if (issue.code === 'invalid_value' && 'values' in issue) {
    return `must be one of: ${(issue.values as unknown[]).join(', ')}`;
  }
  return isZodWording(own) ? plainWording(issue) : own;
}

/**
 * One `ERROR:` line for the first issue of an agent tool's arguments: unknown fields with
 * the fields the tool takes, else the field's path and its problem ({@link issueProblem}).
 * @param input the arguments as the tool received them
 * @param allowed the tool's fields, in the order its input schema lists them
 */
export function toolInputErrorText(error: z.ZodError, input: unknown, allowed: readonly string[]): string {
  const issue = error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    return `ERROR: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')} — the tool takes: ${allowed.join(', ')}`;
  }
  const subject = issueSubject(issue);
  const problem = issueProblem(issue, input);
  return `ERROR: ${subject ? `${subject} ` : ''}${problem === 'is invalid' ? 'is invalid — see the tool\'s input schema' : problem}`;
}
