/**
 * The words of a "Handoff Timeline" row (src/vscode/timeline/rowText.ts): the topic is the
 * label, clipped to ROW_TOPIC_MAX characters; the status words come first in the description,
 * then the specialist; a screen reader gets specialist, whole topic and status in words.
 */
import assert from 'node:assert/strict';
import { ROW_TOPIC_MAX, timelineRowText, type TimelineRowFacts } from '../../../src/vscode/timeline/rowText';

const NOW = Date.parse('2026-12-05T12:00:00Z');
const base: TimelineRowFacts = {
  specialist: 'Quality reviewer',
  kind: 'handoff',
  topic: 'secrets audit',
  status: 'pending',
  waiting: undefined,
  verdict: undefined,
  time: NOW - 5 * 60_000,
  source: 'handoff',
};

describe('timeline row text', () => {
  it('a handoff: topic as the label, status then specialist in the description, all of it read out', () => {
    assert.deepEqual(timelineRowText(base, NOW), {
      label: 'secrets audit',
      description: 'pending · Quality reviewer · 5 minutes ago',
      accessibility: 'Handoff to Quality reviewer, topic: secrets audit, status: pending, 5 minutes ago',
    });
  });

  it('a result names the specialist with "result"; waiting and verdict words follow the status', () => {
    const row = timelineRowText(
      {
        ...base,
        specialist: 'Implementation engineer',
        kind: 'result',
        topic: 'token auth',
        status: 'in progress',
        waiting: 'waiting 3 days',
        verdict: 'contradicted',
      },
      NOW,
    );
    assert.equal(row.label, 'token auth');
    assert.equal(row.description, 'in progress · waiting 3 days · contradicted · Implementation engineer result · 5 minutes ago');
    assert.equal(row.accessibility, 'Result from Implementation engineer, topic: token auth, status: in progress, waiting 3 days, contradicted, 5 minutes ago');
  });

  it('a long topic is clipped in the label and whole in the screen-reader label', () => {
    const topic = 'Refactor authentication middleware for the v2 token services';
    const row = timelineRowText({ ...base, topic }, NOW);
    assert.equal(ROW_TOPIC_MAX, 17);
    assert.equal(row.label, 'Refactor authent…');
    assert.equal(row.description, 'pending · Quality reviewer · 5 minutes ago');
    assert.ok(row.accessibility.includes(`topic: ${topic},`), row.accessibility);
  });

  it('without a topic the label is the specialist (as before), and the description does not repeat it', () => {
    assert.deepEqual(timelineRowText({ ...base, topic: null }, NOW), {
      label: 'Quality reviewer',
      description: 'pending · 5 minutes ago',
      accessibility: 'Handoff to Quality reviewer, status: pending, 5 minutes ago',
    });
    assert.equal(timelineRowText({ ...base, kind: 'result', topic: '  ' }, NOW).label, 'Quality reviewer — result');
  });

  it('before the file is read (no kind, no status) and from another tool: the source is named', () => {
    assert.deepEqual(timelineRowText({ ...base, kind: undefined, status: undefined, topic: 'deploy plan', source: 'agent-zero' }, NOW), {
      label: 'deploy plan',
      description: 'Quality reviewer · 5 minutes ago · Agent Zero',
      accessibility: 'Quality reviewer, topic: deploy plan, 5 minutes ago, from Agent Zero',
    });
  });
});
