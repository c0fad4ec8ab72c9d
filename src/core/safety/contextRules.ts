/**
 * Our context rules (docs/DESIGN.md §7 "Nothing leaked"): secrets known by where they
 * stand rather than by their shape — an `Authorization` header, a credential on a command
 * line, the password of a URL in any scheme, a secret query parameter, an XML element or a
 * `key`/`value` attribute pair, a SQL `PASSWORD '…'`, a `.netrc` / `.pgpass` line, a key
 * named in a sentence ("my API key is …"). None of secretlint preset-recommend 13's rules covers these
 * forms (its basic-auth rule takes only `http(s)`/`ftp` URLs). Every rule is a regular
 * expression with bounded quantifiers and no nested repetition, so matching is linear; the
 * value alone is redacted (the flag, header or host stays readable). Pure: no I/O.
 */
import { isHighEntropy, isPlaceholder, isSecretKey, isWeakSecretKey } from './ownSecretRules';
import type { Finding } from './secretKinds';

/** A value on a command line or in a header: up to the next space or quote (4,096 characters at most: a whole 1Password or kubeconfig key). */
const VALUE = `(?:"((?:[^"\\\\\\r\\n]|\\\\.){1,4096})"|'([^'\\r\\n]{1,4096})'|([^\\s"'\`;|&<>]{1,4096}))`;

/** The value of a match whose groups `i`, `i+1`, `i+2` are {@link VALUE}'s: its text and range. */
function valueOf(m: RegExpMatchArray, i: number): { value: string; start: number; end: number } | undefined {
  const value = m[i] ?? m[i + 1] ?? m[i + 2];
  if (value === undefined) return undefined;
  const whole = m.index ?? 0;
  const quoted = m[i] !== undefined || m[i + 1] !== undefined;
  const end = whole + m[0].length - (quoted ? 1 : 0);
  return { value, start: end - value.length, end };
}

