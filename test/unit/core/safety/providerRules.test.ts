/**
 * Our provider-token rules (src/core/safety/providerRules.ts): one fake per published key
 * format — generated here from the format (prefix, length, alphabet), not from the rule's
 * pattern — is redacted whole as its kind, in free text and after a key; every kind is in
 * SECRET_KINDS; property-based: any generated key of a format, in any assignment syntax,
 * leaves no piece of itself behind.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { redactSecrets } from '../../../../src/core/safety/redact';
import { SECRET_KINDS } from '../../../../src/core/safety/secretKinds';
import { PROVIDER_FORMATS, findProviderTokens } from '../../../../src/core/safety/providerRules';
import { randomString } from '../../../helpers/fakeSecrets';

const AL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64U = `${AL}-_`;
const HEX = '0123456789abcdef';
const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const LET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BECH = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';

let seed = 7000;
const r = (n: number, cs = AL) => randomString(seed++, n, cs);

/** One fake per published format: [format, expected kind, key]. */
const KEYS: Array<[string, string, string]> = [
  ['Anthropic Admin API key', 'anthropic-admin-key', `sk-ant-admin01-${r(93, B64U)}AA`],
  ['OpenRouter API key', 'openrouter-api-key', `sk-or-v1-${r(64, HEX)}`],
  ['OpenAI service-account key', 'openai-api-key', `sk-svcacct-${r(74, B64U)}T3BlbkFJ${r(74, B64U)}`],
  ['OpenAI admin key', 'openai-api-key', `sk-admin-${r(74, B64U)}T3BlbkFJ${r(74, B64U)}`],
  ['DeepSeek API key', 'deepseek-api-key', `sk-${r(32, HEX)}`],
  ['Google (Gemini / GCP) API key', 'google-api-key', `AIza${r(35, B64U)}`],
  ['xAI API key', 'xai-api-key', `xai-${r(80)}`],
  ['Replicate API token', 'replicate-api-token', `r8_${r(37)}`],
  ['Perplexity API key', 'perplexity-api-key', `pplx-${r(48)}`],
  ['Hugging Face organisation token', 'huggingface-org-token', `api_org_${r(34, LET)}`],
  ['LangSmith personal access token', 'langsmith-api-key', `lsv2_pt_${r(32, HEX)}_${r(10, HEX)}`],
  ['LangSmith service key', 'langsmith-api-key', `lsv2_sk_${r(32, HEX)}_${r(10, HEX)}`],
  ['Together AI key', 'together-api-key', `tgp_v1_${r(43, B64U)}`],
  ['Fireworks AI key', 'fireworks-api-key', `fw_${r(24)}`],
  ['GitLab deploy token', 'gitlab-other-token', `gldt-${r(20, B64U)}`],
  ['GitLab runner authentication token', 'gitlab-other-token', `glrt-${r(20, B64U)}`],
  ['GitLab pipeline trigger token', 'gitlab-other-token', `glptt-${r(40, HEX)}`],
  ['GitLab CI/CD job token', 'gitlab-other-token', `glcbt-${r(2, HEX)}_${r(20, B64U)}`],
  ['GitLab OAuth application secret', 'gitlab-other-token', `gloas-${r(64, HEX)}`],
  ['GitLab SCIM token', 'gitlab-other-token', `glsoat-${r(20, B64U)}`],
  ['GitLab incoming mail token', 'gitlab-other-token', `glimt-${r(25, B64U)}`],
  ['GitLab agent token', 'gitlab-other-token', `glagent-${r(50, B64U)}`],
  ['GitLab feature flags client token', 'gitlab-other-token', `glffct-${r(20, B64U)}`],
  ['GitLab runner registration token', 'gitlab-other-token', `GR1348941${r(20, B64U)}`],
  ['Twilio API key SID', 'twilio-api-key', `SK${r(32, HEX)}`],
  ['Azure AD client secret', 'azure-ad-client-secret', `${r(3)}${r(1, '0123456789')}Q~${r(34, `${AL}_~.-`)}`],
  ['DigitalOcean personal access token', 'digitalocean-token', `dop_v1_${r(64, HEX)}`],
  ['DigitalOcean OAuth token', 'digitalocean-token', `doo_v1_${r(64, HEX)}`],
  ['DigitalOcean refresh token', 'digitalocean-token', `dor_v1_${r(64, HEX)}`],
  ['PyPI API token', 'pypi-token', `pypi-AgEIcHlwaS5vcmc${r(70, B64U)}`],
  ['Postman API key', 'postman-api-key', `PMAK-${r(24, HEX)}-${r(34, HEX)}`],
  ['1Password Secret Key', '1password-secret-key', `A3-${r(6, UP)}-${r(6, UP)}-${r(5, UP)}-${r(5, UP)}-${r(5, UP)}-${r(5, UP)}`],
  ['age secret key', 'age-secret-key', `AGE-SECRET-KEY-1${r(58, BECH)}`],
  ['Sentry user auth token', 'sentry-token', `sntryu_${r(64, HEX)}`],
  [
    'Sentry organisation auth token',
    'sentry-token',
    `sntrys_${Buffer.from(JSON.stringify({ iat: 1767225600, url: 'https://sentry.io', org: 'acme' }))
      .toString('base64')
      .replace(/=+$/, '')}_${r(43, `${AL}+/`)}`,
  ],
];

