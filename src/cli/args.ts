/**
 * The command line of `specialist-handoff`: every option (one table for all subcommands,
 * parsed with Node's `util.parseArgs`, strict), whole-number flags, and negative numbers
 * kept as values (docs/CLI.md lists the flags of each subcommand).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { BUDGET_PRESET_NAMES } from '../core/handoff/limits';
import { clipText } from '../core/handoff/render';

/** Every option of every subcommand: its type, whether it repeats, its short form. */
export const OPTIONS = {
  specialist: { type: 'string', short: 's' },
  topic: { type: 'string', short: 't' },
  summary: { type: 'string' },
  decision: { type: 'string', multiple: true },
  failed: { type: 'string', multiple: true },
  next: { type: 'string', multiple: true },
  blocker: { type: 'string', multiple: true },
  done: { type: 'string', multiple: true },
  draft: { type: 'boolean' },
  'user-request-tokens': { type: 'string' },
  artifact: { type: 'string', multiple: true },
  turn: { type: 'string', multiple: true },
  'return-condition': { type: 'string' },
  reason: { type: 'string' },
  'reason-kind': { type: 'string' },
  from: { type: 'string' },
  'max-tokens': { type: 'string' },
  budget: { type: 'string' },
  'recent-turns': { type: 'string' },
  tokenizer: { type: 'string' },
  dir: { type: 'string' },
  'no-fit': { type: 'boolean' },
  parent: { type: 'string' },
  'max-depth': { type: 'string' },
  'confirm-hop': { type: 'boolean' },
  'session-id': { type: 'string' },
  'summary-file': { type: 'string' },
  handoff: { type: 'string', multiple: true },
  met: { type: 'string', multiple: true },
  'no-take': { type: 'boolean' },
  'proceed-if-taken': { type: 'boolean' },
  'session-log': { type: 'string' },
  target: { type: 'string' },
  force: { type: 'boolean' },
  json: { type: 'boolean' },
  cwd: { type: 'string' },
  agent: { type: 'string' },
  print: { type: 'boolean' },
  'omit-tool': { type: 'string', multiple: true },
  run: { type: 'boolean' },
  timeout: { type: 'string' },
  since: { type: 'string' },
  'pending-warn-after': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} satisfies ParseArgsConfig['options'];

/** The long name of an option (`max-tokens`). */
export type OptionName = keyof typeof OPTIONS;

/** Options every subcommand takes besides its own (docs/CLI.md, "Options every subcommand takes"). */
export const GLOBAL_OPTIONS: readonly OptionName[] = ['help', 'version'];

/**
 * The options each subcommand accepts (docs/CLI.md lists the same); any other option given
 * to it is an error naming the subcommand. A new subcommand adds its line here and its
 * usage in usage.ts.
 */
export const COMMAND_OPTIONS: Readonly<Record<string, readonly OptionName[]>> = {
  handover: [
    'specialist',
    'topic',
    'summary',
    'summary-file',
    'decision',
    'failed',
    'next',
    'blocker',
    'artifact',
    'turn',
    'return-condition',
    'reason',
    'reason-kind',
    'from',
    'max-tokens',
    'budget',
    'recent-turns',
    'tokenizer',
    'dir',
    'no-fit',
    'parent',
    'max-depth',
    'confirm-hop',
    'session-id',
    'session-log',
    'json',
    'cwd',
    'done',
    'draft',
    'user-request-tokens',
  ],
  draft: ['session-log', 'recent-turns', 'tokenizer', 'user-request-tokens', 'json', 'cwd', 'dir'],
  prompt: ['specialist', 'handoff', 'no-take', 'session-id', 'json', 'cwd', 'dir'],
  history: ['handoff', 'max-tokens', 'session-log', 'json', 'cwd', 'dir'],
  'record-result': [
    'specialist',
    'handoff',
    'summary',
    'summary-file',
    'met',
    'next',
    'blocker',
    'proceed-if-taken',
    'session-log',
    'tokenizer',
    'session-id',
    'json',
    'cwd',
    'dir',
  ],
  specialists: ['json', 'cwd', 'dir'],
  mcp: ['cwd', 'dir', 'omit-tool'],
  hook: ['specialist', 'topic', 'cwd', 'dir'],
  'export-agents': ['target', 'force', 'json', 'cwd', 'dir'],
  continue: ['agent', 'handoff', 'specialist', 'print', 'no-take', 'session-id', 'cwd', 'dir'],
  verify: ['handoff', 'run', 'timeout', 'session-id', 'json', 'cwd', 'dir'],
  insights: ['since', 'pending-warn-after', 'max-depth', 'json', 'cwd', 'dir'],
};

/**
 * The options given to `command` that it does not take.
 * @returns the `ERROR:` line naming the subcommand and every such option, or undefined
 *   when every option given is the subcommand's (or the command is unknown: that error comes later)
 */
export function foreignOption(command: string, values: Values): string | undefined {
  if (!Object.hasOwn(COMMAND_OPTIONS, command)) return undefined;
  const accepted = new Set<string>([...COMMAND_OPTIONS[command], ...GLOBAL_OPTIONS]);
  const foreign = Object.keys(values).filter((k) => !accepted.has(k));
  if (!foreign.length) return undefined;
  const names = foreign.map((k) => `--${k}`).join(', ');
  return `ERROR: ${names} ${foreign.length === 1 ? 'is not an option' : 'are not options'} of "${command}" — run "specialist-handoff ${command} --help" for its options`;
}

/** The parsed options, by long name (`values['max-tokens']`). */
export type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>['values'];

