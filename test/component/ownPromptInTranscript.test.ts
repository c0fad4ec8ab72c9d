/**
 * A transcript that holds one of our own receiving prompts (what *Continue in…*, *Copy Prompt*
 * and *Open Prompt in Chat* give the next agent) or a chat's sign-in notice in the model's
 * place: the next handoff drafted from it never quotes them as the user's request or as the
 * agent's words. On a real temporary git repository: a first handoff is written, the engine
 * builds its receiving prompt, and the transcript the test writes — in Copilot Chat's session
 * document and mutation log, Claude Code's JSONL and Codex's rollout — carries an earlier real
 * request, the prompt as the next user message and the notice as the answer.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseUserRequests } from '../../src/core/handoff/draftSections';
import { parseHandoff } from '../../src/core/handoff/parse';
import { handover } from '../../src/engine/handover/handover';
import { buildPrompt } from '../../src/engine/receive/prompt';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';

const REQUEST = 'Make the cart total show cents and keep the API format.';
const AGENT_SAID = 'The total is in cents now; the API keeps its old format.';
const COPILOT_NOTICE = 'You need to set up GitHub Copilot and be signed in to use Chat.';
const CLAUDE_NOTICE = 'Invalid API key · Please run /login';
const T0 = Date.parse('2026-12-01T10:00:00.000Z');

function repo(): string {
  const ws = initRepo(tempDir('handoff-own-prompt-'));
  write(ws, 'src/cart.ts', 'export const total = 0;\n');
  commitAll(ws, 'cart');
  write(ws, 'src/cart.ts', 'export const total = 1;\n');
  return ws;
}

/** A Copilot Chat request as VS Code serializes it: the message, the response parts, the answering agent. */
function copilotRequest(text: string, reply: string, agentId: string, at: number) {
  return {
    requestId: `request_${at}`,
    message: { text, parts: [{ kind: 'text', text, range: { start: 0, endExclusive: text.length } }] },
    variableData: { variables: [] },
    response: [{ value: reply, supportThemeIcons: false, supportHtml: false }],
    agent: {
      extensionId: { value: agentId.startsWith('setup.') ? 'vscode.chat' : 'GitHub.copilot-chat' },
      id: agentId,
      name: agentId.startsWith('setup.') ? 'GitHub Copilot' : 'copilot',
      isDefault: true,
    },
    timestamp: at,
  };
}

const copilotSession = (prompt: string) => ({
  version: 3,
  requesterUsername: 'dev',
  responderUsername: 'GitHub Copilot',
  sessionId: 'b0c1d2e3-0000-4000-8000-000000000001',
  creationDate: T0,
  requests: [copilotRequest(REQUEST, AGENT_SAID, 'github.copilot.editsAgent', T0 + 1000), copilotRequest(prompt, COPILOT_NOTICE, 'setup.agent', T0 + 60_000)],
});

