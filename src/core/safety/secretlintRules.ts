/** secretlint's recommended preset as a source of {@link Finding}s, loaded on first use so activation stays light. */
import type { lintSource as LintSource } from '@secretlint/core' with { 'resolution-mode': 'import' };
import { kindForMessageId, type Finding } from './secretKinds';

export type SecretlintRuleEntry = Parameters<typeof LintSource>[0]['options']['config']['rules'][number];

/** Every preset rule but `filter-comments` (a `secretlint-disable` in an agent's text must not switch redaction off); AWS also scans ids. */
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
  // The profiler keeps every mark it makes: memory that only grows in a host that redacts for
  // hours. The package is pinned to core's exact version so npm installs the one copy core uses.
  profiler.secretLintProfiler.setEnabled(false);
  return { lintSource: core.lintSource, config };
}

let engine: ReturnType<typeof loadSecretlint> | undefined;

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
 * If a rule crashes, the rules run one by one so only it is lost (noted in `notes`). A range that misses its secret (AWS
 * secret keys, `x-oauth-basic`) is corrected from the message data.
 * @throws when secretlint itself cannot load or run
 */
export async function secretlintFindings(
  content: string,
  json: boolean,
  extraRules: readonly SecretlintRuleEntry[] | undefined,
  notes: string[],
): Promise<Finding[]> {
  const loaded = await secretlint();
  const rules = extraRules?.length ? [...loaded.config.rules, ...extraRules] : loaded.config.rules;
  const lint = async (only: typeof rules): Promise<LintMessage[]> =>
    (
      await loaded.lintSource({
        // No file path, so the npm rule also looks for `x-oauth-basic` GitHub URLs. secretlint
        // drops a leading BOM (shifting every range by one), so it is scanned as a space.
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
    // AWS's documented example keys are not secrets.
    if (kind.startsWith('aws-') && /EXAMPLE/.test(content.slice(start, end))) continue;
    // Text that is only earlier markers (`postgres://[REDACTED:…]@db`) is not found again (idempotence).
    if (!/[A-Za-z0-9]/.test(content.slice(start, end).replace(/\[REDACTED(?::[a-z0-9-]+)?\]/g, ''))) continue;
    // A URL's credentials are less specific than a token found inside them (`https://<token>:x-oauth-basic@github.com`).
    if (end > start) out.push({ start, end, kind, priority: kind === 'basic-auth' ? 1 : 0 });
  }
  return out;
}
