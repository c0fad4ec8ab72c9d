import assert from 'node:assert/strict';
import { SessionDraftSchema, type SessionDraft } from '../../../../src/core/handoff/draftFields';
import { HandoverRequestSchema } from '../../../../src/core/handoff/request';
import { draftToRequest, emptyDraft, parseSavedDraft, type Draft } from '../../../../src/core/panel/draft';
import { describeLeftOut, lossReportText } from '../../../../src/core/panel/lossReport';
import {
  describeSource,
  draftedAnswers,
  emptySessionDraft,
  draftedFields,
  itemSources,
  markEdited,
  mayFill,
  prefill,
  shortTime,
  stillDrafted,
} from '../../../../src/core/panel/prefill';
import { parseSavedSession } from '../../../../src/core/panel/savedState';

const FILE = '/home/dev/.claude/projects/-work-todo/3f2a9c.jsonl';
const at = (min: number) => `2026-12-01T14:${String(min).padStart(2, '0')}:00.000Z`;
const src = (min: number) => ({ reader: 'claude-code', file: FILE, time: at(min) });

/** A session draft as src/engine/draft/evidenceDraft.ts returns it, parsed with the shared schema. */
function sessionDraft(over: Partial<SessionDraft> = {}): SessionDraft {
  return SessionDraftSchema.parse({
    summary: { text: 'Asked: add token auth. Done: the middleware. Open: review.', sources: [src(1), { reader: 'git', file: null, time: null }] },
    decisions: [],
    failed_approaches: [],
    next_steps: [
      { text: 'Write the token endpoint tests', source: src(5), in_progress: true },
      { text: 'Review the middleware', source: src(5) },
    ],
    blockers: [],
    completed: [{ text: 'Add the auth middleware', source: src(5) }],
    user_requests: [{ text: 'Add bearer-token auth to the todo API', time: at(0), source: 'claude-code', file: FILE }],
    commands_run: [
      {
        command: 'npm install jsonwebtoken',
        cwd: '/work/todo',
        kind: 'install',
        exit_code: 0,
        result: 'succeeded',
        count: 2,
        source: 'claude-code',
        last_at: at(3),
      },
    ],
    commands_run_omitted: 0,
    left_out: { older_requests: 3, commands_beyond_cap: 0, collapsed_todos: 1, turns: 12 },
    ...over,
  });
}

const form = (over: Partial<Draft> = {}): Draft => ({ ...emptyDraft(), ...over });