function claudeLines(prompt: string, cwd: string): string {
  const base = {
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd,
    sessionId: '5c1d2e3f-0000-4000-8000-000000000002',
    version: '2.0.14',
    gitBranch: 'main',
  };
  const at = (s: number) => new Date(T0 + s * 1000).toISOString();
  const user = (content: string, s: number) => ({ ...base, type: 'user', message: { role: 'user', content }, uuid: `u${s}`, timestamp: at(s) });
  const assistant = (text: string, s: number, extra: object = {}) => ({
    ...base,
    type: 'assistant',
    message: { id: `msg_${s}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text }], stop_reason: 'end_turn' },
    uuid: `a${s}`,
    timestamp: at(s),
    ...extra,
  });
  return [
    user(REQUEST, 1),
    assistant(AGENT_SAID, 5),
    user(prompt, 60),
    // Claude Code writes its own notice as an assistant record, model "<synthetic>", marked isApiErrorMessage.
    {
      ...assistant(CLAUDE_NOTICE, 61),
      message: {
        id: 'msg_61',
        type: 'message',
        role: 'assistant',
        model: '<synthetic>',
        content: [{ type: 'text', text: CLAUDE_NOTICE }],
        stop_reason: 'stop_sequence',
      },
      isApiErrorMessage: true,
    },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n');
}

function codexLines(prompt: string, cwd: string): string {
  const at = (s: number) => new Date(T0 + s * 1000).toISOString();
  const message = (role: string, text: string, s: number) => ({
    timestamp: at(s),
    type: 'response_item',
    payload: { type: 'message', role, content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }] },
  });
  return [
    {
      timestamp: at(0),
      type: 'session_meta',
      payload: { id: '7e8f9a0b-0000-4000-8000-000000000003', timestamp: at(0), cwd, originator: 'codex_cli_rs', cli_version: '0.89.0' },
    },
    message('user', REQUEST, 1),
    message('assistant', AGENT_SAID, 5),
    message('user', `Please pick this up.\n\n${prompt}`, 60),
  ]
    .map((l) => JSON.stringify(l))
    .join('\n');
}

describe('our receiving prompt and a chat’s sign-in notice are never the request or the agent’s words', function () {
  this.timeout(60_000);
  after(cleanupTempDirs);

  const formats: Array<[string, string, (prompt: string, ws: string) => string, string | null]> = [
    ['Copilot Chat session document', 'session.json', (p) => JSON.stringify(copilotSession(p)), null],
    ['Copilot Chat mutation log', 'session.jsonl', (p) => JSON.stringify({ kind: 0, v: copilotSession(p) }), null],
    ['Claude Code transcript', 'claude.jsonl', (p, ws) => claudeLines(p, ws), null],
    ['Codex rollout (words typed above the pasted prompt)', 'rollout-2026-12-01T10-00-00-7e8f9a0b.jsonl', (p, ws) => codexLines(p, ws), 'Please pick this up.'],
  ];

  for (const [name, fileName, render, typedAbove] of formats) {
    it(name, async () => {
      const ws = repo();
      const first = await handover(
        { specialist: 'implementation_engineer', topic: 'cart cents', summary: 'First handoff.' },
        { workspaceRoot: ws, sessionLog: { mode: 'off' } },
      );
      assert.equal(first.status, 'ok', first.status === 'error' ? first.message : '');
      const built = await buildPrompt({ handoff: 'latest', take: false }, { workspaceRoot: ws });
      assert.equal(built.status, 'ok', built.status === 'error' ? built.message : '');
      if (built.status !== 'ok') return;
      const transcript = path.join(tempDir('handoff-own-prompt-t-'), fileName);
      writeFileSync(transcript, render(built.prompt, ws));

      const next = await handover(
        { specialist: 'quality_reviewer', topic: 'review cents', draft: true },
        { workspaceRoot: ws, sessionLog: { mode: transcript } },
      );
      assert.equal(next.status, 'ok', next.status === 'error' ? next.message : '');
      if (next.status !== 'ok') return;
      const pkg = next.package;
      const latest = typedAbove ?? REQUEST;
      const asked = pkg.summary.split('\n').find((l) => l.startsWith('Asked: '));
      assert.equal(asked, `Asked: "${latest}"`, pkg.summary);
      assert.match(pkg.summary, new RegExp(`the agent's last message: "${AGENT_SAID.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`), pkg.summary);
      assert.deepEqual(
        pkg.user_requests.map((u) => u.text),
        typedAbove ? [REQUEST, typedAbove] : [REQUEST],
      );
      for (const t of pkg.recent_turns) {
        assert.ok(!t.text.includes('## Receive rules') && !t.text.includes(built.persona_marker), `a recent turn quotes the prompt: ${t.text.slice(0, 120)}`);
        assert.ok(t.text !== COPILOT_NOTICE && t.text !== CLAUDE_NOTICE, `a recent turn quotes the notice: ${t.text}`);
      }
      const written = parseHandoff(readFileSync(next.handoff_file, 'utf8'));
      assert.ok(written.ok);
      if (!written.ok) return;
      assert.deepEqual(
        parseUserRequests(written.handoff.sections.get('User requests') ?? '').map((u) => u.text),
        pkg.user_requests.map((u) => u.text),
      );
      const file = readFileSync(next.handoff_file, 'utf8');
      assert.ok(!file.includes(COPILOT_NOTICE) && !file.includes(CLAUDE_NOTICE), 'the notice is nowhere in the handoff');
      const intro = built.prompt.split('\n').find((l) => l.startsWith('You are the ')) ?? '';
      assert.ok(intro && !file.includes(intro) && !file.includes('## Receive rules'), `the prompt is nowhere in the handoff:\n${file}`);
    });
  }
});
