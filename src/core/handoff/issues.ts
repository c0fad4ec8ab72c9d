// The words of a zod issue in one place, so every surface says the same thing about the same mistake, in words a person or agent can act on.
import type * as z from 'zod';
import { formatCount } from './limits';

export const REQUIRED_PROBLEM = 'is required';

/** Keyed by zod's `expected` of an `invalid_type` issue. */
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

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function isZodWording(message: string): boolean {
  return /^(Invalid|Too big|Too small|Unrecognized)\b/.test(message);
}

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
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${formatCount(Number(issue.minimum))} characters`;
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
 * Without its subject. An absent value `is required` (zod gives one message for absent and wrong types, so a schema's
 * "is required" only describes the absent one); a value outside a set `must be one of: a, b`; zod's own English in plain words.
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

/** Unknown fields name the fields the tool takes; `allowed` in its input schema's order. */
export function toolInputErrorText(error: z.ZodError, input: unknown, allowed: readonly string[]): string {
  const issue = error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    return `ERROR: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')} — the tool takes: ${allowed.join(', ')}`;
  }
  const subject = issueSubject(issue);
  const problem = issueProblem(issue, input);
  return `ERROR: ${subject ? `${subject} ` : ''}${problem === 'is invalid' ? "is invalid — see the tool's input schema" : problem}`;
}
