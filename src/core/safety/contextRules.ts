/** Secrets known by where they stand rather than their shape, which secretlint's preset misses. Only the value is redacted. */
import { isHighEntropy, isPlaceholder, isSecretKey, isWeakSecretKey } from './secretKeys';
import type { Finding } from './secretKinds';

/** Up to the next space or quote; 4,096 characters hold a whole kubeconfig key. */
const VALUE = `(?:"((?:[^"\\\\\\r\\n]|\\\\.){1,4096})"|'([^'\\r\\n]{1,4096})'|([^\\s"'\`;|&<>]{1,4096}))`;

/** Groups `i`, `i+1`, `i+2` are {@link VALUE}'s. */
function valueOf(m: RegExpMatchArray, i: number): { value: string; start: number; end: number } | undefined {
  const value = m[i] ?? m[i + 1] ?? m[i + 2];
  if (value === undefined) return undefined;
  const whole = m.index ?? 0;
  const quoted = m[i] !== undefined || m[i + 1] !== undefined;
  const end = whole + m[0].length - (quoted ? 1 : 0);
  return { value, start: end - value.length, end };
}

function notASecret(value: string): boolean {
  return isPlaceholder(value) || /^(?:\$|%[A-Za-z_]|<|\{\{|-)/.test(value) || value.length < 3;
}

/** Any scheme, in a `curl -H` argument, an HTTP dump, JSON or YAML; and a bare `Bearer <token>` anywhere. */
const AUTHORIZATION =
  /\b(?:Proxy-)?Authorization["']?[ \t]{0,4}[:=,][ \t]{0,4}["']?(?:(?:Bearer|Basic|Token|Bot|Digest|Negotiate|ApiKey|Api-Key|SSWS|Splunk|GenieKey)[ \t]{1,4})?([^\s"'<>]{8,4096})|\bBearer[ \t]{1,4}([A-Za-z0-9._~+/-]{16,4000}={0,2})/gi;

/** `curl -u user:pass`, `docker … login -p X`, `mysql -pX`, a long flag naming a secret (`--token X`), `npm config set //host/:_authToken X` … */
const CLI_FORMS = new RegExp(
  [
    `(?<![^\\s"'])(?:-u|--user)(?:[ \\t]{1,4}|=)["']?[^\\s:"'@/]{1,200}:([^\\s"'@]{1,1000})`,
    `\\b(?:(?:docker|podman|helm|nerdctl|buildah|skopeo|oras|crane)[ \\t]{1,4}(?:registry[ \\t]{1,4})?login|az[ \\t]{1,4}login|sshpass)\\b[^\\n|;&]{0,200}?[ \\t]-p(?:[ \\t]{1,4}|=)?${VALUE}`,
    `\\bmysql(?:dump|admin|sh)?\\b[^\\n|;&]{0,200}?[ \\t]-p([^\\s"'\`;|&]{1,4096})`,
    `(?<![^\\s"'])--([A-Za-z][A-Za-z0-9-]{1,40})(?=([ \\t]{1,4}|=)${VALUE})`,
    `\\bconfig(?:ure)?[ \\t]{1,4}set[ \\t]{1,4}([^\\s=,'"()]{1,200})(?:[ \\t]{1,4}|=)${VALUE}`,
  ]
    .map((p) => `(?:${p})`)
    .join('|'),
  'g',
);

export function findCliCredentials(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(CLI_FORMS)) {
    const whole = m.index ?? 0;
    let hit: { value: string; start: number; end: number } | undefined;
    if (m[1] !== undefined) {
      const end = whole + m[0].length;
      hit = { value: m[1], start: end - m[1].length, end };
    } else if (m[2] !== undefined || m[3] !== undefined || m[4] !== undefined) {
      hit = valueOf(m, 2);
    } else if (m[5] !== undefined) {
      const end = whole + m[0].length;
      hit = { value: m[5], start: end - m[5].length, end };
    } else if (m[6] !== undefined) {
      // Only the flag is consumed (the value is a lookahead), so in `--prod --token X` the scan goes on from `--token`.
      if (!isSecretKey(m[6]) || /^password-stdin$/i.test(m[6])) continue;
      const value = m[8] ?? m[9] ?? m[10];
      if (value === undefined) continue;
      const start = whole + m[0].length + m[7].length + (m[10] === undefined ? 1 : 0);
      hit = { value, start, end: start + value.length };
    } else if (m[11] !== undefined) {
      const key = m[11].split(/[:/]/).pop() ?? '';
      if (!isSecretKey(key)) continue;
      hit = valueOf(m, 12);
    }
    if (!hit || notASecret(hit.value) || m[0].includes('[REDACTED')) continue;
    out.push({ start: hit.start, end: hit.end, kind: 'cli-credential', priority: 2 });
  }
  return out;
}

