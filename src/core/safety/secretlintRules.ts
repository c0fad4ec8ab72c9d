/**
 * secretlint's recommended preset (rule set: secretlint preset-recommend 13,
 * `@secretlint/secretlint-rule-preset-recommend`, run through `@secretlint/core`
 * `lintSource`) as a source of {@link Finding}s (docs/DESIGN.md §7 "Nothing leaked").
 * secretlint is loaded lazily on first use, so activation stays light. Pure computation:
 * no I/O and no `vscode`.
 */
import type { lintSource as LintSource } from '@secretlint/core' with { 'resolution-mode': 'import' };
import { kindForMessageId, type Finding } from './secretKinds';

/** A secretlint rule as its config lists it: `{ id, rule, options? }` (rule set: secretlint 13 core config). */
export type SecretlintRuleEntry = Parameters<typeof LintSource>[0]['options']['config']['rules'][number];

/**
 * Loads secretlint and builds its configuration once: every rule of preset-recommend 13
 * except `secretlint-rule-filter-comments` (a `secretlint-disable` comment in text an
 * agent wrote must not switch redaction off), the AWS rule with `enableIDScanRule` (access
 * key ids and account ids too, off by default in secretlint).
 */
async function loadSecretlint() {
  const [core, preset, profiler] = await Promise.all([
    import('@secretlint/core'),
    import('@secretlint/secretlint-rule-preset-recommend'),
    import('@secretlint/profiler'),
  ]);
  const rules = preset.rules
    .filter((r) => r.meta.id !== '@secretlint/secretlint-rule-filter-comments')
    .map((rule) => ({ id: rule.meta.id, rule, options: rule.meta.id === '@secretlint/secretlint-rule-aws' ? { enableIDScanRule: true } : {} }));
  const config: Parameters<typeof LintSource>[0]['options']['config'] = { rules };
  // secretlint's profiler (on by default, for its CLI) marks every run and every rule with
  // `performance.mark` and keeps each mark and measure: in the extension host and the MCP
  // server, which redact for hours, memory that only grows (a million marks after ten
  // thousand runs). Its maintained switch turns it off (secretlint issue #1633). The package
  // is pinned to core's exact version so that npm installs one copy: the one core marks with.
  profiler.secretLintProfiler.setEnabled(false);
  return { lintSource: core.lintSource, config };
}

let engine: ReturnType<typeof loadSecretlint> | undefined;

/** The secretlint engine, loaded on first use (ESM, about 0.3 MB; activation never pays for it). */
function secretlint(): ReturnType<typeof loadSecretlint> {
  engine ??= loadSecretlint().catch((err: unknown) => {
    engine = undefined; // try again next time
    throw err;
  });
  return engine;
}

/** Keys of secretlint message data that hold the secret itself. */
const DATA_VALUE_KEYS = ['TOKEN', 'KEY', 'ID', 'URI', 'URL', 'CREDENTIAL'] as const;
/** Kinds whose finding is a URL: only its `user:password` part is redacted, the host stays readable. */
const URL_KINDS = new Set(['basic-auth', 'mongodb-connection', 'mysql-connection', 'postgresql-connection']);

type LintMessage = Awaited<ReturnType<typeof LintSource>>['messages'][number];

/**
 * Runs secretlint on one chunk and returns its findings with ranges relative to the chunk.
 * When a rule crashes, the rules are run one by one so only the crashing rule is lost
 * (named in `notes`). Ranges are corrected where a rule reports a range that does not
 * cover its secret (the AWS secret-key and `x-oauth-basic` rules report the key's length
 * from the start of the whole match): the secret value from the message data is located
 * and its range used.
 *
 * @param json scan the chunk as a `.json` file (the GCP service-account rule needs it)
 * @param extraRules more rules to run with the preset's (a project's own)
 * @param notes receives a note per rule that crashed
 * @throws when secretlint itself cannot be loaded or run
 */
export async function secretlintFindings(content: string, json: boolean, extraRules: readonly SecretlintRuleEntry[] | undefined, notes: string[]): Promise<Finding[]> {
  const loaded = await secretlint();
  const rules = extraRules?.length ? [...loaded.config.rules, ...extraRules] : loaded.config.rules;
  const lint = async (only: typeof rules): Promise<LintMessage[]> =>
    (
      await loaded.lintSource({
        // No file path: the npm rule then also looks for `x-oauth-basic` GitHub URLs, and no
        // rule reads a file. A leading BOM would be dropped by secretlint (shifting every
        // range by one), so it is scanned as a space.
        source: { content: content.startsWith('\ufeff') ? ` ${content.slice(1)}` : content, filePath: '', ext: json ? '.json' : '.txt', contentType: 'text' },
        options: { config: { ...loaded.config, rules: only }, locale: 'en', maskSecrets: false, noPhysicFilePath: true },
      })
    ).messages;
  let messages: LintMessage[];
  try {
    messages = await lint(rules);
  } catch {
    messages = [];
    for (const rule of rules) {
      try {
        messages.push(...(await lint([rule])));
      } catch (err) {
        const note = `the secretlint rule ${rule.id} crashed (${(err as Error)?.message ?? String(err)}); the other rules still ran`;
        if (!notes.includes(note)) notes.push(note);
      }
    }
  }
  const result = { messages };
  const out: Finding[] = [];
  for (const msg of result.messages) {
    const kind = kindForMessageId(msg.messageId);
    let [start, end] = msg.range;
    const data = (msg.data ?? {}) as Record<string, unknown>;
    const value = DATA_VALUE_KEYS.map((k) => data[k]).find((v): v is string => typeof v === 'string' && v.length > 0);
    if (value !== undefined && content.slice(start, end) !== value) {
      const at = content.indexOf(value, start);
      if (at >= 0 && at <= end) {
        start = at;
        end = at + value.length;
      }
    }
    if (kind === 'aws-account-id') {
      // The match includes the key name; keep the name readable, redact the digits.
      const digits = [...content.slice(start, end).matchAll(/[0-9]{4}-?[0-9]{4}-?[0-9]{4}/g)].pop();
      if (digits?.index !== undefined) {
        start += digits.index;
        end = start + digits[0].length;
      }
    } else if (URL_KINDS.has(kind)) {
      const slice = content.slice(start, end);
      const scheme = slice.indexOf('://');
      const at = scheme >= 0 ? slice.indexOf('@', scheme + 3) : -1;
      if (at > scheme + 3) {
        end = start + at;
        start = start + scheme + 3;
      }
    }
    // AWS's documented example keys (`AKIAIOSFODNN7EXAMPLE`, `AKIAI44QH8DHBEXAMPLE`, `…EXAMPLEKEY`) are not secrets.
    if (kind.startsWith('aws-') && /EXAMPLE/.test(content.slice(start, end))) continue;
    // Text that is only earlier markers (`postgres://[REDACTED:…]@db`) is not found again (idempotence).
    if (!/[A-Za-z0-9]/.test(content.slice(start, end).replace(/\[REDACTED(?::[a-z0-9-]+)?\]/g, ''))) continue;
    // A URL's credentials are less specific than a token found inside them (`https://<token>:x-oauth-basic@github.com`).
    if (end > start) out.push({ start, end, kind, priority: kind === 'basic-auth' ? 1 : 0 });
  }
  return out;
}
