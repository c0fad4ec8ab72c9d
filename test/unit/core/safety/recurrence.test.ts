/**
 * "Nothing leaked" (docs/DESIGN.md §7): a value found once to be a secret is redacted wherever
 * it recurs (src/core/safety/recurrence.ts) — in the same text, in the other texts of a batch,
 * in texts scanned later with `known`, in a file's frontmatter and body, across the files of
 * one job, and as the head or tail a real cutter of this project leaves. And nothing more: a
 * plain word found once, a value inside a longer token, a head nothing cut are left alone.
 */
import assert from 'node:assert/strict';
import { clipText } from '../../../../src/core/handoff/text';
import { headOf, SUMMARY_TRUNCATED_MARKER } from '../../../../src/core/handoff/fit';
import { boundRequest } from '../../../../src/core/session/requests';
import { GateTally, sanitizeText } from '../../../../src/core/safety/gate';
import { redactKnownInPackage, sanitizePackage } from '../../../../src/core/safety/packageGate';
import { collectValues, isRecurringValue, recurrences } from '../../../../src/core/safety/recurrence';
import { redactKnown, redactSecrets, redactTexts } from '../../../../src/core/safety/redact';
import { randomString } from '../../../helpers/fakeSecrets';
import { pkgFrom } from '../../../helpers/packages';

const KEY = 'Zq8xT4mB2nR7vK9pL3wY6sD1fH5jC0gE';
const ASSIGNED = `api_token = "${KEY}"`;
const GHP = 'ghp_Q7mZ2xR9vL4kT8pW3nY6sB1dF5hJ0cG2aE7u';

/** Every substring of `value` of at least 8 characters that `text` contains (none: nothing of it leaked). */
function leaked(text: string, value: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 8 <= value.length; i++) if (text.includes(value.slice(i, i + 8))) out.push(value.slice(i, i + 8));
  return out;
}

