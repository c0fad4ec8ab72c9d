/**
 * "Nothing leaked" (DESIGN §7): secret redaction and invisible-Unicode stripping for every
 * text headed for a handoff, a briefing, a history file or a prompt.
 *
 * Secrets: the rules of secretlint's recommended preset (rule set: secretlint
 * preset-recommend 13, `@secretlint/secretlint-rule-preset-recommend`, run through
 * `@secretlint/core` `lintSource`), plus two small rules of our own for what that preset
 * has no rule for: JSON Web Tokens and `.env`-style secret assignments. Each finding is
 * replaced by `[REDACTED:<kind>]` (see {@link SECRET_KINDS}). Pure computation: no I/O and
 * no `vscode`; secretlint is loaded lazily on first use so activation stays light.
 *
 * Invisible Unicode: bidi controls, zero-width characters and Unicode tag characters are
 * removed from text other agents wrote ({@link stripInvisible}).
 */
import type { lintSource as LintSource } from '@secretlint/core' with { 'resolution-mode': 'import' };
import type { HandoffPackage } from '../handoff/schema';

/** A secretlint rule as its config lists it: `{ id, rule, options? }` (rule set: secretlint 13 core config). */
export type SecretlintRuleEntry = Parameters<typeof LintSource>[0]['options']['config']['rules'][number];

/** Options of {@link redactSecrets} and {@link redactTexts}. */
export interface RedactOptions {
  /**
   * More secretlint rules to run with the preset's (a project's own rules). Their message
   * ids name their kinds through {@link kindForMessageId}. The tests pass one that throws,
   * to prove a crashing rule never breaks a handoff.
   */
  readonly extraRules?: readonly SecretlintRuleEntry[];
}

// ---------------------------------------------------------------------------------------
// Kinds
// ---------------------------------------------------------------------------------------

/** Where a kind's rule comes from. */
export type SecretRuleSource = 'secretlint' | 'handoff';

/** One kind of secret: its `[REDACTED:<kind>]` name, what it is, and the rule that finds it. */
export interface SecretKind {
  /** Short stable name written in `[REDACTED:<kind>]` and in the frontmatter's `redactions`. */
  readonly kind: string;
  /** What it is, in words. */
  readonly label: string;
  /** `secretlint`: a rule of secretlint preset-recommend 13; `handoff`: one of ours (in this file). */
  readonly source: SecretRuleSource;
  /** The rule id (secretlint package id, or ours) and the message ids it reports under. */
  readonly rule: string;
  readonly messageIds: readonly string[];
}

const SL = (rule: string) => `@secretlint/secretlint-rule-${rule}`;

/**
 * Every kind of secret we redact, with its source. The secretlint kinds are named after
 * the rule's message id (rule set: secretlint preset-recommend 13); `jwt` and
 * `secret-assignment` are our own rules (see {@link JWT_PATTERN} and
 * {@link SECRET_ASSIGNMENT_PATTERN}).
 */
