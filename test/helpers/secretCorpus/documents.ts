/**
 * Fake secrets that are documents or parts of documents rather than prefixed tokens: PEM
 * private keys (RFC 7468: PKCS#1 RSA, SEC 1 EC, PKCS#8, OpenSSH's `openssh-key-v1`), a GCP
 * service-account key file, a Docker `config.json` `auth`, a kubeconfig `client-key-data`,
 * a JSON Web Token (RFC 7519), passwords in URLs of several schemes (RFC 3986 userinfo) and
 * high-entropy values under secret-named keys. Bodies are seeded random bytes behind each
 * format's fixed header, so no real key is in here.
 */
import { ALNUM, BASE64URL, HEX, b64, b64url, draw, type Draw } from './alphabet';
import { token } from './aiProviders';
import type { CorpusKey, SecretPiece } from './types';

/** The base64 lines of `der` (64 characters a line, RFC 7468 §2), and how many leading characters encode the fixed `header` bytes. */
function pemBody(header: Buffer, body: Buffer, width = 64): { lines: string[]; fixed: number } {
  const text = Buffer.concat([header, body]).toString('base64');
  const lines = text.match(new RegExp(`.{1,${width}}`, 'g')) ?? [];
  return { lines, fixed: Math.floor(header.length / 3) * 4 };
}

/** A PEM block with `label`, its body lines as secret pieces (the first line's fixed DER header public). */
function pem(label: string, header: Buffer, body: Buffer, width = 64): { text: string; secrets: SecretPiece[] } {
  const { lines, fixed } = pemBody(header, body, width);
  const text = `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----`;
  return { text, secrets: lines.map((l, i) => ({ text: l, publicPrefix: i === 0 ? Math.min(fixed, l.length) : 0 })) };
}

const hexBytes = (h: string) => Buffer.from(h.replace(/\s/g, ''), 'hex');

/** An RSA-2048 PKCS#1 key's DER prefix: SEQUENCE, version 0, modulus INTEGER of 257 bytes. */
const RSA_HEADER = hexBytes('308204a4 020100 0282010100');
/** A P-256 SEC 1 key's DER prefix: SEQUENCE, version 1, OCTET STRING of 32 bytes. */
const EC_HEADER = hexBytes('3077 020101 0420');
/** A PKCS#8 RSA key's DER prefix: SEQUENCE, version 0, rsaEncryption, OCTET STRING. */
const PKCS8_HEADER = hexBytes('308204be 020100 300d06092a864886f70d0101010500 048204a8');
/** OpenSSH's private-key format: magic `openssh-key-v1\0`, cipher/kdf `none`, one key, an ed25519 public key. */
const OPENSSH_HEADER = Buffer.concat([Buffer.from('openssh-key-v1\0'), hexBytes('000000046e6f6e65 000000046e6f6e65 00000000 00000001 00000033 0000000b'), Buffer.from('ssh-ed25519'), hexBytes('00000020')]);

/** The PEM private keys: RSA (PKCS#1), EC (SEC 1), PKCS#8 and OpenSSH (70-character lines). */
function pemKeys(d: Draw): CorpusKey[] {
  const make = (variant: string, name: string, label: string, header: Buffer, n: number, width = 64): CorpusKey => {
    const p = pem(label, header, d.bytes(n), width);
    return { family: 'pem', variant, name, value: p.text, shape: 'doc', secrets: p.secrets, source: `RFC 7468 PEM: ${label}` };
  };
  return [
    make('rsa', 'PRIVATE_KEY', 'RSA PRIVATE KEY', RSA_HEADER, 1180),
    make('ec', 'EC_PRIVATE_KEY', 'EC PRIVATE KEY', EC_HEADER, 112),
    make('pkcs8', 'TLS_KEY', 'PRIVATE KEY', PKCS8_HEADER, 1190),
    make('openssh', 'SSH_PRIVATE_KEY', 'OPENSSH PRIVATE KEY', OPENSSH_HEADER, 340, 70),
  ];
}

