/**
 * The agent's plan (issue 15): each reader's plan snapshots, from files in each agent's published
 * format (test/fixtures/session-logs/plans/, and Gemini CLI / OpenCode files written here by the
 * helpers that follow their writers), the two real transcripts in ../shared, and the plan kept
 * across incremental reads.
 */
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SessionLogStateSchema, type SessionPlan, type TranscriptRead } from '../../../../src/core/session/events';
import { collectSessionLog } from '../../../../src/evidence/session/collectSessionLog';
import { claudeProjectDirName } from '../../../../src/evidence/session/discovery';
import { newestPlan } from '../../../../src/evidence/session/plans';
import { readClaudeCode } from '../../../../src/evidence/session/readers/claudeCode';
import { readClineTask } from '../../../../src/evidence/session/readers/cline';
import { readClineApiHistory } from '../../../../src/evidence/session/readers/clineApi';
import { readCodex } from '../../../../src/evidence/session/readers/codex';
import { readCopilotSession } from '../../../../src/evidence/session/readers/copilot';
import { readGemini } from '../../../../src/evidence/session/readers/gemini';
import { readOpenCode } from '../../../../src/evidence/session/readers/opencode';
import { checklistPlan, planOf } from '../../../../src/evidence/session/readers/planTools';
import { loadSessionLogState, saveSessionLogState } from '../../../../src/store/sessionLogState';
import { GeminiChatWriter, toolCall, writeCheckpoint } from '../../../helpers/geminiLogs';
import { fileToolPart, writeProject, writeSession } from '../../../helpers/opencodeStorage';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const FIX = path.join(__dirname, '..', '..', '..', 'fixtures', 'session-logs', 'plans');
const SHARED = path.join(__dirname, '..', '..', '..', '..', '..', 'shared', 'fixtures', 'session-logs');

/** The plan snapshots a reader kept: only the latest (the accumulator keeps one). */
const plans = (r: TranscriptRead) => r.events.filter((e): e is SessionPlan => e.kind === 'plan');
/** The latest plan as `status: text` lines, in the tool's order. */
const latest = (r: TranscriptRead) => {
  const p = plans(r);
  assert.equal(p.length, 1, 'one plan snapshot kept: the latest');
  return p[0].items.map((i) => `${i.status}: ${i.text}`);
};

