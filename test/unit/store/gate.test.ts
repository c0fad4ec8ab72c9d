/**
 * The gate at the store (src/core/safety/gate.ts, docs/DESIGN.md §7 "The gate"): no writer
 * can bypass it. At compile time the writers take only `Sanitized` text — each
 * `// @ts-expect-error` below is a raw string tsc must refuse (`npm run typecheck` checks
 * test/; were a writer to accept a raw string again, the unused directive fails the build).
 * At run time those same calls run, and every writer sanitizes what it is given: the token
 * and the control characters never reach the bytes on disk.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GateTally, neutralizeInvisible, sanitizeFileName, sanitizeOutput, sanitizeText, sanitizeValue, isSanitized } from '../../../src/core/safety/gate';
import { handover } from '../../../src/engine/handover/handover';
import { exportAgents } from '../../../src/engine/agents/exportAgents';
import { appendBriefing, createHandoffFile, setHandoffStatus, stageHandoffFile } from '../../../src/store/handoffs/handoffStore';
import { readHandoffHead } from '../../../src/store/handoffs/handoffIndex';
import { writeInteropMirrors } from '../../../src/store/interop/mirrors';
import { createExclusive, replaceFileAtomic } from '../../../src/store/safeWrite';
import { loadSessionLogState, rotateCliSessionId, saveSessionLogState } from '../../../src/store/sessionLogState';
import { randomString } from '../../helpers/fakeSecrets';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../helpers/repo';

/** A GitHub personal access token of the published shape (`ghp_` + 36 base62), generated. */
const TOKEN = `ghp_${randomString(1409, 36)}`;
/** Text a writer is handed raw: the token, ESC, ^A and a bidi override. */
const RAW = `key ${TOKEN} \u001b[2J\u0001 \u202eevil`;

/** The file holds neither the token nor a raw control or bidi character. */
function assertGated(file: string): string {
  const text = readFileSync(file, 'utf8');
  assert.ok(!text.includes(TOKEN), `${path.basename(file)} holds the token: ${text}`);
  // eslint-disable-next-line no-control-regex
  assert.ok(!/[\u0001\u001b\u202e]/.test(text), `${path.basename(file)} holds a raw control character: ${JSON.stringify(text)}`);
  assert.match(text, /\[REDACTED:github-token\]/);
  return text;
}

