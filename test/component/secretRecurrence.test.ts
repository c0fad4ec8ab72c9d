/**
 * "Nothing leaked" (docs/DESIGN.md §7), across channels: once a value is found to be a secret
 * in one channel of a handoff, every occurrence of it is redacted in every other one — in the
 * handoff, its briefing, its history file and the result (src/core/safety/recurrence.ts). The
 * key is written as an assignment (which the rules know) in one channel, and bare (which no
 * rule knows) in all the others, one handover per channel the assignment sits in: texts scanned
 * before it (the topic, scanned before the package exists) and after it (the branch, paths and
 * files) alike. Also the head of a value that drafting cut (`clipText`) and, the other way, a
 * plain word found once that stays where it is not a secret. Real git repositories in
 * temporary folders, a Claude Code transcript written from a real one's lines, the engine's
 * `handover` with a budget that cuts (test/helpers/secretPlacement.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { runClaudeHook } from '../../src/engine/agents/hook';
import { recordResult } from '../../src/engine/receive/recordResult';
import { callMcpTool } from '../../src/mcp/server';
import { writeClaudeSession, type SessionStep } from '../helpers/claudeTranscript';
import { randomString } from '../helpers/fakeSecrets';
import { cleanupTempDirs, git, tempDir, write } from '../helpers/repo';
import { changedRepository, handOverWith, pieces, writtenFiles } from '../helpers/secretPlacement';

const KEY = 'Zq8xT4mB2nR7vK9pL3wY6sD1fH5jC0gE';

const CHANNELS = [
  'summary',
  'decision',
  'next step',
  'user turn',
  'assistant turn',
  'command run',
  'test command',
  'file path',
  'branch',
  'topic',
  'commit subject',
] as const;
type Channel = (typeof CHANNELS)[number];

/** The key as an assignment, in the form each channel can hold. */
const ASSIGNED: Record<Channel, string> = {
  summary: `Moved the token: api_token = "${KEY}"`,
  decision: `api_token = "${KEY}" stays in the vault`,
  'next step': `Revoke api_token = "${KEY}"`,
  'user turn': `my config has api_token = "${KEY}" in it`,
  'assistant turn': `I found api_token = "${KEY}" in config.ini`,
  'command run': `export API_TOKEN="${KEY}" && ./deploy.sh > deploy.log`,
  'test command': `API_TOKEN="${KEY}" npm test`,
  'file path': `config/api_token="${KEY}".ini`,
  branch: `fix/api_token="${KEY}"`,
  topic: `api_token = "${KEY}"`,
  'commit subject': `config: api_token = "${KEY}"`,
};

/** The key bare, where no rule knows it for one. */
const BARE: Record<Channel, string> = {
  summary: `The key ${KEY} is rotated now.`,
  decision: `Keep ${KEY} out of git`,
  'next step': `Check that ${KEY} no longer works`,
  'user turn': `I pasted ${KEY} by mistake earlier`,
  'assistant turn': `Noted: ${KEY} will be rotated`,
  'command run': `./rotate.sh ${KEY} > rotated.log`,
  'test command': `npm test -- --grep ${KEY}`,
  'file path': `keys/${KEY}.txt`,
  branch: `fix/${KEY}`,
  topic: `rotate ${KEY}`,
  'commit subject': `drop ${KEY} from the config`,
};

/** A handover's request and transcript steps, gathered channel by channel. */
interface Handover {
  readonly request: { topic?: string; summary?: string; decisions: string[]; next_steps: string[] };
  readonly steps: SessionStep[];
}

