/** Our rules for what secretlint's preset misses; {@link isPlaceholder} and {@link isSecretKey} are shared with `contextRules.ts`. */
import type { Finding } from './secretKinds';

/** Compact JWS: the signature is optional (an unsigned `alg: none` token ends with a dot). */
export const JWT_PATTERN =
  /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,4000}={0,2}\.eyJ[A-Za-z0-9_-]{8,20000}={0,2}\.(?:[A-Za-z0-9_-]{8,4000}={0,2})?(?![A-Za-z0-9_=-])/g;

/** Only tokens whose header decodes to a JSON object with `alg`. */
export function findJwts(text: string): Finding[] {
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

const PEM_BEGIN = /-----BEGIN ((?:[A-Z0-9]{1,12} ){0,3})PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END ((?:[A-Z0-9]{1,12} ){0,3})PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_MAX_CHARS = 20_000;
/** Key material in a file, a JSON string or a unified diff (`+`/`-`/` ` prefix). */
const PEM_BODY_LINE = /^[+\- ]?\s*(?:[A-Za-z0-9+/=]{8,}|Proc-Type:.*|DEK-Info:.*|Comment:.*)?\s*$/;

/**
 * Blocks secretlint's rule misses (it wants `MI` or the OpenSSH magic after the header): SEC1 EC keys, `ENCRYPTED`, keys
 * added in a diff, keys cut before their END line. At least 64 base64 characters, so placeholders do not count.
 */
export function findPemBlocks(text: string): Finding[] {
  const out: Finding[] = [];
  // Each header takes the first END after it; headers inside a block found are skipped, so the work stays linear.
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
      // No END line: the run of key-material lines (ended by a line break or a JSON `\n` escape).
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

/** The id's finding runs into the PEM block after it, so the two merge into one `private-key`. */
const GCP_KEY_ID =
  /"private_key_id\\?"[ \t]{0,4}:[ \t]{0,4}\\?"([a-f0-9]{40})\\?"[ \t]{0,4},(?:[ \t\r\n]|\\[nrt]){0,40}\\?"private_key\\?"[ \t]{0,4}:[ \t]{0,4}\\?"(?=-----BEGIN)/g;

export function findGcpKeyIds(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(GCP_KEY_ID)) {
    const start = (m.index ?? 0) + m[0].indexOf(m[1]);
    out.push({ start, end: (m.index ?? 0) + m[0].length + 1, kind: 'private-key', priority: 2 });
  }
  return out;
}

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
function isCodeLike(value: string): boolean {
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

/**
 * `KEY=value`, `"key": "value"`, `key := "v"`, `'key' => 'v'`, `setenv("KEY", "v")` … Group 2, the key, is atomic (lookahead
 * and back-reference) so a long key is never retried at every shorter length. {@link readValue} reads the value.
 */
export const SECRET_ASSIGNMENT_PATTERN =
  /(?<![A-Za-z0-9_.])(["']?)(?=([A-Za-z_][A-Za-z0-9_.-]{0,80}))\2(?:\\?["']\]?|\])?((?:[ \t]{0,4}:?[ \t]{0,4}(?:string|String|str|&str)(?![\w]))?[ \t]{0,4}(?:::=|:=|\?=|\.=|\+=|=>|:|=|,)[ \t]{0,4})/g;

const DQ_VALUE = /"((?:[^"\\\r\n]|\\.){1,4096})"/y;
const SQ_VALUE = /'([^'\r\n]{1,4096})'/y;
const ESCAPED_DQ_VALUE = /\\"((?:[^"\\\r\n]|\\(?!")){1,4096})\\"/y;
/** Ends at a `\n` escape too, so `.env` lines quoted in a transcript stay apart. */
const UNQUOTED_VALUE = /(?:[^\s"'`,;<>\\]|\\(?![nrt"])){1,4096}/y;

interface ValueAt {
  readonly value: string;
  readonly start: number;
  readonly quote: 0 | 1 | 2;
}

