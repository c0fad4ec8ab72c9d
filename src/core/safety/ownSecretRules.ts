/**
 * Our own secret rules, only for what secretlint preset-recommend 13 has no rule for
 * (docs/DESIGN.md §7 "Nothing leaked"): JSON Web Tokens, PEM private-key blocks that
 * secretlint's privatekey rule lets through, a GCP key file's `private_key_id`, secret
 * assignments in any syntax and with any operator, and high-entropy values of keys that
 * only suggest a secret. Each is a linear-time regular expression with bounded quantifiers
 * plus checks in code; each returns {@link Finding}s of priority 2 (the most specific).
 * What is and is not a placeholder ({@link isPlaceholder}) and a secret key name
 * ({@link isSecretKey}) is shared with `contextRules.ts`. Pure: no I/O.
 */
import type { Finding } from './secretKinds';

/**
 * JSON Web Tokens (RFC 7519, compact JWS): three base64url segments joined by dots, the
 * header and payload starting `eyJ` (the base64 of `{"`), the signature optional (an
 * unsigned `alg: none` token ends with a dot). Quantifiers are bounded and the segments
 * cannot contain the dot that separates them, so matching is linear. A match counts only
 * when its header decodes to a JSON object with `alg` (see {@link findJwts}).
 */
export const JWT_PATTERN = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,4000}={0,2}\.eyJ[A-Za-z0-9_-]{8,20000}={0,2}\.(?:[A-Za-z0-9_-]{8,4000}={0,2})?(?![A-Za-z0-9_=-])/g;

/** Finds JWTs in `text` (see {@link JWT_PATTERN}): ranges of whole tokens. */
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
export function findPemBlocks(text: string): Finding[] {
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
 * A GCP service-account key file's `private_key_id` (40 hex) followed by its `private_key`,
 * as Google's published key-file format orders them. The id and the key are one secret:
 * the finding runs from the id's value into the PEM block, so it merges with the block's
 * finding into one `private-key` ({@link findPemBlocks}); an id elsewhere is an assignment.
 */
const GCP_KEY_ID = /"private_key_id\\?"[ \t]{0,4}:[ \t]{0,4}\\?"([a-f0-9]{40})\\?"[ \t]{0,4},(?:[ \t\r\n]|\\[nrt]){0,40}\\?"private_key\\?"[ \t]{0,4}:[ \t]{0,4}\\?"(?=-----BEGIN)/g;

/** Finds a service-account key's id before its private key (see {@link GCP_KEY_ID}). */
export function findGcpKeyIds(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(GCP_KEY_ID)) {
    const start = (m.index ?? 0) + m[0].indexOf(m[1]);
    out.push({ start, end: (m.index ?? 0) + m[0].length + 1, kind: 'private-key', priority: 2 });
  }
  return out;
}

/**
 * Secret words a key name must contain, as a whole word of the key (words split at `_`,
 * `-`, `.` and camelCase): `secret`, `token`, `password`, `passwd`, `pwd`, `passphrase`,
 * `auth`, `credential(s)`, `apikey` / `api key`, `privatekey` / `private key`,
 * `accesskey` / `access key`, `clientsecret` / `client secret`, `account key` (Azure
 * `AccountKey=`), `client key` (kubeconfig `client-key-data`), `signing key`, and
 * `PGPASSWORD` (libpq's environment variable).
 * `max_context_tokens`, `tokenizer`, `password_hint` and the like do not count: the word
 * must be exactly one of these, and the key must not end in a word that names something
 * other than the secret itself ({@link NOT_A_SECRET_SUFFIX}).
 */