/** Puts `text` (tagged `tag`) into `channel` of `h`, making files, commits and the branch in `repo`. */
function put(repo: string, h: Handover, channel: Channel, tag: string, text: string): void {
  const line = `${tag} ${text}`;
  switch (channel) {
    case 'summary':
      h.request.summary = line;
      return;
    case 'decision':
      h.request.decisions.push(line);
      return;
    case 'next step':
      h.request.next_steps.push(line);
      return;
    case 'user turn':
      h.steps.push({ user: line });
      return;
    case 'assistant turn':
      h.steps.push({ assistant: line });
      return;
    case 'command run':
    case 'test command':
      h.steps.push({ command: text, cwd: repo, exitCode: 0, output: `${tag}: 3 passing` });
      h.steps.push({ assistant: `${tag} ran` });
      return;
    case 'file path':
      write(repo, `${tag}/${text}`, 'x\n');
      return;
    case 'branch':
      git(repo, 'checkout', '-q', '-b', `${tag}/${text}`);
      return;
    case 'topic':
      h.request.topic = line;
      return;
    case 'commit subject':
      write(repo, 'CHANGELOG.md', `- ${tag}\n`);
      git(repo, 'add', 'CHANGELOG.md');
      git(repo, 'commit', '-q', '-m', line);
      return;
  }
}

/** Every file written and the result, checked for the tags placed and for no piece of `values`. */
function assertNothingOf(values: readonly string[], repo: string, result: unknown, tags: readonly string[]): void {
  const files = writtenFiles(repo);
  assert.ok(
    files.some((f) => f.file.startsWith('history/')),
    'the budget cut something, so the history file was written too',
  );
  for (const tag of tags)
    assert.ok(
      files.some((f) => f.text.includes(tag) || f.file.includes(tag)),
      `${tag} reached the handoff's files`,
    );
  for (const f of files) {
    const leaked = pieces(`${f.file}\n${f.text}`, values);
    assert.deepEqual(
      leaked,
      [],
      `${f.file} shows ${leaked.length} piece(s) of the secret:\n${leaked.map((p) => f.text.split('\n').find((l) => l.includes(p)) ?? f.file).join('\n')}`,
    );
  }
  assert.deepEqual(pieces(JSON.stringify(result), values), [], 'the result shows none of it either');
}