/** `run` is the last unquoted value read: a key inside it (`TOKEN=a?key=b…`) is not read again, so the work stays linear. */
function readValue(text: string, pos: number, run: { start: number; end: number }): ValueAt | undefined {
  const c = text[pos];
  for (const [re, quote] of [
    [DQ_VALUE, 1],
    [SQ_VALUE, 1],
    [ESCAPED_DQ_VALUE, 2],
  ] as const) {
    if ((quote === 2 ? c === '\\' : c === re.source[0]) === false) continue;
    re.lastIndex = pos;
    const m = re.exec(text);
    if (m) return { value: m[1], start: pos + quote, quote };
  }
  if (pos >= run.start && pos < run.end) return undefined;
  UNQUOTED_VALUE.lastIndex = pos;
  const m = UNQUOTED_VALUE.exec(text);
  if (!m) return undefined;
  run.start = pos;
  run.end = pos + m[0].length;
  return { value: m[0], start: pos, quote: 0 };
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
const MAYBE_SECRET_KEY = /secret|token|pass|pwd|auth|cred|key|sig|salt|seed|cookie|session|sid|dsn|hmac|pat|pin|licen|bearer|jwt/i;

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

/**
 * The range is the value only, so the key stays readable. Unquoted values count only when they cannot be code: no space
 * before `=`, an all-capitals key, or a digit or symbol in the value.
 */
export function findSecretAssignments(text: string): Finding[] {
  const out: Finding[] = [];
  const run = { start: 0, end: 0 };
  for (const m of text.matchAll(SECRET_ASSIGNMENT_PATTERN)) {
    const key = m[2];
    if (!MAYBE_SECRET_KEY.test(key)) continue;
    const named = isSecretKey(key);
    if (!named && !isWeakSecretKey(key)) continue;
    const sep = m[3];
    const at = readValue(text, (m.index ?? 0) + m[0].length, run);
    if (!at) continue;
    const quoted = at.quote > 0 ? at.value : undefined;
    let value = at.value;
    const before = text.slice(Math.max(0, (m.index ?? 0) - 3), m.index ?? 0);
    // `arn:aws:secretsmanager:…:secret:prod/db` is colon-joined name parts; a URL's `user:password@` is the URL rule's.
    if (before.endsWith(':') && sep === ':') continue;
    // TypeScript `type SubmitPasswordResult = …` declares a type, not a value.
    if (!m[1] && /\btype[ \t]{1,4}$/.test(text.slice(Math.max(0, (m.index ?? 0) - 9), m.index ?? 0))) continue;
    if (before.endsWith('://') || (before.endsWith('/') && quoted === undefined && /@/.test(value))) continue;
    if (quoted === undefined && /[?&]$/.test(before)) value = value.split(/[&#]/)[0];
    // `cond ? 'a-secret-kind' : 'another'` is a conditional expression, not a quoted key and value.
    if (m[1] && /\?[ \t]{0,4}$/.test(text.slice(Math.max(0, (m.index ?? 0) - 6), m.index ?? 0))) continue;
    // A comma separates a key and a value only as call arguments: `setProperty("KEY", "v")`.
    if (sep.trim() === ',' && (!m[1] || quoted === undefined || !/\([ \t]{0,4}$/.test(text.slice(Math.max(0, (m.index ?? 0) - 8), m.index ?? 0)))) continue;
    // `--token-color: #0a84ff` is a CSS custom property, not a `--token=…` flag.
    if (sep.trim() === ':' && text.slice(Math.max(0, (m.index ?? 0) - 2), m.index ?? 0) === '--') continue;
    if (isPlaceholder(value)) continue;
    if (quoted === undefined) {
      // A template or placeholder with spaces in it: `<your api key>`, `${{ secrets.X }}`, `$(cat f)`.
      if (/^(?:<|\$\{|\{\{|\$\(|%[A-Za-z_])/.test(value)) continue;
      if (isCodeLike(value)) continue;
      // A short number is a setting (`TOKEN_LIMIT=100`), not a secret.
      if (/^[0-9]{1,6}$/.test(value)) continue;
      const tightEquals = /^=/.test(sep);
      const upperKey = key === key.toUpperCase() && /[A-Z]/.test(key);
      const looksSecret = /[0-9]/.test(value) || /[^A-Za-z0-9]/.test(value);
      // `const token = user;` / `token: string` are code and types, not secrets.
      if (!tightEquals && !upperKey && !looksSecret) continue;
      if (!tightEquals && !upperKey && /^[A-Za-z_$][\w$]*$/.test(value) && !/[0-9]/.test(value)) continue;
    }
    // A random value is one token: `arn:aws:secretsmanager:eu-west-1:…` is a name, not a key.
    if (!named && (!isHighEntropy(value) || !/^[A-Za-z0-9+/=_.~-]+$/.test(value))) continue;
    const kind = named ? 'secret-assignment' : 'high-entropy-secret';
    out.push({ start: at.start, end: at.start + value.length, kind, priority: 2 });
  }
  return out;
}