describe("the agent's plan: readers", function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it("Claude Code TodoWrite: the latest call wins; a sub-agent's (sidechain) list and a rejected call are not the session's plan", async () => {
    const r = await readClaudeCode(path.join(FIX, 'claude-code-todowrite.jsonl'));
    assert.deepEqual(latest(r), [
      'completed: Read the checkout page',
      'completed: Add the cart total',
      'in_progress: Run the tests',
      'pending: Update the checkout snapshot',
    ]);
    assert.equal(plans(r)[0].tool, 'TodoWrite');
    assert.equal(plans(r)[0].time, '2026-03-02T10:04:00.000Z');
    assert.equal(r.seen && (r.seen as { plans?: number }).plans, 3);
  });

  it('Claude Code task tools (2.1.16+): TaskCreate adds, TaskUpdate changes, renames and deletes by id; a failed call changes nothing', async () => {
    const r = await readClaudeCode(path.join(FIX, 'claude-code-tasks.jsonl'));
    assert.deepEqual(latest(r), ['completed: Add the RSS route', 'in_progress: Render items as RSS 2.0', 'pending: Write the changelog entry for 1.4']);
    assert.deepEqual(
      plans(r)[0].items.map((i) => i.id),
      ['1', '2', '4'],
    );
    assert.equal(plans(r)[0].tool, 'TaskUpdate');
    assert.equal(plans(r)[0].time, '2026-03-04T08:09:00.000Z');
    // 4 creates and 5 updates that did not fail; TaskList and the failed update are no snapshots.
    assert.equal((r.seen as { plans?: number }).plans, 9);
  });

  it('Codex update_plan: the latest call with its explanation; the plan_update event repeats a snapshot', async () => {
    const r = await readCodex(path.join(FIX, 'codex-update-plan.jsonl'));
    assert.deepEqual(latest(r), [
      'completed: Write the migration',
      'completed: Update the queries',
      'in_progress: Run the test suite',
      'pending: Document the rename in CHANGELOG.md',
    ]);
    assert.equal(plans(r)[0].explanation, 'Queries done; the suite is next.');
    assert.equal(plans(r)[0].time, '2026-03-03T09:05:00.000Z');
    // 3 calls + the event of the second.
    assert.equal((r.seen as { plans?: number }).plans, 4);
    // Cut after the second call and its event: that snapshot, without an explanation.
    const file = path.join(tempDir(), 'rollout.jsonl');
    writeFileSync(file, readFileSync(path.join(FIX, 'codex-update-plan.jsonl'), 'utf8').split('\n').slice(0, 10).join('\n') + '\n');
    const cut = await readCodex(file);
    assert.deepEqual(latest(cut), ['completed: Write the migration', 'in_progress: Update the queries', 'pending: Run the test suite']);
    assert.equal(plans(cut)[0].explanation, undefined);
  });

  it('Codex update_plan `set`: status changes of the current plan by step index', async () => {
    const file = path.join(tempDir(), 'rollout.jsonl');
    const call = (id: string, args: unknown, ts: string) =>
      JSON.stringify({
        timestamp: ts,
        type: 'response_item',
        payload: { type: 'function_call', name: 'update_plan', arguments: JSON.stringify(args), call_id: id },
      });
    writeFileSync(
      file,
      [
        JSON.stringify({ timestamp: '2026-03-03T09:00:00Z', type: 'session_meta', payload: { id: 's', cwd: '/w' } }),
        call(
          'p1',
          {
            explanation: 'Two steps.',
            plan: [
              { step: 'Implement', status: 'in_progress' },
              { step: 'Verify', status: 'pending' },
            ],
          },
          '2026-03-03T09:00:01Z',
        ),
        call(
          'p2',
          {
            set: [
              { index: 0, status: 'completed' },
              { index: 1, status: 'in_progress' },
            ],
          },
          '2026-03-03T09:00:02Z',
        ),
        call('p3', { set: [{ index: 7, status: 'completed' }] }, '2026-03-03T09:00:03Z'),
      ].join('\n') + '\n',
    );
    const r = await readCodex(file);
    assert.deepEqual(latest(r), ['completed: Implement', 'in_progress: Verify']);
    assert.equal(plans(r)[0].explanation, 'Two steps.');
  });

  it("Roo Code ui_messages.json: updateTodoList asks and the user's edit of the list; a partial ask is not a plan", async () => {
    const r = await readClineTask(path.join(FIX, 'roo-task'), { source: 'roo' });
    assert.equal(r.source, 'roo');
    assert.deepEqual(latest(r), [
      'completed: Find the login route',
      'in_progress: Add the limiter middleware',
      'pending: Use the shared Redis store',
      'pending: Write a test for 429 responses',
    ]);
    assert.equal(plans(r)[0].tool, 'update_todo_list');
    assert.equal(plans(r)[0].time, new Date(1772530006000).toISOString());
    assert.equal((r.seen as { plans?: number }).plans, 3);
  });

  it("Kilo Code ui_messages.json (Roo Code's format): the same plan, as kilo", async () => {
    const r = await readClineTask(path.join(FIX, 'roo-task'), { source: 'kilo' });
    assert.equal(r.source, 'kilo');
    assert.deepEqual(latest(r), [
      'completed: Find the login route',
      'in_progress: Add the limiter middleware',
      'pending: Use the shared Redis store',
      'pending: Write a test for 429 responses',
    ]);
  });

  it("Roo Code api_conversation_history.json: XML update_todo_list blocks, not in the assistant's turn", async () => {
    const r = await readClineApiHistory(path.join(FIX, 'roo-task', 'api_conversation_history.json'), { source: 'roo' });
    assert.deepEqual(latest(r), [
      'completed: Find the login route',
      'in_progress: Add the limiter middleware',
      'pending: Use the shared Redis store',
      'pending: Write a test for 429 responses',
    ]);
    const turns = r.events.filter((e) => e.kind === 'turn').map((t) => (t as { text: string }).text);
    assert.ok(turns.includes('The route is in src/routes/login.ts.'), turns.join(' | '));
    assert.ok(!turns.some((t) => t.includes('update_todo_list')));
  });

  it('Kilo Code api_conversation_history.json: native update_todo_list tool_use, `- [ ]` bullets too', async () => {
    const r = await readClineApiHistory(path.join(FIX, 'kilo-task', 'api_conversation_history.json'), { source: 'kilo' });
    assert.equal(r.source, 'kilo');
    assert.deepEqual(latest(r), [
      'completed: Inventory the settings fields',
      'completed: Port the form to the new library',
      'in_progress: Remove the old form helpers',
      'pending: Run the settings e2e test',
    ]);
  });

  it("Cline task_progress: ui_messages.json say task_progress and the api history's tool parameter agree, nested items kept in order", async () => {
    const expected = [
      'completed: Read the generator',
      'completed: Extract the CSV writer',
      'completed: Move the quoting helper',
      'completed: Extract the PDF writer',
      'pending: Run the report tests (5/7 passing)',
    ];
    const ui = await readClineTask(path.join(FIX, 'cline-task'));
    assert.deepEqual(latest(ui), expected);
    assert.equal(plans(ui)[0].tool, 'task_progress');
    // The command between the checklists still has its output (task_progress does not end it).
    assert.match((ui.events.find((e) => e.kind === 'command') as { output_tail?: string }).output_tail ?? '', /5 passed/);
    const api = await readClineApiHistory(path.join(FIX, 'cline-task', 'api_conversation_history.json'));
    assert.deepEqual(latest(api), expected);
    // Cline's reminder ("TODO LIST UPDATE REQUIRED" with a checklist) in a user message is no plan call.
    assert.equal((api.seen as { plans?: number }).plans, 3);
  });

  it('Copilot Chat manage_todo_list: the latest confirmed invocation; a refused one is not the plan', async () => {
    const r = await readCopilotSession(path.join(FIX, 'copilot-todos.json'));
    assert.deepEqual(latest(r), [
      'completed: Read the pricing module',
      'completed: Add the bulk discount',
      'in_progress: Test the discount rules',
      'pending: Update the pricing docs',
    ]);
    assert.equal(plans(r)[0].tool, 'manage_todo_list');
    assert.equal(plans(r)[0].time, new Date(1772900060000).toISOString());
    assert.equal((r.seen as { plans?: number }).plans, 3);
    // The same session as VS Code 1.109+'s mutation log (kind 0 the session, kind 2 pushes): the same plan.
    const doc = JSON.parse(readFileSync(path.join(FIX, 'copilot-todos.json'), 'utf8')) as { requests: unknown[] };
    const log = path.join(tempDir(), 'session.jsonl');
    writeFileSync(
      log,
      [{ kind: 0, v: { ...doc, requests: [] } }, ...doc.requests.map((v) => ({ kind: 2, k: ['requests'], v: [v] }))].map((e) => JSON.stringify(e)).join('\n') +
        '\n',
    );
    assert.deepEqual(latest(await readCopilotSession(log)), latest(r));
  });

  it('Gemini CLI write_todos in a checkpoint: calls matched to their responses, a call without one is no plan', async () => {
    const file = path.join(tempDir(), 'checkpoint-dark-mode.json');
    const todos = (...items: Array<[string, string]>) => ({ todos: items.map(([description, status]) => ({ description, status })) });
    const call = (id: string, args: unknown) => ({ role: 'model', parts: [{ functionCall: { id, name: 'write_todos', args } }] });
    const response = (id: string) => ({
      role: 'user',
      parts: [{ functionResponse: { id, name: 'write_todos', response: { output: 'Successfully updated the todo list.' } } }],
    });
    writeCheckpoint(file, [
      { role: 'user', parts: [{ text: 'Add dark mode.' }] },
      call('w1', todos(['Add a theme toggle', 'in_progress'], ['Persist the choice', 'pending'])),
      response('w1'),
      call('w2', todos(['Add a theme toggle', 'completed'], ['Persist the choice', 'in_progress'])),
      response('w2'),
      call('w3', todos(['Unanswered', 'in_progress'])),
    ]);
    const r = await readGemini(file);
    assert.deepEqual(latest(r), ['completed: Add a theme toggle', 'in_progress: Persist the choice']);
    assert.equal(plans(r)[0].time, undefined, 'a checkpoint has no times');
  });

  it('Gemini CLI write_todos in a chat recording: successful calls only, cancelled items kept as cancelled', async () => {
    const file = path.join(tempDir(), 'chats', 'session-2026-03-02T10-00-c0ffee00.jsonl');
    const T = (s: number) => new Date(Date.UTC(2026, 2, 2, 10, 0, s)).toISOString();
    const w = new GeminiChatWriter(file, 'c0ffee00-1111-4222-8333-444455556666', 'a'.repeat(64), T(0));
    const todos = (...items: Array<[string, string]>) => ({ todos: items.map(([description, status]) => ({ description, status })) });
    w.user('Add dark mode to the settings page.', T(1));
    w.toolCalls(
      [
        toolCall(
          'write_todos-1',
          'write_todos',
          todos(['Add a theme toggle', 'in_progress'], ['Persist the choice', 'pending'], ['Add a high-contrast theme', 'pending']),
          'success',
          'Successfully updated the todo list.',
          T(2),
        ),
      ],
      T(2),
    );
    w.toolCalls(
      [
        toolCall(
          'write_todos-2',
          'write_todos',
          todos(['Add a theme toggle', 'completed'], ['Persist the choice', 'in_progress'], ['Add a high-contrast theme', 'cancelled']),
          'success',
          'Successfully updated the todo list.',
          T(3),
        ),
      ],
      T(3),
    );
    w.toolCalls(
      [
        toolCall(
          'write_todos-3',
          'write_todos',
          todos(['Start over', 'in_progress']),
          'cancelled',
          '[Operation Cancelled] Reason: User did not allow tool call',
          T(4),
        ),
      ],
      T(4),
    );
    w.gemini('The toggle works; saving the choice next.', T(5));
    const r = await readGemini(file);
    assert.deepEqual(latest(r), ['completed: Add a theme toggle', 'in_progress: Persist the choice', 'cancelled: Add a high-contrast theme']);
    assert.equal(plans(r)[0].tool, 'write_todos');
    assert.equal(plans(r)[0].time, T(3));
  });

  it('OpenCode todowrite tool parts: the latest completed call', async () => {
    const storage = tempDir();
    const ws = '/home/dev/parser';
    const t0 = Date.UTC(2026, 2, 2, 10, 0, 0);
    const todos = (...items: Array<[string, string]>) => ({
      todos: items.map(([content, status], i) => ({ content, status, priority: 'high', id: String(i + 1) })),
    });
    writeProject(storage, 'root1', ws);
    const s = writeSession(storage, { projectID: 'root1', directory: ws }, [
      { role: 'user', created: t0, parts: [{ type: 'text', text: 'Make the tokenizer handle unicode.' }] },
      {
        role: 'assistant',
        created: t0 + 1000,
        parts: [
          fileToolPart(
            'todowrite',
            todos(['Find the tokenizer', 'in_progress'], ['Handle surrogate pairs', 'pending'], ['Add unicode tests', 'pending']),
            t0 + 1100,
          ),
          fileToolPart(
            'todowrite',
            todos(
              ['Find the tokenizer', 'completed'],
              ['Handle surrogate pairs', 'completed'],
              ['Add unicode tests', 'in_progress'],
              ['Drop the ASCII fast path', 'cancelled'],
            ),
            t0 + 5000,
          ),
          {
            type: 'tool',
            callID: 'toolu_run',
            tool: 'todowrite',
            state: { status: 'running', input: todos(['Half-written', 'pending']), time: { start: t0 + 6000 } },
          },
          { type: 'text', text: 'Writing the unicode tests.' },
        ],
      },
    ]);
    const r = await readOpenCode(s.file, { workspaceRoot: ws });
    assert.deepEqual(latest(r), [
      'completed: Find the tokenizer',
      'completed: Handle surrogate pairs',
      'in_progress: Add unicode tests',
      'cancelled: Drop the ASCII fast path',
    ]);
    assert.equal(plans(r)[0].tool, 'todowrite');
    assert.equal(plans(r)[0].time, new Date(t0 + 5050).toISOString());
  });

  it('bounds: 200 items kept, the rest counted; item text cut at 2,000 characters; an empty list is no snapshot', () => {
    const items = Array.from({ length: 230 }, (_, i) => ({ text: i === 0 ? 'x'.repeat(5000) : `step ${i}`, status: 'pending' as const }));
    const p = planOf('TodoWrite', items);
    assert.equal(p?.items.length, 200);
    assert.equal(p?.omitted, 30);
    assert.equal(p?.items[0].text.length, 2000);
    assert.equal(p?.items[199].text, 'step 199');
    assert.equal(planOf('TodoWrite', []), undefined);
    assert.equal(checklistPlan('task_progress', 'No checkboxes here.\n# Heading'), undefined);
  });
});