describe('a secret found once is redacted wherever it recurs', () => {
  it('redacts the same value bare in a later text of the batch, named after the rule that found it', async () => {
    const r = await redactTexts([ASSIGNED, `then I ran curl with ${KEY} again`]);
    assert.deepEqual(r.texts, ['api_token = "[REDACTED:secret-assignment]"', 'then I ran curl with [REDACTED:secret-assignment] again']);
    assert.deepEqual(r.found, { 'secret-assignment': 2 });
    assert.equal(r.secrets.get(KEY), 'secret-assignment');
  });

  it('redacts it before the text that names it too, and again in the same text, however many times', async () => {
    const r = await redactTexts([`bare first: ${KEY}`, `${ASSIGNED} # ${KEY}; "${KEY}"`]);
    assert.deepEqual(r.texts, [
      'bare first: [REDACTED:secret-assignment]',
      'api_token = "[REDACTED:secret-assignment]" # [REDACTED:secret-assignment]; "[REDACTED:secret-assignment]"',
    ]);
    const one = await redactSecrets(`${ASSIGNED}\nlater: ${KEY}.`);
    assert.equal(one.text, 'api_token = "[REDACTED:secret-assignment]"\nlater: [REDACTED:secret-assignment].');
    assert.deepEqual(one.found, { 'secret-assignment': 2 });
  });

  it('carries what one scan found to the next through `known`, and returns both', async () => {
    const first = await redactSecrets(ASSIGNED);
    const second = await redactTexts(['a topic about nothing', `branch fix/${KEY}`], { known: first.secrets });
    assert.deepEqual(second.texts, ['a topic about nothing', 'branch fix/[REDACTED:secret-assignment]']);
    const third = await redactSecrets(`export GH=${GHP}; echo ${KEY}`, { known: second.secrets });
    assert.ok(!third.text.includes(GHP) && !third.text.includes(KEY), third.text);
    assert.equal(third.secrets.get(KEY), 'secret-assignment');
    assert.ok([...third.secrets.keys()].includes(GHP), 'the token found here is known from now on');
    assert.equal(first.secrets.size, 1, 'a scan never changes the map it was given');
  });

  it('takes the password out of a URL or `-u user:password`, the token out of `Bearer`, every body line out of a PEM block', async () => {
    const url = await redactTexts(['postgres://deploy:Xy7pQ2vR9sLm4Kt8@db.example.com:5432/app', 'PGPASS is Xy7pQ2vR9sLm4Kt8 here']);
    assert.equal(url.texts[1], 'PGPASS is [REDACTED:postgresql-connection] here');
    const cli = await redactTexts(['curl -u deploy_bot:Xy7pQ2vR9sLm4Kt8 https://x.example.com', 'retry with Xy7pQ2vR9sLm4Kt8; ask deploy_bot']);
    assert.equal(cli.texts[1], 'retry with [REDACTED:cli-credential]; ask deploy_bot', 'the password, not the user name');
    const hex = '2dee9f58aa05cf87b11fd50a36beae595676b66b';
    const oauth = await redactTexts([`git clone https://${hex}:x-oauth-basic@github.com/acme/app.git`, `token ${hex}; the password is always x-oauth-basic`]);
    assert.equal(oauth.texts[1], 'token [REDACTED:github-token]; the password is always x-oauth-basic', 'a token given as the user, not the fixed literal');
    const bearer = await redactTexts(['Authorization: Bearer abcDEF123ghiJKL456mnoPQR789', 'token abcDEF123ghiJKL456mnoPQR789 expired']);
    assert.equal(bearer.texts[1], 'token [REDACTED:authorization-header] expired');
    const body = [
      'MIIEowIBAAKCAQEAwwdrqkWK6WurXd6FL5dxrMTCLmLEZc+yWTC0YjtaNCQTmi+0',
      'rz4Nh1zpYd8YNB0PQ+urKOwAHLVG1jknrgxylsEnFIJQAqZDQTpx5Tut/KuQhapp',
      'kQ3fJ2vC8w==',
    ];
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body.join('\n')}\n-----END RSA PRIVATE KEY-----`;
    const r = await redactTexts([pem, `the second line was ${body[1]} and it ended ${body[2]}`, 'look for -----BEGIN RSA PRIVATE KEY----- headers']);
    assert.equal(r.texts[1], 'the second line was [REDACTED:private-key] and it ended [REDACTED:private-key]');
    assert.equal(r.texts[2], 'look for -----BEGIN RSA PRIVATE KEY----- headers', 'the armour is no secret');
  });

  it('does not over-redact: a plain word found once, a value inside a longer token, a value nobody found', async () => {
    const r = await redactTexts(['password = "thisismypassword"', 'DB_PASSWORD=Kubernetes', 'thisismypassword is a bad password; Kubernetes runs it']);
    assert.deepEqual(r.texts, [
      'password = "[REDACTED:secret-assignment]"',
      'DB_PASSWORD=[REDACTED:secret-assignment]',
      'thisismypassword is a bad password; Kubernetes runs it',
    ]);
    const inside = await redactTexts([ASSIGNED, `x${KEY} and ${KEY}9 stay, ${KEY}. goes`]);
    assert.equal(inside.texts[1], `x${KEY} and ${KEY}9 stay, [REDACTED:secret-assignment]. goes`);
    const none = await redactTexts(['nothing secret here', `not found anywhere: ${KEY}`]);
    assert.deepEqual(none.texts, ['nothing secret here', `not found anywhere: ${KEY}`]);
    assert.equal(none.secrets.size, 0);
  });

  it('remembers only values specific enough: 8 characters or more, one line, a digit, a symbol or inner upper case', () => {
    for (const v of ['Secret123', 'hunter2!x', 'myPassword', KEY, GHP, 'Summer of 69!']) assert.equal(isRecurringValue(v), true, v);
    for (const v of ['admin', 'Passw0r', 'thisismypassword', 'Kubernetes', 'my secret phrase', 'line\nbreak1', '[REDACTED:jwt]', '--------'])
      assert.equal(isRecurringValue(v), false, v);
    const into = new Map<string, string>();
    collectValues(
      `k="${KEY}" p=Kubernetes`,
      [
        { start: 2, end: 36, kind: 'secret-assignment', priority: 1 },
        { start: 39, end: 49, kind: 'secret-assignment', priority: 1 },
      ],
      into,
    );
    assert.deepEqual([...into], [[KEY, 'secret-assignment']], 'quotes taken off, the plain word not remembered');
  });
});

describe('finding known values in a text', () => {
  it('finds values that end or start with a symbol, and values with a space inside, as tokens of their own', () => {
    const known = new Map([
      ['dGhpcyBpcyBhIHNlY3JldA==', 'secret-assignment'],
      ['-----x9Qz7Lm2', 'secret-assignment'],
      ['Summer of 69!', 'secret-assignment'],
    ]);
    const text = 'a dGhpcyBpcyBhIHNlY3JldA== b "-----x9Qz7Lm2" c Summer of 69! d xdGhpcyBpcyBhIHNlY3JldA==';
    assert.equal(
      redactKnown([text], known).texts[0],
      'a [REDACTED:secret-assignment] b "[REDACTED:secret-assignment]" c [REDACTED:secret-assignment] d xdGhpcyBpcyBhIHNlY3JldA==',
    );
  });

  it('finds thousands of values that share their start (JWTs under one header) in one pass over the text, heads and tails too', () => {
    const header = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9';
    const jwts = Array.from(
      { length: 8000 },
      (_, i) => `${header}.${Buffer.from(JSON.stringify({ sub: `u${i}` })).toString('base64url')}.${randomString(i, 43)}`,
    );
    const known = new Map(jwts.map((j) => [j, 'jwt']));
    const text = jwts.map((j) => `token ${j} cut ${j.slice(0, 60)}… tail …${j.slice(-20)}`).join('\n');
    const started = Date.now();
    const found = recurrences(text, known);
    const ms = Date.now() - started;
    assert.equal(found.length, 3 * jwts.length, 'every whole value, every head and every tail');
    // One pass over the text: not one per value, nor one per value sharing a start.
    assert.ok(ms < 10_000, `${ms} ms for ${text.length} characters and ${jwts.length} values`);
  });
});

describe('the head or tail of a known value that a cut leaves', () => {
  const known = new Map([[KEY, 'secret-assignment']]);
  const noneLeft = (text: string) => assert.deepEqual(leaked(redactKnown([text], known).texts[0], KEY), [], text);

  it('is redacted behind every cutter of this project: clipText, fit-to-budget (a head, a summary), a bounded request', () => {
    const clipped = clipText(`deploy ${KEY} now`, 30);
    assert.ok(clipped.endsWith('…') && leaked(clipped, KEY).length > 0, `the cut leaves a head: ${clipped}`);
    noneLeft(clipped);
    const fitted = headOf(`x ${KEY}`, 20);
    assert.ok(leaked(fitted, KEY).length > 0, fitted);
    noneLeft(fitted);
    const summary = headOf(`x ${KEY}`, 20, SUMMARY_TRUNCATED_MARKER);
    assert.ok(summary.endsWith(' [truncated]') && leaked(summary, KEY).length > 0, summary);
    noneLeft(summary);
    const bounded = boundRequest(`${'word '.repeat(390)}${KEY}${KEY}`);
    assert.match(bounded, /more characters left out\]$/);
    noneLeft(bounded);
    noneLeft(`the key was …${KEY.slice(11)} (its tail)`);
    noneLeft(`${KEY.slice(0, 12)}... and ...${KEY.slice(-12)}`);
  });

  it('leaves alone a head nothing cut, one shorter than 8 characters, and the value inside a longer token', () => {
    const texts = [`${KEY.slice(0, 12)}QQQ…`, `${KEY.slice(0, 7)}…`, `v${KEY.slice(0, 12)}…`, `${KEY.slice(0, 12)} is not followed by a cut`];
    assert.deepEqual(redactKnown(texts, known).texts, texts);
    assert.deepEqual(recurrences(`…${KEY.slice(-7)}`, known), []);
  });

  it('is redacted when the package the job scanned later holds the whole value', async () => {
    const pkg = pkgFrom({ summary: `Asked: "rotate ${KEY.slice(0, 20)}…"`, next_steps: [`store it: ${ASSIGNED}`] });
    const { pkg: out } = await sanitizePackage(pkg);
    assert.deepEqual(leaked(out.summary, KEY), [], out.summary);
    assert.equal(out.summary, 'Asked: "rotate [REDACTED:secret-assignment]…"');
  });
});

describe('one set of known secrets through a job', () => {
  it('redacts a secret of the body in the frontmatter and one of the frontmatter in the body', async () => {
    const a = await sanitizeText(`---\ntopic_title: "rotate ${KEY}"\nbranch: main\n---\n\n${ASSIGNED}\n`);
    assert.deepEqual(leaked(a.text, KEY), [], a.text);
    assert.deepEqual(a.found, { 'secret-assignment': 2 });
    const b = await sanitizeText(`---\nnote: ${ASSIGNED}\n---\n\nbare in the body: ${KEY}\n`);
    assert.deepEqual(leaked(b.text, KEY), [], b.text);
    assert.equal(b.secrets.get(KEY), 'secret-assignment');
  });

  it('carries what one file showed to the next file of the same tally, and what the job knew before', async () => {
    const gate = new GateTally(new Map([[GHP, 'github-token']]));
    const first = await gate.text(`# Handoff\n\n${ASSIGNED}\n`);
    const second = await gate.text(`# Briefing\n\nbare: ${KEY}; token ${GHP}\n`);
    assert.deepEqual(leaked(first + second, KEY), []);
    assert.deepEqual(leaked(second, GHP), []);
    assert.equal(second, '# Briefing\n\nbare: [REDACTED:secret-assignment]; token [REDACTED:github-token]\n');
    const fresh = await sanitizeText(second.replace('[REDACTED:secret-assignment]', KEY));
    assert.ok(fresh.text.includes(KEY), 'without what the job knows, a bare value is no finding: the set is what redacts it');
  });

  it('redacts known values in a package already sanitized, without running the rules, and counts them', async () => {
    const pkg = pkgFrom({ summary: `moved ${KEY} to the vault`, decisions: [`keep ${KEY} out of git`] });
    const r = redactKnownInPackage(pkg, new Map([[KEY, 'secret-assignment']]));
    assert.equal(r.pkg.summary, 'moved [REDACTED:secret-assignment] to the vault');
    assert.equal(r.pkg.decisions[0].text, 'keep [REDACTED:secret-assignment] out of git');
    assert.deepEqual(r.found, { 'secret-assignment': 2 });
    assert.equal(r.pkg.redactions['secret-assignment'], (pkg.redactions['secret-assignment'] ?? 0) + 2);
  });
});