export const SECRET_KINDS: readonly SecretKind[] = [
  { kind: 'aws-access-key-id', label: 'AWS access key id (AKIA…, ASIA…)', source: 'secretlint', rule: SL('aws'), messageIds: ['AWSAccessKeyID'] },
  { kind: 'aws-secret-access-key', label: 'AWS secret access key (after an aws_secret_access_key key)', source: 'secretlint', rule: SL('aws'), messageIds: ['AWSSecretAccessKey'] },
  { kind: 'aws-account-id', label: 'AWS account id (after an aws_account_id key)', source: 'secretlint', rule: SL('aws'), messageIds: ['AWSAccountID'] },
  { kind: 'gcp-service-account-key', label: 'GCP service-account key file (JSON)', source: 'secretlint', rule: SL('gcp'), messageIds: ['PrivateKeyJSON', 'PrivateKeyP12'] },
  { kind: 'npm-token', label: 'npm access token (npm_…) or .npmrc _authToken', source: 'secretlint', rule: SL('npm'), messageIds: ['NPM_ACCESS_TOKEN', 'Npmrc_authToken'] },
  { kind: 'github-token', label: 'GitHub token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_, x-oauth-basic URL)', source: 'secretlint', rule: SL('github'), messageIds: ['GITHUB_TOKEN', 'PackageJSON_xOauthToken'] },
  { kind: 'gitlab-token', label: 'GitLab personal access token (glpat-…)', source: 'secretlint', rule: SL('gitlab'), messageIds: ['GITLAB_PERSONAL_ACCESS_TOKEN'] },
  { kind: 'slack-token', label: 'Slack token (xoxb-, xoxp-, xapp-, xoxa-, xoxo-, xoxr-)', source: 'secretlint', rule: SL('slack'), messageIds: ['SLACK_TOKEN'] },
  { kind: 'slack-webhook', label: 'Slack incoming webhook URL', source: 'secretlint', rule: SL('slack'), messageIds: ['IncomingWebhook'] },
  { kind: 'basic-auth', label: 'user:password in an http(s)/ftp URL', source: 'secretlint', rule: SL('basicauth'), messageIds: ['BasicAuth'] },
  { kind: 'openai-api-key', label: 'OpenAI API key (sk-…T3BlbkFJ…, sk-proj-…)', source: 'secretlint', rule: SL('openai'), messageIds: ['OPENAI_TOKEN'] },
  { kind: 'anthropic-api-key', label: 'Anthropic API key (sk-ant-api0…)', source: 'secretlint', rule: SL('anthropic'), messageIds: ['ANTHROPIC_API_KEY'] },
  { kind: 'groq-api-key', label: 'Groq API key (gsk_…)', source: 'secretlint', rule: SL('groq'), messageIds: ['GROQ_API_KEY'] },
  { kind: 'huggingface-token', label: 'Hugging Face user access token (hf_…)', source: 'secretlint', rule: SL('huggingface'), messageIds: ['HUGGINGFACE_USER_ACCESS_TOKEN'] },
  { kind: 'linear-api-key', label: 'Linear API key (lin_api_…)', source: 'secretlint', rule: SL('linear'), messageIds: ['LINEAR_API_TOKEN'] },
  { kind: 'notion-token', label: 'Notion integration token (ntn_…)', source: 'secretlint', rule: SL('notion'), messageIds: ['NOTION_INTEGRATION_TOKEN'] },
  { kind: 'private-key', label: 'PEM private key block (RSA, DSA, EC, OpenSSH, PGP, PKCS#8)', source: 'secretlint', rule: SL('privatekey'), messageIds: ['PrivateKey'] },
  { kind: 'sendgrid-api-key', label: 'SendGrid API key (SG.…)', source: 'secretlint', rule: SL('sendgrid'), messageIds: ['SENDGRID_KEY'] },
  { kind: 'shopify-token', label: 'Shopify token (shpat_, shpca_, shppa_, shpss_)', source: 'secretlint', rule: SL('shopify'), messageIds: ['SHOPIFY_KEY'] },
  { kind: 'stripe-secret-key', label: 'Stripe secret key (sk_live_, sk_test_)', source: 'secretlint', rule: SL('stripe'), messageIds: ['STRIPE_SECRET_KEY_LIVE', 'STRIPE_SECRET_KEY_TEST'] },
  { kind: 'stripe-restricted-key', label: 'Stripe restricted key (rk_live_, rk_test_)', source: 'secretlint', rule: SL('stripe'), messageIds: ['STRIPE_RESTRICTED_KEY_LIVE', 'STRIPE_RESTRICTED_KEY_TEST'] },
  { kind: 'grafana-cloud-token', label: 'Grafana Cloud API token (glc_…)', source: 'secretlint', rule: SL('grafana'), messageIds: ['GRAFANA_CLOUD_API_TOKEN'] },
  { kind: 'grafana-service-account-token', label: 'Grafana service account token (glsa_…)', source: 'secretlint', rule: SL('grafana'), messageIds: ['GRAFANA_SERVICE_ACCOUNT_TOKEN'] },
  { kind: '1password-token', label: '1Password service account token (ops_…)', source: 'secretlint', rule: SL('1password'), messageIds: ['OPS_TOKEN'] },
  { kind: 'mongodb-connection', label: 'MongoDB connection string with credentials', source: 'secretlint', rule: SL('database-connection-string'), messageIds: ['MongoDBConnection'] },
  { kind: 'mysql-connection', label: 'MySQL connection string with credentials', source: 'secretlint', rule: SL('database-connection-string'), messageIds: ['MySQLConnection'] },
  { kind: 'postgresql-connection', label: 'PostgreSQL connection string with credentials', source: 'secretlint', rule: SL('database-connection-string'), messageIds: ['PostgreSQLConnection'] },
  {
    kind: 'vault-token',
    label: 'HashiCorp Vault token (hvs., hvb., hvr.)',
    source: 'secretlint',
    rule: SL('hashicorp-vault'),
    messageIds: ['HASHICORP_VAULT_SERVICE_TOKEN', 'HASHICORP_VAULT_BATCH_TOKEN', 'HASHICORP_VAULT_RECOVERY_TOKEN'],
  },
  {
    kind: 'vercel-token',
    label: 'Vercel token (vcp_, vci_, vca_, vcr_, vck_)',
    source: 'secretlint',
    rule: SL('vercel'),
    messageIds: ['VERCEL_PERSONAL_ACCESS_TOKEN', 'VERCEL_INTEGRATION_TOKEN', 'VERCEL_APP_ACCESS_TOKEN', 'VERCEL_APP_REFRESH_TOKEN', 'VERCEL_AI_GATEWAY_API_KEY'],
  },
  { kind: 'databricks-token', label: 'Databricks personal access token (dapi…)', source: 'secretlint', rule: SL('databricks'), messageIds: ['DATABRICKS_PERSONAL_ACCESS_TOKEN'] },
  { kind: 'docker-token', label: 'Docker personal access token (dckr_pat_…)', source: 'secretlint', rule: SL('docker'), messageIds: ['DOCKER_PERSONAL_ACCESS_TOKEN'] },
  { kind: 'figma-token', label: 'Figma personal access token (figd_…)', source: 'secretlint', rule: SL('figma'), messageIds: ['FIGMA_PERSONAL_ACCESS_TOKEN'] },
  { kind: 'cloudflare-api-key', label: 'Cloudflare global API key (cfk_…)', source: 'secretlint', rule: SL('cloudflare'), messageIds: ['CLOUDFLARE_GLOBAL_API_KEY'] },
  { kind: 'cloudflare-api-token', label: 'Cloudflare user or account API token (cfut_, cfat_)', source: 'secretlint', rule: SL('cloudflare'), messageIds: ['CLOUDFLARE_USER_API_TOKEN', 'CLOUDFLARE_ACCOUNT_API_TOKEN'] },
  {
    kind: 'tailscale-key',
    label: 'Tailscale key (tskey-api-, -auth-, -client-, -scim-, -webhook-)',
    source: 'secretlint',
    rule: SL('tailscale'),
    messageIds: ['TAILSCALE_API_KEY', 'TAILSCALE_AUTH_KEY', 'TAILSCALE_CLIENT_KEY', 'TAILSCALE_SCIM_KEY', 'TAILSCALE_WEBHOOK_KEY', 'TAILSCALE_KEY'],
  },
  { kind: 'jwt', label: 'JSON Web Token (header.payload.signature, header with "alg")', source: 'handoff', rule: 'handoff/jwt', messageIds: ['JWT'] },
  {
    kind: 'secret-assignment',
    label: '.env-style assignment of a secret (SECRET=…, API_KEY=…, PASSWORD: …, "token": "…")',
    source: 'handoff',
    rule: 'handoff/secret-assignment',
    messageIds: ['SECRET_ASSIGNMENT'],
  },
];

