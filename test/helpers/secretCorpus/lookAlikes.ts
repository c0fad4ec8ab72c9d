/**
 * The false-positive half of the corpus (issue 14): texts that look like secrets and are
 * not — placeholders, AWS's documented example keys, references to environment variables
 * (also on command lines: `-p "$PASSWORD"`, `--token "$TOKEN"`), settings whose names say
 * secret and whose values are not (`PASSWORD_MIN_LENGTH=12`),
 * git SHAs, SHA-256 digests, UUIDs, npm integrity strings, Go module sums, base64 of
 * ordinary words, file paths, version strings, CSS colours, word lists, URLs without
 * credentials, e-mail addresses, and the public halves of key pairs (certificates, public
 * keys, kubeconfig CA data, SSH public keys) and Sentry DSNs (public by Sentry's documentation).
 * Redaction must return every one of them unchanged.
 */
import { ALNUM, BASE64, HEX, b64, draw } from './alphabet';
import type { LookAlike } from './types';

/** Placeholders people leave where a key goes (README and `.env.example` conventions). */
const PLACEHOLDERS = ['xxxx', 'xxxxxxxxxxxxxxxxxxxxxxxx', '<your-key>', '<YOUR_API_KEY>', '${OPENAI_API_KEY}', '$TOKEN', 'changeme', 'sk-...', 'your_api_key_here', 'sk-xxxxxxxxxxxxxxxxxxxxxxxx', '********', 'REPLACE_ME', '{{ secrets.GITHUB_TOKEN }}', '%API_KEY%'];
/** The contexts a placeholder is written in. */
const PLACEHOLDER_CONTEXTS: ReadonlyArray<(v: string) => string> = [
  (v) => `OPENAI_API_KEY=${v}`,
  (v) => `export ANTHROPIC_API_KEY="${v}"`,
  (v) => `  api_key: ${v}`,
  (v) => `{ "apiKey": "${v}" }`,
  (v) => `token = "${v}"`,
  (v) => `curl -H "Authorization: Bearer ${v}" https://api.example.com/v1/models`,
];

/** AWS's documented example credentials (AWS IAM user guide, "Managing access keys"). */
const AWS_EXAMPLES = ['AKIAIOSFODNN7EXAMPLE', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'AKIAI44QH8DHBEXAMPLE', 'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY'];

/** Code that names a secret without holding it. */
const REFERENCES = [
  'const apiKey = process.env.OPENAI_API_KEY;',
  'api_key = os.environ["ANTHROPIC_API_KEY"]',
  'token := os.Getenv("GITHUB_TOKEN")',
  'headers: { Authorization: `Bearer ${token}` },',
  'password: process.env.DB_PASSWORD,',
  'env:\n  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}',
  'aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}',
  'String secret = System.getenv("CLIENT_SECRET");',
  '$apiKey = getenv(\'STRIPE_SECRET_KEY\');',
  'if (!config.secretKey) throw new Error("missing secret key");',
  'export DATABASE_URL="postgres://${DB_USER}:${DB_PASSWORD}@${DB_HOST}:5432/app"',
  'Set the `SENTRY_AUTH_TOKEN` environment variable before running the upload.',
  'docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" $CI_REGISTRY',
  'mysql -u root -p"$MYSQL_ROOT_PASSWORD" app',
  'mysql -u root -p orders',
  'vercel deploy --prod --token "$VERCEL_TOKEN"',
  'curl -u "$USER:$API_TOKEN" https://example.com/api/v2/items',
  'git clone https://oauth2:${GITLAB_TOKEN}@gitlab.example.com/acme/api.git',
  'aws configure set aws_secret_access_key "$AWS_SECRET_ACCESS_KEY"',
  'az login --service-principal -u "$AZURE_CLIENT_ID" -p "$AZURE_CLIENT_SECRET" --tenant "$AZURE_TENANT_ID"',
  'mytool sync --token-file ~/.config/mytool/token',
  'Authorization: Bearer <token>',
  'Sure — my OPENAI_API_KEY is set in .env.local, not committed.',
  'my GITHUB_TOKEN is missing the repo scope, so the push failed',
  'The STRIPE_SECRET_KEY is stored in the vault under payments/prod.',
  'my SESSION_SECRET is rotated every 30 days by the deploy job',
  'machine api.example.com login deploy',
  'db.internal.example.com:5432:orders:app_user:*',
];

