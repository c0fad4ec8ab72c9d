/**
 * The insights view's protocol (src/core/panel/insightsProtocol.ts, issue 21): its zod/mini
 * mirror of the engine's figures is the engine's `Insights` type exactly (checked at compile
 * time, both ways), the figures the core makes of a generated history pass it unchanged, and
 * both directions refuse what the protocol does not allow, with the field at fault named.
 */
import assert from 'node:assert/strict';
import {
  InsightsShowSchema,
  InsightsToWebviewSchema,
  InsightsViewSchema,
  parseInsightsMessage,
  type InsightsView,
} from '../../../../src/core/panel/insightsProtocol';
import { computeInsights, InsightsSchema, type Insights, type InsightsEntry } from '../../../../src/core/timeline/insights';
import { SAMPLE } from '../../../helpers/insightsSample';

/** Compiles only when A and B are the same type (each assignable to the other, no `any`). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const sameType: Same<InsightsView, Insights> = true;

const DAY = 86_400_000;
const NOW = Date.parse('2026-12-01T20:00:00.000Z');

/** A handoff entry created `daysAgo` days before NOW, with its status events. */
function entry(over: Partial<InsightsEntry> & Pick<InsightsEntry, 'id' | 'specialist'>, daysAgo: number): InsightsEntry {
  return {
    kind: 'handoff',
    from: 'codebase_explorer',
    topic: 'token-auth',
    created: new Date(NOW - daysAgo * DAY).toISOString(),
    status: 'pending',
    status_history: [],
    root_id: over.id,
    parent_id: null,
    depth: 1,
    hop_guard_depth: false,
    tests_failed_count: 0,
    partial: false,
    ...over,
  };
}

describe('the insights view protocol', () => {
  it("mirrors the engine's Insights type exactly (compile time) and accepts its figures of a generated history unchanged", () => {
    assert.equal(sameType, true);
    const accepted = (daysAgo: number) => [
      { from: 'pending' as const, to: 'accepted' as const, at: new Date(NOW - daysAgo * DAY).toISOString(), session_id: 'session-1' },
    ];
    const history: InsightsEntry[] = [
      entry({ id: 'a', specialist: 'implementation_engineer' }, 5),
      entry({ id: 'b', specialist: 'quality_reviewer', status: 'accepted', status_history: accepted(3.5) }, 4),
      entry(
        {
          id: 'c',
          specialist: 'quality_reviewer',
          status: 'complete',
          status_history: [...accepted(0.9), { from: 'accepted', to: 'complete', at: new Date(NOW - 0.5 * DAY).toISOString(), session_id: 'session-1' }],
        },
        1,
      ),
    ];
    const insights = computeInsights(history, { now: NOW, pendingWarnAfterMs: 2 * DAY, maxDepth: 3 });
    assert.ok(InsightsSchema.safeParse(insights).success, 'the core makes valid figures');
    const viewed = InsightsViewSchema.safeParse(insights);
    assert.ok(viewed.success, viewed.success ? '' : JSON.stringify(viewed.error.issues));
    assert.deepEqual(viewed.data, insights, 'the view receives the object as made, nothing dropped or changed');
    assert.ok(insights.waiting.length > 0, 'the history has a handoff waiting too long');
    // And the shown message carries it whole.
    const shown = InsightsToWebviewSchema.parse({ type: 'show', status: 'ready', period: 'all', insights, specialists: [], pending_warn_after: '2d' });
    assert.deepEqual(shown.type === 'show' && shown.insights, insights);
  });

  it('refuses figures out of range and messages the view does not send, naming the field', () => {
    const bad = { ...SAMPLE, overall: { ...SAMPLE.overall, written: -1 } };
    const r = InsightsShowSchema.safeParse({ type: 'show', status: 'ready', period: 'all', insights: bad, specialists: [], pending_warn_after: '2d' });
    assert.equal(r.success, false);
    assert.deepEqual(r.error?.issues[0]?.path, ['insights', 'overall', 'written']);
    assert.equal(
      InsightsShowSchema.safeParse({
        type: 'show',
        status: 'ready',
        period: 'all',
        insights: { ...SAMPLE, overall: { ...SAMPLE.overall, median_pickup_ms: 1.5 } },
        specialists: [],
        pending_warn_after: '',
      }).success,
      false,
    );

    assert.deepEqual(parseInsightsMessage({ type: 'setPeriod', period: '30d' }), { ok: true, message: { type: 'setPeriod', period: '30d' } });
    assert.deepEqual(parseInsightsMessage({ type: 'ready' }), { ok: true, message: { type: 'ready' } });
    const period = parseInsightsMessage({ type: 'setPeriod', period: '365d' });
    assert.equal(period.ok, false);
    assert.match(!period.ok ? period.error : '', /^period: Invalid option: expected one of "all"\|"7d"\|"30d"\|"90d"/);
    const command = parseInsightsMessage({ type: 'runCommand', command: 'workbench.action.terminal.new' });
    assert.equal(command.ok, false);
    assert.match(!command.ok ? command.error : '', /^command: /);
    const extra = parseInsightsMessage({ type: 'ready', script: 'x' });
    assert.equal(extra.ok, false, 'a known message with extra keys is refused (strict)');
    assert.equal(parseInsightsMessage('ready').ok, false);
    const long = parseInsightsMessage({ type: 'x'.repeat(10_000) });
    assert.ok(!long.ok && long.error.length <= 200 + 2 + 300, 'the refusal is bounded for the log');
  });
});