/** Whether a value on a command line is not a secret: a placeholder, a variable, a command substitution, the next flag. */
function notASecret(value: string): boolean {
  return isPlaceholder(value) || /^(?:\$|%[A-Za-z_]|<|\{\{|-)/.test(value) || value.length < 3;
}

/**
 * `Authorization:` header values (RFC 9110 §11.6.2) with any scheme — `Bearer`, `Basic`,
 * `Token`, `Bot`, `Digest` … — in a `curl -H` argument, an HTTP dump, JSON or YAML; and a
 * `Bearer <token>` anywhere (RFC 6750). The credential after the scheme is redacted.
 */
const AUTHORIZATION =
  /\b(?:Proxy-)?Authorization["']?[ \t]{0,4}[:=,][ \t]{0,4}["']?(?:(?:Bearer|Basic|Token|Bot|Digest|Negotiate|ApiKey|Api-Key|SSWS|Splunk|GenieKey)[ \t]{1,4})?([^\s"'<>]{8,4096})|\bBearer[ \t]{1,4}([A-Za-z0-9._~+/-]{16,4000}={0,2})/gi;

/**
 * Command-line credentials: `curl -u user:pass` / `--user user:pass` (the password),
 * `docker|podman|helm|nerdctl|buildah|skopeo|oras|crane [registry] login … -p X`, `az login … -p X`,
 * `sshpass -p X`, `mysql … -pX` (attached, as mysql wants it), `--token X`,
 * `--password X`, `--client-secret X` … (any long flag whose name says secret, space or `=`),
 * `aws configure set aws_secret_access_key X` and `npm|yarn|pnpm config set //host/:_authToken X`.
 */
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

/** Finds credentials on command lines (see {@link CLI_FORMS}) as kind `cli-credential`. */
export function findCliCredentials(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(CLI_FORMS)) {
    const whole = m.index ?? 0;
    let hit: { value: string; start: number; end: number } | undefined;
    if (m[1] !== undefined) {
      // -u user:pass — the password is the end of the match.
      const end = whole + m[0].length;
      hit = { value: m[1], start: end - m[1].length, end };
    } else if (m[2] !== undefined || m[3] !== undefined || m[4] !== undefined) {
      hit = valueOf(m, 2);
    } else if (m[5] !== undefined) {
      const end = whole + m[0].length;
      hit = { value: m[5], start: end - m[5].length, end };
    } else if (m[6] !== undefined) {
      // `--flag value`: only the flag is consumed (the value is a lookahead), so in
      // `--prod --token X` the scan goes on from `--token`.
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

/** Finds `Authorization` header credentials and `Bearer` tokens (see {@link AUTHORIZATION}) as kind `authorization-header`. */
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

/**
 * The password of a URL in any scheme (RFC 3986 userinfo `user:password@`): `https://u:p@`,
 * `redis://:p@`, `amqp://`, `postgres://`, `mongodb+srv://`, `jdbc:mysql://`, a git remote
 * with a deploy token (`https://gitlab-ci-token:…@`). The password is redacted, the user
 * and host stay; placeholders (`user:password@`, `:${PASS}@`) are kept.
 */
const URL_PASSWORD = /\b[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s:@/?#"'<>]{0,200}:([^\s@/?#"'<>]{1,1000})@(?=[A-Za-z0-9[_-])/g;

/**
 * Secret query parameters (`?key=`, `&token=`, `access_token=`, `api_key=`, Azure SAS
 * `sig=`, `signature=`, `client_secret=`, `password=`): the value up to the next `&`, `#`
 * or space, when it has at least 8 characters.
 */
const QUERY_SECRET = /[?&;]([A-Za-z_][A-Za-z0-9_.-]{0,40})=([^&#\s"'<>]{8,2000})/g;
const QUERY_KEYS = new Set(['key', 'sig', 'signature', 'code_verifier', 'x-amz-signature', 'x-goog-signature', 'x-amz-security-token']);

/** Finds URL passwords (kind `url-credential`) and secret query values (kind `url-query-secret`). */
export function findUrlSecrets(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(URL_PASSWORD)) {
    const pass = m[1];
    // Text an earlier pass redacted (`https://[REDACTED:basic-auth]@host`) is not found again.
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

/**
 * XML: an element whose name says secret with a text value (`<password>…</password>`,
 * `<apiKey>…</apiKey>`), and a `key`/`name` attribute naming a secret followed by its
 * `value` attribute (`<add key="ClientSecret" value="…"/>`, .NET app settings, Maven
 * `<server>` passwords). Attributes that themselves name a secret (`password="…"`) are
 * the assignment rule's.
 */
const XML_SECRET = /<([A-Za-z_][A-Za-z0-9_.:-]{0,80})>([^<>\r\n]{1,4096})<\/\1>|\b(?:key|name)="([^"<>]{1,80})"[ \t]{1,8}value="([^"<>]{1,4096})"/g;

/** Finds XML secrets (see {@link XML_SECRET}) as kind `secret-assignment`. */
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

/**
 * SQL passwords: PostgreSQL `CREATE|ALTER ROLE|USER … [ENCRYPTED] PASSWORD '…'`, MySQL and
 * Oracle `IDENTIFIED BY '…'` / `IDENTIFIED BY "…"` (case-insensitive; the string literal is
 * redacted). An `md5…` / `SCRAM-SHA-256$…` hash written as the password stays a secret too.
 */
const SQL_PASSWORD = /\b(?:PASSWORD|IDENTIFIED[ \t]{1,4}(?:WITH[ \t]{1,4}[A-Za-z_]{1,40}[ \t]{1,4})?BY)[ \t]{1,4}(?:'([^'\r\n]{1,4096})'|"([^"\r\n]{1,4096})")/gi;

/** Finds SQL passwords (see {@link SQL_PASSWORD}) as kind `secret-assignment`. */
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

/** Separators between `.netrc` tokens: spaces, tabs, line breaks, or a `\n` escape (a `.netrc` quoted in a JSON string). */
const NETRC_SEP = `(?:[ \\t\\r\\n]|\\\\[nrt]){1,40}`;
/** A `.netrc` token that is not the password: a host name, a login. */
const NETRC_NAME = `[^\\s\\\\"']{1,256}`;

/**
 * `.netrc` passwords, in the file format of GNU inetutils' ftp (`netrc(5)`) that curl's docs
 * ("`.netrc`") follow: whitespace-separated tokens `machine <host>` (or `default`), then
 * `login <name>`, `account <string>`, `port <n>` in any order and any number of them (up to
 * 3 here), then `password <string>` — on one line or over several; curl also reads a
 * double-quoted password. `machine h password X` with no `login` counts too. The password
 * token alone is redacted.
 */
const NETRC = new RegExp(
  `(?:\\bmachine${NETRC_SEP}${NETRC_NAME}|^[ \\t]{0,40}default)(?:${NETRC_SEP}(?:login|account|port|user)${NETRC_SEP}${NETRC_NAME}){0,3}${NETRC_SEP}(?:password|passwd)${NETRC_SEP}${VALUE.replace(/4096/g, '8192')}`,
  'gm',
);
/** Words that follow `password` in prose, not in a `.netrc` ("the machine password is …"). */
const NETRC_NOT_A_VALUE = /^(?:is|was|are|for|the|and|or|to|of|in|on|with|from|file|token|login|machine|account|macdef|default|required|missing)$/i;

/** Finds `.netrc` passwords (see {@link NETRC}) as kind `secret-assignment`. */
export function findNetrcPasswords(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(NETRC)) {
    const hit = valueOf(m, 1);
    if (!hit || notASecret(hit.value) || NETRC_NOT_A_VALUE.test(hit.value) || m[0].includes('[REDACTED')) continue;
    // With no `login` token, a lower-case word is prose ("the machine learning password reset").
    if (!/\blogin\b/.test(m[0]) && /^[a-z]{1,16}$/.test(hit.value)) continue;
    out.push({ start: hit.start, end: hit.end, kind: 'secret-assignment', priority: 2 });
  }
  return out;
}

/** A `.pgpass` field: any character but `:` and spaces, or the escapes `\:` and `\\`. */
const PG_FIELD = `(?:[^:\\\\\\s"'\`]|\\\\[:\\\\]){1,255}`;

/**
 * PostgreSQL's password file (the libpq docs, "The Password File", `~/.pgpass`):
 * `hostname:port:database:username:password`, one entry a line; each of the first four
 * fields may be `*`, and `\:` / `\\` escape a colon or a backslash. The password runs to the
 * end of the line (a password with an unescaped colon, as people write it, stays whole). The
 * port must be digits or `*`, and the host, database and user names must not be bare numbers, so
 * `file.ts:12:5:error:X` compiler output and MAC addresses are not taken for entries.
 */
const PGPASS = new RegExp(
  `(?<=^|[\\s"'\`=(\\[,;>]|\\\\n)(\\*|(?:[A-Za-z0-9._%\\[\\]-]|\\\\:){1,255}):(\\*|[0-9]{1,5}):(${PG_FIELD}):(${PG_FIELD}):((?:[^\\s\\\\"'\`]|\\\\(?![nrt])){1,8192})(?=$|[\\s"'\`]|\\\\[nrt])`,
  'gm',
);

/** Finds `.pgpass` passwords (see {@link PGPASS}) as kind `secret-assignment`. */
export function findPgpassPasswords(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(PGPASS)) {
    const [, host, , db, user, value] = m;
    if (/^[0-9]+$/.test(host) || /^[0-9]+$/.test(db) || /^[0-9]+$/.test(user) || m[0].includes('[REDACTED')) continue;
    // Pieces of a MAC or IPv6 address (`aa:11:22:33:44:55`), wildcards (`*:*:*`), short numbers and placeholders are not passwords.
    if (notASecret(value) || !/[A-Za-z0-9]/.test(value) || (/^[0-9a-f:]{1,64}$/i.test(value) && value.split(':').every((piece) => piece.length <= 4)) || /^[0-9]{1,6}$/.test(value)) continue;
    const end = (m.index ?? 0) + m[0].length;
    out.push({ start: end - value.length, end, kind: 'secret-assignment', priority: 2 });
  }
  return out;
}

/**
 * A secret named in a sentence: a key — an environment variable's name (`MISTRAL_API_KEY`)
 * or one or two words (`api key`, `token`, `password`, `client secret`) — then `is`, `was` or
 * ` = ` (optionally `now` / `set to`), then the value, as people paste keys in chat turns
 * ("my MISTRAL_API_KEY is …", "the api key is …"). The value is judged by
 * {@link looksLikeProseSecret}: "the token is valid", "password is required" and "my key is
 * in the vault" stay. A `:` is not taken (`key: 'handoff:2026-…'` in code and YAML is the
 * assignment rule's, which judges it with the key's syntax).
 */
const PROSE_SECRET =
  /(?<![\w-])([A-Za-z][\w-]{0,80}(?:[ \t][A-Za-z][\w-]{0,40})?)[ \t]{1,4}(?:is|was|=)[ \t]{1,4}(?:now[ \t]{1,4}|set[ \t]{1,4}to[ \t]{1,4})?[`"']?([^\s"'`<>()[\]{}]{16,8192})/g;

/**
 * Whether a value named in prose is a credential: at least 16 characters with letters and
 * digits, not a placeholder, URL, path, an identifier of words (dotted, snake_case, CamelCase, an environment
 * variable's name), and random-looking
 * ({@link isHighEntropy}); after a key that names a secret ({@link isSecretKey}) a hex
 * string or UUID (24+ hex digits, after an optional short `prefix_` / `prefix-`) counts too.
 */
function looksLikeProseSecret(value: string, named: boolean): boolean {
  if (value.length < 16 || !/[A-Za-z]/.test(value) || !/[0-9]/.test(value) || isPlaceholder(value)) return false;
  // A URL, an environment variable's name (`OPENAI_API_KEY_2`), a path (`/run/secrets/db2`).
  if (/:\/\//.test(value) || (/^[A-Z][A-Z0-9_]{0,8000}$/.test(value) && value.includes('_')) || /^(?:~|\.{1,2})?\/[\w.@-]{1,200}\/[\w.@/-]{0,8000}$/.test(value)) return false;
  // Short lower-case words joined by `_` (`v2_production_default`, not `sbp_<40 hex>`) are a name;
  // a dotted name (`config.tokens.v2_default`) is code, unless one of its parts is random (`SG.<id>.<secret>`).
  const words = (part: string) => /^[a-z0-9_]{0,8192}$/.test(part) && part.includes('_') && part.split('_').every((w) => w.length <= 15);
  if (words(value)) return false;
  if (/^[A-Za-z_$][\w$]{0,200}\.[A-Za-z_$][\w$.]{0,8000}$/.test(value) && !value.split('.').some((part) => !words(part) && isHighEntropy(part))) return false;
  // An identifier made of words (`FlowSignInRequiredResultV2`, `SemicolonToken$1`): most of it is `Word` / `word` runs.
  if (/^[\w$]{1,8192}$/.test(value) && (value.match(/[A-Z]?[a-z]{3,}|[A-Z][a-z]{2}/g) ?? []).join('').length >= 0.6 * value.length) return false;
  if (isHighEntropy(value)) return true;
  if (!named) return false;
  // Hex keys (Azure OpenAI's 32 hex, a UUID, `key-<32 hex>`, `sbp_<40 hex>`) score below the entropy bar.
  return /^(?:[A-Za-z]{1,10}[_-])?(?:[0-9a-f-]{24,8192}|[0-9A-F-]{24,8192})$/.test(value) && (value.match(/[0-9a-fA-F]/g) ?? []).length >= 24;
}

/** Finds secrets named in sentences (see {@link PROSE_SECRET}) as kind `secret-assignment`, or `high-entropy-secret` after a key that only suggests one. */
export function findProseSecrets(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(PROSE_SECRET)) {
    const key = m[1];
    const named = isSecretKey(key);
    if (!named && !isWeakSecretKey(key)) continue;
    // The sentence's punctuation after the value is not part of it (trimmed in a loop: a regex `[.,]+$` is quadratic on a run of dots).
    let value = m[2];
    while (value.length > 0 && '.,;:!?'.includes(value[value.length - 1])) value = value.slice(0, -1);
    // A value right before `(` is a call in code (`token = makeToken2024(x)`), not a pasted key.
    if (text[(m.index ?? 0) + m[0].length] === '(' || !looksLikeProseSecret(value, named) || value.includes('[REDACTED')) continue;
    const start = (m.index ?? 0) + m[0].length - m[2].length;
    out.push({ start, end: start + value.length, kind: named ? 'secret-assignment' : 'high-entropy-secret', priority: 2 });
  }
  return out;
}
