/**
 * Our own secret rules, only for what secretlint preset-recommend 13 has no rule for
 * (docs/DESIGN.md §7 "Nothing leaked"): JSON Web Tokens, PEM private-key blocks that
 * secretlint's privatekey rule lets through, and `.env`-style secret assignments. Each is
 * a linear-time regular expression with bounded quantifiers plus checks in code; each
 * returns {@link Finding}s of priority 2 (the most specific). Pure: no I/O.
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
export function findSecretAssignments(text: string): Finding[] {
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