describe("the agent's plan: real transcripts (../shared, read in place)", () => {
  const pyry = path.join(SHARED, 'claude-code', 'pyrycode-clean-trimmed.jsonl');
  const cline = path.join(SHARED, 'cline', 'gmfstu-task-1769053680585');
  const clineFinal = [
    'Analyze current architecture and security',
    'Implement new Game Actions',
    'BeginTurnGA and BeginTurnSystem',
    'DiscardCardGA and DiscardCardSystem',
    'DestroyCardGA and DestroyCardSystem',
    'ModifyCardGA and ModifyCardSystem',
    'ActivateAbilityGA and ActivateAbilitySystem',
    'EditCardGA and EditCardSystem',
    'Add test cards to CardDataJSON.txt',
    'Create .meta files for new scripts',
    'Create implementation guide document',
    'Run golden tests to verify implementation',
    'Create security and modularity report',
  ].map((t) => `completed: ${t}`);

  before(function () {
    if (!existsSync(pyry) || !existsSync(cline)) throw new Error(`the shared fixtures are missing: ${SHARED}`);
  });

  it('Claude Code 2.1.128 (pyrycode): TodoWrite only offered (deferred tools), empty todo reminders: no plan', async () => {
    const r = await readClaudeCode(pyry);
    assert.equal(plans(r).length, 0);
    assert.ok(
      r.events.some((e) => e.kind === 'command'),
      'the transcript is read',
    );
  });

  it('Cline 3.51 (gmfstu): the latest of 19 task_progress checklists in ui_messages.json, all 13 items in order', async () => {
    const r = await readClineTask(cline);
    assert.deepEqual(latest(r), clineFinal);
    assert.equal((r.seen as { plans?: number }).plans, 19);
    assert.equal(plans(r)[0].time, new Date(1769054771775).toISOString());
  });

  it('Cline 3.51 (gmfstu): api_conversation_history.json task_progress parameters, the last (attempt_completion) wins', async () => {
    const r = await readClineApiHistory(path.join(cline, 'api_conversation_history.json'));
    assert.deepEqual(latest(r), clineFinal);
    // replace_in_file, execute_command ×2, write_to_file ×3, attempt_completion carry it.
    assert.equal((r.seen as { plans?: number }).plans, 7);
  });

  it('Cline 3.51 (gmfstu): a mid-task checklist has done and open items in order', () => {
    const ui = JSON.parse(readFileSync(path.join(cline, 'ui_messages.json'), 'utf8')) as Array<{ ts: number; say?: string; text?: string }>;
    const mid = ui.find((m) => m.say === 'task_progress' && /Create implementation guide document/.test(m.text ?? ''));
    const p = checklistPlan('task_progress', mid?.text);
    assert.deepEqual(p?.items.map((i) => `${i.status}: ${i.text}`).slice(-4), [
      'completed: Add test cards to CardDataJSON.txt',
      'completed: Create .meta files for new scripts',
      'pending: Create implementation guide document',
      'pending: Verify implementation and integration',
    ]);
  });
});