/** A GCP service-account key file: `private_key_id` (40 hex) and a PKCS#8 `private_key` (Google Cloud "Create and delete service account keys"). */
function gcpKeyFile(d: Draw): CorpusKey {
  const p = pem('PRIVATE KEY', PKCS8_HEADER, d.bytes(1190));
  const id = d.pick(HEX, 40);
  const project = `acme-prod-${d.pick('0123456789', 6)}`;
  const file = {
    type: 'service_account',
    project_id: project,
    private_key_id: id,
    private_key: `${p.text}\n`,
    client_email: `deployer@${project}.iam.gserviceaccount.com`,
    client_id: d.pick('0123456789', 21),
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
  };
  return { family: 'gcp', variant: 'service-account-json', name: 'GOOGLE_APPLICATION_CREDENTIALS_JSON', value: JSON.stringify(file, null, 2), shape: 'doc', secrets: [{ text: id, publicPrefix: 0 }, ...p.secrets], source: 'GCP service-account key file: private_key_id (40 hex), private_key (PKCS#8 PEM)' };
}

/** A password as people make them: letters, digits and a few symbols that need no URL escaping. */
const password = (d: Draw, n = 18) => `${d.pick(ALNUM, 1)}${d.pick(`${ALNUM}-._~!*`, n - 2)}${d.pick(ALNUM, 1)}`;

/** A URL key: its value is the URL, its secret the password in it. */
function urlKey(variant: string, name: string, url: string, pw: string, source: string): CorpusKey {
  return { family: 'url-password', variant, name, value: url, shape: 'url', secrets: [{ text: pw, publicPrefix: 0 }], source };
}

/** Passwords in URLs: https, postgres, mysql, redis with an empty user, amqp, mongodb+srv, a git remote with a GitLab deploy token, a one-letter user. */
function urlKeys(d: Draw): CorpusKey[] {
  const src = 'RFC 3986 §3.2.1 userinfo (user:password@host)';
  const ps = Array.from({ length: 8 }, () => password(d));
  const deploy = `gldt-${d.pick(BASE64URL, 19)}${d.pick(ALNUM, 1)}`;
  return [
    urlKey('https', 'ARTIFACT_URL', `https://ci-bot:${ps[0]}@artifacts.example.com/repo/releases`, ps[0], src),
    urlKey('postgres', 'DATABASE_URL', `postgres://app_user:${ps[1]}@db.internal.example.com:5432/orders?sslmode=require`, ps[1], src),
    urlKey('mysql', 'MYSQL_URL', `mysql://root:${ps[2]}@10.0.3.7:3306/shop`, ps[2], src),
    urlKey('redis-empty-user', 'REDIS_URL', `redis://:${ps[3]}@cache.example.com:6379/0`, ps[3], `${src}; Redis AUTH with no user name`),
    urlKey('amqp', 'AMQP_URL', `amqps://worker:${ps[4]}@mq.example.com:5671/prod`, ps[4], src),
    urlKey('mongodb+srv', 'MONGODB_URI', `mongodb+srv://admin:${ps[5]}@cluster0.ab1cd.mongodb.net/app?retryWrites=true&w=majority`, ps[5], src),
    urlKey('git-deploy-token', 'GIT_REMOTE', `https://gitlab+deploy-token-4711:${deploy}@gitlab.example.com/acme/api.git`, deploy, `${src}; GitLab deploy tokens as git credentials`),
    urlKey('one-letter-user', 'MIRROR_URL', `https://u:${ps[6]}@mirror.example.org/pypi/simple`, ps[6], src),
  ];
}

/** A JSON Web Token (RFC 7519) signed with HS256: header (public, the same for every HS256 token), claims, 43-character signature. */
function jwt(d: Draw): CorpusKey {
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = b64url(JSON.stringify({ sub: `user_${d.pick(HEX, 12)}`, iat: 1_764_000_000 + d.int(1_000_000), scope: 'deploy', jti: d.pick(BASE64URL, 16) }));
  const value = `${header}.${claims}.${d.pick(ALNUM, 1)}${d.pick(BASE64URL, 41)}${d.pick(ALNUM, 1)}`;
  return { family: 'jwt', variant: 'hs256', name: 'SESSION_JWT', value, shape: 'line', secrets: [{ text: value, publicPrefix: header.length + 1 }], source: 'RFC 7519 JSON Web Token: base64url header.claims.signature' };
}

