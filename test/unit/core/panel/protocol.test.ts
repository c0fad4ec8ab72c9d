import assert from 'node:assert/strict';
import { emptyDraft } from '../../../../src/core/panel/draft';
import { MAX_SUMMARY_CHARS } from '../../../../src/core/handoff/limits';
import { HostToWebviewSchema, WebviewToHostSchema, parseWebviewMessage } from '../../../../src/core/panel/protocol';

const draft = { ...emptyDraft(), specialist: 'quality_reviewer', topic: 'auth', summary: 'Done.' };

const evidence = {
  touched_files: [{ path: 'a.ts', old_path: null, status: 'M', added: 1, deleted: 0, binary: false }],
  touched_files_omitted: 0,
  tests_run: [],
  commits: [],
  recent_turns: [{ role: 'user', text: 'hi' }],
  branch: 'main',
  head_commit: 'a'.repeat(40),
  notes: [],
  git_problem: null,
  latest: { id: 'h1', specialist: 'hacker', hop: 1, chain: ['hacker'] },
};

/** Each message the webview may send, valid, with ways to break it. */
const FROM_WEBVIEW: Array<{ name: string; valid: unknown; invalid: Array<[string, unknown]> }> = [
  { name: 'ready', valid: { type: 'ready' }, invalid: [['an extra field', { type: 'ready', x: 1 }]] },
  {
    name: 'draftChanged',
    valid: { type: 'draftChanged', draft, revision: 3 },
    invalid: [
      ['no revision', { type: 'draftChanged', draft }],
      ['a negative revision', { type: 'draftChanged', draft, revision: -1 }],
      ['a summary over the limit', { type: 'draftChanged', draft: { ...draft, summary: 'x'.repeat(MAX_SUMMARY_CHARS + 1) }, revision: 1 }],
      ['a list that is not a list', { type: 'draftChanged', draft: { ...draft, decisions: 'x' }, revision: 1 }],
      ['an unknown reason kind', { type: 'draftChanged', draft: { ...draft, reason_kind: 'boredom' }, revision: 1 }],
    ],
  },
  { name: 'refreshEvidence', valid: { type: 'refreshEvidence' }, invalid: [['an extra field', { type: 'refreshEvidence', force: true }]] },
  {
    name: 'runCommand',
    valid: { type: 'runCommand', command: 'manageTrust' },
    invalid: [
      ['a command outside the list', { type: 'runCommand', command: 'workbench.action.terminal.sendSequence' }],
      ['no command', { type: 'runCommand' }],
    ],
  },
  {
    name: 'preview request',
    valid: { type: 'request', id: 1, method: 'preview', draft, revision: 2 },
    invalid: [
      ['a fractional id', { type: 'request', id: 1.5, method: 'preview', draft, revision: 2 }],
      ['no draft', { type: 'request', id: 1, method: 'preview', revision: 2 }],
    ],
  },
  {
    name: 'handOver request',
    valid: { type: 'request', id: 2, method: 'handOver', draft, revision: 2 },
    invalid: [
      ['an unknown method', { type: 'request', id: 2, method: 'deleteEverything', draft, revision: 2 }],
      ['a negative id', { type: 'request', id: -2, method: 'handOver', draft, revision: 2 }],
    ],
  },
];