describe("the agent's plan: SessionLogEvidence.plan", function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('is the latest snapshot, with provenance; an incremental read of new non-plan lines keeps it (through the saved state)', async () => {
    const ws = tempDir();
    const file = path.join(tempDir(), 'session.jsonl');
    copyFileSync(path.join(FIX, 'claude-code-todowrite.jsonl'), file);
    const first = await collectSessionLog({ workspaceRoot: ws, mode: file });
    assert.deepEqual(
      first.plan?.items.map((i) => `${i.status}: ${i.text}`),
      ['completed: Read the checkout page', 'completed: Add the cart total', 'in_progress: Run the tests', 'pending: Update the checkout snapshot'],
    );
    assert.deepEqual(first.plan?.provenance, { reader: 'claude-code', file, time: '2026-03-02T10:04:00.000Z' });
    assert.equal(first.plan?.tool, 'TodoWrite');

    // Saved and loaded as the engine does (the store's gate, the schema).
    const stateFile = path.join(tempDir(), 'state.json');
    assert.equal(await saveSessionLogState(stateFile, first.next_state), undefined);
    const state = await loadSessionLogState(stateFile);
    assert.equal(state.files[file]?.plan?.items.length, 4);

    appendFileSync(
      file,
      `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'All 12 tests pass; updating the snapshot.' }] }, timestamp: '2026-03-02T10:05:00.000Z', isSidechain: false })}\n`,
    );
    const second = await collectSessionLog({ workspaceRoot: ws, mode: file, state });
    assert.deepEqual(
      second.recent_turns.map((t) => t.text),
      ['All 12 tests pass; updating the snapshot.'],
      'only the new line was read',
    );
    assert.deepEqual(second.plan, first.plan);

    // A new TodoWrite in the next lines replaces it; the steps done before that it no longer lists stay done, the in-progress one it drops is gone.
    appendFileSync(
      file,
      `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_todo9', name: 'TodoWrite', input: { todos: [{ content: 'Update the checkout snapshot', status: 'completed', activeForm: 'Updating' }] } }] }, timestamp: '2026-03-02T10:06:00.000Z', isSidechain: false })}\n`,
    );
    const third = await collectSessionLog({ workspaceRoot: ws, mode: file, state: second.next_state });
    assert.deepEqual(third.plan?.items, [
      { text: 'Read the checkout page', status: 'completed' },
      { text: 'Add the cart total', status: 'completed' },
      { text: 'Update the checkout snapshot', status: 'completed' },
    ]);
    assert.equal(third.plan?.provenance.time, '2026-03-02T10:06:00.000Z');
  });

  it('Claude Code task tools: a read of only new lines applies TaskUpdate to the remembered list', async () => {
    const ws = tempDir();
    const file = path.join(tempDir(), 'tasks.jsonl');
    const lines = readFileSync(path.join(FIX, 'claude-code-tasks.jsonl'), 'utf8').split('\n');
    writeFileSync(file, `${lines.slice(0, 16).join('\n')}\n`);
    const first = await collectSessionLog({ workspaceRoot: ws, mode: file });
    assert.deepEqual(
      first.plan?.items.map((i) => `${i.status}: ${i.text}`),
      ['completed: Add the RSS route', 'pending: Render items as RSS 2.0', 'pending: Link the feed from the layout', 'pending: Write the changelog entry'],
    );
    appendFileSync(file, lines.slice(16).join('\n'));
    const second = await collectSessionLog({ workspaceRoot: ws, mode: file, state: first.next_state });
    assert.equal(second.transcripts[0]?.turns, 0, 'only the new lines were read (they hold no turn)');
    assert.deepEqual(
      second.plan?.items.map((i) => `${i.status}: ${i.text}`),
      ['completed: Add the RSS route', 'in_progress: Render items as RSS 2.0', 'pending: Write the changelog entry for 1.4'],
    );
    assert.equal(second.plan?.provenance.time, '2026-03-04T08:09:00.000Z');
  });

  it('a Cline task read again by item time keeps the plan when nothing new is a checklist (the real gmfstu task, copied to a temporary folder)', async () => {
    const task = path.join(tempDir(), '1769053680585');
    cpSync(path.join(SHARED, 'cline', 'gmfstu-task-1769053680585'), task, { recursive: true });
    const ws = '/workspaces/Online-Card-Architecture';
    const first = await collectSessionLog({ workspaceRoot: ws, mode: task });
    assert.equal(first.plan?.items.length, 13);
    assert.equal(first.plan?.provenance.reader, 'cline');
    const ui = path.join(task, 'ui_messages.json');
    const items = JSON.parse(readFileSync(ui, 'utf8')) as unknown[];
    writeFileSync(ui, JSON.stringify([...items, { ts: 1769056300000, type: 'say', say: 'user_feedback', text: 'Thanks, merge it.' }]));
    const second = await collectSessionLog({ workspaceRoot: ws, mode: task, state: first.next_state });
    assert.deepEqual(
      second.recent_turns.map((t) => t.text),
      ['Thanks, merge it.'],
      'only the new element was read',
    );
    assert.deepEqual(second.plan, first.plan);
  });

  it('across the transcripts found for a workspace: the newest plan call wins, whatever the file times', async () => {
    const home = tempDir();
    const ws = path.join(tempDir(), 'shop');
    const claude = path.join(home, 'claude', 'projects', claudeProjectDirName(ws));
    mkdirSync(claude, { recursive: true });
    copyFileSync(path.join(FIX, 'claude-code-todowrite.jsonl'), path.join(claude, 'session.jsonl'));
    const day = path.join(home, 'codex', 'sessions', '2026', '03', '03');
    mkdirSync(day, { recursive: true });
    writeFileSync(
      path.join(day, 'rollout-2026-03-03T09-00-00-0199a0b1.jsonl'),
      readFileSync(path.join(FIX, 'codex-update-plan.jsonl'), 'utf8').replaceAll('/home/dev/api', ws),
    );
    // The Claude Code file was written last, but Codex's last update_plan (03-03) is newer than its TodoWrite (03-02).
    utimesSync(path.join(claude, 'session.jsonl'), new Date('2026-03-10'), new Date('2026-03-10'));
    const locations = { 'claude-code': path.join(home, 'claude', 'projects'), codex: path.join(home, 'codex', 'sessions') };
    const both = await collectSessionLog({ workspaceRoot: ws, home, locations, sources: ['claude-code', 'codex'] });
    assert.deepEqual(both.transcripts.map((t) => t.source).sort(), ['claude-code', 'codex']);
    assert.equal(both.plan?.tool, 'update_plan');
    assert.equal(both.plan?.explanation, 'Queries done; the suite is next.');
    assert.equal(both.plan?.provenance.reader, 'codex');
    const claudeOnly = await collectSessionLog({ workspaceRoot: ws, home, locations, sources: ['claude-code'] });
    assert.equal(claudeOnly.plan?.provenance.reader, 'claude-code');
    assert.equal(claudeOnly.plan?.items.length, 4);
  });

  it('old state files (no plan) still parse', () => {
    const old = { version: 1, files: { '/x.jsonl': { offset: 10, size: 10, head: 'abc', head_bytes: 10, turns: [] } } };
    const parsed = SessionLogStateSchema.parse(old);
    assert.equal(parsed.files['/x.jsonl'].plan, undefined);
  });

  it("the newest transcript's plan: by the plan call's time, else the transcript's modification time", () => {
    const plan = (text: string, time?: string) => ({ tool: 'TodoWrite', items: [{ text, status: 'pending' as const }], ...(time ? { time } : {}) });
    const byTime = newestPlan([
      { plan: plan('newer call', '2026-03-02T10:00:00Z'), source: 'claude-code', file: '/a', mtimeMs: Date.parse('2026-03-01T00:00:00Z') },
      { plan: plan('older call', '2026-03-01T09:00:00Z'), source: 'codex', file: '/b', mtimeMs: Date.parse('2026-03-05T00:00:00Z') },
    ]);
    assert.equal(byTime?.items[0].text, 'newer call');
    assert.deepEqual(byTime?.provenance, { reader: 'claude-code', file: '/a', time: '2026-03-02T10:00:00Z' });
    const byMtime = newestPlan([
      { plan: plan('cline, older file'), source: 'cline', file: '/c', mtimeMs: 1000 },
      { plan: plan('kilo, newer file'), source: 'kilo', file: '/d', mtimeMs: 2000 },
    ]);
    assert.deepEqual(byMtime?.provenance, { reader: 'kilo', file: '/d', time: null });
    assert.equal(newestPlan([]), undefined);
  });
});