/**
 * The secrets that are documents or parts of them (see the file comment), from `seed`:
 * PEM keys, a GCP key file, Docker `auth` (base64 of `user:password`), kubeconfig
 * `client-key-data` (base64 of a PEM key), Azure storage `AccountKey` (88 base64 ending
 * `==`) and a SAS `sig=`, a JWT, URL passwords, and high-entropy values under
 * secret-named keys.
 */
export function documentKeys(seed: number): CorpusKey[] {
  const d = draw(seed);
  const dockerPw = password(d, 24);
  const auth = b64(`deploy-bot:${dockerPw}`);
  const dockerJsonAuth = b64(`ci:${password(d, 22)}`);
  const kubeKey = pem('EC PRIVATE KEY', EC_HEADER, d.bytes(112)).text;
  const kubeData = b64(`${kubeKey}\n`);
  const accountKey = `${b64(d.bytes(64))}`;
  const sig = encodeURIComponent(b64(d.bytes(32)));
  const generic = (variant: string, name: string, value: string) => token('generic', variant, name, '', value, 'a high-entropy value under a key whose name says secret');
  return [
    ...pemKeys(d),
    gcpKeyFile(d),
    { family: 'docker', variant: 'config-auth', name: 'auth', value: auth, shape: 'line', secrets: [{ text: auth, publicPrefix: 12 }], source: 'Docker config.json auths.<registry>.auth: base64 of user:password' },
    {
      family: 'docker',
      variant: 'config-json',
      name: 'DOCKER_AUTH_CONFIG',
      value: JSON.stringify({ auths: { 'registry.example.com': { auth: dockerJsonAuth } } }, null, 2),
      shape: 'doc',
      secrets: [{ text: dockerJsonAuth, publicPrefix: 4 }],
      source: 'Docker config.json (and GitLab CI DOCKER_AUTH_CONFIG): auths.<registry>.auth, base64 of user:password',
    },
    { family: 'kubeconfig', variant: 'client-key-data', name: 'client-key-data', value: kubeData, shape: 'line', secrets: [{ text: kubeData, publicPrefix: Math.floor('-----BEGIN EC PRIVATE KEY-----\n'.length / 3) * 4 }], source: 'kubeconfig users[].user.client-key-data: base64 of a PEM private key' },
    {
      family: 'azure',
      variant: 'storage-account-key',
      name: 'AZURE_STORAGE_CONNECTION_STRING',
      value: `DefaultEndpointsProtocol=https;AccountName=acmestore${d.pick('0123456789', 3)};AccountKey=${accountKey};EndpointSuffix=core.windows.net`,
      shape: 'line',
      secrets: [{ text: accountKey, publicPrefix: 0 }],
      source: 'Azure Storage connection strings: AccountKey= 88 base64 ending ==',
    },
    {
      family: 'azure',
      variant: 'sas-sig',
      name: 'AZURE_BLOB_SAS_URL',
      value: `https://acmestore.blob.core.windows.net/backups/db.tar.gz?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-31T23:59:59Z&spr=https&sig=${sig}`,
      shape: 'url',
      secrets: [{ text: sig, publicPrefix: 0 }],
      source: 'Azure shared access signatures: sig= URL-encoded base64 HMAC-SHA256',
    },
    jwt(d),
    ...urlKeys(d),
    generic('session-secret', 'SESSION_SECRET', d.pick(BASE64URL, 42) + d.pick(ALNUM, 1)),
    generic('client-secret', 'client_secret', d.pick(ALNUM, 40)),
    generic('db-password', 'DB_PASSWORD', password(d, 20)),
    generic('auth-token', 'auth_token', d.pick(HEX, 48)),
    generic('api-secret', 'apiSecret', b64(d.bytes(30))),
    generic('encryption-key', 'ENCRYPTION_KEY', b64(d.bytes(32))),
  ];
}
