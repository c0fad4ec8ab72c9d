/** The kinds of secret redaction names in `[REDACTED:<kind>]`, and the rule that finds each. */
export type SecretRuleSource = 'secretlint' | 'handoff';

export interface SecretKind {
  /** Stable: written in `[REDACTED:<kind>]` and in the frontmatter's `redactions`. */
  readonly kind: string;
  readonly label: string;
  /** `handoff`: one of our rules. Ours may also find a secretlint kind (`slack-token` whole): the kind is the same. */
  readonly source: SecretRuleSource;
  /** The rule id (secretlint package id, or ours). */
  readonly rule: string;
  readonly messageIds: readonly string[];
}

const SL = (rule: string) => `@secretlint/secretlint-rule-${rule}`;

/** The secretlint kinds are named after the rule's message id. */
export const SECRET_KINDS: readonly SecretKind[] = [
  { kind: 'aws-access-key-id', label: 'AWS access key id (AKIA…, ASIA…)', source: 'secretlint', rule: SL('aws'), messageIds: ['AWSAccessKeyID'] },
  {
    kind: 'aws-secret-access-key',
    label: 'AWS secret access key (after an aws_secret_access_key key)',
    source: 'secretlint',
    rule: SL('aws'),
    messageIds: ['AWSSecretAccessKey'],
  },
  { kind: 'aws-account-id', label: 'AWS account id (after an aws_account_id key)', source: 'secretlint', rule: SL('aws'), messageIds: ['AWSAccountID'] },
  {
    kind: 'gcp-service-account-key',
    label: 'GCP service-account key file (JSON)',
    source: 'secretlint',
    rule: SL('gcp'),
    messageIds: ['PrivateKeyJSON', 'PrivateKeyP12'],
  },
  {
    kind: 'npm-token',
    label: 'npm access token (npm_…) or .npmrc _authToken',
    source: 'secretlint',
    rule: SL('npm'),
    messageIds: ['NPM_ACCESS_TOKEN', 'Npmrc_authToken'],
  },
  {
    kind: 'github-token',
    label: 'GitHub token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_, x-oauth-basic URL)',
    source: 'secretlint',
    rule: SL('github'),
    messageIds: ['GITHUB_TOKEN', 'PackageJSON_xOauthToken'],
  },
  {
    kind: 'gitlab-token',
    label: 'GitLab personal access token (glpat-…)',
    source: 'secretlint',
    rule: SL('gitlab'),
    messageIds: ['GITLAB_PERSONAL_ACCESS_TOKEN'],
  },
  {
    kind: 'slack-token',
    label: 'Slack token (xoxb-, xoxp-, xapp-, xoxa-, xoxo-, xoxr-)',
    source: 'secretlint',
    rule: SL('slack'),
    messageIds: ['SLACK_TOKEN'],
  },
  { kind: 'slack-webhook', label: 'Slack incoming webhook URL', source: 'secretlint', rule: SL('slack'), messageIds: ['IncomingWebhook'] },
  { kind: 'basic-auth', label: 'user:password in an http(s)/ftp URL', source: 'secretlint', rule: SL('basicauth'), messageIds: ['BasicAuth'] },
  { kind: 'openai-api-key', label: 'OpenAI API key (sk-…T3BlbkFJ…, sk-proj-…)', source: 'secretlint', rule: SL('openai'), messageIds: ['OPENAI_TOKEN'] },
  { kind: 'anthropic-api-key', label: 'Anthropic API key (sk-ant-api0…)', source: 'secretlint', rule: SL('anthropic'), messageIds: ['ANTHROPIC_API_KEY'] },
  { kind: 'groq-api-key', label: 'Groq API key (gsk_…)', source: 'secretlint', rule: SL('groq'), messageIds: ['GROQ_API_KEY'] },
  {
    kind: 'huggingface-token',
    label: 'Hugging Face user access token (hf_…)',
    source: 'secretlint',
    rule: SL('huggingface'),
    messageIds: ['HUGGINGFACE_USER_ACCESS_TOKEN'],
  },
  { kind: 'linear-api-key', label: 'Linear API key (lin_api_…)', source: 'secretlint', rule: SL('linear'), messageIds: ['LINEAR_API_TOKEN'] },
  { kind: 'notion-token', label: 'Notion integration token (ntn_…)', source: 'secretlint', rule: SL('notion'), messageIds: ['NOTION_INTEGRATION_TOKEN'] },
  {
    kind: 'private-key',
    label: 'PEM private key block (RSA, DSA, EC, OpenSSH, PGP, PKCS#8)',
    source: 'secretlint',
    rule: SL('privatekey'),
    messageIds: ['PrivateKey'],
  },
  { kind: 'sendgrid-api-key', label: 'SendGrid API key (SG.…)', source: 'secretlint', rule: SL('sendgrid'), messageIds: ['SENDGRID_KEY'] },
  { kind: 'shopify-token', label: 'Shopify token (shpat_, shpca_, shppa_, shpss_)', source: 'secretlint', rule: SL('shopify'), messageIds: ['SHOPIFY_KEY'] },
  {
    kind: 'stripe-secret-key',
    label: 'Stripe secret key (sk_live_, sk_test_)',
    source: 'secretlint',
    rule: SL('stripe'),
    messageIds: ['STRIPE_SECRET_KEY_LIVE', 'STRIPE_SECRET_KEY_TEST'],
  },
  {
    kind: 'stripe-restricted-key',
    label: 'Stripe restricted key (rk_live_, rk_test_)',
    source: 'secretlint',
    rule: SL('stripe'),
    messageIds: ['STRIPE_RESTRICTED_KEY_LIVE', 'STRIPE_RESTRICTED_KEY_TEST'],
  },
  { kind: 'grafana-cloud-token', label: 'Grafana Cloud API token (glc_…)', source: 'secretlint', rule: SL('grafana'), messageIds: ['GRAFANA_CLOUD_API_TOKEN'] },
  {
    kind: 'grafana-service-account-token',
    label: 'Grafana service account token (glsa_…)',
    source: 'secretlint',
    rule: SL('grafana'),
    messageIds: ['GRAFANA_SERVICE_ACCOUNT_TOKEN'],
  },
  { kind: '1password-token', label: '1Password service account token (ops_…)', source: 'secretlint', rule: SL('1password'), messageIds: ['OPS_TOKEN'] },
  {
    kind: 'mongodb-connection',
    label: 'MongoDB connection string with credentials',
    source: 'secretlint',
    rule: SL('database-connection-string'),
    messageIds: ['MongoDBConnection'],
  },
  {
    kind: 'mysql-connection',
    label: 'MySQL connection string with credentials',
    source: 'secretlint',
    rule: SL('database-connection-string'),
    messageIds: ['MySQLConnection'],
  },
  {
    kind: 'postgresql-connection',
    label: 'PostgreSQL connection string with credentials',
    source: 'secretlint',
    rule: SL('database-connection-string'),
    messageIds: ['PostgreSQLConnection'],
  },
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
    messageIds: [
      'VERCEL_PERSONAL_ACCESS_TOKEN',
      'VERCEL_INTEGRATION_TOKEN',
      'VERCEL_APP_ACCESS_TOKEN',
      'VERCEL_APP_REFRESH_TOKEN',
      'VERCEL_AI_GATEWAY_API_KEY',
    ],
  },
  {
    kind: 'databricks-token',
    label: 'Databricks personal access token (dapi…)',
    source: 'secretlint',
    rule: SL('databricks'),
    messageIds: ['DATABRICKS_PERSONAL_ACCESS_TOKEN'],
  },
  {
    kind: 'docker-token',
    label: 'Docker personal access token (dckr_pat_…)',
    source: 'secretlint',
    rule: SL('docker'),
    messageIds: ['DOCKER_PERSONAL_ACCESS_TOKEN'],
  },
  { kind: 'figma-token', label: 'Figma personal access token (figd_…)', source: 'secretlint', rule: SL('figma'), messageIds: ['FIGMA_PERSONAL_ACCESS_TOKEN'] },
  {
    kind: 'cloudflare-api-key',
    label: 'Cloudflare global API key (cfk_…)',
    source: 'secretlint',
    rule: SL('cloudflare'),
    messageIds: ['CLOUDFLARE_GLOBAL_API_KEY'],
  },
  {
    kind: 'cloudflare-api-token',
    label: 'Cloudflare user or account API token (cfut_, cfat_)',
    source: 'secretlint',
    rule: SL('cloudflare'),
    messageIds: ['CLOUDFLARE_USER_API_TOKEN', 'CLOUDFLARE_ACCOUNT_API_TOKEN'],
  },
  {
    kind: 'tailscale-key',
    label: 'Tailscale key (tskey-api-, -auth-, -client-, -scim-, -webhook-)',
    source: 'secretlint',
    rule: SL('tailscale'),
    messageIds: ['TAILSCALE_API_KEY', 'TAILSCALE_AUTH_KEY', 'TAILSCALE_CLIENT_KEY', 'TAILSCALE_SCIM_KEY', 'TAILSCALE_WEBHOOK_KEY', 'TAILSCALE_KEY'],
  },
  { kind: 'jwt', label: 'JSON Web Token (header.payload.signature, header with "alg")', source: 'handoff', rule: 'handoff/jwt', messageIds: ['JWT'] },
  {
    kind: 'anthropic-admin-key',
    label: 'Anthropic Admin API key (sk-ant-admin01-…)',
    source: 'handoff',
    rule: 'handoff/provider-tokens',
    messageIds: ['ANTHROPIC_ADMIN_KEY'],
  },
  {
    kind: 'google-api-key',
    label: 'Google Cloud / Google AI (Gemini) API key (AIza + 35)',
    source: 'handoff',
    rule: 'handoff/provider-tokens',
    messageIds: ['GOOGLE_API_KEY'],
  },
  { kind: 'xai-api-key', label: 'xAI API key (xai-…)', source: 'handoff', rule: 'handoff/provider-tokens', messageIds: ['XAI_API_KEY'] },
  {
    kind: 'openrouter-api-key',
    label: 'OpenRouter API key (sk-or-v1-…)',
    source: 'handoff',
    rule: 'handoff/provider-tokens',
    messageIds: ['OPENROUTER_API_KEY'],
  },
  { kind: 'deepseek-api-key', label: 'DeepSeek API key (sk- + 32 hex)', source: 'handoff', rule: 'handoff/provider-tokens', messageIds: ['DEEPSEEK_API_KEY'] },
  { kind: 'replicate-api-token', label: 'Replicate API token (r8_…)', source: 'handoff', rule: 'handoff/provider-tokens', messageIds: ['REPLICATE_API_TOKEN'] },
  { kind: 'perplexity-api-key', label: 'Perplexity API key (pplx-…)', source: 'handoff', rule: 'handoff/provider-tokens', messageIds: ['PERPLEXITY_API_KEY'] },
  {
    kind: 'huggingface-org-token',
    label: 'Hugging Face organisation API token (api_org_…)',
    source: 'handoff',
    rule: 'handoff/provider-tokens',
    messageIds: ['HUGGINGFACE_ORG_TOKEN'],
  },
  {
    kind: 'langsmith-api-key',
    label: 'LangSmith API key (lsv2_pt_…, lsv2_sk_…)',
    source: 'handoff',
    rule: 'handoff/provider-tokens',
    messageIds: ['LANGSMITH_API_KEY'],
  },
  { kind: 'together-api-key', label: 'Together AI API key (tgp_v1_…)', source: 'handoff', rule: 'handoff/provider-tokens', messageIds: ['TOGETHER_API_KEY'] },
  { kind: 'fireworks-api-key', label: 'Fireworks AI API key (fw_…)', source: 'handoff', rule: 'handoff/provider-tokens', messageIds: ['FIREWORKS_API_KEY'] },
  {
    kind: 'gitlab-other-token',
    label:
      'GitLab deploy, runner, CI job, trigger, agent, SCIM, feature-flag, incoming-mail, OAuth-secret and registration tokens (gldt-, glrt-, glcbt-, glptt-, glagent-, glsoat-, glffct-, glimt-, gloas-, GR1348941)',
    source: 'handoff',
    rule: 'handoff/provider-tokens',
    messageIds: ['GITLAB_OTHER_TOKEN'],
  },
  { kind: 'twilio-api-key', label: 'Twilio API key SID (SK + 32 hex)', source: 'handoff', rule: 'handoff/provider-tokens', messageIds: ['TWILIO_API_KEY'] },
  {
    kind: 'azure-ad-client-secret',
    label: 'Microsoft Entra ID (Azure AD) client secret (…Q~…)',
    source: 'handoff',
    rule: 'handoff/provider-tokens',
    messageIds: ['AZURE_AD_CLIENT_SECRET'],
  },
  {
    kind: 'digitalocean-token',
    label: 'DigitalOcean token (dop_v1_, doo_v1_, dor_v1_)',
    source: 'handoff',
    rule: 'handoff/provider-tokens',
    messageIds: ['DIGITALOCEAN_TOKEN'],
  },
  { kind: 'pypi-token', label: 'PyPI API token (pypi-AgEIcHlwaS5vcmc…)', source: 'handoff', rule: 'handoff/provider-tokens', messageIds: ['PYPI_TOKEN'] },
  { kind: 'postman-api-key', label: 'Postman API key (PMAK-…)', source: 'handoff', rule: 'handoff/provider-tokens', messageIds: ['POSTMAN_API_KEY'] },
  {
    kind: '1password-secret-key',
    label: '1Password account Secret Key (A3-…)',
    source: 'handoff',
    rule: 'handoff/provider-tokens',
    messageIds: ['ONEPASSWORD_SECRET_KEY'],
  },
  { kind: 'age-secret-key', label: 'age secret key (AGE-SECRET-KEY-1…)', source: 'handoff', rule: 'handoff/provider-tokens', messageIds: ['AGE_SECRET_KEY'] },
  { kind: 'sentry-token', label: 'Sentry auth token (sntrys_…, sntryu_…)', source: 'handoff', rule: 'handoff/provider-tokens', messageIds: ['SENTRY_TOKEN'] },
  {
    kind: 'authorization-header',
    label: 'credential of an Authorization header or after Bearer (Bearer, Basic, Token …)',
    source: 'handoff',
    rule: 'handoff/authorization-header',
    messageIds: ['AUTHORIZATION_HEADER'],
  },
  {
    kind: 'cli-credential',
    label: 'credential on a command line (curl -u, docker/az login -p, sshpass -p, mysql -p, --token, --password, config set …_authToken)',
    source: 'handoff',
    rule: 'handoff/cli-credential',
    messageIds: ['CLI_CREDENTIAL'],
  },
  {
    kind: 'url-credential',
    label: 'password in a URL of any scheme (redis://:p@, amqp://u:p@, https://u:p@ …)',
    source: 'handoff',
    rule: 'handoff/url-credential',
    messageIds: ['URL_CREDENTIAL'],
  },
  {
    kind: 'url-query-secret',
    label: 'secret query parameter (?key=, token=, access_token=, sig=, …)',
    source: 'handoff',
    rule: 'handoff/url-query-secret',
    messageIds: ['URL_QUERY_SECRET'],
  },
  {
    kind: 'high-entropy-secret',
    label: 'random-looking value of a key that suggests a secret (…_KEY, sig, salt, session …)',
    source: 'handoff',
    rule: 'handoff/high-entropy-secret',
    messageIds: ['HIGH_ENTROPY_SECRET'],
  },
  {
    kind: 'secret-assignment',
    label:
      'assignment of a secret in any syntax (SECRET=…, API_KEY := …, PASSWORD: …, "token": "…", <password>…</password>, .netrc / .pgpass passwords, "my API key is …")',
    source: 'handoff',
    rule: 'handoff/secret-assignment',
    messageIds: ['SECRET_ASSIGNMENT'],
  },
];

const KIND_BY_MESSAGE_ID = new Map(SECRET_KINDS.flatMap((k) => k.messageIds.map((m) => [m, k.kind] as const)));

/** Unknown ids (a rule added by a later secretlint) become kebab case: `FOO_BAR_TOKEN` → `foo-bar-token`. */
export function kindForMessageId(messageId: string): string {
  return (
    KIND_BY_MESSAGE_ID.get(messageId) ??
    (messageId
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase() ||
      'secret')
  );
}

export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/**
 * `[start, end)` in UTF-16 code units. `priority`: 0 a secretlint token rule, 1 secretlint's
 * URL-credentials rule, 2 ours; where findings overlap, the lowest names the merged one.
 */
export interface Finding {
  start: number;
  end: number;
  kind: string;
  priority: number;
}
