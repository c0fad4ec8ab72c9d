/**
 * A period's figures as the engine sends them to the insights view (issue 21), for the
 * view's tests: two specialists, one handoff waiting too long for its pick-up, two chains.
 * Consistent with itself (the overall row is the sum of the two), not computed by our code.
 */
import type { InsightsView } from '../../src/core/panel/insightsProtocol';

const HOUR = 3_600_000;

/** A period's figures as the engine sends them: two specialists, one handoff waiting too long, two chains. */
export const SAMPLE: InsightsView = {
  schema: 1,
  period: { since: null, until: '2026-12-01T20:00:00.000Z' },
  generated_at: '2026-12-01T20:00:00.000Z',
  pending_warn_after_ms: 48 * HOUR,
  overall: {
    written: 7,
    picked_up: 5,
    pending: 2,
    accepted: 1,
    in_progress: 1,
    completed: 2,
    blocked: 1,
    partial: 0,
    pending_too_long: 1,
    unanswered_too_long: 0,
    median_pickup_ms: 90 * 60_000,
    median_complete_ms: 26 * HOUR,
    handbacks: 4,
    retries: 1,
    tests_failing_at_handback: 1,
  },
  specialists: [
    {
      specialist: 'implementation_engineer',
      written: 4,
      picked_up: 3,
      pending: 1,
      accepted: 0,
      in_progress: 1,
      completed: 1,
      blocked: 1,
      partial: 0,
      pending_too_long: 1,
      unanswered_too_long: 0,
      median_pickup_ms: 2 * HOUR,
      median_complete_ms: 30 * HOUR,
      handbacks: 3,
      retries: 1,
      tests_failing_at_handback: 1,
    },
    {
      specialist: 'quality_reviewer',
      written: 3,
      picked_up: 2,
      pending: 1,
      accepted: 1,
      in_progress: 0,
      completed: 1,
      blocked: 0,
      partial: 0,
      pending_too_long: 0,
      unanswered_too_long: 0,
      median_pickup_ms: 45 * 60_000,
      median_complete_ms: null,
      handbacks: 1,
      retries: 0,
      tests_failing_at_handback: 0,
    },
  ],
  chains: {
    total: 2,
    by_length: [
      { hops: 1, chains: 1 },
      { hops: 3, chains: 1 },
    ],
    reached_depth_limit: 1,
    past_depth_limit: 0,
    max_depth: 3,
  },
  waiting: [
    {
      id: '2026-11-28T09-00-00Z_implementation_engineer',
      specialist: 'implementation_engineer',
      from: 'codebase_explorer',
      topic: 'token-auth',
      waiting: 'pickup',
      since: '2026-11-28T09:00:00.000Z',
      age_ms: 83 * HOUR,
    },
  ],
  waiting_omitted: 0,
  files_read: 11,
  files_unreadable: 0,
};
