/** The `specialist-handoff` command line: one strict `util.parseArgs` table for every subcommand. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { BUDGET_PRESET_NAMES } from '../core/handoff/limits';
import { clipText } from '../core/handoff/text';

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

export type OptionName = keyof typeof OPTIONS;

/** Options every subcommand takes besides its own. */
export const GLOBAL_OPTIONS: readonly OptionName[] = ['help', 'version'];

/** The options each subcommand accepts (docs/CLI.md lists the same). */
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
  hook: ['agent', 'specialist', 'topic', 'cwd', 'dir'],
  'export-agents': ['target', 'force', 'json', 'cwd', 'dir'],
  continue: ['agent', 'handoff', 'specialist', 'print', 'no-take', 'session-id', 'cwd', 'dir'],
  verify: ['handoff', 'run', 'timeout', 'session-id', 'json', 'cwd', 'dir'],
  insights: ['since', 'pending-warn-after', 'max-depth', 'json', 'cwd', 'dir'],
};

/** The `ERROR:` line naming the options `command` does not take, or undefined (also for an unknown command). */
export function foreignOption(command: string, values: Values): string | undefined {
  if (!Object.hasOwn(COMMAND_OPTIONS, command)) return undefined;
  const accepted = new Set<string>([...COMMAND_OPTIONS[command], ...GLOBAL_OPTIONS]);
  const foreign = Object.keys(values).filter((k) => !accepted.has(k));
  if (!foreign.length) return undefined;
  const names = foreign.map((k) => `--${k}`).join(', ');
  return `ERROR: ${names} ${foreign.length === 1 ? 'is not an option' : 'are not options'} of "${command}" — run "specialist-handoff ${command} --help" for its options`;
}

export type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>['values'];

export type CommandLine = { ok: true; values: Values; positionals: string[] } | { ok: false; message: string; args: string[] };

/**
 * A whole-number flag: undefined when absent, else the number or an `ERROR:` (not a whole number,
 * or so long `Number()` reads Infinity). Range checks are the caller's.
 */
export function integer(value: string | undefined, flag: string): number | undefined | { error: string } {
  if (value === undefined) {
    return undefined;
  }
  if (!/^-?\d+$/.test(value.trim())) {
    return { error: `ERROR: --${flag} must be a whole number (got ${quoted(value)})` };
  }
  const n = Number(value);
  if (!Number.isFinite(n)) {
    return { error: `ERROR: --${flag} is too large to be a number (got ${quoted(value)}) — give a whole number with fewer digits` };
  }
  return n;
}

/** `--user-request-tokens`: a number of tokens, 0 or more; undefined when absent. */
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

/** A value as an error quotes it: one line, at most 60 characters. */
function quoted(value: string | undefined): string {
  return JSON.stringify(clipText((value ?? '').replace(/\s+/g, ' '), 60));
}

/** A one-value option given twice: Node's parseArgs silently keeps the last, which hides a mistake. */
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
 * Parses argv (without `node` and the script). A bad command line gives one `ERROR:` line; an
 * option followed by something that looks like an option gets how to pass a value starting with `-`.
 */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const args = joinNegativeNumbers(argv);
  try {
    const parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
    const repeated = repeatedValueOption(parsed.tokens);
    if (repeated) return { ok: false, message: repeated, args };
    return { ok: true, values: parsed.values, positionals: parsed.positionals };
  } catch (err) {
    // parseArgs reports only by message.
    const message = (err as Error).message;
    const ambiguous = /Option '(?:-\w, )?(--[\w-]+)[^']*' argument is ambiguous/.exec(message);
    const first = ambiguous
      ? `${ambiguous[1]} needs a value; to pass one that starts with "-", write ${ambiguous[1]}=-value`
      : (message.split('\n')[0] ?? '').replace(/\. To specify a positional argument.*$/, '').replace(/\.$/, '');
    return { ok: false, message: `ERROR: ${first} — run "specialist-handoff --help" for the options`, args };
  }
}

/** `--budget`: a preset name or a token count, never with `--max-tokens`; undefined when absent. */
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
