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

const source = { reader: 'claude-code', file: '/home/dev/.claude/projects/x/1.jsonl', time: '2026-12-01T14:00:00Z' };
/** A session draft (src/core/handoff/draftFields.ts) as the host sends it. */
const sessionDraft = {
  summary: { text: 'Asked: auth. Done: middleware.', sources: [source] },
  decisions: [],
  failed_approaches: [],
  next_steps: [{ text: 'Review', source, in_progress: true }],
  blockers: [],
  completed: [{ text: 'Middleware', source }],
  user_requests: [{ text: 'Add auth', time: source.time, source: 'claude-code', file: source.file }],
  commands_run: [
    { command: 'npm ci', cwd: null, kind: 'install', exit_code: 0, result: 'succeeded', count: 1, failed_count: 0, source: 'claude-code', last_at: null },
  ],
  commands_run_omitted: 0,
  left_out: { older_requests: 1, commands_beyond_cap: 0, collapsed_todos: 0, turns: 4 },
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
  {
    name: 'draftChanged (a budget chosen beside the meter)',
    valid: { type: 'draftChanged', draft: { ...draft, budget: 'small' }, revision: 5 },
    invalid: [
      ['a preset that does not exist', { type: 'draftChanged', draft: { ...draft, budget: 'huge' }, revision: 1 }],
      ['a budget of no tokens', { type: 'draftChanged', draft: { ...draft, budget: 0 }, revision: 1 }],
      ['a fraction of a token', { type: 'draftChanged', draft: { ...draft, budget: 2.5 }, revision: 1 }],
      ['more than the request takes', { type: 'draftChanged', draft: { ...draft, budget: 10_000_001 }, revision: 1 }],
      ['a number as text', { type: 'draftChanged', draft: { ...draft, budget: '4000' }, revision: 1 }],
    ],
  },
  {
    name: 'handOver (a custom budget)',
    valid: { type: 'request', id: 9, method: 'handOver', draft: { ...draft, budget: 4000 }, revision: 6 },
    invalid: [['a negative budget', { type: 'request', id: 9, method: 'handOver', draft: { ...draft, budget: -4000 }, revision: 6 }]],
  },
  { name: 'refreshEvidence', valid: { type: 'refreshEvidence' }, invalid: [['an extra field', { type: 'refreshEvidence', force: true }]] },
  { name: 'redraft', valid: { type: 'redraft' }, invalid: [['an extra field', { type: 'redraft', replace: true }]] },
  { name: 'draftWithModel', valid: { type: 'draftWithModel' }, invalid: [['a prompt of its own', { type: 'draftWithModel', prompt: 'ignore the evidence' }]] },
  { name: 'cancelModelDraft', valid: { type: 'cancelModelDraft' }, invalid: [['an extra field', { type: 'cancelModelDraft', id: 1 }]] },
  {
    name: 'draftChanged (drafted fields)',
    valid: {
      type: 'draftChanged',
      draft: {
        ...draft,
        completed: ['Added auth'],
        user_requests: [{ text: 'Add auth', time: null, source: 'claude-code' }],
        commands_run: [{ command: 'npm ci', kind: 'install', result: 'succeeded' }],
        drafted: ['completed'],
        edited: ['summary'],
      },
      revision: 4,
    },
    invalid: [
      ['an unknown drafted field', { type: 'draftChanged', draft: { ...draft, drafted: ['topic'] }, revision: 1 }],
      ['an empty user request', { type: 'draftChanged', draft: { ...draft, user_requests: [{ text: '' }] }, revision: 1 }],
      [
        'a command of an unknown kind',
        { type: 'draftChanged', draft: { ...draft, commands_run: [{ command: 'x', kind: 'magic', result: 'succeeded' }] }, revision: 1 },
      ],
      [
        'a command over the item limit',
        { type: 'draftChanged', draft: { ...draft, commands_run: [{ command: 'x'.repeat(20_001), kind: 'other', result: 'unknown' }] }, revision: 1 },
      ],
    ],
  },
  {
    name: 'runCommand',
    valid: { type: 'runCommand', command: 'manageTrust' },
    invalid: [
      ['a command outside the list', { type: 'runCommand', command: 'workbench.action.terminal.sendSequence' }],
      ['no command', { type: 'runCommand' }],
      ['an empty handoff', { type: 'runCommand', command: 'copyPrompt', handoff: '' }],
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
      [
        'a zero budget',
        {
          type: 'init',
          draft,
          revision: 0,
          specialists: [],
          settings: { maxContextTokens: 0, tokenizer: 'o200k_base', maxHandoverDepth: 3, includeRecentTurns: 5 },
          state: { hasFolder: true, trusted: true, handoffCount: 0 },
        },
      ],
      [
        'an unknown specialist source',
        {
          type: 'init',
          draft,
          revision: 0,
          specialists: [{ id: 'x', label: 'X', icon: 'i', mandate: 'm', persona_marker: '[x]', return_condition: 'r', source: 'web' }],
          settings: { maxContextTokens: 1, tokenizer: 't', maxHandoverDepth: 3, includeRecentTurns: 5 },
          state: { hasFolder: true, trusted: true, handoffCount: 0 },
        },
      ],
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
  {
    name: 'evidence (loading)',
    valid: { type: 'evidence', status: 'loading', evidence: null },
    invalid: [['no evidence field', { type: 'evidence', status: 'loading' }]],
  },
  {
    name: 'evidence (error)',
    valid: { type: 'evidence', status: 'error', evidence: null, message: 'git failed' },
    invalid: [['a message that is not text', { type: 'evidence', status: 'error', evidence: null, message: 1 }]],
  },
  {
    name: 'estimate',
    valid: {
      type: 'estimate',
      tokens: 1234,
      budget: 3000,
      estimated: false,
      over: false,
      cuts: [],
      fitted_tokens: null,
      hop: 2,
      hop_guard: { reasons: ['cycle'], max_depth: 3, confirmed: false },
      problem: null,
    },
    invalid: [
      [
        'negative tokens',
        { type: 'estimate', tokens: -1, budget: 3000, estimated: false, over: false, cuts: [], fitted_tokens: null, hop: 1, hop_guard: null, problem: null },
      ],
      [
        'an unknown guard reason',
        {
          type: 'estimate',
          tokens: 1,
          budget: 3000,
          estimated: false,
          over: false,
          cuts: [],
          fitted_tokens: null,
          hop: 1,
          hop_guard: { reasons: ['boredom'], max_depth: 3, confirmed: false },
          problem: null,
        },
      ],
      [
        'hop 0',
        { type: 'estimate', tokens: 1, budget: 3000, estimated: false, over: false, cuts: [], fitted_tokens: null, hop: 0, hop_guard: null, problem: null },
      ],
    ],
  },
  {
    name: 'handedOver',
    valid: {
      type: 'handedOver',
      persona_marker: '[hacker]',
      handoff_id: '2026-12-01T10-00-00.000Z_hacker',
      handoff_file: '.handoff/handoffs/x.md',
      tokens: 900,
      budget: 3000,
      revision: 4,
    },
    invalid: [
      ['no revision', { type: 'handedOver', persona_marker: '[hacker]', handoff_id: 'h', handoff_file: 'x', tokens: 900, budget: 3000 }],
      ['no handoff id', { type: 'handedOver', persona_marker: '[hacker]', handoff_file: 'x', tokens: 900, budget: 3000, revision: 4 }],
    ],
  },
  {
    name: 'draft',
    valid: { type: 'draft', draft: sessionDraft, drafted: ['summary', 'next_steps'], redraft: true },
    invalid: [
      ['no drafted list', { type: 'draft', draft: sessionDraft }],
      ['an item without its source', { type: 'draft', draft: { ...sessionDraft, next_steps: [{ text: 'x' }] }, drafted: [] }],
      ['a negative loss count', { type: 'draft', draft: { ...sessionDraft, left_out: { ...sessionDraft.left_out, turns: -1 } }, drafted: [] }],
    ],
  },
  {
    name: 'modelDraft',
    valid: {
      type: 'modelDraft',
      state: 'done',
      model: 'Test Model',
      input_tokens: 812,
      output_tokens: 95,
      fields: { summary: sessionDraft.summary, decisions: [], failed_approaches: [], next_steps: sessionDraft.next_steps },
    },
    invalid: [
      ['an unknown state', { type: 'modelDraft', state: 'thinking' }],
      ['a fractional token count', { type: 'modelDraft', state: 'done', input_tokens: 1.5 }],
    ],
  },
  {
    name: 'estimate (with the loss report)',
    valid: {
      type: 'estimate',
      tokens: 10,
      budget: 3000,
      estimated: false,
      over: false,
      cuts: [],
      fitted_tokens: null,
      hop: 1,
      hop_guard: null,
      problem: null,
      left_out: sessionDraft.left_out,
    },
    invalid: [
      [
        'a loss count that is not a number',
        {
          type: 'estimate',
          tokens: 10,
          budget: 3000,
          estimated: false,
          over: false,
          cuts: [],
          fitted_tokens: null,
          hop: 1,
          hop_guard: null,
          problem: null,
          left_out: { turns: 'many' },
        },
      ],
    ],
  },
  {
    name: 'banner',
    valid: { type: 'banner', kind: 'error', message: 'Could not write' },
    invalid: [['an unknown kind', { type: 'banner', kind: 'party', message: 'x' }]],
  },
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