const KIND_BY_MESSAGE_ID = new Map(SECRET_KINDS.flatMap((k) => k.messageIds.map((m) => [m, k.kind] as const)));

/**
 * The kind for a secretlint message id: the {@link SECRET_KINDS} entry, else (a rule added
 * by a later secretlint) the message id in kebab case, e.g. `FOO_BAR_TOKEN` → `foo-bar-token`.
 */
export function kindForMessageId(messageId: string): string {
  return (
    KIND_BY_MESSAGE_ID.get(messageId) ??
    (messageId
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase() || 'secret')
  );
}

/** The replacement written for a secret of `kind`: `[REDACTED:<kind>]`. */
export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

// ---------------------------------------------------------------------------------------
// Our own rules (only for what secretlint preset-recommend 13 has no rule for)
// ---------------------------------------------------------------------------------------

/**
 * JSON Web Tokens (RFC 7519, compact JWS): three base64url segments joined by dots, the
 * header and payload starting `eyJ` (the base64 of `{"`), the signature optional (an
 * unsigned `alg: none` token ends with a dot). Quantifiers are bounded and the segments
 * cannot contain the dot that separates them, so matching is linear. A match counts only
 * when its header decodes to a JSON object with `alg` (see {@link findJwts}).
 */
export const JWT_PATTERN = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,4000}={0,2}\.eyJ[A-Za-z0-9_-]{8,20000}={0,2}\.(?:[A-Za-z0-9_-]{8,4000}={0,2})?(?![A-Za-z0-9_=-])/g;

/** Finds JWTs in `text` (see {@link JWT_PATTERN}): ranges of whole tokens. */
function findJwts(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(JWT_PATTERN)) {
    const header = m[0].slice(0, m[0].indexOf('.'));
    if (!jwtHeaderOk(header)) continue;
    const start = m.index ?? 0;
    out.push({ start, end: start + m[0].length, kind: 'jwt', priority: 2 });
  }
  return out;
}

function jwtHeaderOk(segment: string): boolean {
  try {
    const json: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof json === 'object' && json !== null && !Array.isArray(json) && 'alg' in json;
  } catch {
    return false;
  }
}

/** A PEM private-key header: `-----BEGIN [RSA |EC |OPENSSH |ENCRYPTED |…]PRIVATE KEY[ BLOCK]-----`. */
const PEM_BEGIN = /-----BEGIN ((?:[A-Z0-9]{1,12} ){0,3})PRIVATE KEY(?: BLOCK)?-----/g;
/** A PEM private-key END line. */
const PEM_END = /-----END ((?:[A-Z0-9]{1,12} ){0,3})PRIVATE KEY(?: BLOCK)?-----/g;
/** Most characters a PEM block may span: 20,000 (an RSA-8192 key is about 6,400). */
const PEM_MAX_CHARS = 20_000;
/** A line of key material, in a file, a JSON string or a unified diff (`+`/`-`/` ` prefix). */
const PEM_BODY_LINE = /^[+\- ]?\s*(?:[A-Za-z0-9+/=]{8,}|Proc-Type:.*|DEK-Info:.*|Comment:.*)?\s*$/;

/**
 * PEM private-key blocks secretlint's privatekey rule lets through: its validation wants
 * the body to start with `MI` or the OpenSSH magic right after the header, so it misses
 * SEC1 EC keys (`MHcC…`), `ENCRYPTED PRIVATE KEY` blocks, keys added in a unified diff
 * (every body line starts with `+`) and keys cut off before their END line (a diff excerpt
 * truncated at 40,000 characters). This rule takes the header to its END line (within
 * {@link PEM_MAX_CHARS}), or, with no END line, to the last line of key material; the
 * body must hold at least 64 base64 characters, so placeholders (`…`, `<key>`) do not count.
 */
function findPemBlocks(text: string): Finding[] {
  const out: Finding[] = [];
  // One pass for the END lines; each header takes the first END after it. Headers inside
  // a block already found are skipped, so the work is linear in the text.
  const ends = [...text.matchAll(PEM_END)].map((m) => ({ at: m.index ?? 0, length: m[0].length }));
  let e = 0;
  let covered = 0;
  for (const m of text.matchAll(PEM_BEGIN)) {
    const start = m.index ?? 0;
    if (start < covered) continue;
    const bodyStart = start + m[0].length;
    while (e < ends.length && ends[e].at < bodyStart) e++;
    const endLine = e < ends.length && ends[e].at - bodyStart <= PEM_MAX_CHARS ? ends[e] : undefined;
    let bodyEnd: number;
    let end: number;
    if (endLine) {
      bodyEnd = endLine.at;
      end = endLine.at + endLine.length;
    } else {
      // No END line: the run of key-material lines after the header (lines end at a line
      // break or, inside a JSON string, at a `\n` escape).
      const limit = Math.min(text.length, bodyStart + PEM_MAX_CHARS);
      const lineBreak = /\r?\n|\\n/g;
      lineBreak.lastIndex = bodyStart;
      bodyEnd = bodyStart;
      let lineStart = bodyStart;
      let first = true;
      for (;;) {
        const br = lineBreak.exec(text);
        const lineEnd = br && br.index < limit ? br.index : limit;
        if (!first && !PEM_BODY_LINE.test(text.slice(lineStart, lineEnd))) break;
        first = false;
        bodyEnd = lineEnd;
        if (!br || br.index >= limit) break;
        lineStart = br.index + br[0].length;
      }
      end = bodyEnd;
    }
    const body = text.slice(bodyStart, bodyEnd).replace(/\\n/g, '\n');
    const material = body.replace(/^[+\- ]?(?:Proc-Type|DEK-Info|Comment):.*$/gm, '').replace(/[^A-Za-z0-9+/=]/g, '');
    if (material.replace(/^\++|\++$/g, '').length < 64 || /^(.)\1*$/.test(material)) continue;
    out.push({ start, end, kind: 'private-key', priority: 2 });
    covered = end;
  }
  return out;
}

