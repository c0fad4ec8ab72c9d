/** Our rules for what secretlint's preset misses: JWTs, PEM blocks, GCP key ids, secret assignments. */
import type { Finding } from './secretKinds';
import { isCodeLike, isHighEntropy, isPlaceholder, isSecretKey, isWeakSecretKey, MAYBE_SECRET_KEY } from './secretKeys';

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