/** Settings whose names say secret and whose values are not (lengths, lifetimes, flags, empties). */
const SETTINGS = [
  'PASSWORD_MIN_LENGTH=12',
  'TOKEN_TTL_SECONDS=3600',
  'max_tokens: 4096',
  '"secret": false,',
  'auth: true',
  'password: ""',
  'token: null',
  'api_key = None',
  'SECRET_KEY_BASE_LENGTH=64',
  'session_secret_rotation_days = 30',
];

/** Ordinary phrases whose base64 shows up in configs and test data. */
const PHRASES = ['hello world', 'the quick brown fox jumps over the lazy dog', 'user preferences saved', 'lorem ipsum dolor sit amet', 'build succeeded in 42 seconds', 'release notes for version two', 'good morning from the team', 'configuration loaded', 'nothing to see here', 'welcome to the dashboard', 'sample payload for tests', 'an ordinary sentence'];

const FIXED: ReadonlyArray<[string, string]> = [
  ['file-path', '/usr/local/lib/node_modules/typescript/lib/tsserver.js'],
  ['file-path', 'src/core/safety/redact.ts:145:3'],
  ['file-path', 'C:\\Users\\dev\\AppData\\Roaming\\Code\\User\\settings.json'],
  ['file-path', 'node_modules/.pnpm/@babel+core@7.24.0/node_modules/@babel/core/lib/index.js'],
  ['file-path', '~/.config/gcloud/application_default_credentials.json'],
  ['file-path', './secrets/README.md'],
  ['file-path', '/var/lib/docker/overlay2/3f9c2a7b1e/merged/etc/nginx/nginx.conf'],
  ['file-path', 'test/fixtures/keys/public_key.pem'],
  ['file-path', 'android/app/src/main/res/mipmap-xxxhdpi/ic_launcher_foreground.png'],
  ['file-path', 'dist/assets/index-BkF3x9aQ.js'],
  ['file-path', '/home/runner/work/api/api/.github/workflows/release.yml'],
  ['file-path', 'packages/web/src/components/TokenInput/TokenInput.test.tsx'],
  ['version', '"typescript": "^5.6.3",'],
  ['version', 'version = "1.2.3-beta.4+build.5678"'],
  ['version', 'node v20.20.2'],
  ['version', 'go version go1.22.5 linux/amd64'],
  ['version', 'Python 3.12.4 (main, Jun  6 2024, 18:26:44) [GCC 11.4.0]'],
  ['version', 'image: postgres:16.4-alpine3.20'],
  ['version', 'Microsoft.Extensions.Logging 8.0.0-preview.7.23375.6'],
  ['version', 'appVersion: "2024.11.30-r2"'],
  ['version', 'com.google.guava:guava:33.3.1-jre'],
  ['version', 'ruby 3.3.6 (2024-11-05 revision 75015d4c1f) [x86_64-linux]'],
  ['css-color', 'color: #1e90ff;'],
  ['css-color', 'background: #FFAA00CC;'],
  ['css-color', '--accent: #0f172a;'],
  ['css-color', 'border-color: #abcdef #123456 #fedcba #654321;'],
  ['css-color', 'box-shadow: 0 1px 2px rgba(15, 23, 42, 0.08);'],
  ['css-color', 'fill="#E5E7EB"'],
  ['css-color', '"editor.background": "#1e1e1eff",'],
  ['css-color', 'theme_color: "#0b5fff"'],
  ['css-color', 'linear-gradient(90deg, #ff7a18 0%, #af002d 50%, #319197 100%)'],
  ['css-color', 'hsl(210deg 40% 96%)'],
  ['word-list', 'correct horse battery staple orange window river lantern'],
  ['word-list', 'abandon ability able about above absent absorb abstract absurd abuse access accident'],
  ['word-list', 'Keywords: authentication, authorization, token, secret, password, credential, apikey'],
  ['word-list', 'The token bucket refills at a steady rate; the secret sauce is the burst size.'],
  ['word-list', 'password reset emails are sent by the auth service after the token expires'],
  ['url', 'https://api.openai.com/v1/chat/completions'],
  ['url', 'https://github.com/acme/api/pull/42#issuecomment-1234567890'],
  ['url', 'postgres://db.internal.example.com:5432/orders?sslmode=require'],
  ['url', 'https://example.com/search?page=2&sort=desc&q=token+rotation'],
  ['url', 'git@github.com:acme/api.git'],
  ['url', 'redis://cache.example.com:6379/0'],
  ['url', 'https://deploy@gitlab.example.com/acme/api.git'],
  ['url', 'https://console.anthropic.com/settings/keys'],
  ['url', 'https://storage.googleapis.com/acme-public/assets/logo.svg'],
  ['url', 'mongodb+srv://cluster0.ab1cd.mongodb.net/app?retryWrites=true'],
  ['url', 'amqp://mq.example.com:5672/%2F'],
  ['url', 'https://hooks.example.com/services/health'],
  ['url', 'https://en.wikipedia.org/wiki/Base64#Output_padding'],
  ['url', 'http://localhost:3000/api/auth/callback?code=ok&state=xyz'],
  ['url', 'https://docs.example.com/api/authentication#api-keys'],
  ['email', 'Contact: dev@example.com'],
  ['email', 'Signed-off-by: Jane Doe <jane.doe@example.org>'],
  ['email', '"author": "Alex Example <alex@example.net>",'],
  ['email', 'git config user.email "ci-bot@users.noreply.example.com"'],
  ['email', 'From: Build Server <noreply+builds@example.io>'],
  ['email', 'maintainer: ops-team@corp.example.com'],
  ['email', 'Reported-by: a.b.c.d@example.co.uk'],
  ['email', 'mailto:security@example.com?subject=Vulnerability%20report'],
  ['email', 'client_email: ci@acme-prod-123456.iam.gserviceaccount.com'],
  ['email', 'Co-authored-by: Sam <12345678+sam@users.noreply.github.com>'],
];