/**
 * Secret words a key name must contain, as a whole word of the key (words split at `_`,
 * `-`, `.` and camelCase): `secret`, `token`, `password`, `passwd`, `apikey` / `api key`,
 * `privatekey` / `private key`, `accesskey` / `access key`, `clientsecret` / `client secret`.
 * `max_context_tokens`, `tokenizer`, `password_hint` and the like do not count: the word
 * must be exactly one of these, and the key must not end in a word that names something
 * other than the secret itself ({@link NOT_A_SECRET_SUFFIX}).
 */
const SECRET_WORDS = new Set(['secret', 'token', 'password', 'passwd', 'apikey', 'privatekey', 'accesskey', 'clientsecret']);
const SECRET_PAIRS = new Set(['api key', 'private key', 'access key', 'client secret']);
/** Last words of a key that say it is about the secret, not the secret: `TOKEN_TYPE`, `PASSWORD_FILE`, `SECRET_NAME` … */
const NOT_A_SECRET_SUFFIX = new Set([
  'type', 'types', 'kind', 'name', 'names', 'id', 'ids', 'file', 'files', 'path', 'dir', 'url', 'uri', 'endpoint', 'header', 'field', 'env', 'var',
  'length', 'len', 'size', 'count', 'limit', 'min', 'max', 'ttl', 'expiry', 'expires', 'expiration', 'lifetime', 'timeout', 'prefix', 'suffix', 'format',
  'hint', 'policy', 'rules', 'regex', 'pattern', 'enabled', 'disabled', 'required', 'mode', 'source', 'provider', 'label', 'help', 'description', 'placeholder',
  'hash', 'algorithm', 'alg', 'version', 'location', 'store', 'manager', 'reset', 'changed', 'updated', 'created', 'at', 'arn', 'ref',
]);

/** Values that are placeholders, not secrets: `changeme`, `<token>`, `${TOKEN}`, `***`, `null` … */
const PLACEHOLDER_WORDS = new Set([
  'changeme', 'change_me', 'change-me', 'changeit', 'placeholder', 'example', 'dummy', 'sample', 'fake', 'test', 'todo', 'tbd', 'none', 'null', 'nil',
  'undefined', 'true', 'false', 'yes', 'no', 'secret', 'password', 'passwd', 'token', 'redacted', 'hidden', 'masked', 'empty', 'required', 'optional',
  'string', 'bearer', 'basic', 'xxx', 'your_token', 'your_secret', 'your_password', 'your_api_key', 'your-api-key', 'my_secret', 'mysecret', 'mypassword',
]);

function isPlaceholder(value: string): boolean {
  // What is left once earlier redactions and escaped line breaks are taken out (idempotence).
  const v = value.replace(/\[REDACTED(?::[a-z0-9-]+)?\]|\\[rn]/g, '').trim();
  if (v.length === 0) return true;
  const lower = v.toLowerCase();
  return (
    PLACEHOLDER_WORDS.has(lower) ||
    /^<[^<>]*>$/.test(v) || // <token>
    /^\$\{[^}]*\}$/.test(v) || // ${TOKEN}
    /^\$\{\{.*\}\}$/.test(v) || // ${{ secrets.X }}
    /^\{\{.*\}\}$/.test(v) || // {{ token }}
    /^%[A-Za-z_][A-Za-z0-9_]*%$/.test(v) || // %TOKEN%
    /^\$[A-Za-z_][A-Za-z0-9_]*$/.test(v) || // $TOKEN
    /^\$\(.*\)$/.test(v) || // $(cat token)
    /^(.)\1*$/.test(v) || // ***, xxxx, ....
    /^\[REDACTED(?::[a-z0-9-]+)?\]$/.test(v) || // already redacted
    /^(?:your|my|some|the)[-_ ]/i.test(v) ||
    /^x{3,}/i.test(v) ||
    /^\*{3,}/.test(v)
  );
}

/** A value that is code rather than a literal: `process.env.TOKEN`, `getToken()`, `os.environ["X"]`, `req.body.password`. */
function isCodeLike(value: string): boolean {
  return /[()]/.test(value) || /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[[^\]]*\])+$/.test(value) || /^(?:process\.env|os\.environ|env\.|ENV\[)/.test(value);
}

function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether a key names a secret (see {@link SECRET_WORDS}). */
export function isSecretKey(key: string): boolean {
  const words = keyWords(key);
  if (words.length === 0 || NOT_A_SECRET_SUFFIX.has(words[words.length - 1])) return false;
  for (let i = 0; i < words.length; i++) {
    if (SECRET_WORDS.has(words[i])) return true;
    if (i + 1 < words.length && SECRET_PAIRS.has(`${words[i]} ${words[i + 1]}`)) return true;
  }
  return false;
}

/**
 * `.env`-style secret assignments: `KEY=value`, `export KEY=value`, `KEY: value`,
 * `"key": "value"`, `--api-key=value`, where the key names a secret ({@link isSecretKey}).
 * Groups: 1 key (optionally quoted), 2 the separator with its spacing, 3 a double-quoted
 * value, 4 a single-quoted value, 5 an unquoted value. Quantifiers are bounded (keys 80,
 * values 1,000 characters), so matching is linear.
 */
