/** Key formats secretlint's preset lacks (above all AI providers') or cuts short; every alternative is bounded, so the one combined regex stays linear. */
import type { Finding } from './secretKinds';

export interface ProviderFormat {
  /** `[REDACTED:<kind>]` name; must be listed in `SECRET_KINDS`. */
  readonly kind: string;
  readonly format: string;
  readonly pattern: string;
}

const B64URL = '[A-Za-z0-9_-]';
const HEX = '[a-f0-9]';
/** GitLab's routable-token tail: `.` + a two-digit version + base36. */
const ROUTABLE = '(?:\\.[0-9a-z]{6,16})?';

/** Most specific first: the combined pattern takes the first alternative that matches at a position. */
export const PROVIDER_FORMATS: readonly ProviderFormat[] = [
  { kind: 'anthropic-admin-key', format: 'Anthropic Admin API key: sk-ant-admin01- + 93 base64url + AA', pattern: `sk-ant-admin\\d{2}-${B64URL}{80,120}AA` },
  {
    kind: 'anthropic-api-key',
    format: 'Anthropic API key: sk-ant-api03- (and later versions) + base64url, any length secretlint does not take',
    pattern: `sk-ant-(?:api|oat|sid)\\d{2}-${B64URL}{32,200}`,
  },
  { kind: 'openrouter-api-key', format: 'OpenRouter API key: sk-or-v1- + 64 hex', pattern: `sk-or-v1-${HEX}{64}` },
  {
    kind: 'openai-api-key',
    format: 'OpenAI project, service-account and admin keys: sk-proj-, sk-svcacct-, sk-admin- + base64url (T3BlbkFJ inside or not)',
    pattern: `sk-(?:proj|svcacct|admin|None)-${B64URL}{40,300}`,
  },
  { kind: 'deepseek-api-key', format: 'DeepSeek API key: sk- + 32 hex', pattern: `sk-${HEX}{32}` },
  { kind: 'google-api-key', format: 'Google Cloud / Google AI (Gemini) API key: AIza + 35 base64url', pattern: `AIza${B64URL}{35}` },
  { kind: 'xai-api-key', format: 'xAI API key: xai- + 80 alphanumerics', pattern: 'xai-[A-Za-z0-9]{70,100}' },
  { kind: 'replicate-api-token', format: 'Replicate API token: r8_ + 37 alphanumerics', pattern: 'r8_[A-Za-z0-9]{37}' },
  { kind: 'perplexity-api-key', format: 'Perplexity API key: pplx- + 48 alphanumerics', pattern: 'pplx-[A-Za-z0-9]{40,64}' },
  { kind: 'huggingface-org-token', format: 'Hugging Face organisation API token: api_org_ + 34 letters', pattern: 'api_org_[A-Za-z]{34}' },
  { kind: 'huggingface-token', format: 'Hugging Face user access token: hf_ + 34 letters', pattern: 'hf_[A-Za-z]{34}' },
  {
    kind: 'langsmith-api-key',
    format: 'LangSmith personal / service key: lsv2_pt_ or lsv2_sk_ + 32 hex + _ + 10 hex',
    pattern: `lsv2_(?:pt|sk)_${HEX}{32}_${HEX}{10}`,
  },
  { kind: 'together-api-key', format: 'Together AI API key (new format): tgp_v1_ + base64url', pattern: `tgp_v1_${B64URL}{40,64}` },
  { kind: 'fireworks-api-key', format: 'Fireworks AI API key: fw_ + 24 or more alphanumerics', pattern: 'fw_[A-Za-z0-9]{24,48}' },
  { kind: 'groq-api-key', format: 'Groq API key: gsk_ + 52 alphanumerics', pattern: 'gsk_[A-Za-z0-9]{52}' },
  // GitLab token prefixes, from GitLab's "Token overview".
  {
    kind: 'gitlab-other-token',
    format:
      'GitLab tokens: deploy gldt-, runner glrt-, SCIM glsoat-, feature-flag glffct-, feed glft-, CI/CD job glcbt-, incoming-mail glimt-, agent glagent-, OAuth app secret gloas-, pipeline trigger glptt-, runner registration GR1348941; routable tokens end in `.` + version + base36',
    pattern: `(?:gl(?:dt|rt|soat|ffct|ft)-${B64URL}{20,64}${ROUTABLE}|glcbt-${B64URL}{20,80}|glimt-${B64URL}{25,64}|glagent-${B64URL}{50,128}|gloas-${HEX}{64}|glptt-${HEX}{40}|GR1348941${B64URL}{20,64})`,
  },
  {
    kind: 'gitlab-token',
    format: 'GitLab personal access token: glpat- + 20 or more base64url (a routable one: + `.` + version + base36)',
    pattern: `glpat-${B64URL}{20,64}${ROUTABLE}`,
  },
  { kind: 'twilio-api-key', format: 'Twilio API key SID: SK + 32 hex', pattern: 'SK[0-9a-fA-F]{32}' },
  {
    kind: 'azure-ad-client-secret',
    format: 'Microsoft Entra ID (Azure AD) client secret: 3 characters, a digit, Q~, 31–34 characters',
    pattern: '[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}',
  },
  {
    kind: 'digitalocean-token',
    format: 'DigitalOcean personal access, OAuth and refresh tokens: dop_v1_, doo_v1_, dor_v1_ + 64 hex',
    pattern: `do[opr]_v1_${HEX}{64}`,
  },
  {
    kind: 'pypi-token',
    format: 'PyPI API token: pypi- + the macaroon base64url starting AgEIcHlwaS5vcmc ("pypi.org")',
    pattern: `pypi-AgEIcHlwaS5vcmc${B64URL}{50,1000}`,
  },
  { kind: 'postman-api-key', format: 'Postman API key: PMAK- + 24 hex + - + 34 hex', pattern: `PMAK-${HEX}{24}-${HEX}{34}` },
  {
    kind: '1password-secret-key',
    format: '1Password account Secret Key: A3- + 6 + 6 (or 11) + 4 groups of 5 (uppercase and digits)',
    pattern: 'A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}',
  },
  {
    kind: 'age-secret-key',
    format: 'age secret key: AGE-SECRET-KEY-1 + 58 bech32 characters',
    pattern: 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}',
  },
  {
    kind: 'sentry-token',
    format: 'Sentry organisation auth token sntrys_ + base64 JSON + _ + 43; user auth token sntryu_ + 64 hex',
    pattern: `(?:sntrys_eyJ[A-Za-z0-9+/=_]{30,1000}|sntryu_${HEX}{64})`,
  },
  // Slack app-level tokens: secretlint's rule stops before the 64-hex tail.
  {
    kind: 'slack-token',
    format: 'Slack tokens whole: xapp-<digit>-<app id>-<digits>-<hex>, xox[abposr]-<body>',
    pattern: '(?:xapp-\\d-[A-Z0-9]{8,16}-\\d{8,20}-[a-f0-9]{32,128}|xox[abposr]-[A-Za-z0-9-]{10,250})',
  },
];