describe('panel prefill (the form filled from the session draft, issue 15)', () => {
  it('fills an empty form and marks every field it filled as drafted, in the panel order', () => {
    const r = prefill(form(), sessionDraft());
    assert.deepEqual(r.filled, ['summary', 'completed', 'next_steps', 'user_requests', 'commands_run']);
    assert.deepEqual(r.draft.drafted, r.filled);
    assert.deepEqual(r.kept, []);
    assert.equal(r.draft.summary, 'Asked: add token auth. Done: the middleware. Open: review.');
    assert.deepEqual(
      r.draft.next_steps,
      ['(in progress) Write the token endpoint tests', 'Review the middleware'],
      'the in-progress plan item comes first, marked',
    );
    assert.deepEqual(r.draft.completed, ['Add the auth middleware']);
    assert.deepEqual(r.draft.user_requests, [{ text: 'Add bearer-token auth to the todo API', time: at(0), source: 'claude-code' }]);
    assert.equal(r.draft.commands_run[0].command, 'npm install jsonwebtoken');
    assert.deepEqual(r.draft.decisions, [], 'nothing drafted, nothing marked');
    assert.deepEqual(draftedFields(sessionDraft()), r.filled);
  });

  it("an edit makes the field the user's: unmarked, and a redraft leaves it and reports it kept", () => {
    const first = prefill(form(), sessionDraft()).draft;
    const edited = markEdited({ ...first, summary: 'My own words.' }, ['summary', 'topic']);
    assert.deepEqual(edited.drafted, ['completed', 'next_steps', 'user_requests', 'commands_run']);
    assert.deepEqual(edited.edited, ['summary']);
    assert.equal(mayFill(edited, 'summary'), false);
    const newer = sessionDraft({
      summary: { text: 'A newer summary.', sources: [src(9)] },
      completed: [
        { text: 'Add the auth middleware', source: src(5) },
        { text: 'Write the tests', source: src(9) },
      ],
    });
    const r = prefill(edited, newer);
    assert.equal(r.draft.summary, 'My own words.', "the user's text is never replaced without asking");
    assert.deepEqual(r.kept, ['summary']);
    assert.deepEqual(r.draft.completed, ['Add the auth middleware', 'Write the tests'], 'a field still as drafted takes the newer draft');
    const replaced = prefill(r.draft, newer, { replaceEdited: true });
    assert.equal(replaced.draft.summary, 'A newer summary.');
    assert.ok(replaced.draft.drafted.includes('summary'));
    assert.deepEqual(replaced.draft.edited, []);
  });

  it('a field the user cleared stays empty; text typed before any draft (an older saved draft) is never overwritten', () => {
    const cleared = markEdited({ ...prefill(form(), sessionDraft()).draft, completed: [] }, ['completed']);
    assert.deepEqual(prefill(cleared, sessionDraft()).draft.completed, []);
    const typed = form({ summary: 'Typed before the draft came.' });
    const r = prefill(typed, sessionDraft());
    assert.equal(r.draft.summary, 'Typed before the draft came.');
    assert.deepEqual(r.kept, ['summary']);
  });

  it('an empty session draft is a valid one that fills nothing', () => {
    assert.ok(SessionDraftSchema.safeParse(emptySessionDraft()).success);
    assert.deepEqual(draftedFields(emptySessionDraft()), []);
    const typed = form({ summary: 'Mine.' });
    assert.deepEqual(prefill(typed, emptySessionDraft()).draft, typed);
  });

  it('only the fields named change when a language model drafts four of them', () => {
    const first = prefill(form(), sessionDraft()).draft;
    const model = sessionDraft({ summary: { text: 'Model summary.', sources: [{ reader: 'model:test', file: null, time: null }] }, completed: [] });
    const r = prefill(first, model, { only: ['summary', 'decisions', 'failed_approaches', 'next_steps'] });
    assert.equal(r.draft.summary, 'Model summary.');
    assert.deepEqual(r.draft.completed, ['Add the auth middleware'], "Done is not the model's to change");
  });

  it("shows each drafted item's source (reader, file name, time), and none once the field is edited", () => {
    const s = sessionDraft();
    const d = prefill(form(), s).draft;
    assert.deepEqual(itemSources(d, s, 'next_steps'), [
      'claude-code · 3f2a9c.jsonl · 2026-12-01 14:05 UTC',
      'claude-code · 3f2a9c.jsonl · 2026-12-01 14:05 UTC',
    ]);
    assert.deepEqual(itemSources(d, s, 'summary'), ['claude-code · 3f2a9c.jsonl · 2026-12-01 14:01 UTC; git']);
    assert.deepEqual(itemSources(d, s, 'commands_run'), ['claude-code · 2026-12-01 14:03 UTC · in /work/todo']);
    // The panel shows times in the user's own zone: it passes its formatter.
    assert.deepEqual(
      itemSources(d, s, 'commands_run', (iso) => `local(${iso})`),
      [`claude-code · local(${s.commands_run[0].last_at}) · in /work/todo`],
    );
    assert.deepEqual(itemSources(markEdited(d, ['next_steps']), s, 'next_steps'), []);
    assert.equal(describeSource({ reader: 'recorder', file: 'C:\\logs\\session.jsonl', time: null }), 'recorder · session.jsonl');
    assert.equal(shortTime('not a time'), 'not a time');
  });

  it('the request carries the drafted fields and names those still as drafted', () => {
    const d = markEdited({ ...prefill(form({ specialist: 'quality_reviewer', topic: 'auth' }), sessionDraft()).draft, summary: 'Mine.' }, ['summary']);
    const req = draftToRequest(d, { maxContextTokens: 3000, includeRecentTurns: 5, tokenizer: 'o200k_base' });
    assert.deepEqual(req.drafted, ['completed', 'next_steps', 'user_requests', 'commands_run']);
    assert.deepEqual(req.completed, ['Add the auth middleware']);
    assert.equal((req.user_requests as Array<{ text: string }>)[0].text, 'Add bearer-token auth to the todo API');
    assert.ok(HandoverRequestSchema.safeParse(req).success, 'the request validates');
    const emptied = draftToRequest({ ...d, completed: [] }, { maxContextTokens: 3000, includeRecentTurns: 5, tokenizer: 'o200k_base' });
    assert.equal((emptied.drafted as string[]).includes('completed'), false, 'an empty field is not listed as drafted');
  });

  it('the session draft and the marks survive the webview state (a reload)', () => {
    const s = sessionDraft();
    const d = prefill(form(), s).draft;
    const saved = JSON.parse(JSON.stringify({ draft: d, revision: 4, session: s }));
    assert.deepEqual(parseSavedDraft(saved)?.draft.drafted, d.drafted);
    assert.deepEqual(parseSavedSession(saved), s);
    assert.equal(parseSavedSession({ draft: d, revision: 4 }), undefined, 'an older state without a session draft');
    assert.equal(parseSavedSession({ session: { summary: 'x' } }), undefined);
  });

  it('the loss report names what the session log holds that the handoff leaves out', () => {
    assert.equal(describeLeftOut(sessionDraft().left_out), '3 older requests, 1 collapsed todo, 12 turns');
    assert.equal(describeLeftOut({ older_requests: 0, commands_beyond_cap: 1, collapsed_todos: 0, turns: 1234 }), '1 command beyond the cap, 1,234 turns');
    assert.equal(describeLeftOut({ older_requests: 0, commands_beyond_cap: 0, collapsed_todos: 0, turns: 0 }), undefined);
    assert.equal(
      lossReportText(sessionDraft().left_out, false),
      'Not carried from the session log: 3 older requests, 1 collapsed todo, 12 turns; fit to budget cuts nothing.',
    );
    assert.match(
      lossReportText({ older_requests: 0, commands_beyond_cap: 0, collapsed_todos: 0, turns: 0 }, true),
      /^Everything the session log holds is carried; fit to budget would cut more/,
    );
  });

  it('the end-of-session command: the answers the draft gives, and which are still as drafted when confirmed', () => {
    const s = sessionDraft();
    const a = draftedAnswers(s);
    assert.deepEqual(a.nextSteps, ['(in progress) Write the token endpoint tests', 'Review the middleware']);
    assert.deepEqual(stillDrafted(s, a), ['summary', 'completed', 'next_steps', 'user_requests', 'commands_run']);
    assert.deepEqual(
      stillDrafted(s, { ...a, summary: 'Mine', nextSteps: [a.nextSteps[1]] }),
      ['completed', 'user_requests', 'commands_run'],
      'edited answers are not drafted',
    );
    assert.deepEqual(stillDrafted(s, { ...a, decisions: ['Typed by the user'] }).includes('decisions'), false, "a field the draft left empty is the user's");
  });
});
