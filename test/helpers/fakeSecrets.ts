/**
 * Realistic fake secrets for the redaction tests: one per format, generated from a fixed
 * seed so they look random (secretlint ignores obvious `EXAMPLE` / dummy values) but are
 * the same on every run. None of them is a real credential.
 *
 * Each fake is built to the shape the rule that should catch it accepts — read from the
 * rule sources in node_modules/@secretlint/secretlint-rule-preset-recommend/module (rule
 * set: secretlint preset-recommend 13) and from src/core/safety/redact.ts for our own rules.
 */

import { seededRandom as rng } from './random';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
const DIGITS = '0123456789';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Random strings over a charset; `seed` makes each fake different and stable. */
export function randomString(seed: number, length: number, charset = ALNUM): string {
  const next = rng(seed);
  let s = '';
  for (let i = 0; i < length; i++) s += charset[Math.floor(next() * charset.length)];
  return s;
}

const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

function pem(label: string, magic: string, seed: number, bodyChars = 900): string {
  const body = magic + randomString(seed, bodyChars - magic.length, B64);
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----`;
}

function jwt(seed: number, payload: Record<string, unknown>): string {
  return `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}.${randomString(seed, 43, B64URL)}`;
}

function onePassword(seed: number): string {
  let json = JSON.stringify({
    email: `${randomString(seed, 13, 'abcdefghijklmnopqrstuvwxyz0123456789')}@1passwordserviceaccounts.com`,
    muk: { alg: 'A256GCM', ext: true, k: randomString(seed + 1, 43, B64URL), key_ops: ['encrypt', 'decrypt'], kty: 'oct', kid: 'mp' },
    secretKey: `A3-${randomString(seed + 2, 6, UPPER_DIGITS)}-${randomString(seed + 3, 6, UPPER_DIGITS)}`,
    signInAddress: 'my.1password.com',
  });
  // The rule wants the base64 to end in `fQ` (+ padding): the JSON's length must be 1 mod 3.
  while (json.length % 3 !== 1) json = json.replace(/}$/, ' }');
  return `ops_${Buffer.from(json, 'utf8').toString('base64')}`;
}

function gcpServiceAccountJson(seed: number): string {
  return JSON.stringify(
    {
      type: 'service_account',
      project_id: 'handoff-billing-prod',
      private_key_id: randomString(seed, 40, HEX),
      private_key: `${pem('PRIVATE KEY', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', seed + 1, 1200)}\n`,
      client_email: 'deployer@handoff-billing-prod.iam.gserviceaccount.com',
      client_id: randomString(seed + 2, 21, DIGITS),
    },
    null,
    2,
  );
}

/** One fake per secret format: a label, the kind it must be redacted as, the text around it, and the secret value itself. */
export interface FakeSecret {
  /** The format, in words (e.g. "GitHub classic PAT"). */
  readonly format: string;
  /** The expected `[REDACTED:<kind>]` kind. */
  readonly kind: string;
  /** The secret as it appears in text (what must never be written). */
  readonly value: string;
  /** A line of text carrying it, as an agent or a developer would write it. */
  readonly line: string;
  /** The rest of the line that must stay readable (key names, hosts …). */
  readonly keep?: string;
}

const f = (format: string, kind: string, value: string, line = `see ${value} here`, keep?: string): FakeSecret => ({ format, kind, value, line, keep });

