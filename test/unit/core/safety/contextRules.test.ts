/**
 * Our context rules (src/core/safety/contextRules.ts) and the broadened assignment and
 * entropy rules (ownSecretRules.ts): secrets known by where they stand — any assignment
 * operator, command lines, URLs of any scheme, query strings, XML, Azure connection
 * strings, kubeconfig, Docker config.json, GCP key ids — are removed whole; placeholders,
 * hashes, UUIDs, git SHAs, integrity strings and file paths stay (property-based where it
 * fits); and no rule backtracks badly on 100 KB adversarial input.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { redactSecrets } from '../../../../src/core/safety/redact';
import { SECRET_KINDS } from '../../../../src/core/safety/secretKinds';
import { isHighEntropy, isPlaceholder, isSecretKey, shannonEntropy } from '../../../../src/core/safety/secretKeys';
import { randomString } from '../../../helpers/fakeSecrets';

let seed = 9100;
const r = (n: number, cs?: string) => randomString(seed++, n, cs);
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const HEX = '0123456789abcdef';

/** [form, line maker, secret]: the secret must not survive, the rest of the line must. */
const FORMS: Array<[string, (s: string) => string, string?]> = [
  ['Go := ', (s) => `API_TOKEN := "${s}"`],
  ['Makefile ?=', (s) => `API_TOKEN ?= ${s}`],
  ['BNF ::= (the value, not the operator)', (s) => `API_TOKEN ::= ${s}`],
  ['PHP .=', (s) => `$apiToken .= "${s}";`],
  ['PHP =>', (s) => `'api_token' => '${s}',`],
  ['Makefile +=', (s) => `AUTH_TOKEN += ${s}`],
  ['Go var with a type', (s) => `var apiToken string = "${s}"`],
  ['Kotlin val with a type', (s) => `val clientSecret: String = "${s}"`],
  ['Java System.setProperty', (s) => `System.setProperty("X_TOKEN", "${s}");`],
  ['Python os.environ', (s) => `os.environ["API_KEY"] = "${s}"`],
  ['PHP array element', (s) => `$config['db_password'] = '${s}';`],
  ['XML element', (s) => `<password>${s}</password>`],
  ['XML key/value attributes', (s) => `<add key="ClientSecret" value="${s}" />`],
  ['XML attribute', (s) => `<datasource password="${s}" user="app"/>`],
  ['YAML key', (s) => `db:\n  passwd: ${s}\n`],
  ['TOML key', (s) => `[auth]\nclient_secret = "${s}"`],
  ['JSON nested key', (s) => `{"credentials": {"accessKey": "${s}"}}`],
  ['curl -u', (s) => `curl -u deploy:${s} https://ci.example.net/api`],
  ['curl Bearer header', (s) => `curl -H "Authorization: Bearer ${s}" https://api.example.net`],
  ['Authorization: Basic', (s) => `Authorization: Basic ${s}`, Buffer.from(`deploy:${r(14)}`).toString('base64')],
  ['JSON Authorization header', (s) => `{"headers": {"Authorization": "Token ${s}"}}`],
  ['docker login -p', (s) => `docker login -u ci -p ${s} registry.example.net`],
  ['docker login --password', (s) => `docker login --username ci --password ${s} registry.example.net`],
  ['mysql -p', (s) => `mysql -u root -p${s} -h db.internal`],
  ['--token', (s) => `deployctl push --token ${s} --env prod`],
  ['--token=', (s) => `deployctl push --token=${s}`],
  ['--client-secret quoted', (s) => `tool --client-secret "${s}"`],
  ['aws configure set', (s) => `aws configure set aws_secret_access_key ${s}`, r(40, B64)],
  ['az login -p', (s) => `az login --service-principal -u app-id -p ${s} --tenant t1`],
  ['PGPASSWORD=', (s) => `PGPASSWORD=${s} psql -h db -U app`],
  ['sshpass -p', (s) => `sshpass -p ${s} ssh deploy@host`],
  ['npm config set _authToken', (s) => `npm config set //registry.example.net/:_authToken ${s}`],
  ['https URL password', (s) => `git remote add origin https://deploy:${s}@git.example.net/app.git`],
  ['one-letter URL user', (s) => `https://u:${s}@example.net/x`],
  ['redis URL with no user', (s) => `REDIS_URL=redis://:${s}@cache.internal:6379/0`],
  ['amqp URL', (s) => `amqp://guest2:${s}@mq.internal:5672/vhost`],
  ['GitLab deploy-token remote', (s) => `https://gitlab-ci-token:${s}@gitlab.example.net/group/app.git`],
  ['?key=', (s) => `GET https://maps.example.net/api/geocode?address=x&key=${s}`],
  ['?token=', (s) => `https://hooks.example.net/run?token=${s}&x=1`],
  ['access_token=', (s) => `https://graph.example.net/me?access_token=${s}`],
  ['Azure AccountKey=', (s) => `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${s};EndpointSuffix=core.windows.net`, `${r(86, B64)}==`],
  [
    'Azure SAS sig=',
    (s) => `https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=r&sig=${s}`,
    `${r(43, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}%3D`,
  ],
  [
    'kubeconfig client-key-data',
    (s) => `users:\n- name: admin\n  user:\n    client-key-data: ${s}\n`,
    Buffer.from(`-----BEGIN RSA PRIVATE KEY-----\n${r(200, B64)}`).toString('base64'),
  ],
  ['kubeconfig token', (s) => `    token: ${s}\n`],
  ['Docker config.json auth', (s) => `{"auths": {"registry.example.net": {"auth": "${s}"}}}`, Buffer.from(`ci:${r(20)}`).toString('base64')],
  ['GCP private_key_id', (s) => `"private_key_id": "${s}",`, r(40, HEX)],
  ['SQL ALTER USER … PASSWORD', (s) => `ALTER USER app_user WITH PASSWORD '${s}';`],
  ['SQL IDENTIFIED BY', (s) => `CREATE USER 'app'@'%' IDENTIFIED BY '${s}';`],
  ['high-entropy value of a key that suggests a secret', (s) => `ACME_SIGNING_SEED=${s}`, r(40)],
];