describe('store: the gate — no writer bypasses it', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('createExclusive and replaceFileAtomic refuse a raw string at compile time and sanitize it at run time', async () => {
    const dir = tempDir();
    const f = path.join(dir, 'a.md');
    // @ts-expect-error a raw string is not Sanitized
    assert.equal(await createExclusive(f, RAW), true);
    assert.match(assertGated(f), /\\u\{1b\}\[2J\\u\{1\} \\u\{202e\}evil/, 'controls are shown as escapes');
    // @ts-expect-error a raw string is not Sanitized
    await replaceFileAtomic(f, `${RAW} again`);
    assert.match(assertGated(f), /again$/);
  });

  it('appendBriefing sanitizes its header and its section', async () => {
    const ws = tempDir();
    const file = path.join(ws, '.handoff', 'briefings', 'b.md');
    // @ts-expect-error raw strings are not Sanitized
    await appendBriefing(ws, file, `# ${RAW}\n`, `\n## ${RAW}\n`);
    assert.equal(assertGated(file).match(/\[REDACTED:github-token\]/g)?.length, 2);
  });

  it('stageHandoffFile and createHandoffFile refuse a plain render and sanitize its name and content', async () => {
    const ws = tempDir();
    const dir = path.join(ws, '.handoff', 'handoffs');
    // @ts-expect-error the render must return gated text, asynchronously
    const staged = await stageHandoffFile(ws, dir, new Date(), async () => ({ name: 'x.md', content: RAW }));
    assertGated(staged.path);
    // @ts-expect-error the render must return gated text, asynchronously
    const created = await createHandoffFile(ws, dir, new Date(), async () => ({ name: `n-${TOKEN}.md`, content: RAW }));
    assertGated(created.path);
    assert.ok(!created.name.includes(TOKEN) && created.name.includes('redacted-github-token'), created.name);
  });

  it('a file name that carries a secret or a control character is refused by the low-level writers', async () => {
    const dir = tempDir();
    const text = (await sanitizeText('x')).text;
    await assert.rejects(createExclusive(path.join(dir, `${TOKEN}.md`), text), /name carries a secret or an invisible character/);
    await assert.rejects(createExclusive(path.join(dir, 'a\u001bb.md'), text), /name carries a secret or an invisible character/);
    assert.deepEqual(readdirSync(dir), [], 'nothing written');
    assert.equal(await sanitizeFileName(`topic-${TOKEN}-\u0001.md`), 'topic-redacted-github-token-.md');
  });

  it('a status change writes only its event file, through the gate, and it reads back', async () => {
    const ws = initRepo(tempDir());
    write(ws, 'a.txt', 'a\n');
    commitAll(ws, 'c1');
    const r = await handover({ specialist: 'hacker', topic: 'status' }, { workspaceRoot: ws });
    assert.equal(r.status, 'ok');
    if (r.status !== 'ok') return;
    // Someone edits the committed handoff and pastes a token into it.
    writeFileSync(r.handoff_file, readFileSync(r.handoff_file, 'utf8').replace('## Summary\n', `## Summary\n\n${RAW}\n`));
    const edited = readFileSync(r.handoff_file, 'utf8');
    const set = await setHandoffStatus(r.handoff_file, 'accepted', { at: new Date().toISOString(), session_id: 's1' });
    assert.ok(set.ok, set.ok ? '' : set.message);
    // Issue 20: the status is an event file of its own (status/<id>/…json); the handoff is not rewritten.
    assert.equal(readFileSync(r.handoff_file, 'utf8'), edited, 'the handoff file is left as it is');
    const events = readdirSync(path.join(ws, '.handoff', 'status', r.package.id));
    assert.equal(events.length, 1);
    const event = readFileSync(path.join(ws, '.handoff', 'status', r.package.id, events[0]), 'utf8');
    assert.ok(!event.includes(TOKEN) && /"to":"accepted"/.test(event), event);
    assert.equal((await readHandoffHead(r.handoff_file))?.frontmatter.status, 'accepted');
  });

  it('the interop copies refuse raw briefing text and sanitize a handoff file read back', async () => {
    const ws = tempDir();
    mkdirSync(path.join(ws, '.itervox'));
    mkdirSync(path.join(ws, '.a0proj'));
    const handoffFile = path.join(ws, '.handoff', 'handoffs', '2026-12-01T09-00-00.000Z_hacker.md');
    mkdirSync(path.dirname(handoffFile), { recursive: true });
    writeFileSync(handoffFile, `---\nid: x\n---\n${RAW}\n`);
    const result = await writeInteropMirrors({
      workspaceRoot: ws,
      handoffFile,
      // @ts-expect-error raw strings are not Sanitized
      briefingName: 'hacker-t-2026-12-01.md',
      // @ts-expect-error raw strings are not Sanitized
      briefingHeader: `# ${RAW}\n`,
      // @ts-expect-error the section must be gated, asynchronously
      briefingSection: () => `\n## ${RAW}\n`,
    });
    assert.deepEqual(
      result.warnings.filter((w) => !/\.gitignore/.test(w)),
      [],
    );
    assertGated(path.join(ws, '.itervox', 'handoff', path.basename(handoffFile)));
    assertGated(path.join(ws, '.a0proj', 'handover', 'hacker-t-2026-12-01.md'));
  });

  it('the session-log state keeps offsets and hashes, and only sanitized turns', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'state', 'session-log-state.json');
    const problem = await saveSessionLogState(file, {
      version: 1,
      files: { '/t/s.jsonl': { offset: 10, size: 10, head: 'a'.repeat(40), head_bytes: 10, turns: [{ role: 'user', text: `use ${TOKEN}\u200b now` }] } },
    });
    assert.equal(problem, undefined);
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes(TOKEN) && !text.includes('\u200b'), text);
    const back = await loadSessionLogState(file);
    assert.deepEqual(back.files['/t/s.jsonl'].turns, [{ role: 'user', text: 'use [REDACTED:github-token] now' }]);
    assert.equal(back.files['/t/s.jsonl'].head, 'a'.repeat(40), 'hashes are kept');
    const id = await rotateCliSessionId(path.join(dir, 'cli'));
    assert.equal(readFileSync(path.join(dir, 'cli', 'session-id'), 'utf8'), `${id}\n`);
  });

  it('exported agent files pass the gate', async () => {
    const ws = initRepo(tempDir());
    write(ws, '.handoff/specialists/leaky.md', `---\nid: leaky\n---\nReviews. Log in with ${TOKEN}.\n`);
    const r = await exportAgents({ target: 'all' }, { workspaceRoot: ws });
    assert.equal(r.status, 'ok');
    for (const dir of ['.github/agents', '.claude/agents']) {
      for (const name of readdirSync(path.join(ws, dir))) {
        assert.ok(!readFileSync(path.join(ws, dir, name), 'utf8').includes(TOKEN), `${dir}/${name}`);
      }
    }
    assert.ok(existsSync(path.join(ws, '.claude', 'agents', 'leaky.md')));
  });
});

