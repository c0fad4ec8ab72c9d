/** What names a secret in `KEY=value` and what is only a placeholder; shared with `contextRules.ts`. */
/** A whole word of the key (not `max_context_tokens`, `tokenizer`), in a key not ending in {@link NOT_A_SECRET_SUFFIX}. */
const SECRET_WORDS = new Set([
  'secret',
  'token',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'auth',
  'credential',
  'credentials',
  'apikey',
  'privatekey',
  'accesskey',
  'clientsecret',
  'pgpassword',
  'authtoken',
  'apitoken',
  'accesstoken',
  'secretkey',
]);
const SECRET_PAIRS = new Set([
  'api key',
  'private key',
  'access key',
  'client secret',
  'account key',
  'client key',
  'signing key',
  'encryption key',
  'master key',
  'shared key',
]);
/** Last words of a key about the secret, not the secret: `TOKEN_TYPE`, `PASSWORD_FILE`, `SECRET_NAME` … */
const NOT_A_SECRET_SUFFIX = new Set([
  'type',
  'types',
  'kind',
  'name',
  'names',
  'id',
  'ids',
  'file',
  'files',
  'path',
  'dir',
  'url',
  'uri',
  'endpoint',
  'header',
  'field',
  'env',
  'var',
  'length',
  'len',
  'size',
  'count',
  'limit',
  'min',
  'max',
  'ttl',
  'expiry',
  'expires',
  'expiration',
  'lifetime',
  'timeout',
  'prefix',
  'suffix',
  'format',
  'hint',
  'policy',
  'rules',
  'regex',
  'pattern',
  'enabled',
  'disabled',
  'required',
  'mode',
  'source',
  'provider',
  'label',
  'help',
  'description',
  'placeholder',
  'hash',
  'algorithm',
  'alg',
  'version',
  'location',
  'store',
  'manager',
  'reset',
  'changed',
  'updated',
  'created',
  'at',
  'arn',
  'ref',
  'stdin',
  'prompt',
  'command',
  'cmd',
  'helper',
  'method',
  'methods',
  'scheme',
  'flow',
  'strategy',
  'service',
  'server',
  'host',
  'domain',
  'user',
  'username',
  'email',
  'mechanism',
  'plugin',
  'realm',
  'audience',
  'issuer',
  'scope',
  'scopes',
  'status',
  'state',
  'error',
  'errors',
  'seconds',
  'secs',
  'sec',
  'ms',
  'minutes',
  'mins',
  'hours',
  'days',
  'duration',
  'interval',
  'rotation',
  'period',
  'window',
  'retries',
  'attempts',
  'threshold',
]);

const PLACEHOLDER_WORDS = new Set([
  'changeme',
  'change_me',
  'change-me',
  'changeit',
  'placeholder',
  'example',
  'dummy',
  'sample',
  'fake',
  'test',
  'todo',
  'tbd',
  'none',
  'null',
  'nil',
  'undefined',
  'true',
  'false',
  'yes',
  'no',
  'secret',
  'password',
  'passwd',
  'token',
  'redacted',
  'hidden',
  'masked',
  'empty',
  'required',
  'optional',
  'string',
  'bearer',
  'basic',
  'xxx',
  'your_token',
  'your_secret',
  'your_password',
  'your_api_key',
  'your-api-key',
  'my_secret',
  'mysecret',
  'mypassword',
  'pass',
  'pwd',
  'x-oauth-basic',
  'apikey',
  'api_key',
  'api-key',
  'key',
  'credentials',
  'auth',
  'value',
  'str',
  'int',
  'bool',
  'object',
  'any',
  'bytes',
]);