export const SECRET_ASSIGNMENT_PATTERN =
  /(?<![A-Za-z0-9_.])["']?([A-Za-z_][A-Za-z0-9_.-]{0,80})["']?([ \t]{0,4}[:=][ \t]{0,4})(?:"((?:[^"\\\r\n]|\\.){1,1000})"|'([^'\r\n]{1,1000})'|([^\s"'`,;]{1,1000}))/g;

/**
 * Finds secret assignments (see {@link SECRET_ASSIGNMENT_PATTERN}); the range is the value
 * only, so the key stays readable (`API_KEY=[REDACTED:secret-assignment]`). Quoted values
 * count with any separator; unquoted ones only when they cannot be code: `KEY=value` with
 * no space before `=`, or an all-capitals key (`PASSWORD: hunter2`), or a value with a
 * digit or symbol (`password: hunter2!`) — and never `process.env.X`, `getToken()`,
 * `$VAR` or a placeholder (`<token>`, `${TOKEN}`, `***`, `changeme` …).
 */
function findSecretAssignments(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(SECRET_ASSIGNMENT_PATTERN)) {
    const key = m[1];
    if (!isSecretKey(key)) continue;
    const sep = m[2];
    const quoted = m[3] ?? m[4];
    const value = quoted ?? m[5] ?? '';
    if (isPlaceholder(value)) continue;
    if (quoted === undefined) {
      // A template or placeholder with spaces in it: `<your api key>`, `${{ secrets.X }}`, `$(cat f)`.
      if (/^(?:<|\$\{|\{\{|\$\(|%[A-Za-z_])/.test(value)) continue;
      if (isCodeLike(value)) continue;
      const tightEquals = /^=/.test(sep);
      const upperKey = key === key.toUpperCase() && /[A-Z]/.test(key);
      const looksSecret = /[0-9]/.test(value) || /[^A-Za-z0-9]/.test(value);
      // `const token = user;` / `token: string` are code and types, not secrets.
      if (!tightEquals && !upperKey && !looksSecret) continue;
      if (!tightEquals && !upperKey && /^[A-Za-z_$][\w$]*$/.test(value) && !/[0-9]/.test(value)) continue;
    }
    const whole = m.index ?? 0;
    // The value sits at the end of the match (after an optional closing quote).
    const valueEnd = whole + m[0].length - (quoted !== undefined ? 1 : 0);
    out.push({ start: valueEnd - value.length, end: valueEnd, kind: 'secret-assignment', priority: 2 });
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// secretlint
// ---------------------------------------------------------------------------------------

/**
 * A secret found in a text: `[start, end)` in UTF-16 code units, its kind, and how specific
 * the rule is (0 a secretlint token rule, 1 secretlint's URL-credentials rule, 2 ours):
 * where findings overlap, the most specific names the merged one.
 */
interface Finding {
  start: number;
  end: number;
  kind: string;
  priority: number;
}

/**
 * Loads secretlint and builds its configuration once: every rule of preset-recommend 13
 * except `secretlint-rule-filter-comments` (a `secretlint-disable` comment in text an
 * agent wrote must not switch redaction off), the AWS rule with `enableIDScanRule` (access
 * key ids and account ids too, off by default in secretlint).
 */
async function loadSecretlint() {
  const [core, preset] = await Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend')]);
  const rules = preset.rules
    .filter((r) => r.meta.id !== '@secretlint/secretlint-rule-filter-comments')
    .map((rule) => ({ id: rule.meta.id, rule, options: rule.meta.id === '@secretlint/secretlint-rule-aws' ? { enableIDScanRule: true } : {} }));
  const config: Parameters<typeof LintSource>[0]['options']['config'] = { rules };
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
 */
async function secretlintFindings(content: string, json: boolean, options: RedactOptions, notes: string[]): Promise<Finding[]> {
  const loaded = await secretlint();
  const rules = options.extraRules?.length ? [...loaded.config.rules, ...options.extraRules] : loaded.config.rules;
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
    // Text that is only earlier markers (`postgres://[REDACTED:…]@db`) is not found again (idempotence).
    if (!/[A-Za-z0-9]/.test(content.slice(start, end).replace(/\[REDACTED(?::[a-z0-9-]+)?\]/g, ''))) continue;
    // A URL's credentials are less specific than a token found inside them (`https://<token>:x-oauth-basic@github.com`).
    if (end > start) out.push({ start, end, kind, priority: kind === 'basic-auth' ? 1 : 0 });
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Redaction
// ---------------------------------------------------------------------------------------

/** Characters scanned at a time: 65,536. Larger texts are scanned in overlapping chunks. */
export const REDACT_CHUNK_CHARS = 65_536;
/**
 * Overlap of consecutive chunks: 16,384 characters, more than the longest secret any rule
 * matches (a PEM block ≤ ~10,100, a GitHub app installation token ≤ ~12,030), so every
 * secret lies whole inside at least one chunk.
 */
export const REDACT_CHUNK_OVERLAP = 16_384;
/**
 * Longest text scanned: 2,000,000 characters (twice the largest request, DESIGN §4 limits).
 * Beyond it the text is cut, with a marker, rather than passed on unscanned.
 */
export const MAX_REDACT_CHARS = 2_000_000;

/**
 * What redaction did: the text with every finding replaced by `[REDACTED:<kind>]`, the
 * count of findings per kind, and notes (a rule that crashed, a text cut at the cap).
 */
export interface RedactionResult {
  readonly text: string;
  readonly found: Record<string, number>;
  readonly notes: string[];
}

/** Yields to the event loop between chunks, so a long scan never blocks the host for long. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether a text is shaped like a JSON object (`{` … `}`): then it is also scanned as a `.json` file. */
function looksLikeJsonObject(text: string): boolean {
  const t = text.trim();
  return t.startsWith('{') && t.endsWith('}');
}

/** Finds every secret in `text` (any length), chunked; merged and sorted, never overlapping. */
async function findSecrets(text: string, notes: string[], options: RedactOptions): Promise<Finding[]> {
  const findings: Finding[] = [];
  const json = text.length <= REDACT_CHUNK_CHARS && looksLikeJsonObject(text);
  const step = REDACT_CHUNK_CHARS - REDACT_CHUNK_OVERLAP;
  let crashed = false;
  for (let offset = 0; offset < text.length; offset += step) {
    if (offset > 0) await yieldToLoop();
    const chunk = text.slice(offset, offset + REDACT_CHUNK_CHARS);
    const ours = [...findJwts(chunk), ...findSecretAssignments(chunk), ...findPemBlocks(chunk)];
    let theirs: Finding[] = [];
    try {
      theirs = await secretlintFindings(chunk, json, options, notes);
    } catch (err) {
      // secretlint itself could not load or run: our own rules still apply.
      if (!crashed) notes.push(`the secretlint scan failed (${(err as Error)?.message ?? String(err)}); only our own rules (JWT, secret assignments, PEM blocks) were applied to that text`);
      crashed = true;
    }
    for (const f of [...theirs, ...ours]) findings.push({ ...f, start: f.start + offset, end: f.end + offset });
    if (offset + REDACT_CHUNK_CHARS >= text.length) break;
  }
  return mergeFindings(findings);
}

/**
 * Merges overlapping findings into one each (the union of their ranges), named after the
 * most specific (lowest `priority`; the earliest, then the longest, among equals).
 */
function mergeFindings(findings: Finding[]): Finding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || a.priority - b.priority || b.end - a.end);
  const out: Finding[] = [];
  for (const f of sorted) {
    const last = out[out.length - 1];
    if (last && f.start < last.end) {
      last.end = Math.max(last.end, f.end);
      if (f.priority < last.priority) {
        last.kind = f.kind;
        last.priority = f.priority;
      }
    } else {
      out.push({ ...f });
    }
  }
  return out;
}

function applyFindings(text: string, findings: readonly Finding[]): string {
  if (findings.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const f of findings) {
    parts.push(text.slice(at, f.start), redactionMarker(f.kind));
    at = f.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

function countKinds(findings: readonly Finding[], into: Record<string, number> = {}): Record<string, number> {
  for (const f of findings) into[f.kind] = (into[f.kind] ?? 0) + 1;
  return into;
}

function capped(text: string, notes: string[]): string {
  if (text.length <= MAX_REDACT_CHARS) return text;
  notes.push(`a text of ${text.length.toLocaleString('en')} characters was cut to ${MAX_REDACT_CHARS.toLocaleString('en')} before the secret scan`);
  return `${text.slice(0, MAX_REDACT_CHARS)}\n[… ${(text.length - MAX_REDACT_CHARS).toLocaleString('en')} characters cut before the secret scan …]`;
}

/**
 * Replaces every secret in `text` with `[REDACTED:<kind>]` (kinds: {@link SECRET_KINDS}).
 *
 * Bounded: texts are scanned in chunks of {@link REDACT_CHUNK_CHARS} overlapping by
 * {@link REDACT_CHUNK_OVERLAP}, yielding to the event loop between chunks; every rule is
 * a linear-time regular expression with bounded quantifiers; texts over
 * {@link MAX_REDACT_CHARS} are cut (with a marker and a note), never passed on unscanned.
 * Measured (test/unit/redact.test.ts): a 40,000-character diff in tens of milliseconds.
 *
 * Never throws: when secretlint cannot load or a rule crashes, our own rules still apply
 * and `notes` says what happened.
 *
 * @returns the redacted text, `found` (kind → count; `{}` when nothing was found) and notes
 */
export async function redactSecrets(text: string, options: RedactOptions = {}): Promise<RedactionResult> {
  const notes: string[] = [];
  try {
    if (!text) return { text, found: {}, notes };
    const input = capped(text, notes);
    const findings = await findSecrets(input, notes, options);
    return { text: applyFindings(input, findings), found: countKinds(findings), notes };
  } catch (err) {
    notes.push(`the secret scan failed (${(err as Error)?.message ?? String(err)}); the text was left as it was`);
    return { text, found: {}, notes };
  }
}

/** What {@link redactTexts} did: the texts in the same order, counts over all of them, notes. */
export interface BatchRedactionResult {
  readonly texts: string[];
  readonly found: Record<string, number>;
  readonly notes: string[];
}

/** Separator between the texts of a batch: a NUL between line breaks, which no rule matches across. */
const BATCH_SEPARATOR = '\n\u0000\n';

/**
 * Redacts many texts at once (list items, turns, test commands): small texts are joined
 * (up to {@link REDACT_CHUNK_CHARS}) and scanned in one pass, so a package costs a few
 * scans rather than one per line; a finding is never allowed to reach across two texts.
 * Texts that are a JSON object are scanned alone (so the GCP service-account rule sees
 * the whole document). Never throws (see {@link redactSecrets}).
 */
export async function redactTexts(texts: readonly string[], options: RedactOptions = {}): Promise<BatchRedactionResult> {
  const out = [...texts];
  const found: Record<string, number> = {};
  const notes: string[] = [];
  const merge = (r: RedactionResult) => {
    for (const [k, n] of Object.entries(r.found)) found[k] = (found[k] ?? 0) + n;
    for (const n of r.notes) if (!notes.includes(n)) notes.push(n);
  };
  let group: number[] = [];
  let groupChars = 0;
  const flush = async () => {
    if (group.length === 0) return;
    const members = group;
    group = [];
    groupChars = 0;
    if (members.length === 1) {
      const r = await redactSecrets(texts[members[0]], options);
      out[members[0]] = r.text;
      merge(r);
      return;
    }
    const batchNotes: string[] = [];
    try {
      const starts: number[] = [];
      let joined = '';
      for (const i of members) {
        if (joined) joined += BATCH_SEPARATOR;
        starts.push(joined.length);
        joined += texts[i];
      }
      const findings = await findSecrets(joined, batchNotes, options);
      const perText: Finding[][] = members.map(() => []);
      for (const f of findings) {
        members.forEach((_, j) => {
          const s = starts[j];
          const e = s + texts[members[j]].length;
          const start = Math.max(f.start, s);
          const end = Math.min(f.end, e);
          if (end > start) perText[j].push({ ...f, start: start - s, end: end - s });
        });
      }
      members.forEach((i, j) => {
        out[i] = applyFindings(texts[i], perText[j]);
        countKinds(perText[j], found);
      });
      for (const n of batchNotes) if (!notes.includes(n)) notes.push(n);
    } catch (err) {
      notes.push(`the secret scan failed (${(err as Error)?.message ?? String(err)}); the texts were left as they were`);
    }
  };
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i];
    if (!t) continue;
    const alone = t.length > REDACT_CHUNK_CHARS / 2 || looksLikeJsonObject(t);
    if (alone) {
      await flush();
      group = [i];
      await flush();
      continue;
    }
    if (groupChars + t.length + BATCH_SEPARATOR.length > REDACT_CHUNK_CHARS) await flush();
    group.push(i);
    groupChars += t.length + BATCH_SEPARATOR.length;
  }
  await flush();
  return { texts: out, found, notes };
}

/** Adds counts of `b` into a copy of `a` (kind → count). */
export function addCounts(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = { ...a };
  for (const [k, n] of Object.entries(b)) out[k] = (out[k] ?? 0) + n;
  return out;
}

/** Total findings of a `redactions` record. */
export function totalRedactions(found: Readonly<Record<string, number>>): number {
  return Object.values(found).reduce((n, c) => n + c, 0);
}

// ---------------------------------------------------------------------------------------
// Invisible Unicode
// ---------------------------------------------------------------------------------------

/**
 * Invisible characters removed from text other agents wrote (DESIGN §7): bidi controls
 * (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates, U+200E/U+200F marks,
 * U+061C Arabic letter mark), zero-width characters (U+200B space, U+200C non-joiner,
 * U+200D joiner, U+2060 word joiner, U+FEFF byte-order mark / zero-width no-break space,
 * wherever it stands) and Unicode tag characters (U+E0000–U+E007F, the "ASCII smuggling"
 * block). Kept: U+200D between two emoji (👨‍👩‍👧, 👩🏽‍💻, ❤️‍🔥), and the tag sequences of the
 * three RGI subdivision flags (🏴󠁧󠁢󠁥󠁮󠁧󠁿 England, 🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scotland, 🏴󠁧󠁢󠁷󠁬󠁳󠁿 Wales).
 * Not removed: U+200C / U+200D inside Persian or Indic words (they go too — a deliberate
 * trade-off: invisible text from another agent is a channel for hidden instructions).
 * Also removed: control characters other than tab, line feed and carriage return (C0,
 * DEL, C1) — an ESC sequence in a committed handoff or an agent's summary would otherwise
 * reach a terminal through `prompt` (clear the screen, retitle the window) and a NUL byte
 * the model's context.
 */
// eslint-disable-next-line no-control-regex
export const INVISIBLE_PATTERN = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b-\u200d\u2060\ufeff\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\u{e0000}-\u{e007f}]+/gu;

/** The RGI emoji tag sequences (subdivision flags), kept whole: 🏴 + tag letters + cancel tag. */
const RGI_TAG_SEQUENCES = new Set(['gbeng', 'gbsct', 'gbwls'].map((s) => [...s].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('') + String.fromCodePoint(0xe007f)));

const EMOJI_BEFORE_ZWJ = /[\p{Extended_Pictographic}\p{Emoji_Modifier}]/u;
const EMOJI_AFTER_ZWJ = /\p{Extended_Pictographic}/u;

function codePointBefore(text: string, index: number): { cp: string; at: number } | undefined {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return { cp: text.slice(index - 2, index), at: index - 2 };
  }
  return { cp: text[index - 1], at: index - 1 };
}

function zwjBetweenEmoji(text: string, offset: number): boolean {
  let before = codePointBefore(text, offset);
  if (before?.cp === '\ufe0f') before = codePointBefore(text, before.at); // ❤️‍🔥: emoji, VS16, ZWJ
  const after = text.codePointAt(offset + 1);
  return before !== undefined && EMOJI_BEFORE_ZWJ.test(before.cp) && after !== undefined && EMOJI_AFTER_ZWJ.test(String.fromCodePoint(after));
}

/**
 * Removes invisible Unicode ({@link INVISIBLE_PATTERN}) from `text`.
 * @returns the cleaned text and how many characters (code points) were removed
 */
export function stripInvisible(text: string): { text: string; removed: number } {
  let removed = 0;
  if (!text) return { text, removed };
  const cleaned = text.replace(INVISIBLE_PATTERN, (match: string, offset: number) => {
    if (match === '\u200d' && zwjBetweenEmoji(text, offset)) return match;
    if (match.codePointAt(0)! >= 0xe0000 && RGI_TAG_SEQUENCES.has(match) && codePointBefore(text, offset)?.cp === '\u{1f3f4}') return match;
    removed += [...match].length;
    return '';
  });
  return { text: cleaned, removed };
}

// ---------------------------------------------------------------------------------------
// Packages
// ---------------------------------------------------------------------------------------

/** What {@link sanitizePackage} did, besides the package it returns. */
export interface SanitizeReport {
  /** Secrets redacted by this call, per kind. */
  readonly found: Record<string, number>;
  /** Invisible characters removed by this call. */
  readonly invisible: number;
  /** Notes from the secret scan (a rule that crashed …). */
  readonly notes: string[];
}

/**
 * Makes a package safe to write: strips invisible Unicode from every free text (what the
 * user and other agents wrote: summary, decisions, failed approaches, next steps, blockers,
 * artifacts, handover reason, return condition, recent turns, test command lines, commit
 * subjects and authors, session edits) and redacts secrets in those and in the diff
 * excerpt, the acceptance criteria and the evidence notes. The diff excerpt keeps its
 * invisible characters (it is evidence of what is in the repository — a bidi attack in
 * the code must stay visible to the reviewer) but not its secrets.
 *
 * `redactions` and `invisible_stripped` of the returned package add this call's counts
 * to what the package already recorded. Never throws.
 */
export async function sanitizePackage(pkg: HandoffPackage): Promise<{ pkg: HandoffPackage; report: SanitizeReport }> {
  let invisible = 0;
  const strip = (s: string): string => {
    const r = stripInvisible(s);
    invisible += r.removed;
    return r.text;
  };
  // 1. Invisible characters, in the texts people and agents wrote.
  const stripped: HandoffPackage = {
    ...pkg,
    summary: strip(pkg.summary),
    decisions: pkg.decisions.map((d) => ({ ...d, text: strip(d.text) })),
    failed_approaches: pkg.failed_approaches.map(strip),
    next_steps: pkg.next_steps.map(strip),
    blockers: pkg.blockers.map(strip),
    artifacts: pkg.artifacts.map(strip),
    handover_reason: strip(pkg.handover_reason),
    return_condition: strip(pkg.return_condition),
    recent_turns: pkg.recent_turns.map((t) => ({ ...t, text: strip(t.text) })),
    tests_run: pkg.tests_run.map((t) => ({ ...t, command: strip(t.command) })),
    commits: pkg.commits.map((c) => ({ ...c, subject: strip(c.subject), author: strip(c.author) })),
    session_edits: pkg.session_edits.map((e) => ({ ...e, path: strip(e.path) })),
    acceptance: pkg.acceptance.map((a) => ({ ...a, criterion: strip(a.criterion) })),
  };
  // 2. Secrets: every text in one batch (the summary and the diff alone, they are large).
  const texts: string[] = [];
  const slot = (s: string): number => texts.push(s) - 1;
  const p = stripped;
  const idx = {
    summary: slot(p.summary),
    diff: p.diff_excerpt === null ? -1 : slot(p.diff_excerpt),
    handover_reason: slot(p.handover_reason),
    return_condition: slot(p.return_condition),
    decisions: p.decisions.map((d) => slot(d.text)),
    failed_approaches: p.failed_approaches.map(slot),
    next_steps: p.next_steps.map(slot),
    blockers: p.blockers.map(slot),
    artifacts: p.artifacts.map(slot),
    turns: p.recent_turns.map((t) => slot(t.text)),
    tests: p.tests_run.map((t) => slot(t.command)),
    commits: p.commits.map((c) => [slot(c.subject), slot(c.author)] as const),
    edits: p.session_edits.map((e) => slot(e.path)),
    acceptance: p.acceptance.map((a) => slot(a.criterion)),
    notes: p.evidence_notes.map(slot),
  };
  const r = await redactTexts(texts);
  const t = r.texts;
  // A value that must stay non-empty (schema: min(1)) keeps its marker, which is never empty.
  const out: HandoffPackage = {
    ...p,
    summary: t[idx.summary],
    diff_excerpt: idx.diff < 0 ? null : t[idx.diff],
    handover_reason: t[idx.handover_reason],
    return_condition: t[idx.return_condition],
    decisions: p.decisions.map((d, i) => ({ ...d, text: t[idx.decisions[i]] })),
    failed_approaches: idx.failed_approaches.map((i) => t[i]),
    next_steps: idx.next_steps.map((i) => t[i]),
    blockers: idx.blockers.map((i) => t[i]),
    artifacts: idx.artifacts.map((i) => t[i]),
    recent_turns: p.recent_turns.map((turn, i) => ({ ...turn, text: t[idx.turns[i]] })),
    tests_run: p.tests_run.map((run, i) => ({ ...run, command: t[idx.tests[i]] })),
    commits: p.commits.map((c, i) => ({ ...c, subject: t[idx.commits[i][0]], author: t[idx.commits[i][1]] })),
    session_edits: p.session_edits.map((e, i) => ({ ...e, path: t[idx.edits[i]] })),
    acceptance: p.acceptance.map((a, i) => ({ ...a, criterion: t[idx.acceptance[i]] })),
    evidence_notes: idx.notes.map((i) => t[i]),
    redactions: addCounts(pkg.redactions ?? {}, r.found),
    invisible_stripped: (pkg.invisible_stripped ?? 0) + invisible,
  };
  return { pkg: out, report: { found: r.found, invisible, notes: r.notes } };
}

/**
 * One line saying what was redacted and stripped, or undefined when nothing was:
 * `3 secrets redacted (github-token ×2, jwt ×1); 5 invisible characters removed from text other agents wrote`.
 */
export function describeSanitizing(found: Readonly<Record<string, number>>, invisible: number): string | undefined {
  const parts: string[] = [];
  const total = totalRedactions(found);
  if (total > 0) {
    const kinds = Object.entries(found)
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([k, n]) => `${k} ×${n}`)
      .join(', ');
    parts.push(`${total} secret${total === 1 ? '' : 's'} redacted (${kinds})`);
  }
  if (invisible > 0) {
    parts.push(`${invisible} invisible character${invisible === 1 ? '' : 's'} removed from text other agents wrote`);
  }
  return parts.length ? parts.join('; ') : undefined;
}