describe('context rules: secrets known by where they stand', function () {
  this.timeout(30_000);

  for (const [form, make, given] of FORMS) {
    it(`removes the whole value: ${form}`, async () => {
      const secret = given ?? `${r(12)}${r(4, '0123456789')}${r(4)}`;
      const line = make(secret);
      const out = await redactSecrets(line);
      assert.ok(!out.text.includes(secret), `${line} → ${out.text}`);
      for (let i = 0; i + 8 <= secret.length; i++) assert.ok(!out.text.includes(secret.slice(i, i + 8)), `a piece survived: ${out.text}`);
      // What follows the secret stays (a URL's host, the next flag); a marker stands in its place.
      const after = line.split(secret)[1];
      assert.ok(out.text.endsWith(`]${after}`), out.text);
      assert.match(out.text, /\[REDACTED:[a-z0-9-]+\]/);
    });
  }

  it('names the new kinds: cli-credential, authorization-header, url-credential, url-query-secret, high-entropy-secret', async () => {
    const s = `${r(16)}9`;
    const text = [
      `sshpass -p ${s} ssh h`,
      `curl -H "Authorization: Bearer ${s}" x`,
      `amqp://u:${s}@mq/v`,
      `https://x.example/a?sv=1&sig=${s}`,
      `MY_SIGNING_SALT=${r(32)}`,
    ].join('\n');
    const out = await redactSecrets(text);
    assert.deepEqual(
      out.found,
      { 'cli-credential': 1, 'authorization-header': 1, 'url-credential': 1, 'url-query-secret': 1, 'high-entropy-secret': 1 },
      out.text,
    );
    const kinds = new Set(SECRET_KINDS.map((k) => k.kind));
    for (const k of Object.keys(out.found)) assert.ok(kinds.has(k) && SECRET_KINDS.find((x) => x.kind === k)?.source === 'handoff', k);
  });

  it('keeps placeholders, example keys, hashes, UUIDs, integrity strings, paths and code', async () => {
    const keep = [
      'OPENAI_API_KEY=xxxxxxxxxxxxxxxxxxxx',
      'ANTHROPIC_API_KEY=<your-key>',
      'API_TOKEN=${API_TOKEN}',
      'password: $DB_PASSWORD',
      'set TOKEN=%TOKEN%',
      'client_secret: "{{ secret }}"',
      'PASSWORD=changeme',
      'api_key = "your_api_key_here"',
      'password: ***',
      'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'postgres://user:password@localhost:5432/db',
      'curl -u user:pass https://example.com',
      'curl -H "Authorization: Bearer $TOKEN" https://api.example.net',
      'docker login -u ci -p "$CI_REGISTRY_PASSWORD" $CI_REGISTRY',
      'echo "$PAT" | docker login ghcr.example -u me --password-stdin',
      'docker run -p 8080:80 nginx && mkdir -p a/b && ssh -p 2222 h',
      'tool --token-file ~/.config/tool/token',
      '<password>${db.password}</password>',
      'https://maps.example.net/api?key=YOUR_API_KEY',
      'npm config set //registry.example.net/:_authToken ${NPM_TOKEN}',
      'token_type: bearer',
      'PASSWORD_FILE=/run/secrets/db_password',
      'const TOKEN_RE = /^ghp_[A-Za-z0-9]{36}$/;',
      '--token-color-primary: #0a84ff;',
      'Using password: ********, token: [hidden]',
      'The Bearer authentication scheme is described in RFC 6750.',
      'src/core/safety/secretTokenizer/passwordReset.ts',
      'cd $PWD && OLDPWD=/home/dev/project',
      'redis://cache.internal:6379/0 and https://example.net/?page=2&limit=50',
    ].join('\n');
    const out = await redactSecrets(keep);
    assert.equal(out.text, keep);
  });

  it('property: any UUID, hex hash, git SHA or integrity string survives, in prose and after a non-secret key', async () => {
    const hex = (n: number) => fc.array(fc.constantFrom(...HEX.split('')), { minLength: n, maxLength: n }).map((a) => a.join(''));
    const b64 = (n: number) => fc.array(fc.constantFrom(...B64.split('')), { minLength: n, maxLength: n }).map((a) => a.join(''));
    const value = fc.oneof(
      fc.uuid(),
      hex(32),
      hex(40),
      hex(64),
      b64(86).map((b) => `sha512-${b}==`),
      b64(43).map((b) => `sha256-${b}=`),
    );
    const place = fc.constantFrom(
      (v: string) => `commit ${v} fixed it`,
      (v: string) => `"integrity": "${v}"`,
      (v: string) => `id: ${v}`,
      (v: string) => `session_id=${v}`,
      (v: string) => `checksum = "${v}"`,
      (v: string) => `+  "resolved": "https://registry.example.net/a/-/a-1.0.0.tgz#${v}"`,
    );
    await fc.assert(
      fc.asyncProperty(value, place, async (v, make) => {
        const text = make(v);
        assert.equal((await redactSecrets(text)).text, text);
      }),
      { numRuns: 200, seed: 4114 },
    );
  });

  it('names secret keys by words: the new words and pairs, and what stays out', () => {
    for (const k of ['DB_PWD', 'PGPASSWORD', 'auth', 'credentials', 'AccountKey', 'client-key-data', 'private_key_id', 'SharedAccessKey', 'passphrase'])
      assert.ok(isSecretKey(k), k);
    for (const k of ['PWD', 'OLDPWD', 'auth_method', 'AUTH_URL', 'password-stdin', 'token-file', 'author', 'oauth']) assert.ok(!isSecretKey(k), k);
  });

  it('tells placeholders and random values apart', () => {
    for (const v of ['your_api_key_here', 'AKIAIOSFODNN7EXAMPLE', '[hidden]', 'insert-key-here', '…']) assert.ok(isPlaceholder(v), v);
    assert.ok(!isPlaceholder(r(24)));
    assert.ok(isHighEntropy(r(32)));
    for (const v of ['welcome_message_title2', '0f8fad5b-d9cb-469f-a165-70867728950e', 'a'.repeat(40), r(40, HEX), 'abc123']) assert.ok(!isHighEntropy(v), v);
    assert.equal(shannonEntropy('aaaa'), 0);
    assert.equal(shannonEntropy('abcd'), 2);
  });

  it('is idempotent on every form', async () => {
    const once = await redactSecrets(FORMS.map(([, make, s]) => make(s ?? `${r(16)}7`)).join('\n'));
    const twice = await redactSecrets(once.text);
    assert.equal(twice.text, once.text);
    assert.deepEqual(twice.found, {});
  });

  it('stays linear on 100 KB adversarial inputs (no catastrophic backtracking)', async () => {
    const inputs = [
      'a='.repeat(50_000),
      'token='.repeat(16_000),
      'a:'.repeat(50_000),
      '--a '.repeat(25_000),
      'http://a:'.repeat(11_000),
      '<a>'.repeat(33_000),
      'Bearer '.repeat(14_000),
      'Authorization: '.repeat(6_600),
      'docker login '.repeat(7_600),
      'mysql -'.repeat(14_000),
      '?key=a'.repeat(16_000),
      'sk-'.repeat(33_000),
      'aaa1Q~'.repeat(16_000),
      '"password": "'.repeat(7_600),
      ' -u a:'.repeat(16_000),
      'a'.repeat(100_000),
    ];
    let worst = 0;
    for (const text of inputs) {
      const t0 = performance.now();
      await redactSecrets(text);
      worst = Math.max(worst, performance.now() - t0);
    }
    // Measured on the development machine: worst ~0.3 s (secretlint included). A wide margin for CI.
    assert.ok(worst < 5_000, `worst 100 KB adversarial input: ${worst.toFixed(0)} ms`);
  });
});