export function findAuthorizationHeaders(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(AUTHORIZATION)) {
    const value = (m[1] ?? m[2] ?? '').replace(/["']+$/, '');
    if (!value || notASecret(value) || /^(?:Bearer|Basic|Token|header)$/i.test(value)) continue;
    // A bare `Bearer word` in prose is not a token: it must have a digit or a symbol.
    if (m[2] !== undefined && !/[0-9+/=._~-]/.test(value)) continue;
    const end = (m.index ?? 0) + m[0].length - ((m[1] ?? m[2] ?? '').length - value.length);
    out.push({ start: end - value.length, end, kind: 'authorization-header', priority: 2 });
  }
  return out;
}

/** Any scheme (`redis://:p@`, `jdbc:mysql://`…); placeholders (`user:password@`, `:${PASS}@`) are kept. */
const URL_PASSWORD = /\b[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s:@/?#"'<>]{0,200}:([^\s@/?#"'<>]{1,1000})@(?=[A-Za-z0-9[_-])/g;

const QUERY_SECRET = /[?&;]([A-Za-z_][A-Za-z0-9_.-]{0,40})=([^&#\s"'<>]{8,2000})/g;
const QUERY_KEYS = new Set(['key', 'sig', 'signature', 'code_verifier', 'x-amz-signature', 'x-goog-signature', 'x-amz-security-token']);

export function findUrlSecrets(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(URL_PASSWORD)) {
    const pass = m[1];
    if (m[0].includes('[REDACTED')) continue;
    if (isPlaceholder(pass) || /^(?:\$|%[A-Za-z_]|\{\{|<)/.test(pass) || /^x-oauth-basic$/i.test(pass)) continue;
    const end = (m.index ?? 0) + m[0].length - 1;
    out.push({ start: end - pass.length, end, kind: 'url-credential', priority: 2 });
  }
  for (const m of text.matchAll(QUERY_SECRET)) {
    const key = m[1];
    if (!QUERY_KEYS.has(key.toLowerCase()) && !isSecretKey(key)) continue;
    const value = m[2];
    if (isPlaceholder(value) || /^(?:\$|%[A-Za-z_]|\{\{|<)/.test(value)) continue;
    const end = (m.index ?? 0) + m[0].length;
    out.push({ start: end - value.length, end, kind: 'url-query-secret', priority: 2 });
  }
  return out;
}

/** `<password>…</password>`, and `<add key="ClientSecret" value="…"/>`; `password="…"` is the assignment rule's. */
const XML_SECRET = /<([A-Za-z_][A-Za-z0-9_.:-]{0,80})>([^<>\r\n]{1,4096})<\/\1>|\b(?:key|name)="([^"<>]{1,80})"[ \t]{1,8}value="([^"<>]{1,4096})"/g;

export function findXmlSecrets(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(XML_SECRET)) {
    const key = m[1] ?? m[3];
    const value = m[2] ?? m[4];
    if (!isSecretKey(key.split(':').pop() ?? key) || isPlaceholder(value) || /^(?:\$|%[A-Za-z_]|\{\{|<)/.test(value.trim())) continue;
    const whole = m.index ?? 0;
    const start = m[2] !== undefined ? whole + m[1].length + 2 : whole + m[0].length - 1 - value.length;
    out.push({ start, end: start + value.length, kind: 'secret-assignment', priority: 2 });
  }
  return out;
}

/** PostgreSQL `PASSWORD '…'`, MySQL and Oracle `IDENTIFIED BY '…'`. */
const SQL_PASSWORD =
  /\b(?:PASSWORD|IDENTIFIED[ \t]{1,4}(?:WITH[ \t]{1,4}[A-Za-z_]{1,40}[ \t]{1,4})?BY)[ \t]{1,4}(?:'([^'\r\n]{1,4096})'|"([^"\r\n]{1,4096})")/gi;

export function findSqlPasswords(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(SQL_PASSWORD)) {
    const value = m[1] ?? m[2];
    if (isPlaceholder(value) || /^(?:\$|%[A-Za-z_]|\{\{|<|:)/.test(value)) continue;
    const end = (m.index ?? 0) + m[0].length - 1;
    out.push({ start: end - value.length, end, kind: 'secret-assignment', priority: 2 });
  }
  return out;
}

/** A `\n` escape separates too: a `.netrc` quoted in a JSON string. */
const NETRC_SEP = `(?:[ \\t\\r\\n]|\\\\[nrt]){1,40}`;
const NETRC_NAME = `[^\\s\\\\"']{1,256}`;

/** `netrc(5)`: `machine <host>` (or `default`), up to 3 `login`/`account`/`port` pairs, then `password <string>`, over one line or several. */
const NETRC = new RegExp(
  `(?:\\bmachine${NETRC_SEP}${NETRC_NAME}|^[ \\t]{0,40}default)(?:${NETRC_SEP}(?:login|account|port|user)${NETRC_SEP}${NETRC_NAME}){0,3}${NETRC_SEP}(?:password|passwd)${NETRC_SEP}${VALUE.replace(/4096/g, '8192')}`,
  'gm',
);
/** Words after `password` in prose ("the machine password is …"). */
const NETRC_NOT_A_VALUE = /^(?:is|was|are|for|the|and|or|to|of|in|on|with|from|file|token|login|machine|account|macdef|default|required|missing)$/i;

export function findNetrcPasswords(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(NETRC)) {
    const hit = valueOf(m, 1);
    if (!hit || notASecret(hit.value) || NETRC_NOT_A_VALUE.test(hit.value) || m[0].includes('[REDACTED')) continue;
    // Without `login`, a lower-case word is prose ("the machine learning password reset").
    if (!/\blogin\b/.test(m[0]) && /^[a-z]{1,16}$/.test(hit.value)) continue;
    out.push({ start: hit.start, end: hit.end, kind: 'secret-assignment', priority: 2 });
  }
  return out;
}

const PG_FIELD = `(?:[^:\\\\\\s"'\`]|\\\\[:\\\\]){1,255}`;

/**
 * libpq's `~/.pgpass` line, `host:port:db:user:password`; the password runs to the end of the line. The port must be
 * digits or `*` and the names not bare numbers, so compiler output (`file.ts:12:5:error:X`) is no entry.
 */
const PGPASS = new RegExp(
  `(?<=^|[\\s"'\`=(\\[,;>]|\\\\n)(\\*|(?:[A-Za-z0-9._%\\[\\]-]|\\\\:){1,255}):(\\*|[0-9]{1,5}):(${PG_FIELD}):(${PG_FIELD}):((?:[^\\s\\\\"'\`]|\\\\(?![nrt])){1,8192})(?=$|[\\s"'\`]|\\\\[nrt])`,
  'gm',
);

export function findPgpassPasswords(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(PGPASS)) {
    const [, host, , db, user, value] = m;
    if (/^[0-9]+$/.test(host) || /^[0-9]+$/.test(db) || /^[0-9]+$/.test(user) || m[0].includes('[REDACTED')) continue;
    // Pieces of a MAC or IPv6 address, wildcards, short numbers and placeholders are not passwords.
    if (
      notASecret(value) ||
      !/[A-Za-z0-9]/.test(value) ||
      (/^[0-9a-f:]{1,64}$/i.test(value) && value.split(':').every((piece) => piece.length <= 4)) ||
      /^[0-9]{1,6}$/.test(value)
    )
      continue;
    const end = (m.index ?? 0) + m[0].length;
    out.push({ start: end - value.length, end, kind: 'secret-assignment', priority: 2 });
  }
  return out;
}

/** "my MISTRAL_API_KEY is …", as people paste keys in chat. Not `:`, which in code and YAML is the assignment rule's. */
const PROSE_SECRET =
  /(?<![\w-])([A-Za-z][\w-]{0,80}(?:[ \t][A-Za-z][\w-]{0,40})?)[ \t]{1,4}(?:is|was|=)[ \t]{1,4}(?:now[ \t]{1,4}|set[ \t]{1,4}to[ \t]{1,4})?[`"']?([^\s"'`<>()[\]{}]{16,8192})/g;

/** Random-looking, and no URL, path or identifier made of words; after a key naming a secret, a hex string or UUID counts too. */
function looksLikeProseSecret(value: string, named: boolean): boolean {
  if (value.length < 16 || !/[A-Za-z]/.test(value) || !/[0-9]/.test(value) || isPlaceholder(value)) return false;
  if (
    /:\/\//.test(value) ||
    (/^[A-Z][A-Z0-9_]{0,8000}$/.test(value) && value.includes('_')) ||
    /^(?:~|\.{1,2})?\/[\w.@-]{1,200}\/[\w.@/-]{0,8000}$/.test(value)
  )
    return false;
  // Short lower-case words joined by `_` are a name; a dotted name is code unless a part is random (`SG.<id>.<secret>`).
  const words = (part: string) => /^[a-z0-9_]{0,8192}$/.test(part) && part.includes('_') && part.split('_').every((w) => w.length <= 15);
  if (words(value)) return false;
  if (/^[A-Za-z_$][\w$]{0,200}\.[A-Za-z_$][\w$.]{0,8000}$/.test(value) && !value.split('.').some((part) => !words(part) && isHighEntropy(part))) return false;
  if (/^[\w$]{1,8192}$/.test(value) && (value.match(/[A-Z]?[a-z]{3,}|[A-Z][a-z]{2}/g) ?? []).join('').length >= 0.6 * value.length) return false;
  if (isHighEntropy(value)) return true;
  if (!named) return false;
  // Hex keys (Azure OpenAI's 32 hex, a UUID) score below the entropy bar.
  return /^(?:[A-Za-z]{1,10}[_-])?(?:[0-9a-f-]{24,8192}|[0-9A-F-]{24,8192})$/.test(value) && (value.match(/[0-9a-fA-F]/g) ?? []).length >= 24;
}

export function findProseSecrets(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(PROSE_SECRET)) {
    const key = m[1];
    const named = isSecretKey(key);
    if (!named && !isWeakSecretKey(key)) continue;
    // Trailing punctuation trimmed in a loop: a regex `[.,]+$` is quadratic on a run of dots.
    let value = m[2];
    while (value.length > 0 && '.,;:!?'.includes(value[value.length - 1])) value = value.slice(0, -1);
    // A value right before `(` is a call in code (`token = makeToken2024(x)`), not a pasted key.
    if (text[(m.index ?? 0) + m[0].length] === '(' || !looksLikeProseSecret(value, named) || value.includes('[REDACTED')) continue;
    const start = (m.index ?? 0) + m[0].length - m[2].length;
    out.push({ start, end: start + value.length, kind: named ? 'secret-assignment' : 'high-entropy-secret', priority: 2 });
  }
  return out;
}
