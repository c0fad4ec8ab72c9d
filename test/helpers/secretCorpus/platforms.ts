/**
 * Fake keys of code, cloud and SaaS platforms, generated from each platform's published
 * token format — with the checksum where the format has one (GitHub's and npm's CRC32 in
 * base62, GitLab's routable tokens' CRC32 in base36, age's bech32). None is a real key.
 */
import { ALNUM, BASE32, BASE64, BASE64URL, HEX, UPPER_ALNUM, b64, bech32, checksummedToken, crc32, draw, type Draw } from './alphabet';
import { token } from './aiProviders';
import type { CorpusKey } from './types';

/** A digit string of `n` digits not starting with 0. */
const digits = (d: Draw, n: number) => `${1 + d.int(9)}${d.pick('0123456789', n - 1)}`;

/** GitLab routable tokens: prefix + base64url payload + `.` + payload length (2 base36) + CRC32 (7 base36) (GitLab "Token prefixes", routable tokens). */
function gitlabRoutable(d: Draw, prefix: string): string {
  const payload = `${d.pick(ALNUM, 1)}${d.pick(BASE64URL, 34)}${d.pick(ALNUM, 1)}`;
  const body = `${payload}.${payload.length.toString(36).padStart(2, '0')}`;
  return `${prefix}${body}${crc32(`${prefix}${body}`).toString(36).padStart(7, '0')}`;
}

/** 1Password service-account tokens: `ops_` + base64 of a JSON sign-in document (1Password "Service accounts"). */
function onePassword(d: Draw): string {
  const doc = {
    signInAddress: 'my.1password.com',
    userAuth: { method: 'SRPg-4096', alg: 'PBES2g-HS256', iterations: 650000, salt: d.pick(BASE64URL, 22) },
    email: `${d.pick('abcdefghijklmnopqrstuvwxyz0123456789', 13)}@1passwordserviceaccounts.com`,
    srpX: d.pick(HEX, 64),
    muk: { alg: 'A256GCM', ext: true, k: d.pick(BASE64URL, 43), key_ops: ['encrypt', 'decrypt'], kty: 'oct', kid: 'mp' },
    secretKey: `A3-${d.pick(UPPER_ALNUM, 6)}-${d.pick(UPPER_ALNUM, 6)}-${d.pick(UPPER_ALNUM, 5)}-${d.pick(UPPER_ALNUM, 5)}-${d.pick(UPPER_ALNUM, 5)}-${d.pick(UPPER_ALNUM, 5)}`,
    throttleSecret: { seed: d.pick(HEX, 64), uuid: d.pick(UPPER_ALNUM, 26) },
    deviceUuid: d.pick('abcdefghijklmnopqrstuvwxyz0123456789', 26),
  };
  return `ops_${b64(JSON.stringify(doc)).replace(/=+$/, '')}`;
}

/** Sentry organisation auth tokens: `sntrys_` + base64 of `{"iat":…,"url":…,"region_url":…,"org":…}` + `_` + 43 base64 (Sentry "Auth Tokens"). */
function sentryOrg(d: Draw): string {
  const claims = { iat: 1_760_000_000 + d.int(9_000_000), url: 'https://sentry.io', region_url: 'https://us.sentry.io', org: `acme-${d.pick('abcdefghij', 4)}` };
  return `sntrys_${b64(JSON.stringify(claims))}_${d.pick(ALNUM, 1)}${d.pick(BASE64, 41)}${d.pick(ALNUM, 1)}`;
}

/** PyPI API tokens: `pypi-` + a base64url macaroon whose first bytes name the location `pypi.org` (`AgEIcHlwaS5vcmc`; PyPI "API tokens"). */
function pypi(d: Draw): string {
  const uuid = `${d.pick(HEX, 8)}-${d.pick(HEX, 4)}-4${d.pick(HEX, 3)}-a${d.pick(HEX, 3)}-${d.pick(HEX, 12)}`;
  const macaroon = Buffer.concat([Buffer.from([2, 1, 8]), Buffer.from('pypi.org'), Buffer.from([2, 0x24]), Buffer.from(uuid), Buffer.from([0, 2, 0x2a]), d.bytes(96)]);
  return `pypi-${macaroon.toString('base64url')}`;
}

