/**
 * "Draft with …" in the engine (src/engine/draft/modelDraft.ts, src/engine/draft/modelPrompt.ts): the
 * request is built from the redacted evidence of a real git repository and a Claude Code
 * transcript written in its published JSONL format, sent once to a deterministic fake model
 * (test/helpers/fakeChatModel.ts), and its answer parsed all or nothing.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { collectDraftEvidence, type DraftEvidence } from '../../../src/engine/draft/draftSession';
import { draftWithModel, parseModelAnswer, type ModelDraft } from '../../../src/engine/draft/modelDraft';
import { buildModelPrompt, MODEL_DRAFT_EVIDENCE_TOKENS } from '../../../src/engine/draft/modelPrompt';
import { counterFor } from '../../../src/engine/tokenizers/tokenizer';
import { FIXED_MODEL_ANSWER, fakeChatModel, fakeTokenCount } from '../../helpers/fakeChatModel';
import { fakeSecrets } from '../../helpers/fakeSecrets';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../helpers/repo';

const secret = fakeSecrets().find((f) => f.kind === 'github-token')!.value;

/** Lines of a Claude Code transcript (~/.claude/projects/<dir>/<session>.jsonl), one JSON object each. */
function claudeTranscript(ws: string, turns: number): string {
  const at = (i: number) => new Date(Date.UTC(2026, 2, 1, 10, 0, i)).toISOString();
  const lines: object[] = [];
  let i = 0;
  for (let n = 0; n < turns; n++) {
    lines.push({
      type: 'user',
      message: { role: 'user', content: `Request ${n}: make the login tests pass and keep the cookie name.` },
      timestamp: at(i++),
      cwd: ws,
      sessionId: 's1',
      uuid: `u${n}`,
    });
    lines.push({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: `Answer ${n}: looking at src/login.ts, the cookie is set after the redirect.` }] },
      timestamp: at(i++),
      cwd: ws,
      sessionId: 's1',
      uuid: `a${n}`,
    });
  }
  const todos = [
    { content: 'Fix the cookie order', status: 'completed', activeForm: 'Fixing the cookie order' },
    { content: 'Run the whole suite', status: 'in_progress', activeForm: 'Running the whole suite' },
    { content: 'Open the pull request', status: 'pending', activeForm: 'Opening the pull request' },
  ];
  lines.push({
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'tool_use', id: 'todo1', name: 'TodoWrite', input: { todos } }] },
    timestamp: at(i++),
    cwd: ws,
    sessionId: 's1',
    uuid: 'p1',
  });
  lines.push({
    type: 'user',
    message: { role: 'user', content: `Use the token ${secret} for the registry and then open the pull request.` },
    timestamp: at(i++),
    cwd: ws,
    sessionId: 's1',
    uuid: 'last',
  });
  lines.push({
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: `npm test`, description: 'run tests' } }] },
    timestamp: at(i++),
    cwd: ws,
    sessionId: 's1',
    uuid: 'b1',
  });
  lines.push({
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Tests: 1 failed, 9 passed, 10 total', is_error: true }] },
    toolUseResult: { stdout: 'Tests: 1 failed, 9 passed, 10 total', stderr: '', interrupted: false },
    timestamp: at(i),
    cwd: ws,
    sessionId: 's1',
  });
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

async function evidenceOf(turns = 2): Promise<DraftEvidence> {
  const ws = initRepo(tempDir('handoff-model-'));
  write(ws, 'src/login.ts', 'export const cookie = "sid";\n');
  commitAll(ws, 'Add the login module');
  write(ws, 'src/login.ts', 'export const cookie = "sid"; // set before redirect\n');
  const transcript = path.join(tempDir('handoff-model-log-'), 'session.jsonl');
  write(path.dirname(transcript), path.basename(transcript), claudeTranscript(ws, turns));
  return collectDraftEvidence({ workspaceRoot: ws, sessionLog: { mode: transcript, sources: ['claude-code'] } });
}