/** A parsed command line: the options and the positionals (the subcommand first), or the `ERROR:` line of a bad one. */
export type CommandLine = { ok: true; values: Values; positionals: string[] } | { ok: false; message: string; args: string[] };

/**
 * A whole-number flag (`--max-tokens 3000`); one too long to be a number (over 308 digits:
 * `Number()` reads it as Infinity) is an error here, a finite one is range-checked by its caller.
 * @returns the number, undefined when the flag is absent, or the `ERROR:` naming the flag and
 *   quoting the value (one line, cut at 60 characters)
 */
export function integer(value: string | undefined, flag: string): number | undefined | { error: string } {
  if (value === undefined) {
    return undefined;
  }
  if (!/^-?\d+$/.test(value.trim())) {
    return { error: `ERROR: --${flag} must be a whole number (got ${quoted(value)})` };
  }
  const n = Number(value);
  // Over 308 digits a digit string reads as Infinity: no later range check could name it.
  if (!Number.isFinite(n)) {
    return { error: `ERROR: --${flag} is too large to be a number (got ${quoted(value)}) — give a whole number with fewer digits` };
  }
  return n;
}

/**
 * `--user-request-tokens N` (setting `handoff.userRequestTokens`): a whole number of tokens, 0 or more.
 * @returns the number, undefined when absent, or the `ERROR:` naming the flag
 */
export function userRequestTokens(values: Pick<Values, 'user-request-tokens'>): number | undefined | { error: string } {
  const n = integer(values['user-request-tokens'], 'user-request-tokens');
  if (typeof n === 'number' && n < 0) return { error: `ERROR: --user-request-tokens must be 0 or more tokens (got ${n}); 0 keeps the latest request only` };
  return n;
}

const VALUE_OPTIONS = new Set(
  Object.entries(OPTIONS)
    .filter(([, o]) => o.type === 'string')
    .flatMap(([name, o]) => [`--${name}`, ...('short' in o ? [`-${o.short}`] : [])]),
);

/** `--max-tokens -5` → `--max-tokens=-5`, so a negative number reaches validation instead of being read as an option. */
export function joinNegativeNumbers(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = argv[i + 1];
    if (VALUE_OPTIONS.has(a) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else {
      out.push(a);
    }
  }
  return out;
}

/** A value as an error quotes it: one line, at most 60 characters, cut at a word with "…" ({@link clipText}). */
function quoted(value: string | undefined): string {
  return JSON.stringify(clipText((value ?? '').replace(/\s+/g, ' '), 60));
}

/**
 * A value option that takes one value (not `multiple`) given more than once: Node's
 * parseArgs keeps the last silently, which hides a mistake (`-s a … -s b`).
 * @returns the `ERROR:` line naming the option and both values, or undefined
 */
function repeatedValueOption(tokens: ReadonlyArray<{ kind: string; name?: string; value?: string }>): string | undefined {
  const seen = new Map<string, string | undefined>();
  for (const t of tokens) {
    if (t.kind !== 'option' || t.name === undefined) continue;
    const option = OPTIONS[t.name as OptionName] as { type: string; multiple?: boolean } | undefined;
    if (!option || option.type !== 'string' || option.multiple) continue;
    if (seen.has(t.name)) {
      return `ERROR: --${t.name} given twice (${quoted(seen.get(t.name))}, then ${quoted(t.value)}) — it takes one value: pass it once`;
    }
    seen.set(t.name, t.value);
  }
  return undefined;
}

/**
 * Parses the command line (without `node` and the script path). A bad one (an unknown
 * option, a missing value, a one-value option given twice) gives one `ERROR:` line: Node's own
 * message, shortened, or for an option followed by something that looks like another
 * option, how to pass a value that starts with `-`.
 */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const args = joinNegativeNumbers(argv);
  try {
    const parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
    const repeated = repeatedValueOption(parsed.tokens);
    if (repeated) return { ok: false, message: repeated, args };
    return { ok: true, values: parsed.values, positionals: parsed.positionals };
  } catch (err) {
    // Node's parseArgs reports only by message (ERR_PARSE_ARGS_* codes, one text each).
    const message = (err as Error).message;
    const ambiguous = /Option '(?:-\w, )?(--[\w-]+)[^']*' argument is ambiguous/.exec(message);
    const first = ambiguous
      ? `${ambiguous[1]} needs a value; to pass one that starts with "-", write ${ambiguous[1]}=-value`
      : (message.split('\n')[0] ?? '').replace(/\. To specify a positional argument.*$/, '').replace(/\.$/, '');
    return { ok: false, message: `ERROR: ${first} — run "specialist-handoff --help" for the options`, args };
  }
}

/**
 * `--budget`: a preset (`small`, `default`, `large`) or a whole number of tokens, as
 * `--max-tokens` takes it; never both.
 * @returns the preset's name, the number, undefined when not given, or the `ERROR:` to print
 */
export function budgetOption(values: Values): string | number | undefined | { error: string } {
  const given = values.budget;
  if (given === undefined) return undefined;
  if (values['max-tokens'] !== undefined)
    return { error: 'ERROR: --budget and --max-tokens are both given — give one: a preset (small, default, large) or a number of tokens' };
  if ((BUDGET_PRESET_NAMES as readonly string[]).includes(given.trim().toLowerCase())) return given.trim().toLowerCase();
  const n = integer(given, 'budget');
  return typeof n === 'number' && n > 0
    ? n
    : { error: `ERROR: --budget must be small, default, large or a whole number of tokens above 0 (got ${quoted(given)})` };
}