/**
 * Keys of platforms, one per published format: AWS (access key id `AKIA`/`ASIA` + 16 of
 * `A-Z2-7`; secret 40 base64), GitHub (`ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_` + 30 base62 +
 * CRC32 base62, `github_pat_11` + 22 + `_` + 59), GitLab (`glpat-`, routable `glpat-…`,
 * `gldt-`, `glrt-`, `glptt-`, `glcbt-`, `gloas-`, `glsoat-`, `glimt-`, `glft-`, `glagent-`),
 * Slack (`xoxb-`, `xoxp-`, `xapp-1-`, incoming webhooks), Stripe (`sk_live_`, `rk_live_`),
 * SendGrid (`SG.` 22 `.` 43), Twilio (`SK` + 32 hex, auth token 32 hex), Azure AD client
 * secrets (3 + digit + `Q~` + 34), DigitalOcean (`dop_v1_`/`doo_v1_` + 64 hex), PyPI, npm
 * (`npm_` + 30 base62 + CRC32), Postman (`PMAK-` 24 hex `-` 34 hex), 1Password (`ops_eyJ…`),
 * age (`AGE-SECRET-KEY-1` + 58 bech32, upper case), Sentry (`sntrys_…`, `sntryu_` + 64 hex),
 * Shopify (`shpat_`/`shpss_`/`shpca_`/`shppa_` + 32 hex), Databricks (`dapi` + 32 hex),
 * HashiCorp Vault (`hvs.` service tokens), Supabase (`sbp_` + 40 hex), Cloudflare (40), Linear
 * (`lin_api_` + 40), Notion (`secret_` + 43), Heroku (a UUID), Grafana (`glsa_`), New Relic
 * (`NRAK-` + 27), Mailgun (`key-` + 32 hex), Telegram bots (`<id>:AA` + 33).
 */