/** A match must not start or end inside a longer word or base64 run (`=` may precede it: `?key=AIza…`). */
const BEFORE_TOKEN = 'A-Za-z0-9_+/-';

/** The index of the capture group that matched says which format. */
export const PROVIDER_PATTERN = new RegExp(`(?<![${BEFORE_TOKEN}])(?:${PROVIDER_FORMATS.map((f) => `(${f.pattern})`).join('|')})(?![A-Za-z0-9_~+/=-])`, 'g');

function isFake(token: string): boolean {
  const body = token.replace(/^[A-Za-z]{1,8}[-_]/, '');
  return /(.)\1{11}/.test(body) || /EXAMPLE|example|your[-_]?key|XXXXXXXX/i.test(body);
}

/** Each finding is the whole token, priority 2. */
export function findProviderTokens(text: string): Finding[] {
  const out: Finding[] = [];
  PROVIDER_PATTERN.lastIndex = 0;
  for (const m of text.matchAll(PROVIDER_PATTERN)) {
    let g = 1;
    while (g < m.length && m[g] === undefined) g++;
    const format = PROVIDER_FORMATS[g - 1];
    if (!format || isFake(m[0])) continue;
    // A trailing dot ends a sentence, it is not part of the token.
    const token = m[0].replace(/\.+$/, '');
    const start = m.index ?? 0;
    out.push({ start, end: start + token.length, kind: format.kind, priority: 2 });
  }
  return out;
}