describe('a secret found in one channel is redacted in every other (real repositories and transcripts)', function () {
  this.timeout(120_000);
  after(cleanupTempDirs);

  for (const source of CHANNELS) {
    it(`found as an assignment in the ${source}: redacted bare in all ${CHANNELS.length - 1} other channels and every file`, async () => {
      const repo = changedRepository();
      const h: Handover = { request: { decisions: [], next_steps: [] }, steps: [{ user: 'Finish the cart totals and hand over to the reviewer.' }] };
      const tags: string[] = [];
      for (const channel of CHANNELS) {
        const tag = `chk-${channel.replace(/\s+/g, '-')}`;
        put(repo, h, channel, tag, channel === source ? ASSIGNED[channel] : BARE[channel]);
        tags.push(tag);
      }
      const result = await handOverWith(repo, h.request, h.steps);
      assert.equal(result.status, 'ok', result.status === 'error' ? result.message : '');
      assertNothingOf([KEY], repo, result, tags);
      if (result.status === 'ok')
        assert.ok(
          (result.package.redactions['secret-assignment'] ?? 0) >= CHANNELS.length,
          `every occurrence counted: ${JSON.stringify(result.package.redactions)}`,
        );
    });
  }

  it("redacts it in what the files quote from outside the package: a custom specialist's own file", async () => {
    const repo = changedRepository();
    write(
      repo,
      '.handoff/specialists/key_rotator.md',
      `---\nid: key_rotator\nlabel: Key rotator\ndescription: Rotates ${KEY} and its kin.\n---\nchk-specialist Never print ${KEY} again.\n`,
    );
    const result = await handOverWith(repo, { specialist: 'key_rotator', summary: `chk-summary api_token = "${KEY}" leaked` }, [{ user: 'Rotate the key.' }]);
    assert.equal(result.status, 'ok', result.status === 'error' ? result.message : '');
    const files = writtenFiles(repo).filter((f) => !f.file.startsWith('specialists/'));
    assert.ok(
      files.some((f) => f.text.includes('Rotates [REDACTED:secret-assignment] and its kin')),
      'the description is quoted, redacted',
    );
    for (const f of files) assert.deepEqual(pieces(`${f.file}\n${f.text}`, [KEY]), [], f.file);
    assert.deepEqual(pieces(JSON.stringify(result), [KEY]), [], 'the result shows none of it either');
  });

  it('redacts the head of a value that drafting cut, when the whole value is found elsewhere in the handoff', async () => {
    const pat = `github_pat_${randomString(11, 22)}_${randomString(12, 59)}`;
    const jwtish = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(JSON.stringify({ sub: 'cart-bot', scope: 'orders:write '.repeat(12), iat: 1516239022 })).toString('base64url')}.${randomString(13, 43)}`;
    const repo = changedRepository();
    write(repo, 'CHANGELOG.md', '- totals\n');
    git(repo, 'add', 'CHANGELOG.md');
    git(repo, 'commit', '-q', '-m', `drop ${pat} from config`);
    // The drafted summary quotes the commit subject in 80 characters and the request in 200: both cut inside the value.
    const result = await handOverWith(repo, {}, [{ user: `use ${jwtish}` }, { assistant: 'chk-cut done' }]);
    assert.equal(result.status, 'ok');
    if (result.status !== 'ok') return;
    assert.match(result.package.summary, /\[REDACTED:github-token\]…/, result.package.summary);
    assertNothingOf([pat, jwtish.split('.')[1], jwtish.split('.')[2]], repo, result, ['chk-cut']);
  });

  it('fit-to-budget shortens the latest request after redaction: its cut never leaves the head of a value', async () => {
    // Twenty distinct tokens, each once, in one run without spaces: fit-to-budget cuts the
    // request hard, at whatever length fits. Cut before redaction, the token it fell in would
    // keep a head no rule knows and no other occurrence names.
    const tokens = Array.from({ length: 20 }, (_, i) => `ghp_${randomString(100 + i, 36)}`);
    for (const budget of [500, 600]) {
      const repo = changedRepository();
      const result = await handOverWith(repo, { summary: 'chk-fit the tokens the user pasted were revoked', max_context_tokens: budget }, [
        { user: `revoke these: ${tokens.join(',')}` },
      ]);
      assert.equal(result.status, 'ok');
      const handoff = writtenFiles(repo).find((f) => f.file.startsWith('handoffs/'));
      assert.match(
        handoff?.text ?? '',
        /revoke these: \[REDACTED:github-token\],.* … \[\d+ more characters\]/,
        `budget ${budget}: the latest request was shortened`,
      );
      assertNothingOf(tokens, repo, result, ['chk-fit']);
    }
  });

  it('record-result: one set through its results, its session note and every line of its outcome', async () => {
    const repo = changedRepository();
    assert.equal((await handOverWith(repo, { summary: 'Review the cart totals.' }, [{ user: 'Review it.' }])).status, 'ok');
    const answer = {
      summary: `chk-result rotated: api_token = "${KEY}"`,
      next_steps: [`purge ${KEY} from the cache`],
      blockers: [`${KEY} is still cached in the CDN`],
      criteria_met: [`${KEY} is revoked`],
      tests_run: [{ command: `npm test -- --grep ${KEY}`, result: 'failed' as const, exit_code: 1 }],
    };
    const env = { workspaceRoot: repo, sessionLog: { mode: 'none' } };
    const result = await recordResult({ specialist: 'quality_reviewer', ...answer }, env);
    assert.equal(result.status, 'ok', result.status === 'error' ? result.message : '');
    if (result.status !== 'ok') return;
    assert.equal(result.entries.length, 1);
    assert.ok(
      result.warnings.some((w) => w.includes('is not an acceptance criterion')) && result.entries[0].reasons.some((r) => r.includes('npm test -- --grep')),
      'the outcome quotes the criterion and the test command',
    );
    // No open handoff left for this specialist: a session note only.
    const noted = await recordResult({ specialist: 'security_data_engineer', ...answer, summary: `chk-note rotated: api_token = "${KEY}"` }, env);
    assert.equal(noted.status, 'ok');
    assert.ok(noted.status === 'ok' && noted.note_file);
    const files = writtenFiles(repo);
    assert.ok(
      files.some((f) => f.file.startsWith('notes/') && f.text.includes('chk-note')) && files.some((f) => f.text.includes('chk-result')),
      'the result and the note were written',
    );
    for (const f of files) assert.deepEqual(pieces(`${f.file}\n${f.text}`, [KEY]), [], f.file);
    assert.deepEqual(pieces(JSON.stringify([result, noted]), [KEY]), [], 'the outcomes show none of it');
  });

  it('the Claude Code hook: a key the transcript assigns is redacted in the event line, its reason, and the safety net', async () => {
    const repo = changedRepository();
    const transcript = writeClaudeSession(tempDir('secret-hook-'), repo, [{ user: `chk-hook my config has api_token = "${KEY}"` }, { assistant: 'Noted.' }]);
    const input = {
      session_id: '0b7e4c1a-2d3f-4e5a-8b6c-7d8e9f0a1b2c',
      transcript_path: transcript,
      cwd: repo,
      hook_event_name: 'SessionEnd',
      reason: `exit after ${KEY}`,
    };
    const outcome = await runClaudeHook(JSON.stringify(input));
    assert.equal(outcome.status, 'written', JSON.stringify(outcome).slice(0, 300));
    if (outcome.status !== 'written') return;
    assert.equal(outcome.event, 'SessionEnd (reason: exit after [REDACTED:secret-assignment])');
    const files = writtenFiles(repo);
    assert.ok(
      files.some((f) => f.text.includes('chk-hook')),
      'the transcript reached the safety net',
    );
    for (const f of files) assert.deepEqual(pieces(`${f.file}\n${f.text}`, [KEY]), [], f.file);
    assert.deepEqual(pieces(JSON.stringify(outcome), [KEY]), [], 'the outcome shows none of it');
  });

  it('MCP prior_handoffs: a key a handoff file assigns is redacted in the topics it lists too (a file edited by hand or by another agent)', async () => {
    const repo = changedRepository();
    const written = await handOverWith(repo, { summary: 'Review the cart totals.' }, [{ user: 'Review it.' }]);
    assert.equal(written.status, 'ok');
    if (written.status !== 'ok') return;
    const edited = readFileSync(written.handoff_file, 'utf8')
      .replace('topic_title: Cart totals', `topic_title: rotate ${KEY}`)
      .replace('Review the cart totals.', `Review the cart totals; api_token = "${KEY}" leaked.`);
    assert.ok(edited.includes(`rotate ${KEY}`) && edited.includes(`api_token = "${KEY}"`));
    writeFileSync(written.handoff_file, edited);
    const result = await callMcpTool(
      'prior_handoffs',
      {},
      { version: 'test', defaultRoot: repo, allowedRoots: [repo], environment: (r) => ({ workspaceRoot: r, sessionLog: { mode: 'none' } }) },
    );
    const shown = JSON.stringify(result);
    assert.ok(shown.includes('rotate [REDACTED:secret-assignment]'), `the topic is listed, redacted: ${shown.slice(0, 400)}`);
    assert.deepEqual(pieces(shown, [KEY]), [], 'the tool result shows none of it');
  });

  it('leaves a plain word found once as a secret where it is only a word', async () => {
    const repo = changedRepository();
    const result = await handOverWith(
      repo,
      { summary: 'chk-plain set password = "thisismypassword" for the demo', decisions: ['thisismypassword is too weak for production'] },
      [{ user: 'Finish the cart.' }],
    );
    assert.equal(result.status, 'ok');
    const handoff = writtenFiles(repo).find((f) => f.file.startsWith('handoffs/'));
    assert.ok(handoff?.text.includes('password = "[REDACTED:secret-assignment]"'), 'redacted where it is assigned');
    assert.ok(handoff?.text.includes('thisismypassword is too weak for production'), 'kept where it is a word');
  });
});
