/**
 * A step done stays done unless the agent reopens it: whole-list plan tools drop finished steps
 * from later calls (Codex update_plan, Claude Code TodoWrite …), and those steps are still done.
 */
import assert from 'node:assert/strict';
import { MAX_PLAN_ITEMS, type PlanItemStatus, type SessionPlan } from '../../../../src/core/session/events';
import { carryDoneSteps } from '../../../../src/core/session/planMerge';
import { readCodex } from '../../../../src/evidence/session/readers/codex';
import { cleanupTempDirs, tempDir, write } from '../../../helpers/repo';

const plan = (tool: string, items: Array<[string, PlanItemStatus]>, extra: Partial<SessionPlan> = {}): SessionPlan => ({
  kind: 'plan',
  tool,
  items: items.map(([text, status]) => ({ text, status })),
  ...extra,
});
const shown = (p: SessionPlan) => p.items.map((i) => `${i.status}: ${i.text}`);

describe('plan steps done stay done', () => {
  after(cleanupTempDirs);

  it('done steps a later call no longer lists are carried, first, in their order; open ones it drops are gone', () => {
    const before = plan('update_plan', [
      ['Read the code', 'completed'],
      ['Write the parser', 'completed'],
      ['Wire the CLI', 'in_progress'],
      ['Docs', 'pending'],
    ]);
    const after = plan(
      'update_plan',
      [
        ['Run the tests', 'in_progress'],
        ['Docs', 'pending'],
      ],
      { explanation: 'parser done' },
    );
    const merged = carryDoneSteps(before, after);
    assert.deepEqual(shown(merged), ['completed: Read the code', 'completed: Write the parser', 'in_progress: Run the tests', 'pending: Docs']);
    assert.equal(merged.explanation, 'parser done');
  });

  it('a step listed again as not done was reopened: the new status wins, nothing carried twice', () => {
    const before = plan('TodoWrite', [
      ['Fix the login test', 'completed'],
      ['Deploy', 'pending'],
    ]);
    const after = plan('TodoWrite', [
      ['fix the  login test', 'in_progress'],
      ['Deploy', 'pending'],
    ]);
    assert.deepEqual(shown(carryDoneSteps(before, after)), ['in_progress: fix the  login test', 'pending: Deploy']);
  });

  it('item tools (Claude Code TaskCreate / TaskUpdate) already send the whole list: nothing carried', () => {
    const before = plan('TaskUpdate', [['A', 'completed']]);
    const after = plan('TaskUpdate', [['B', 'pending']]);
    assert.equal(carryDoneSteps(before, after), after);
  });

  it('bounded: beyond the item cap the oldest carried steps are counted, not kept', () => {
    const before = plan(
      'TodoWrite',
      Array.from({ length: 10 }, (_, i): [string, PlanItemStatus] => [`old ${i}`, 'completed']),
    );
    const after = plan(
      'TodoWrite',
      Array.from({ length: MAX_PLAN_ITEMS - 4 }, (_, i): [string, PlanItemStatus] => [`new ${i}`, 'pending']),
    );
    const merged = carryDoneSteps(before, after);
    assert.equal(merged.items.length, MAX_PLAN_ITEMS);
    assert.equal(merged.omitted, 6);
    assert.equal(merged.items[0].text, 'old 6');
  });

  it('in a Codex rollout: the step completed in an earlier update_plan is still done at the end', async () => {
    const dir = tempDir();
    const call = (id: string, steps: Array<[string, string]>) => ({
      timestamp: `2026-01-01T00:00:0${id}Z`,
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'update_plan',
        call_id: `c${id}`,
        arguments: JSON.stringify({ plan: steps.map(([step, status]) => ({ step, status })) }),
      },
    });
    write(
      dir,
      'rollout.jsonl',
      [
        call('1', [
          ['Implement chess rules', 'in_progress'],
          ['Render the board', 'pending'],
        ]),
        call('2', [
          ['Implement chess rules', 'completed'],
          ['Render the board', 'in_progress'],
        ]),
        call('3', [
          ['Render the board', 'completed'],
          ['Export the history', 'in_progress'],
        ]),
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const r = await readCodex(`${dir}/rollout.jsonl`);
    const last = r.events.filter((e) => e.kind === 'plan').at(-1);
    assert.ok(last && last.kind === 'plan');
    assert.deepEqual(shown(last), ['completed: Implement chess rules', 'completed: Render the board', 'in_progress: Export the history']);
  });
});