export function platformKeys(seed: number): CorpusKey[] {
  const d = draw(seed);
  const gh = (p: string) => checksummedToken(d, p);
  const ghSource = 'GitHub token formats (2021): prefix + 30 base62 + 6-character base62 CRC32';
  const gl = 'GitLab token prefixes';
  return [
    token('aws', 'access-key-id', 'AWS_ACCESS_KEY_ID', 'AKIA', d.pick(BASE32, 16), 'AWS IAM access key ids: AKIA + 16 of A-Z2-7'),
    token('aws', 'session-key-id', 'AWS_ACCESS_KEY_ID', 'ASIA', d.pick(BASE32, 16), 'AWS STS temporary access key ids: ASIA + 16 of A-Z2-7'),
    token('aws', 'secret-access-key', 'AWS_SECRET_ACCESS_KEY', '', `${d.pick(ALNUM, 1)}${d.pick(BASE64, 38)}${d.pick(ALNUM, 1)}`, 'AWS secret access keys: 40 base64 characters'),
    token('github', 'ghp', 'GITHUB_TOKEN', 'ghp_', gh(''), ghSource),
    token('github', 'gho', 'GH_TOKEN', 'gho_', gh(''), ghSource),
    token('github', 'ghu', 'GITHUB_TOKEN', 'ghu_', gh(''), ghSource),
    token('github', 'ghs', 'GITHUB_TOKEN', 'ghs_', gh(''), ghSource),
    token('github', 'ghr', 'GITHUB_REFRESH_TOKEN', 'ghr_', gh(''), ghSource),
    token('github', 'github_pat', 'GITHUB_PAT', 'github_pat_', `11${d.pick(UPPER_ALNUM, 20)}_${d.pick(ALNUM, 59)}`, 'GitHub fine-grained personal access tokens: github_pat_11 + 20 + _ + 59'),
    token('gitlab', 'glpat', 'GITLAB_TOKEN', 'glpat-', d.pick(BASE64URL, 19) + d.pick(ALNUM, 1), `${gl}: glpat- + 20`),
    token('gitlab', 'glpat-routable', 'GITLAB_TOKEN', 'glpat-', gitlabRoutable(d, 'glpat-').slice(6), `${gl}: routable glpat- + payload . length CRC32`),
    token('gitlab', 'gldt', 'CI_DEPLOY_PASSWORD', 'gldt-', d.pick(BASE64URL, 19) + d.pick(ALNUM, 1), `${gl}: deploy tokens gldt- + 20`),
    token('gitlab', 'glrt', 'RUNNER_TOKEN', 'glrt-', d.pick(BASE64URL, 19) + d.pick(ALNUM, 1), `${gl}: runner authentication tokens glrt- + 20`),
    token('gitlab', 'glptt', 'TRIGGER_TOKEN', 'glptt-', d.pick(HEX, 40), `${gl}: pipeline trigger tokens glptt- + 40 hex`),
    token('gitlab', 'glcbt', 'CI_JOB_TOKEN', 'glcbt-', `${d.pick(HEX, 2)}_${d.pick(BASE64URL, 19)}${d.pick(ALNUM, 1)}`, `${gl}: CI/CD job tokens glcbt- + partition _ + 20`),
    token('gitlab', 'gloas', 'GITLAB_OAUTH_SECRET', 'gloas-', d.pick(HEX, 64), `${gl}: OAuth application secrets gloas- + 64`),
    token('gitlab', 'glsoat', 'GITLAB_SCIM_TOKEN', 'glsoat-', d.pick(BASE64URL, 19) + d.pick(ALNUM, 1), `${gl}: SCIM OAuth tokens glsoat- + 20`),
    token('gitlab', 'glimt', 'GITLAB_INCOMING_MAIL_TOKEN', 'glimt-', d.pick('abcdefghijklmnopqrstuvwxyz0123456789', 25), `${gl}: incoming mail tokens glimt- + 25`),
    token('gitlab', 'glft', 'GITLAB_FEED_TOKEN', 'glft-', d.pick(BASE64URL, 19) + d.pick(ALNUM, 1), `${gl}: feed tokens glft- + 20`),
    token('gitlab', 'glagent', 'GITLAB_AGENT_TOKEN', 'glagent-', d.pick(BASE64URL, 49) + d.pick(ALNUM, 1), `${gl}: Kubernetes agent tokens glagent- + 50`),
    token('slack', 'xoxb', 'SLACK_BOT_TOKEN', 'xoxb-', `${digits(d, 12)}-${digits(d, 13)}-${d.pick(ALNUM, 24)}`, 'Slack bot tokens: xoxb- + team - bot id - 24'),
    token('slack', 'xoxp', 'SLACK_USER_TOKEN', 'xoxp-', `${digits(d, 12)}-${digits(d, 12)}-${digits(d, 13)}-${d.pick(HEX, 32)}`, 'Slack user tokens: xoxp- + ids + 32 hex'),
    token('slack', 'xapp', 'SLACK_APP_TOKEN', 'xapp-1-', `A${d.pick(UPPER_ALNUM, 10)}-${digits(d, 13)}-${d.pick(HEX, 64)}`, 'Slack app-level tokens: xapp-1- + app id - 13 digits - 64 hex'),
    token('slack', 'webhook', 'SLACK_WEBHOOK_URL', 'https://hooks.slack.com/services/', `T${d.pick(UPPER_ALNUM, 8)}/B${d.pick(UPPER_ALNUM, 10)}/${d.pick(ALNUM, 24)}`, 'Slack incoming webhooks: hooks.slack.com/services/T…/B…/24'),
    token('stripe', 'sk_live', 'STRIPE_SECRET_KEY', 'sk_live_', `51${d.pick(ALNUM, 97)}`, 'Stripe secret keys: sk_live_ + 99 alphanumerics'),
    token('stripe', 'sk_live-short', 'STRIPE_API_KEY', 'sk_live_', d.pick(ALNUM, 24), 'Stripe secret keys (older): sk_live_ + 24'),
    token('stripe', 'rk_live', 'STRIPE_RESTRICTED_KEY', 'rk_live_', `51${d.pick(ALNUM, 97)}`, 'Stripe restricted keys: rk_live_ + 99 alphanumerics'),
    token('sendgrid', 'SG', 'SENDGRID_API_KEY', 'SG.', `${d.pick(BASE64URL, 21)}${d.pick(ALNUM, 1)}.${d.pick(ALNUM, 1)}${d.pick(BASE64URL, 42)}`, 'SendGrid API keys: SG. + 22 + . + 43 base64url'),
    token('twilio', 'api-key-sid', 'TWILIO_API_KEY', 'SK', d.pick(HEX, 32), 'Twilio API key SIDs: SK + 32 hex'),
    token('twilio', 'auth-token', 'TWILIO_AUTH_TOKEN', '', d.pick(HEX, 32), 'Twilio auth tokens: 32 hex'),
    token('azure', 'ad-client-secret', 'AZURE_CLIENT_SECRET', '', `${d.pick(ALNUM, 3)}8Q~${d.pick(`${ALNUM}_~.-`, 33)}${d.pick(ALNUM, 1)}`, 'Microsoft Entra ID (Azure AD) client secrets: 3 + 8Q~ + 34 of [A-Za-z0-9_~.-]'),
    token('digitalocean', 'dop_v1', 'DIGITALOCEAN_TOKEN', 'dop_v1_', d.pick(HEX, 64), 'DigitalOcean personal access tokens: dop_v1_ + 64 hex'),
    token('digitalocean', 'doo_v1', 'DIGITALOCEAN_OAUTH_TOKEN', 'doo_v1_', d.pick(HEX, 64), 'DigitalOcean OAuth tokens: doo_v1_ + 64 hex'),
    token('pypi', 'macaroon', 'TWINE_PASSWORD', 'pypi-AgEIcHlwaS5vcmc', pypi(d).slice('pypi-AgEIcHlwaS5vcmc'.length), 'PyPI API tokens: pypi- + base64url macaroon for pypi.org'),
    token('npm', 'npm_', 'NPM_TOKEN', 'npm_', checksummedToken(d, ''), 'npm access tokens (2021): npm_ + 30 base62 + 6-character base62 CRC32'),
    token('postman', 'PMAK', 'POSTMAN_API_KEY', 'PMAK-', `${d.pick(HEX, 24)}-${d.pick(HEX, 34)}`, 'Postman API keys: PMAK- + 24 hex - 34 hex'),
    token('1password', 'ops', 'OP_SERVICE_ACCOUNT_TOKEN', 'ops_eyJ', onePassword(d).slice(7), '1Password service-account tokens: ops_ + base64 JSON'),
    token('age', 'secret-key', 'SOPS_AGE_KEY', 'AGE-SECRET-KEY-1', bech32('age-secret-key-', d.bytes(32)).toUpperCase().slice(16), 'age secret keys: AGE-SECRET-KEY-1 + 58 bech32 (upper case)'),
    token('sentry', 'sntrys', 'SENTRY_AUTH_TOKEN', 'sntrys_eyJ', sentryOrg(d).slice(10), 'Sentry organisation auth tokens: sntrys_ + base64 JSON + _ + 43'),
    token('sentry', 'sntryu', 'SENTRY_AUTH_TOKEN', 'sntryu_', d.pick(HEX, 64), 'Sentry user auth tokens: sntryu_ + 64 hex'),
    token('shopify', 'shpat', 'SHOPIFY_ACCESS_TOKEN', 'shpat_', d.pick(HEX, 32), 'Shopify access tokens: shpat_ + 32 hex'),
    token('shopify', 'shpss', 'SHOPIFY_API_SECRET', 'shpss_', d.pick(HEX, 32), 'Shopify shared secrets: shpss_ + 32 hex'),
    token('shopify', 'shpca', 'SHOPIFY_CUSTOM_APP_TOKEN', 'shpca_', d.pick(HEX, 32), 'Shopify custom app access tokens: shpca_ + 32 hex'),
    token('shopify', 'shppa', 'SHOPIFY_PRIVATE_APP_TOKEN', 'shppa_', d.pick(HEX, 32), 'Shopify private app access tokens: shppa_ + 32 hex'),
    token('databricks', 'dapi', 'DATABRICKS_TOKEN', 'dapi', d.pick(HEX, 32), 'Databricks personal access tokens: dapi + 32 hex'),
    token('supabase', 'sbp', 'SUPABASE_ACCESS_TOKEN', 'sbp_', d.pick(HEX, 40), 'Supabase personal access tokens: sbp_ + 40 hex'),
    token('cloudflare', 'api-token', 'CLOUDFLARE_API_TOKEN', '', `${d.pick(ALNUM, 1)}${d.pick(BASE64URL, 38)}${d.pick(ALNUM, 1)}`, 'Cloudflare API tokens: 40 of [A-Za-z0-9_-], no prefix'),
    token('linear', 'lin_api', 'LINEAR_API_KEY', 'lin_api_', d.pick(ALNUM, 40), 'Linear personal API keys: lin_api_ + 40 alphanumerics'),
    token('notion', 'secret', 'NOTION_TOKEN', 'secret_', d.pick(ALNUM, 43), 'Notion internal integration secrets: secret_ + 43 alphanumerics'),
    token('heroku', 'uuid', 'HEROKU_API_KEY', '', `${d.pick(HEX, 8)}-${d.pick(HEX, 4)}-${d.pick(HEX, 4)}-${d.pick(HEX, 4)}-${d.pick(HEX, 12)}`, 'Heroku API keys: a UUID (only its name says secret)'),
    token('grafana', 'glsa', 'GRAFANA_SERVICE_ACCOUNT_TOKEN', 'glsa_', `${d.pick(ALNUM, 32)}_${d.pick(HEX, 8)}`, 'Grafana service-account tokens: glsa_ + 32 + _ + 8 hex'),
    token('newrelic', 'NRAK', 'NEW_RELIC_API_KEY', 'NRAK-', d.pick(UPPER_ALNUM, 27), 'New Relic user API keys: NRAK- + 27'),
    token('mailgun', 'key', 'MAILGUN_API_KEY', 'key-', d.pick(HEX, 32), 'Mailgun API keys: key- + 32 hex'),
    token('telegram', 'bot', 'TELEGRAM_BOT_TOKEN', '', `${digits(d, 10)}:AA${d.pick(BASE64URL, 32)}${d.pick(ALNUM, 1)}`, 'Telegram bot tokens: bot id : AA + 33 base64url'),
    token('vault', 'hvs', 'VAULT_TOKEN', 'hvs.', `CAESI${d.pick(BASE64URL, 86)}${d.pick(ALNUM, 1)}`, 'HashiCorp Vault service tokens: hvs. + base64url'),
  ];
}