describe('core: the gate functions', () => {
  it('escapes what stripInvisible removes and keeps emoji joiners and flags', () => {
    const family = '👨\u200d👩\u200d👧';
    assert.deepEqual(neutralizeInvisible(`a\u202eb ${family} \u001b`), { text: `a\\u{202e}b ${family} \\u{1b}`, count: 2 });
    assert.deepEqual(neutralizeInvisible(`a\u202eb ${family}`, 'strip'), { text: `ab ${family}`, count: 1 });
    assert.deepEqual(neutralizeInvisible('tab\tline\r\n'), { text: 'tab\tline\r\n', count: 0 });
  });

  it('scans a frontmatter value by value, so counts and keys stay numbers and the block still parses', async () => {
    const text = `---\nid: x\nredactions:\n  secret-assignment: 21\nbranch: feature/${TOKEN}\n---\n\nBody ${TOKEN}\n`;
    const r = await sanitizeText(text);
    assert.match(r.text, /\n {2}secret-assignment: 21\n/);
    assert.match(r.text, /\nbranch: "feature\/\[REDACTED:github-token\]"\n/);
    assert.match(r.text, /\nBody \[REDACTED:github-token\]\n$/);
    assert.equal(r.found['github-token'], 2);
    assert.ok(isSanitized(r.text), 'the gate remembers what it produced');
    assert.deepEqual((await sanitizeText(r.text)).found, {}, 'idempotent');
  });

  it('the output gate keeps JSON valid and its numbers numbers; text loses controls', async () => {
    const json = JSON.stringify({ redactions: { 'secret-assignment': 2 }, note: `k ${TOKEN}\u202e`, [TOKEN]: true }, null, 2);
    const out = JSON.parse(await sanitizeOutput(json));
    assert.deepEqual(out, { redactions: { 'secret-assignment': 2 }, note: 'k [REDACTED:github-token]', '[REDACTED:github-token]': true });
    assert.equal(await sanitizeOutput(`done \u001b[2J ${TOKEN}`), 'done [2J [REDACTED:github-token]');
    // A zero-width space inside a token does not hide it, in a file or an output.
    const split = `key ${TOKEN.slice(0, 12)}\u200b${TOKEN.slice(12)} end`;
    assert.equal(await sanitizeOutput(split), 'key [REDACTED:github-token] end');
    assert.equal((await sanitizeText(split)).text, 'key [REDACTED:github-token] end');
    assert.deepEqual(await sanitizeValue([1, null, { a: TOKEN }]), [1, null, { a: '[REDACTED:github-token]' }]);
  });

  it('a tally warns when the final pass found something the package pass did not', async () => {
    const tally = new GateTally();
    await tally.text(`late ${TOKEN}`);
    await tally.text('clean');
    assert.deepEqual(tally.warnings('the files'), ['WARNING: the final check of the files redacted 1 more secret (github-token ×1) before writing']);
  });
});