const SECRET_WORDS = new Set([
  'secret', 'token', 'password', 'passwd', 'pwd', 'passphrase', 'auth', 'credential', 'credentials', 'apikey', 'privatekey', 'accesskey', 'clientsecret',
  'pgpassword', 'authtoken', 'apitoken', 'accesstoken', 'secretkey',
]);
const SECRET_PAIRS = new Set(['api key', 'private key', 'access key', 'client secret', 'account key', 'client key', 'signing key', 'encryption key', 'master key', 'shared key']);
/** Last words of a key that say it is about the secret, not the secret: `TOKEN_TYPE`, `PASSWORD_FILE`, `SECRET_NAME` … */
const NOT_A_SECRET_SUFFIX = new Set([
  'type', 'types', 'kind', 'name', 'names', 'id', 'ids', 'file', 'files', 'path', 'dir', 'url', 'uri', 'endpoint', 'header', 'field', 'env', 'var',
  'length', 'len', 'size', 'count', 'limit', 'min', 'max', 'ttl', 'expiry', 'expires', 'expiration', 'lifetime', 'timeout', 'prefix', 'suffix', 'format',
  'hint', 'policy', 'rules', 'regex', 'pattern', 'enabled', 'disabled', 'required', 'mode', 'source', 'provider', 'label', 'help', 'description', 'placeholder',
  'hash', 'algorithm', 'alg', 'version', 'location', 'store', 'manager', 'reset', 'changed', 'updated', 'created', 'at', 'arn', 'ref',
  'stdin', 'prompt', 'command', 'cmd', 'helper', 'method', 'methods', 'scheme', 'flow', 'strategy', 'service', 'server', 'host', 'domain', 'user', 'username',
  'email', 'mechanism', 'plugin', 'realm', 'audience', 'issuer', 'scope', 'scopes', 'status', 'state', 'error', 'errors',
  'seconds', 'secs', 'sec', 'ms', 'minutes', 'mins', 'hours', 'days', 'duration', 'interval', 'rotation', 'period', 'window', 'retries', 'attempts', 'threshold',
]);

/** Values that are placeholders, not secrets: `changeme`, `<token>`, `${TOKEN}`, `***`, `null` … */
const PLACEHOLDER_WORDS = new Set([
  'changeme', 'change_me', 'change-me', 'changeit', 'placeholder', 'example', 'dummy', 'sample', 'fake', 'test', 'todo', 'tbd', 'none', 'null', 'nil',
  'undefined', 'true', 'false', 'yes', 'no', 'secret', 'password', 'passwd', 'token', 'redacted', 'hidden', 'masked', 'empty', 'required', 'optional',
  'string', 'bearer', 'basic', 'xxx', 'your_token', 'your_secret', 'your_password', 'your_api_key', 'your-api-key', 'my_secret', 'mysecret', 'mypassword',
  'pass', 'pwd', 'x-oauth-basic', 'apikey', 'api_key', 'api-key', 'key', 'credentials', 'auth', 'value', 'str', 'int', 'bool', 'object', 'any', 'bytes',
]);

/**
 * Whether a value is a placeholder, not a secret: `changeme`, `<your-key>`, `${VAR}`, `$VAR`,
 * `%VAR%`, `{{ secret }}`, `***`, `xxxx`, `your_api_key_here`, an earlier
 * `[REDACTED:…]` marker, or one of AWS's documented example keys (they contain `EXAMPLE`:
 * `AKIAIOSFODNN7EXAMPLE`, `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`).
 */