/** The fakes, at least one per format the redaction covers. */
export function fakeSecrets(): FakeSecret[] {
  let s = 1000;
  const r = (n: number, cs = ALNUM) => randomString(s++, n, cs);
  const awsSecret = r(39, B64) + 'q';
  const pgPass = r(18);
  const myPass = r(16);
  const mongoPass = r(20);
  const basicPass = r(18);
  return [
    f('GitHub classic personal access token', 'github-token', `ghp_${r(36)}`),
    f('GitHub OAuth access token', 'github-token', `gho_${r(36)}`),
    f('GitHub user-to-server token', 'github-token', `ghu_${r(36)}`),
    f('GitHub server-to-server (app installation) token', 'github-token', `ghs_${r(36)}`),
    f('GitHub refresh token', 'github-token', `ghr_${r(36)}`),
    f('GitHub fine-grained personal access token', 'github-token', `github_pat_${r(22)}_${r(59)}`),
    f('GitHub app installation token (JWT format)', 'github-token', `ghs_${r(7, DIGITS)}_${jwt(s++, { iss: '123456', iat: 1767225600 })}`),
    f('GitHub token in an x-oauth-basic URL', 'github-token', r(40, HEX), '', undefined),
    f('GitLab personal access token', 'gitlab-token', `glpat-${r(20, ALNUM + '-_')}x`),
    f('AWS access key id', 'aws-access-key-id', `AKIA${r(16, UPPER_DIGITS)}`),
    f('AWS temporary access key id', 'aws-access-key-id', `ASIA${r(16, UPPER_DIGITS)}`),
    f('AWS secret access key', 'aws-secret-access-key', awsSecret, `AWS_SECRET_ACCESS_KEY=${awsSecret}`, 'AWS_SECRET_ACCESS_KEY='),
    f('AWS account id', 'aws-account-id', `${r(4, DIGITS)}-${r(4, DIGITS)}-${r(4, DIGITS)}`, '', 'aws_account_id'),
    ((json) => f('GCP service-account key file (JSON)', 'gcp-service-account-key', json, json))(gcpServiceAccountJson(s++)),
    f('npm access token', 'npm-token', `npm_${r(36)}`),
    f('Slack bot token', 'slack-token', `xoxb-${r(12, DIGITS)}-${r(13, DIGITS)}-${r(24)}`),
    f('Slack user token', 'slack-token', `xoxp-${r(12, DIGITS)}-${r(12, DIGITS)}-${r(13, DIGITS)}-${r(32, HEX)}`),
    f('Slack app-level token', 'slack-token', `xapp-1-A${r(10, UPPER_DIGITS)}-${r(13, DIGITS)}-${r(64, HEX)}`),
    f('Slack incoming webhook', 'slack-webhook', `https://hooks.slack.com/services/T${r(8, UPPER_DIGITS)}/B${r(10, UPPER_DIGITS)}/${r(24)}`),
    f(
      'password in an https URL (basic auth)',
      'basic-auth',
      `deploy-bot:${basicPass}`,
      `git clone https://deploy-bot:${basicPass}@git.internal-builds.io/app.git`,
      '@git.internal-builds.io/app.git',
    ),
    f('OpenAI API key (legacy)', 'openai-api-key', `sk-${r(20)}T3BlbkFJ${r(20)}`),
    f('OpenAI project API key', 'openai-api-key', `sk-proj-${r(74, ALNUM + '-_')}T3BlbkFJ${r(73, ALNUM + '-_')}Q`),
    f('Anthropic API key', 'anthropic-api-key', `sk-ant-api03-${r(93, ALNUM + '-_')}AA`),
    f('Groq API key', 'groq-api-key', `gsk_${r(52)}`),
    f('Hugging Face user access token', 'huggingface-token', `hf_${r(34, LETTERS)}`),
    f('Linear API key', 'linear-api-key', `lin_api_${r(40)}`),
    f('Notion integration token', 'notion-token', `ntn_${r(11, DIGITS)}${r(35)}`),
    f('RSA private key (PKCS#1)', 'private-key', pem('RSA PRIVATE KEY', 'MIIEowIBAAKCAQEA', s++)),
    f('private key (PKCS#8)', 'private-key', pem('PRIVATE KEY', 'MIIEvgIBADANBgkqhkiG9w0BAQEFAASC', s++)),
    f('EC private key (SEC1)', 'private-key', pem('EC PRIVATE KEY', 'MHcCAQEEI', s++, 300)),
    f('encrypted private key (PKCS#8)', 'private-key', pem('ENCRYPTED PRIVATE KEY', 'MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI', s++, 1600)),
    f('OpenSSH private key', 'private-key', pem('OPENSSH PRIVATE KEY', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ', s++, 600)),
    f('SendGrid API key', 'sendgrid-api-key', `SG.${r(22)}.${r(43)}`),
    f('Shopify access token', 'shopify-token', `shpat_${r(32, HEX)}`),
    f('Shopify shared secret', 'shopify-token', `shpss_${r(32, HEX)}`),
    f('Stripe live secret key', 'stripe-secret-key', `sk_live_51${r(30)}`),
    f('Stripe test restricted key', 'stripe-restricted-key', `rk_test_51${r(30)}`),
    f(
      'Grafana Cloud API token',
      'grafana-cloud-token',
      `glc_${Buffer.from(JSON.stringify({ o: r(6, DIGITS), n: 'handoff-ci', k: r(24), m: { r: 'prod-eu-west-2' } })).toString('base64')}`,
    ),
    f('Grafana service account token', 'grafana-service-account-token', `glsa_${r(32)}_${r(8, HEX)}`),
    f('1Password service account token', '1password-token', onePassword(s++)),
    f(
      'MongoDB connection string',
      'mongodb-connection',
      `appsvc:${mongoPass}`,
      `MONGO_URL is mongodb+srv://appsvc:${mongoPass}@cluster0.x7k2p.mongodb.net/orders?retryWrites=true`,
      '@cluster0.x7k2p.mongodb.net/orders',
    ),
    f(
      'MySQL connection string',
      'mysql-connection',
      `reporting:${myPass}`,
      `jdbc:mysql://reporting:${myPass}@db-prod.internal:3306/sales`,
      '@db-prod.internal:3306/sales',
    ),
    f(
      'PostgreSQL connection string',
      'postgresql-connection',
      `svc_billing:${pgPass}`,
      `postgresql://svc_billing:${pgPass}@pg.internal.corp:5432/billing`,
      '@pg.internal.corp:5432/billing',
    ),
    f('HashiCorp Vault service token', 'vault-token', `hvs.${r(94, ALNUM + '_-')}x`),
    f('HashiCorp Vault batch token', 'vault-token', `hvb.${r(150, ALNUM + '_-')}x`),
    f('Vercel personal access token', 'vercel-token', `vcp_${r(24)}`),
    f('Databricks personal access token', 'databricks-token', `dapi${r(32, HEX)}`),
    f('Docker personal access token', 'docker-token', `dckr_pat_${r(26, ALNUM + '_-')}x`),
    f('Figma personal access token', 'figma-token', `figd_${r(43, ALNUM + '_-')}x`),
    f('Cloudflare user API token', 'cloudflare-api-token', `cfut_${r(40)}${r(8, HEX)}`),
    f('Cloudflare global API key', 'cloudflare-api-key', `cfk_${r(40)}${r(8, HEX)}`),
    f('Tailscale auth key', 'tailscale-key', `tskey-auth-k${r(11)}-${r(30)}`),
    f('Tailscale API key', 'tailscale-key', `tskey-api-k${r(11)}-${r(30)}`),
    f('JSON Web Token', 'jwt', jwt(s++, { sub: 'user-8841', role: 'admin', exp: 1893456000 })),
    f('SECRET= in a .env file', 'secret-assignment', `${r(22)}!`, '', 'SECRET='),
    f('API_KEY= in a .env file', 'secret-assignment', r(32), '', 'API_KEY='),
    f('PASSWORD: in YAML', 'secret-assignment', `Tr0ub4dor-${r(8)}`, '', 'PASSWORD: '),
    f('TOKEN= in a shell export', 'secret-assignment', r(40, HEX), '', 'export TOKEN='),
    f('"client_secret" in JSON config', 'secret-assignment', r(35), '', '"client_secret": "'),
    f('GCP API key in GOOGLE_API_KEY=', 'secret-assignment', `AIza${r(35, ALNUM + '-_')}`, '', 'GOOGLE_API_KEY='),
    f('--api-key= on a command line', 'secret-assignment', r(28), '', '--api-key='),
  ].map(withLine);
}

/** Fills in the lines that depend on their value (assignments and URLs). */
function withLine(x: FakeSecret): FakeSecret {
  if (x.line) return x;
  switch (x.format) {
    case 'GitHub token in an x-oauth-basic URL':
      return { ...x, line: `"url": "https://${x.value}:x-oauth-basic@github.com/acme/private.git"`, keep: '@github.com/acme/private.git' };
    case 'AWS account id':
      return { ...x, line: `aws_account_id = ${x.value}` };
    case '"client_secret" in JSON config':
      return { ...x, line: `{ "client_id": "handoff-web", "client_secret": "${x.value}" }` };
    default:
      return { ...x, line: `${x.keep}${x.value}` };
  }
}

/** Distinct formats among `fakes`. */
export function formatCount(fakes: readonly FakeSecret[]): number {
  return new Set(fakes.map((x) => x.format)).size;
}