/** Also an earlier `[REDACTED:…]` marker and AWS's documented example keys (they contain `EXAMPLE`). */
export function isPlaceholder(value: string): boolean {
  // Earlier redactions and escaped line breaks taken out (idempotence).
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
    /^(?:your|my|some|the|insert|enter|replace|put)[-_ ]/i.test(v) ||
    /[-_ ]here$/i.test(v) ||
    /EXAMPLE/.test(v) ||
    /^x{3,}/i.test(v) ||
    /^\*{3,}/.test(v) ||
    /\.{3}|…/.test(v) ||
    /x{6,}|X{6,}/.test(v) ||
    /^\[(?:hidden|masked|redacted|secret|omitted|removed|filtered)\]$/i.test(v)
  );
}

/** `process.env.TOKEN`, `getToken()`, `req.body.password`, a regex literal, a file path, a CSS colour. */
export function isCodeLike(value: string): boolean {
  if (/^\/.*\/[dgimsuvy]*$/.test(value) && /[\^$\\[\]()|?*+{}]/.test(value)) return true;
  if (/^(?:~|\.{1,2})?\/[\w.@-]+(?:\/[\w.@-]+)+\/?$/.test(value) || /^\.{1,2}\/[\w.@-]+$/.test(value)) return true;
  if (/^#[0-9a-fA-F]{3,8}$/.test(value)) return true;
  if (/^(?:new|readonly|await|async|function|require|import|this|self|const|let|var|return|typeof|keyof|static|public|private|protected)$/.test(value))
    return true;
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

/** A GCP key file's `private_key_id` counts too. */
export function isSecretKey(key: string): boolean {
  const words = keyWords(key);
  if (words.join(' ').endsWith('private key id')) return true;
  // `PWD` / `OLDPWD` alone are the shell's working directories, not passwords.
  if (words.length === 1 && /^(?:old)?pwd$/.test(words[0])) return false;
  if (words.length === 0 || NOT_A_SECRET_SUFFIX.has(words[words.length - 1])) return false;
  for (let i = 0; i < words.length; i++) {
    if (SECRET_WORDS.has(words[i])) return true;
    if (i + 1 < words.length && SECRET_PAIRS.has(`${words[i]} ${words[i + 1]}`)) return true;
  }
  return false;
}

/** Such a key's value counts only when it looks random: how unknown providers' keys are still caught. */
const WEAK_SECRET_WORDS = new Set([
  'key',
  'keys',
  'sig',
  'signature',
  'salt',
  'seed',
  'cookie',
  'session',
  'sid',
  'dsn',
  'hmac',
  'pat',
  'cred',
  'creds',
  'pin',
  'license',
  'bearer',
  'jwt',
]);
const SECRET_SUBSTRING = /secret|token|passw|apikey|auth(?!or)|credential|privkey/i;

export function isWeakSecretKey(key: string): boolean {
  const words = keyWords(key);
  if (words.length === 0 || NOT_A_SECRET_SUFFIX.has(words[words.length - 1])) return false;
  return words.some((w) => WEAK_SECRET_WORDS.has(w)) || SECRET_SUBSTRING.test(key);
}

/** A superset of every key {@link isSecretKey} or {@link isWeakSecretKey} accepts, as a fast first test. */
export const MAYBE_SECRET_KEY = /secret|token|pass|pwd|auth|cred|key|sig|salt|seed|cookie|session|sid|dsn|hmac|pat|pin|licen|bearer|jwt/i;

/** Bits per character, over UTF-16 code units. */
export function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

export const HIGH_ENTROPY_MIN_LENGTH = 16;

export function isHighEntropy(value: string): boolean {
  const v = value.trim();
  if (v.length < HIGH_ENTROPY_MIN_LENGTH || !/[A-Za-z]/.test(v) || !/[0-9]/.test(v)) return false;
  if (/^(?:[a-f0-9]{32}|[a-f0-9]{40}|[a-f0-9]{64}|[a-f0-9]{128}|[A-F0-9]{32}|[A-F0-9]{40}|[A-F0-9]{64})$/.test(v)) return false;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v) || /^sha(?:1|256|384|512)-/.test(v)) return false;
  return shannonEntropy(v) >= Math.min(4.0, Math.log2(v.length) - 0.7);
}
