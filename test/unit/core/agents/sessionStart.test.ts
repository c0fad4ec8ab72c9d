/**
 * The session-start answer's pure parts (src/core/agents/sessionStart.ts): the hook inputs of
 * the agents' session-start events as each one documents them, the context within the
 * 10,000-character bound (the prompt when it fits, else the list, cut with a count of the
 * rest), and the JSON each agent reads.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  readSessionStartInput,
  SESSION_START_CONTEXT_LIMIT,
  sessionStartContext,
  sessionStartOutput,
  takeCommand,
  type PendingHandoff,
} from '../../../../src/core/agents/sessionStart';

const NOW = Date.parse('2026-12-01T12:00:00Z');

function pending(n: number, topic = 'Auth refactor'): PendingHandoff[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `2026-12-01T${String(11 - Math.floor(i / 60)).padStart(2, '0')}-${String(59 - (i % 60)).padStart(2, '0')}-00.000Z_quality_reviewer`,
    from: 'developer',
    to: 'Quality reviewer [quality reviewer]',
    topic: `${topic} ${i}`,
    created: NOW - (i + 1) * 60_000,
  }));
}

describe('session start: the hook inputs', () => {
  it("reads Claude Code's SessionStart for each source, and the shapes of Codex CLI, Gemini CLI and VS Code", () => {
    for (const source of ['startup', 'resume', 'clear', 'compact']) {
      const r = readSessionStartInput(
        JSON.stringify({ session_id: 's1', transcript_path: '/t.jsonl', cwd: '/work/repo', hook_event_name: 'SessionStart', source, model: 'claude-x' }),
      );
      assert.deepEqual(r, { ok: true, input: { dialect: 'claude', event: `SessionStart (${source})`, cwd: '/work/repo', startsSession: true } }, source);
    }
    // Codex CLI: transcript_path may be null; model and permission_mode besides.
    const codex = readSessionStartInput(
      JSON.stringify({
        session_id: '019d',
        transcript_path: null,
        cwd: '/w',
        hook_event_name: 'SessionStart',
        model: 'gpt-5',
        permission_mode: 'default',
        source: 'clear',
      }),
    );
    assert.deepEqual(codex, { ok: true, input: { dialect: 'claude', event: 'SessionStart (clear)', cwd: '/w', startsSession: true } });
    // Gemini CLI: a timestamp besides.
    const gemini = readSessionStartInput(
      JSON.stringify({
        session_id: 'g',
        transcript_path: '/g.json',
        cwd: '/g',
        hook_event_name: 'SessionStart',
        timestamp: '2026-12-01T12:00:00Z',
        source: 'resume',
      }),
    );
    assert.deepEqual(gemini, { ok: true, input: { dialect: 'claude', event: 'SessionStart (resume)', cwd: '/g', startsSession: true } });
    // VS Code: source "new", and the documented camelCase name without cwd (the hook's working folder is used).
    assert.deepEqual(readSessionStartInput(JSON.stringify({ timestamp: 't', hook_event_name: 'SessionStart', session_id: 'v', source: 'new', cwd: '/v' })), {
      ok: true,
      input: { dialect: 'claude', event: 'SessionStart (new)', cwd: '/v', startsSession: true },
    });
    assert.deepEqual(readSessionStartInput(JSON.stringify({ timestamp: 't', hookEventName: 'SessionStart', sessionId: 'v', source: 'new' })), {
      ok: true,
      input: { dialect: 'claude', event: 'SessionStart (new)', startsSession: true },
    });
  });

  it("reads Cline's task events: TaskStart and TaskResume start a session, the others do not", () => {
    const base = { clineVersion: '3.36.0', timestamp: 't', taskId: 'task1', workspaceRoots: ['/c/repo', '/c/other'], userId: 'u' };
    assert.deepEqual(
      readSessionStartInput(
        JSON.stringify({ ...base, hookName: 'TaskStart', taskStart: { taskMetadata: { taskId: 'task1', ulid: 'x', initialTask: 'fix it' } } }),
      ),
      {
        ok: true,
        input: { dialect: 'cline', event: 'TaskStart', cwd: '/c/repo', startsSession: true },
      },
    );
    assert.equal(readSessionStartInput(JSON.stringify({ ...base, hookName: 'TaskResume' }))?.ok && true, true);
    assert.deepEqual(readSessionStartInput(JSON.stringify({ ...base, hookName: 'TaskComplete' })), {
      ok: true,
      input: { dialect: 'cline', event: 'TaskComplete', cwd: '/c/repo', startsSession: false },
    });
  });

  it('leaves every other input to the safety net, and names a folder that is not one', () => {
    for (const text of [
      '',
      'not json',
      '[1]',
      '{}',
      JSON.stringify({ session_id: 's', transcript_path: '/t', cwd: '/w', hook_event_name: 'SessionEnd', reason: 'clear' }),
      JSON.stringify({ hook_event_name: 'PreCompact' }),
    ]) {
      assert.equal(readSessionStartInput(text), undefined, text);
    }
    assert.deepEqual(readSessionStartInput(JSON.stringify({ hook_event_name: 'SessionStart', cwd: 'relative/dir' })), {
      ok: false,
      dialect: 'claude',
      message: "ERROR: the hook input's cwd must be an absolute path (got \"relative/dir\") — the agent's session-start hook sends the session's folder there",
    });
    assert.match(
      (readSessionStartInput(JSON.stringify({ hook_event_name: 'SessionStart', cwd: 7 })) as { message: string }).message,
      /^ERROR: the hook input's cwd must be a folder path — /,
    );
    const cline = readSessionStartInput(JSON.stringify({ hookName: 'TaskStart', clineVersion: '3', workspaceRoots: ['rel'] }));
    assert.equal(cline?.ok, false);
    assert.equal(cline && !cline.ok && cline.dialect, 'cline');
  });

  it('says the event in one line of visible text', () => {
    const r = readSessionStartInput(JSON.stringify({ hook_event_name: 'SessionStart', source: 'start\nup\u202e', cwd: '/w' }));
    assert.equal(r?.ok && r.input.event, 'SessionStart (start up)');
  });
});

describe('session start: the context', () => {
  it("the newest handoff's prompt when it fits, with who → whom, topic, age, that it is not picked up and how to take it", () => {
    const list = pending(3);
    const c = sessionStartContext({ pending: list, prompt: '# [quality reviewer] Quality reviewer\n\nThe prompt.\n', folder: '.handoff/handoffs', now: NOW })!;
    assert.equal(c.form, 'prompt');
    assert.equal(c.listed, 1);
    const [title, , line, , rule, , ...rest] = c.text.split('\n');
    assert.equal(title, '# Specialist Handoff: a handoff waits to be picked up');
    assert.equal(
      line,
      `developer → Quality reviewer [quality reviewer] · "Auth refactor 0" · 1 minute ago (handoff ${list[0].id}). Its receiving prompt follows. It is not marked picked up: to take it, run \`specialist-handoff prompt --handoff ${list[0].id}\` (marks it accepted) and work from the prompt below. 2 older handoffs wait too (files in .handoff/handoffs/).`,
    );
    assert.equal(rule, '---');
    assert.equal(rest.join('\n'), '# [quality reviewer] Quality reviewer\n\nThe prompt.\n');
  });

  it('at the bound the prompt goes in; one character over, the list takes its place', () => {
    const list = pending(1);
    const probe = sessionStartContext({ pending: list, prompt: 'x', folder: '.handoff/handoffs', now: NOW })!;
    const room = SESSION_START_CONTEXT_LIMIT - (probe.text.length - 1);
    const fits = sessionStartContext({ pending: list, prompt: 'y'.repeat(room), folder: '.handoff/handoffs', now: NOW })!;
    assert.equal(fits.form, 'prompt');
    assert.equal(fits.text.length, SESSION_START_CONTEXT_LIMIT);
    const over = sessionStartContext({ pending: list, prompt: 'y'.repeat(room + 1), folder: '.handoff/handoffs', now: NOW })!;
    assert.equal(over.form, 'list');
    assert.equal(
      over.text,
      [
        '# Specialist Handoff: a handoff waits to be picked up',
        '',
        `The newest one's receiving prompt (${(room + 1).toLocaleString('en-US')} characters) is longer than a session start may add (10,000). None is marked picked up. To take one, run the command after it: it prints the handoff's receiving prompt and marks it accepted.`,
        '',
        `- developer → Quality reviewer [quality reviewer] · "Auth refactor 0" · 1 minute ago — \`${takeCommand(list[0].id)}\``,
        '',
      ].join('\n'),
    );
  });

  it('a list longer than the bound is cut, newest first, with how many more there are', () => {
    const list = pending(400, 'A topic long enough to fill the list quickly with its words');
    const c = sessionStartContext({ pending: list, prompt: undefined, folder: '.handoff/handoffs', now: NOW })!;
    assert.equal(c.form, 'list');
    assert.ok(c.text.length <= SESSION_START_CONTEXT_LIMIT, `${c.text.length}`);
    assert.ok(c.listed > 10 && c.listed < 400, `${c.listed}`);
    const lines = c.text.trimEnd().split('\n');
    assert.match(lines[2], /^The newest one's receiving prompt could not be built here\. None is marked picked up\./);
    assert.equal(lines.at(-1), `- … and ${400 - c.listed} older (files in .handoff/handoffs/)`);
    assert.ok(lines[4].includes(takeCommand(list[0].id)) && lines[4 + c.listed - 1].includes(takeCommand(list[c.listed - 1].id)), 'newest first, in order');
  });

  it('never more than the bound, whatever the prompt and the handoffs (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.option(fc.string({ maxLength: 30_000 })),
        fc.string({ maxLength: 400 }),
        fc.integer({ min: 500, max: 20_000 }),
        (n, prompt, topic, limit) => {
          const c = sessionStartContext({ pending: pending(n, topic), prompt: prompt ?? undefined, folder: '.handoff/handoffs', now: NOW, limit })!;
          assert.ok(c.text.length <= limit || c.listed === 1, `${c.text.length} > ${limit}`);
          assert.ok(c.text.includes(takeCommand(pending(1)[0].id)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('nothing pending: no context', () => {
    assert.equal(sessionStartContext({ pending: [], prompt: undefined, folder: '.handoff/handoffs', now: NOW }), undefined);
  });
});

describe('session start: the JSON each agent reads', () => {
  it("Claude Code's shape (Codex CLI, Gemini CLI, VS Code) and Cline's", () => {
    assert.deepEqual(JSON.parse(sessionStartOutput('claude', 'ctx')), { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' } });
    assert.deepEqual(JSON.parse(sessionStartOutput('claude', undefined)), {});
    assert.deepEqual(JSON.parse(sessionStartOutput('cline', 'ctx')), { cancel: false, contextModification: 'ctx' });
    assert.deepEqual(JSON.parse(sessionStartOutput('cline', undefined)), { cancel: false });
  });
});