/** Every 12-character piece of `key`: none may survive redaction. */
const pieces = (key: string) => Array.from({ length: Math.max(1, key.length - 11) }, (_, i) => key.slice(i, i + 12));

describe('provider-token rules', function () {
  this.timeout(30_000);

  it('every kind a provider format names is in SECRET_KINDS, and every format has a fake here', () => {
    const kinds = new Set(SECRET_KINDS.map((k) => k.kind));
    for (const f of PROVIDER_FORMATS) assert.ok(kinds.has(f.kind), f.kind);
    for (const [, kind] of KEYS) assert.ok(kinds.has(kind), kind);
    const covered = new Set(KEYS.map(([, k]) => k));
    for (const f of PROVIDER_FORMATS) {
      if (['anthropic-api-key', 'huggingface-token', 'groq-api-key', 'gitlab-token', 'slack-token'].includes(f.kind)) continue; // secretlint's kinds, tested in redact.test.ts
      assert.ok(covered.has(f.kind), `no fake for ${f.kind}`);
    }
  });

  for (const [format, kind, key] of KEYS) {
    it(`redacts a ${format} whole as [REDACTED:${kind}], in prose and after a key`, async () => {
      const prose = await redactSecrets(`I used ${key} for the call.`);
      assert.equal(prose.text, `I used [REDACTED:${kind}] for the call.`);
      assert.deepEqual(prose.found, { [kind]: 1 });
      for (const line of [`curl -H "X-Key: ${key}" https://api.example.net`, `<apiKey>${key}</apiKey>`, `deploy with ${key}.`]) {
        const r = await redactSecrets(line);
        for (const p of pieces(key)) assert.ok(!r.text.includes(p), `${line} → ${r.text}`);
      }
    });
  }

  it('redacts a Slack app-level token whole, tail included', async () => {
    const token = `xapp-1-A${r(10, UP.slice(0, 26))}-${r(13, '0123456789')}-${r(64, HEX)}`;
    const r1 = await redactSecrets(`SLACK_APP_TOKEN is ${token} ok`);
    assert.equal(r1.text, 'SLACK_APP_TOKEN is [REDACTED:slack-token] ok');
  });

  it('keeps placeholders shaped like a key (AIza + x…, EXAMPLE)', () => {
    for (const t of [`AIza${'x'.repeat(35)}`, `xai-${'0'.repeat(80)}`, `AIzaEXAMPLE${'a1'.repeat(12)}abcdefghijk`])
      assert.deepEqual(findProviderTokens(`k ${t} k`), [], t);
  });

  it('property: any generated key of any format, in any assignment syntax, leaves no piece of itself', async () => {
    const formats = KEYS.map(([, , key]) => key);
    const syntaxes: Array<(k: string) => string> = [
      (k) => `API_TOKEN := "${k}"`,
      (k) => `API_TOKEN ::= ${k}`,
      (k) => `TOKEN ?= ${k}`,
      (k) => `$token .= "${k}";`,
      (k) => `'api_key' => '${k}',`,
      (k) => `var apiToken string = "${k}"`,
      (k) => `System.setProperty("X_TOKEN", "${k}");`,
      (k) => `os.environ["API_KEY"] = "${k}"`,
      (k) => `<password>${k}</password>`,
      (k) => `{"auth": "${k}"}`,
      (k) => `  token: ${k}`,
      (k) => `curl -H "Authorization: Bearer ${k}" https://x.example`,
      (k) => `+  api_key = "${k}"`,
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...formats), fc.constantFrom(...syntaxes), fc.constantFrom('', 'before\n', '  '), async (key, make, pre) => {
        const r = await redactSecrets(`${pre}${make(key)}\nafter`);
        for (const p of pieces(key)) assert.ok(!r.text.includes(p), r.text);
        assert.ok(r.text.endsWith('\nafter'));
      }),
      { numRuns: 150, seed: 14 },
    );
  });

  it('property: any Anthropic API or admin key, generated from its published format, is removed from any assignment form', async () => {
    const b64u = fc.constantFrom(...B64U.split(''));
    const body = fc.array(b64u, { minLength: 93, maxLength: 93 }).map((cs) => cs.join(''));
    const key = fc.tuple(fc.constantFrom('sk-ant-api03-', 'sk-ant-admin01-'), body).map(([p, b]) => `${p}${b}AA`);
    const op = fc.constantFrom('=', ':', ':=', '?=', '::=', '.=', '=>', '+=', ': ', ' = ');
    const name = fc.constantFrom('ANTHROPIC_API_KEY', 'anthropicApiKey', 'api_key', 'CLAUDE_TOKEN', 'x-api-key', 'secret');
    const quote = fc.constantFrom('', '"', "'");
    await fc.assert(
      fc.asyncProperty(key, op, name, quote, async (k, o, n, q) => {
        const r = await redactSecrets(`${n}${o}${q}${k}${q}`);
        for (const p of pieces(k)) assert.ok(!r.text.includes(p), r.text);
      }),
      { numRuns: 200, seed: 1414 },
    );
  });
});