export function isPlaceholder(value: string): boolean {
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

/**
 * A value that is code or a reference rather than a literal: `process.env.TOKEN`,
 * `getToken()`, `os.environ["X"]`, `req.body.password`, a regex literal `/^ghp_…$/`, a
 * file path (`/run/secrets/db`, `~/.tool/token`, `./token.txt`), a CSS colour `#0a84ff`.
 */
function isCodeLike(value: string): boolean {
  if (/^\/.*\/[dgimsuvy]*$/.test(value) && /[\^$\\[\]()|?*+{}]/.test(value)) return true;
  if (/^(?:~|\.{1,2})?\/[\w.@-]+(?:\/[\w.@-]+)+\/?$/.test(value) || /^\.{1,2}\/[\w.@-]+$/.test(value)) return true;
  if (/^#[0-9a-fA-F]{3,8}$/.test(value)) return true;
  if (/^(?:new|readonly|await|async|function|require|import|this|self|const|let|var|return|typeof|keyof|static|public|private|protected)$/.test(value)) return true;
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

/**
 * Whether a key names a secret (see {@link SECRET_WORDS}); a GCP service-account file's
 * `private_key_id` counts too (it names the key, Google's published key-file format).
 */
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
 * Secret assignments in any syntax, where the key names a secret ({@link isSecretKey}):
 * `.env` `KEY=value`, `export KEY=value`, YAML `key: value`, JSON `"key": "value"`, TOML
 * `key = "value"`, Go `key := "v"` and `var key string = "v"`, Makefile `KEY ?= v` /
 * `KEY += v`, BNF `KEY ::= v`, PHP `$key .= "v"` and `'key' => 'v'`, Kotlin/TypeScript
 * `key: String = "v"`, Python `os.environ["KEY"] = "v"` and `$config['key'] = 'v'`, call
 * arguments `setProperty("KEY", "v")` / `setenv("KEY", "v")`, `--api-key=value`, XML
 * attributes `password="v"`. Groups: 1 the key's opening quote, 2 the key (taken whole, as
 * an atomic group — a lookahead and a back-reference — so a long run of key characters is
 * never re-tried at every shorter length), 3 the operator with its spacing (and a type).
 * Only the key and operator are matched; the value after them is read by
 * {@link readValue}, so a value is scanned again for what it holds
 * (`CONNECTION_STRING="…;AccountKey=…"`). Quantifiers are bounded (keys 80 characters).
 */
export const SECRET_ASSIGNMENT_PATTERN =
  /(?<![A-Za-z0-9_.])(["']?)(?=([A-Za-z_][A-Za-z0-9_.-]{0,80}))\2(?:\\?["']\]?|\])?((?:[ \t]{0,4}:?[ \t]{0,4}(?:string|String|str|&str)(?![\w]))?[ \t]{0,4}(?:::=|:=|\?=|\.=|\+=|=>|:|=|,)[ \t]{0,4})/g;

/** Values (at most 4,096 characters): double-quoted, single-quoted, in escaped quotes (`\"…\"`: JSON inside a JSON string, a transcript). */
const DQ_VALUE = /"((?:[^"\\\r\n]|\\.){1,4096})"/y;
const SQ_VALUE = /'([^'\r\n]{1,4096})'/y;
const ESCAPED_DQ_VALUE = /\\"((?:[^"\\\r\n]|\\(?!")){1,4096})\\"/y;
/** An unquoted value: up to a space, quote, `,`, `;`, `<`, `>` or a `\n` escape (so `.env` lines quoted in a transcript stay apart). */
const UNQUOTED_VALUE = /(?:[^\s"'`,;<>\\]|\\(?![nrt"])){1,4096}/y;

/** The value at `pos`: its text, where it starts, and how it was quoted (0 none, 1 a quote, 2 an escaped quote). */
interface ValueAt {
  readonly value: string;
  readonly start: number;
  readonly quote: 0 | 1 | 2;
}

/**
 * Reads the value at `pos` (see {@link DQ_VALUE} …), or undefined. `run` remembers the
 * last unquoted value read: a key inside it (`TOKEN=a?key=b…`) is part of that value, which
 * was judged whole (a query key inside a URL is the URL rule's, `contextRules.ts`), so it is
 * not read again — the work stays linear however many keys one run holds.
 */
