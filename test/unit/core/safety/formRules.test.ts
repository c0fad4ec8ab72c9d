/**
 * The credential-file and prose forms of src/core/safety/contextRules.ts: `.netrc` passwords
 * (GNU inetutils' `netrc(5)` format, as curl's docs describe it), PostgreSQL's password file
 * (`~/.pgpass`, libpq's "The Password File") and a key named in a sentence ("my
 * MISTRAL_API_KEY is …"). Each form is redacted whole with its key readable; look-alikes
 * ("the token is valid", "password is required", compiler output, MAC addresses) stay; and
 * no rule backtracks badly on 100 KB adversarial input. Every secret here is generated.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { redactSecrets } from '../../../../src/core/safety/redact';
import { findNetrcPasswords, findPgpassPasswords, findProseSecrets } from '../../../../src/core/safety/contextRules';
import { randomString } from '../../../helpers/fakeSecrets';

let seed = 14_700;
const r = (n: number, cs?: string) => randomString(seed++, n, cs);
const HEX = '0123456789abcdef';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Redacts `text` and checks that `secret` is gone and every `keep` string is still there. */
async function gone(text: string, secret: string, keep: readonly string[] = []): Promise<string> {
  const out = (await redactSecrets(text)).text;
  assert.ok(!out.includes(secret), `left in: ${out}`);
  assert.match(out, /\[REDACTED:/, out);
  for (const k of keep) assert.ok(out.includes(k), `lost "${k}": ${out}`);
  return out;
}

/** Redacts `text` and checks nothing changed. */
async function stays(text: string): Promise<void> {
  assert.equal((await redactSecrets(text)).text, text);
}

describe('form rules: .netrc, .pgpass and keys named in prose', function () {
  this.timeout(60_000);

  it('.netrc: machine … login … password X on one line, over several lines, with no login, quoted, default', async () => {
    const s = () => r(32);
    let k = s();
    await gone(`machine api.example.com login deploy password ${k}`, k, ['machine api.example.com', 'login deploy', 'password ']);
    k = s();
    await gone(`machine api.example.com password ${k}`, k, ['machine api.example.com']);
    k = s();
    await gone(`machine git.example.com\n  login ci\n  password ${k}\n\nmachine other.example.com login x password ${r(20)}\n`, k, ['login ci']);
    k = s();
    await gone(`machine h.example.com login u password "${k}"`, k, ['"']);
    k = s();
    await gone(`default login anonymous password ${k}`, k, ['default login anonymous']);
    k = s();
    await gone(`machine h.example.com account acct port 21 login u password ${k}`, k, ['account acct']);
    k = s();
    await gone(`{"cmd":"cat ~/.netrc","out":"machine h.example.com\\nlogin u\\npassword ${k}\\n"}`, k, ['"cmd"']);
    // A short, word-like password is a password too in a .netrc.
    await gone('machine ftp.example.com login bob password hunter22', 'hunter22');
  });

  it('.pgpass: host:port:database:user:password, with * wildcards and \\: / \\\\ escapes', async () => {
    let k = r(24);
    await gone(`db.internal.example.com:5432:orders:app_user:${k}`, k, ['db.internal.example.com:5432:orders:app_user:']);
    k = r(20);
    await gone(`*:*:*:postgres:${k}`, k, ['*:*:*:postgres:']);
    k = r(16);
    await gone(`localhost:5432:*:me:${k}\\:more\\\\tail`, k, ['localhost:5432:*:me:']);
    k = `${r(10, '0123456789')}:AA${r(33)}`;
    await gone(`10.0.0.5:6432:app:bot:${k}`, k.slice(0, 10), ['10.0.0.5:6432:app:bot:']);
    k = r(32, HEX);
    await gone(`db.example.com:5432:orders:app:${k}`, k);
    k = r(20);
    await gone(`db.example.com:5432:orders:app:${k}\\a\\`, k);
    k = r(18);
    await gone(`# ~/.pgpass\nlocalhost:5432:app:app:${k}\nreplica.example.com:5432:app:app:${r(18)}\n`, k, ['# ~/.pgpass']);
  });

  it('prose: an env-var name or a secret word, then is / was / = / is now / is set to, then the credential', async () => {
    const forms: ReadonlyArray<(k: string) => string> = [
      (k) => `Sure — my MISTRAL_API_KEY is ${k} if you need it for the deploy.`,
      (k) => `the api key is ${k}.`,
      (k) => `password is ${k}`,
      (k) => `OK, the token was ${k}, I rotated it.`,
      (k) => `my client secret is now ${k}`,
      (k) => `The SESSION_SECRET is set to \`${k}\` in staging.`,
      (k) => `the access token = ${k}`,
    ];
    for (const f of forms) {
      const k = r(40);
      const out = await gone(f(k), k);
      assert.match(out, /\[REDACTED:secret-assignment\]/, out);
    }
    // A named key's hex or UUID value counts (Azure OpenAI's 32 hex, a Heroku UUID); a weak key needs randomness.
    const hex = r(32, HEX);
    await gone(`my AZURE_OPENAI_API_KEY is ${hex} if you need it`, hex, ['AZURE_OPENAI_API_KEY is [']);
    const uuid = `${r(8, HEX)}-${r(4, HEX)}-${r(4, HEX)}-${r(4, HEX)}-${r(12, HEX)}`;
    await gone(`my HEROKU_API_KEY is ${uuid}`, uuid);
    const mg = `key-${r(32, HEX)}`;
    await gone(`the MAILGUN_API_KEY is ${mg}, thanks`, mg);
    const weak = r(40, B64);
    const out = await gone(`the signing cookie is ${weak}`, weak);
    assert.match(out, /\[REDACTED:high-entropy-secret\]/, out);
  });

  it('keeps look-alikes: sentences about keys, netrc without a password, compiler output, addresses, names', async () => {
    for (const t of [
      'the token is valid',
      'password is required',
      'my key is in the vault',
      'my OPENAI_API_KEY is set in .env.local, not committed.',
      'my GITHUB_TOKEN is missing the repo scope, so the push failed',
      'The STRIPE_SECRET_KEY is stored in the vault under payments/prod.',
      'the api key is OPENAI_API_KEY_2024 in the env',
      'the secret is /run/secrets/db2_password/v1',
      'token = config.tokens.v2_production_default',
      'the token is v2_production_default_token_name',
      'const token = computeTokenFromSecret2(req);',
      'export declare function isSemicolonToken(token: CommentOrToken): token is SemicolonToken$1;',
      'export type SubmitPasswordResultV2 = CustomAuthResultV2<SubmitPasswordResultStateV2>;',
      "Address6.fromWildcard('*:*:*:*:*:*:*:*').subnet;",
      'the api token was generatedAutomatically2024 by the job',
      'if the token is None or the password is empty: raise',
      'the token is https://example.com/a1b2c3d4e5f6g7h8',
      'the commit is 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39',
      'the session id is 0f8fad5b-d9cb-469f-a165-70867728950e',
      'the password is 16 characters long and the token is base64-encoded',
      'The token bucket refills at a steady rate; the secret sauce is the burst size.',
      'machine api.example.com login deploy',
      'the machine learning password is required',
      'the machine learning password reset flow',
      'a build machine with password rotation',
      'by default password is required for ftp',
      'src/foo.ts:12:5:error:TS2304',
      'aa:11:22:33:44:55',
      'fe80::1:2:3:4',
      'time 10:25:30:12:ab',
      'localhost:5432:app:app:${PGPASS}',
      '*:*:*:*:changeme',
    ]) {
      await stays(t);
    }
  });

  it('property: any generated value in any of the three forms is redacted, and a second pass changes nothing', async () => {
    const names = ['MISTRAL_API_KEY', 'DB_PASSWORD', 'AUTH_TOKEN', 'CLIENT_SECRET', 'api key', 'token', 'password', 'secret'];
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 0, max: 2 }), fc.constantFrom(...names), async (s, form, name) => {
        // A credential has letters and digits (the prose rule asks for both).
        const k = `${randomString(s, 24 + (s % 40))}${s % 10}`;
        const text = [
          `machine h${s % 97}.example.com login u${s % 13} password ${k}`,
          `db${s % 7}.example.com:${5432 + (s % 5)}:orders:app_user:${k}`,
          `btw my ${name} is ${k} for the deploy`,
        ][form];
        const once = (await redactSecrets(text)).text;
        const twice = (await redactSecrets(once)).text;
        return !once.includes(k.slice(0, 12)) && !once.includes(k.slice(-12)) && once === twice;
      }),
      { numRuns: 150, seed: 14 },
    );
  });

  it('stays linear on 100 KB adversarial inputs (no catastrophic backtracking)', () => {
    const inputs = [
      'machine '.repeat(12_500),
      'machine a login '.repeat(6_250),
      'machine a login b port '.repeat(4_350),
      'machine a password '.repeat(5_300),
      'password '.repeat(11_000),
      '\\n'.repeat(50_000),
      'a:'.repeat(50_000),
      'a:1:'.repeat(25_000),
      'a:1:a:a:'.repeat(12_500),
      ' a:1:a:a:a'.repeat(10_000),
      '\\:'.repeat(50_000),
      `a:1:a:a:${'\\'.repeat(100_000)}`,
      ' a:1:a:a:\\n'.repeat(9_000),
      ':'.repeat(100_000),
      'a is '.repeat(20_000),
      'api key is '.repeat(9_000),
      'a '.repeat(50_000),
      'a-'.repeat(50_000),
      `${'token is '}${'a1'.repeat(50_000)}`,
      'the token is a1b2c3d4e5f6g7h8i9 '.repeat(2_800),
      'a'.repeat(100_000),
      `token is ${'.'.repeat(100_000)}`,
      `token is a1${'.,'.repeat(50_000)}`,
    ];
    let worst = 0;
    for (const input of inputs) {
      for (const find of [findNetrcPasswords, findPgpassPasswords, findProseSecrets]) {
        const t0 = performance.now();
        find(input);
        worst = Math.max(worst, performance.now() - t0);
      }
    }
    console.log(`    figures: form rules, worst 100 KB adversarial input: ${worst.toFixed(1)} ms`);
    assert.ok(worst < 2_000, `worst 100 KB adversarial input: ${worst.toFixed(0)} ms`);
  });
});