/** Each message the host may send, valid, with ways to break it. */
const FROM_HOST: Array<{ name: string; valid: unknown; invalid: Array<[string, unknown]> }> = [
  {
    name: 'init',
    valid: {
      type: 'init',
      draft,
      revision: 0,
      specialists: [{ id: 'hacker', label: 'Hacker', icon: 'zap', mandate: 'm', persona_marker: '[hacker]', return_condition: 'r', source: 'builtin' }],
      settings: { maxContextTokens: 3000, tokenizer: 'o200k_base', maxHandoverDepth: 3, includeRecentTurns: 5 },
      state: { hasFolder: true, trusted: true, handoffCount: 0 },
    },
    invalid: [
      ['a zero budget', { type: 'init', draft, revision: 0, specialists: [], settings: { maxContextTokens: 0, tokenizer: 'o200k_base', maxHandoverDepth: 3, includeRecentTurns: 5 }, state: { hasFolder: true, trusted: true, handoffCount: 0 } }],
      ['an unknown specialist source', { type: 'init', draft, revision: 0, specialists: [{ id: 'x', label: 'X', icon: 'i', mandate: 'm', persona_marker: '[x]', return_condition: 'r', source: 'web' }], settings: { maxContextTokens: 1, tokenizer: 't', maxHandoverDepth: 3, includeRecentTurns: 5 }, state: { hasFolder: true, trusted: true, handoffCount: 0 } }],
    ],
  },
  {
    name: 'state',
    valid: { type: 'state', state: { hasFolder: false, trusted: true, handoffCount: 2 } },
    invalid: [['a negative count', { type: 'state', state: { hasFolder: true, trusted: true, handoffCount: -1 } }]],
  },
  {
    name: 'evidence (ready)',
    valid: { type: 'evidence', status: 'ready', evidence },
    invalid: [
      ['an unknown status', { type: 'evidence', status: 'done', evidence }],
      ['an unknown git problem', { type: 'evidence', status: 'ready', evidence: { ...evidence, git_problem: 'sad' } }],
    ],
  },
  { name: 'evidence (loading)', valid: { type: 'evidence', status: 'loading', evidence: null }, invalid: [['no evidence field', { type: 'evidence', status: 'loading' }]] },
  { name: 'evidence (error)', valid: { type: 'evidence', status: 'error', evidence: null, message: 'git failed' }, invalid: [['a message that is not text', { type: 'evidence', status: 'error', evidence: null, message: 1 }]] },
  {
    name: 'estimate',
    valid: { type: 'estimate', tokens: 1234, budget: 3000, estimated: false, over: false, cuts: [], fitted_tokens: null, hop: 2, hop_guard: { reasons: ['cycle'], max_depth: 3, confirmed: false }, problem: null },
    invalid: [
      ['negative tokens', { type: 'estimate', tokens: -1, budget: 3000, estimated: false, over: false, cuts: [], fitted_tokens: null, hop: 1, hop_guard: null, problem: null }],
      ['an unknown guard reason', { type: 'estimate', tokens: 1, budget: 3000, estimated: false, over: false, cuts: [], fitted_tokens: null, hop: 1, hop_guard: { reasons: ['boredom'], max_depth: 3, confirmed: false }, problem: null }],
      ['hop 0', { type: 'estimate', tokens: 1, budget: 3000, estimated: false, over: false, cuts: [], fitted_tokens: null, hop: 0, hop_guard: null, problem: null }],
    ],
  },
  {
    name: 'handedOver',
    valid: { type: 'handedOver', persona_marker: '[hacker]', handoff_file: '.handoff/handoffs/x.md', tokens: 900, budget: 3000, revision: 4 },
    invalid: [['no revision', { type: 'handedOver', persona_marker: '[hacker]', handoff_file: 'x', tokens: 900, budget: 3000 }]],
  },
  { name: 'banner', valid: { type: 'banner', kind: 'error', message: 'Could not write' }, invalid: [['an unknown kind', { type: 'banner', kind: 'party', message: 'x' }]] },
  {
    name: 'response',
    valid: { type: 'response', id: 2, ok: false, message: 'ERROR: topic is required' },
    invalid: [['ok that is not a boolean', { type: 'response', id: 2, ok: 'yes' }]],
  },
];

describe('panel protocol (zod schemas at the webview boundary)', () => {
  for (const m of FROM_WEBVIEW) {
    it(`webview → host "${m.name}": accepted as sent, refused when broken`, () => {
      const ok = parseWebviewMessage(m.valid);
      assert.ok(ok.ok, ok.ok ? '' : ok.error);
      for (const [how, bad] of m.invalid) {
        const r = parseWebviewMessage(bad);
        assert.equal(r.ok, false, `${m.name} with ${how} must be refused`);
        assert.ok(!r.ok && r.error.length > 0, 'the refusal says why (for the output channel)');
      }
    });
  }

  for (const m of FROM_HOST) {
    it(`host → webview "${m.name}": accepted as sent, refused when broken`, () => {
      const ok = HostToWebviewSchema.safeParse(m.valid);
      assert.ok(ok.success, ok.success ? '' : JSON.stringify(ok.error.issues[0]));
      for (const [how, bad] of m.invalid) {
        assert.equal(HostToWebviewSchema.safeParse(bad).success, false, `${m.name} with ${how} must be refused`);
      }
    });
  }

  it('refuses what is not a message at all, naming where it is wrong', () => {
    for (const junk of [null, undefined, 42, 'ready', [], {}, { type: 'hack' }, { type: 'request', id: 1, method: 'handOver' }]) {
      const r = parseWebviewMessage(junk);
      assert.equal(r.ok, false, JSON.stringify(junk));
    }
    const r = parseWebviewMessage({ type: 'draftChanged', draft: { ...draft, decisions: [1] }, revision: 1 });
    assert.ok(!r.ok);
    assert.match(r.error, /draft\.decisions\.0|decisions/);
  });

  it('host messages never pass for webview messages, and the reverse', () => {
    for (const m of FROM_HOST) {
      assert.equal(WebviewToHostSchema.safeParse(m.valid).success, false, m.name);
    }
    for (const m of FROM_WEBVIEW) {
      assert.equal(HostToWebviewSchema.safeParse(m.valid).success, false, m.name);
    }
  });
});