/**
 * The look-alikes, generated from `seed` where they are random (hashes, UUIDs, integrity
 * strings): at least 200, each one line or a few, with its kind.
 */
export function lookAlikes(seed: number): LookAlike[] {
  const d = draw(seed);
  const out: LookAlike[] = [];
  const add = (kind: string, text: string) => out.push({ kind, text });
  for (const v of PLACEHOLDERS) for (const c of PLACEHOLDER_CONTEXTS) add('placeholder', c(v));
  for (const v of AWS_EXAMPLES) {
    const field = v.startsWith('AKIA') ? 'aws_access_key_id' : 'aws_secret_access_key';
    for (const text of [`${field.toUpperCase()}=${v}`, `aws configure set ${field} ${v}`, `${field} = ${v}`]) add('aws-example', text);
  }
  for (const r of REFERENCES) add('env-reference', r);
  for (const r of SETTINGS) add('setting', r);
  const sha = () => d.pick(HEX, 40);
  const shaContexts: ReadonlyArray<(s: string) => string> = [
    (s) => `commit ${s}`,
    (s) => `git checkout ${s}`,
    (s) => `"sha": "${s}",`,
    (s) => `Merge: ${s.slice(0, 7)} ${sha().slice(0, 7)}`,
    (s) => `      - uses: actions/checkout@${s} # v4.2.2`,
    (s) => `HEAD is now at ${s.slice(0, 12)} fix: retry on 503`,
    (s) => `${s}\trefs/heads/main`,
    (s) => `Subproject commit ${s}`,
  ];
  for (let i = 0; i < 24; i++) add('git-sha', shaContexts[i % shaContexts.length](sha()));
  const sha256 = () => d.pick(HEX, 64);
  const digestContexts: ReadonlyArray<(s: string) => string> = [
    (s) => `FROM node:20-alpine@sha256:${s}`,
    (s) => `${s}  dist/app-1.4.2.tar.gz`,
    (s) => `checksum = "${s}"`,
    (s) => `"digest": "sha256:${s}",`,
  ];
  for (let i = 0; i < 16; i++) add('sha256', digestContexts[i % digestContexts.length](sha256()));
  const uuid = () => `${d.pick(HEX, 8)}-${d.pick(HEX, 4)}-4${d.pick(HEX, 3)}-${d.one(['8', '9', 'a', 'b'])}${d.pick(HEX, 3)}-${d.pick(HEX, 12)}`;
  const uuidContexts: ReadonlyArray<(s: string) => string> = [
    (s) => `"id": "${s}",`,
    (s) => `X-Request-Id: ${s}`,
    (s) => `trace_id=${s} span_id=${d.pick(HEX, 16)}`,
    (s) => `Project("{${s.toUpperCase()}}") = "Api", "Api.csproj"`,
    (s) => `  uuid: ${s}`,
  ];
  for (let i = 0; i < 20; i++) add('uuid', uuidContexts[i % uuidContexts.length](uuid()));
  for (let i = 0; i < 12; i++) {
    const b = b64(d.bytes(i % 3 === 0 ? 48 : 64));
    add('integrity', i % 3 === 0 ? `<script src="/app.js" integrity="sha384-${b}" crossorigin="anonymous"></script>` : `      "integrity": "sha512-${b}",`);
  }
  for (let i = 0; i < 8; i++) add('go-sum', `github.com/acme/mod${i} v1.${i}.0 h1:${b64(d.bytes(32))}`);
  PHRASES.forEach((p, i) => add('base64-words', [`message: ${b64(p)}`, `echo ${b64(p)} | base64 -d`, `"data": "${b64(p)}"`][i % 3]));
  for (const [kind, text] of FIXED) add(kind, text);
  for (let i = 0; i < 6; i++) add('build-hash', `dist/assets/chunk-${d.pick(ALNUM, 8)}.js  ${(10 + d.int(90)).toString()}.${d.int(10)} kB │ gzip: ${d.int(9)}.${d.int(100)} kB`);
  // Public halves and public identifiers: certificates, public keys, CA data, Sentry DSNs (documented as safe to publish).
  const pemLines = (n: number) => (b64(d.bytes(n)).match(/.{1,64}/g) ?? []).join('\n');
  for (let i = 0; i < 2; i++) add('public-pem', `-----BEGIN CERTIFICATE-----\nMIID${pemLines(600)}\n-----END CERTIFICATE-----`);
  for (let i = 0; i < 2; i++) add('public-pem', `-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${pemLines(250)}\n-----END PUBLIC KEY-----`);
  add('public-pem', `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINB${pemLines(400)}\n=${d.pick(BASE64, 4)}\n-----END PGP PUBLIC KEY BLOCK-----`);
  add('ssh-public-key', `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${d.pick(BASE64, 43)} dev@laptop`);
  add('ssh-public-key', `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ${d.pick(BASE64, 200)}= deploy@ci`);
  for (let i = 0; i < 2; i++) add('ca-data', `    certificate-authority-data: ${b64(`-----BEGIN CERTIFICATE-----\n${pemLines(300)}\n-----END CERTIFICATE-----\n`)}`);
  for (let i = 0; i < 2; i++) add('sentry-dsn', `SENTRY_DSN=https://${d.pick(HEX, 32)}@o${100000 + d.int(900000)}.ingest.sentry.io/${1000000 + d.int(9000000)}`);
  for (let i = 0; i < 2; i++) add('lfs-pointer', `version https://git-lfs.github.com/spec/v1\noid sha256:${sha256()}\nsize ${1000 + d.int(900000)}`);
  for (let i = 0; i < 2; i++) add('lockfile', `  resolved "https://packages.example.com/left-pad/-/left-pad-1.3.${i}.tgz#${sha()}"`);
  for (let i = 0; i < 4; i++) add('image-data', `background-image: url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQ${d.pick(BASE64, 40)});`);
  return out;
}