function readValue(text: string, pos: number, run: { start: number; end: number }): ValueAt | undefined {
  const c = text[pos];
  for (const [re, quote] of [[DQ_VALUE, 1], [SQ_VALUE, 1], [ESCAPED_DQ_VALUE, 2]] as const) {
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

/**
 * Key words that only suggest a secret (`key`, `sig`, `salt`, `seed`, `cookie`, `session`,
 * `dsn`, `hmac`, `pat`, `cred(s)`, `pin`), or a secret word inside a longer word
 * (`MYSECRETKEY`, `acmeApitoken`): such a key's value counts only when it looks random
 * ({@link isHighEntropy}) — how unknown providers' keys are still caught.
 */
const WEAK_SECRET_WORDS = new Set(['key', 'keys', 'sig', 'signature', 'salt', 'seed', 'cookie', 'session', 'sid', 'dsn', 'hmac', 'pat', 'cred', 'creds', 'pin', 'license', 'bearer', 'jwt']);
const SECRET_SUBSTRING = /secret|token|passw|apikey|auth(?!or)|credential|privkey/i;

/** Whether a key only suggests a secret (see {@link WEAK_SECRET_WORDS}): its value counts when it looks random ({@link isHighEntropy}). */
export function isWeakSecretKey(key: string): boolean {
  const words = keyWords(key);
  if (words.length === 0 || NOT_A_SECRET_SUFFIX.has(words[words.length - 1])) return false;
  return words.some((w) => WEAK_SECRET_WORDS.has(w)) || SECRET_SUBSTRING.test(key);
}

/** Every key {@link isSecretKey} or {@link isWeakSecretKey} accepts contains one of these (a superset, as a fast first test). */
const MAYBE_SECRET_KEY = /secret|token|pass|pwd|auth|cred|key|sig|salt|seed|cookie|session|sid|dsn|hmac|pat|pin|licen|bearer|jwt/i;

/** Shannon entropy of `s` in bits per character (over its UTF-16 code units). */
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

/** Least length of a value the entropy rule considers: 16 characters. */
export const HIGH_ENTROPY_MIN_LENGTH = 16;

/**
 * Whether a value looks random: at least {@link HIGH_ENTROPY_MIN_LENGTH} characters, letters
 * and digits, Shannon entropy at least `min(4.0, log2(length) − 0.7)` bits per character
 * (random base62 of 16 characters scores ~3.8, English words ~3), and not a hash (hex of
 * 32, 40, 64 or 128 digits), a UUID or an integrity string (`sha512-…`).
 */
export function isHighEntropy(value: string): boolean {
  const v = value.trim();
  if (v.length < HIGH_ENTROPY_MIN_LENGTH || !/[A-Za-z]/.test(v) || !/[0-9]/.test(v)) return false;
  if (/^(?:[a-f0-9]{32}|[a-f0-9]{40}|[a-f0-9]{64}|[a-f0-9]{128}|[A-F0-9]{32}|[A-F0-9]{40}|[A-F0-9]{64})$/.test(v)) return false;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v) || /^sha(?:1|256|384|512)-/.test(v)) return false;
  return shannonEntropy(v) >= Math.min(4.0, Math.log2(v.length) - 0.7);
}

/**
 * Finds secret assignments (see {@link SECRET_ASSIGNMENT_PATTERN}); the range is the value
 * only, so the key stays readable (`API_KEY=[REDACTED:secret-assignment]`). Quoted values
 * count with any operator (a comma only between a quoted key and a quoted value: call
 * arguments); unquoted ones only when they cannot be code: `KEY=value` with no space
 * before `=`, or an all-capitals key (`PASSWORD: hunter2`), or a value with a digit or
 * symbol (`password: hunter2!`) — and never `process.env.X`, `getToken()`, `$VAR` or a
 * placeholder ({@link isPlaceholder}). A key that only suggests a secret
 * ({@link isWeakSecretKey}) counts when its value looks random ({@link isHighEntropy}),
 * as kind `high-entropy-secret`.
 */
export function findSecretAssignments(text: string): Finding[] {
  const out: Finding[] = [];
  const run = { start: 0, end: 0 };
  for (const m of text.matchAll(SECRET_ASSIGNMENT_PATTERN)) {
    const key = m[2];
    // Most keys in code are not secret: one cheap test before splitting the key into words.
    if (!MAYBE_SECRET_KEY.test(key)) continue;
    const named = isSecretKey(key);
    if (!named && !isWeakSecretKey(key)) continue;
    const sep = m[3];
    const at = readValue(text, (m.index ?? 0) + m[0].length, run);
    if (!at) continue;
    const quoted = at.quote > 0 ? at.value : undefined;
    let value = at.value;
    const before = text.slice(Math.max(0, (m.index ?? 0) - 3), m.index ?? 0);
    // A URL's `user:password@` is the URL rule's (`contextRules.ts`); a query value ends at `&` or `#`.
    // `arn:aws:secretsmanager:…:secret:prod/db` is a name made of colon-joined parts.
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