describe('Draft with the language model (src/engine/draft/modelDraft.ts)', function () {
  this.timeout(60_000);
  after(cleanupTempDirs);

  it('sends the redacted evidence once and fills the four fields from the answer, with the token cost', async () => {
    const evidence = await evidenceOf();
    assert.ok(JSON.stringify(evidence.session).includes(secret), 'the planted secret is in the collected evidence');
    const model = fakeChatModel();
    const r = await draftWithModel(evidence, model, new AbortController().signal, { now: () => new Date('2026-03-01T11:00:00Z') });
    assert.equal(r.status, 'ok', r.status === 'error' ? r.message : r.status);
    const ok = r as ModelDraft;
    assert.equal(model.requests.length, 1);
    const prompt = model.requests[0];
    assert.ok(!prompt.includes(secret), 'the secret never reaches the model');
    assert.match(prompt, /\[REDACTED:github-token\]/);
    assert.match(prompt, /## Latest user request\n- Use the token \[REDACTED:github-token\] for the registry and then open the pull request\./);
    assert.match(prompt, /M src\/login\.ts \(\+1 -1\)/);
    assert.match(prompt, /Add the login module/);
    assert.match(prompt, /npm test — failed/);
    assert.match(prompt, /## Agent plan\n- \[completed\] Fix the cookie order\n- \[in_progress\] Run the whole suite\n- \[pending\] Open the pull request\n/);
    assert.match(prompt, /"summary": string, "decisions": string\[\], "failed_approaches": string\[\], "next_steps": string\[\]/);
    assert.ok((ok.redactions['github-token'] ?? 0) >= 1);
    const expected = JSON.parse(FIXED_MODEL_ANSWER) as { summary: string; decisions: string[]; failed_approaches: string[]; next_steps: string[] };
    const source = { reader: 'model:handoff-test/fake-draft-1', file: null, time: '2026-03-01T11:00:00.000Z' };
    assert.deepEqual(ok.fields, {
      summary: { text: expected.summary, sources: [source] },
      decisions: expected.decisions.map((text) => ({ text, source })),
      failed_approaches: expected.failed_approaches.map((text) => ({ text, source })),
      next_steps: expected.next_steps.map((text) => ({ text, source })),
    });
    assert.equal(ok.input_tokens, fakeTokenCount(prompt));
    assert.equal(ok.output_tokens, fakeTokenCount(FIXED_MODEL_ANSWER));
    assert.equal(model.counted[0], prompt, 'input tokens were counted on the prompt before it was sent');
    assert.equal(ok.left_out, '');
    assert.deepEqual(ok.model, { id: 'fake-draft-1', name: 'Fake Draft Model', vendor: 'handoff-test' });
  });

  it('takes a JSON answer inside a Markdown fence, and gives an error, never some of the fields, for any other answer', async () => {
    const evidence = await evidenceOf();
    const fenced = await draftWithModel(evidence, fakeChatModel({ answer: '```json\n' + FIXED_MODEL_ANSWER + '\n```' }), new AbortController().signal);
    assert.equal(fenced.status, 'ok');
    const bad: Array<[string, RegExp]> = [
      ['Here is the draft you asked for: the tests pass.', /is not the JSON object asked for/],
      ['{"summary": "x", "decisions": [', /is not valid JSON/],
      [JSON.stringify({ summary: 'x', decisions: [], failed_approaches: [] }), /next_steps is wrong/],
      [JSON.stringify({ summary: 'x', decisions: 'one', failed_approaches: [], next_steps: [] }), /decisions is wrong/],
      [JSON.stringify({ summary: '  ', decisions: [], failed_approaches: [], next_steps: [] }), /summary is wrong/],
      [JSON.stringify({ summary: 'x', decisions: Array.from({ length: 11 }, (_, i) => `d${i}`), failed_approaches: [], next_steps: [] }), /decisions is wrong/],
    ];
    for (const [answer, problem] of bad) {
      const r = await draftWithModel(evidence, fakeChatModel({ answer }), new AbortController().signal);
      assert.equal(r.status, 'error', answer);
      assert.ok(r.status === 'error' && !('fields' in r));
      assert.match(r.status === 'error' ? r.message : '', problem);
      assert.match(
        r.status === 'error' ? r.message : '',
        /^ERROR: Draft with the language model: Fake Draft Model gave an answer that cannot be used: .* — no field was changed/,
      );
      assert.equal(r.status === 'error' ? r.field : '', 'model');
    }
    assert.equal(parseModelAnswer('x'.repeat(20_001)).ok, false);
  });

  it('sends nothing when cancelled before the request, and reports a cancel during it', async () => {
    const evidence = await evidenceOf();
    const before = new AbortController();
    before.abort();
    const idle = fakeChatModel();
    assert.deepEqual(await draftWithModel(evidence, idle, before.signal), { status: 'cancelled', sent: false, input_tokens: 0 });
    assert.equal(idle.requests.length, 0);
    const during = new AbortController();
    const hanging = fakeChatModel({ hang: true });
    const pending = draftWithModel(evidence, hanging, during.signal);
    while (hanging.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    during.abort();
    const r = await pending;
    assert.equal(r.status, 'cancelled');
    assert.equal(r.status === 'cancelled' && r.sent, true);
    assert.equal(r.status === 'cancelled' ? r.input_tokens : -1, fakeTokenCount(hanging.requests[0]));
  });

  it('says why when the model fails or the request is over its window, sending nothing in the second case', async () => {
    const evidence = await evidenceOf();
    const failing = await draftWithModel(evidence, fakeChatModel({ fail: 'Rate limit exceeded' }), new AbortController().signal);
    assert.equal(failing.status, 'error');
    assert.match(failing.status === 'error' ? failing.message : '', /Fake Draft Model did not answer \(Rate limit exceeded\) — try again/);
    const small = fakeChatModel({ maxInputTokens: 50 });
    const over = await draftWithModel(evidence, small, new AbortController().signal);
    assert.match(
      over.status === 'error' ? over.message : '',
      /the request is \d+ tokens, over the 50 that Fake Draft Model accepts — pick a model with a larger context window/,
    );
    assert.equal(small.requests.length, 0);
  });

  it('bounds the evidence in tokens: the latest request always, then newest first; what is left out is counted and said', async () => {
    const evidence = await evidenceOf(400);
    const counter = counterFor('o200k_base');
    const full = await buildModelPrompt(evidence, counter);
    assert.ok(full.evidence_tokens <= MODEL_DRAFT_EVIDENCE_TOKENS);
    assert.equal(full.bound, MODEL_DRAFT_EVIDENCE_TOKENS);
    const small = await buildModelPrompt(evidence, counter, 300);
    assert.ok(small.evidence_tokens <= 300, `${small.evidence_tokens} tokens`);
    assert.match(small.text, /## Latest user request\n- Use the token \[REDACTED:github-token\]/);
    assert.ok(!small.text.includes(secret));
    const turns = small.sections.find((s) => s.title === 'Recent turns')!;
    assert.ok(turns.total > 0 && turns.omitted > 0, JSON.stringify(turns));
    const model = fakeChatModel();
    const r = await draftWithModel(evidence, model, new AbortController().signal, { bound: 300 });
    assert.equal(r.status, 'ok');
    assert.match((r as ModelDraft).left_out, /\d+ of \d+ recent turns/);
    // Kept turns are the newest, shown oldest first: the last kept one is the newest turn.
    const kept = [...model.requests[0].matchAll(/^- (?:user|assistant): (.*)$/gm)].map((m) => m[1]);
    const all = evidence.session!.recent_turns;
    assert.deepEqual(
      kept,
      all.slice(all.length - kept.length).map((t) => t.text.replace(secret, '[REDACTED:github-token]')),
    );
  });

  it('an answer whose summary is only invisible characters, or a port that answers with no text, is an error and changes no field', async () => {
    const evidence = await evidenceOf();
    const invisible = JSON.stringify({ summary: '\u200b\u202e\u2066', decisions: ['d'], failed_approaches: [], next_steps: ['n'] });
    const blank = await draftWithModel(evidence, fakeChatModel({ answer: invisible }), new AbortController().signal);
    assert.equal(blank.status, 'error');
    assert.match(
      blank.status === 'error' ? blank.message : '',
      /Fake Draft Model gave an answer that cannot be used: its summary is empty once invisible characters are removed — no field was changed/,
    );
    const base = fakeChatModel();
    for (const answer of [undefined, null, 42]) {
      const port = { ...base, send: () => Promise.resolve(answer as unknown as string) };
      const r = await draftWithModel(evidence, port, new AbortController().signal);
      assert.equal(r.status, 'error', String(answer));
      assert.match(r.status === 'error' ? r.message : '', /gave an answer that cannot be used: it is not text/);
    }
  });
});
