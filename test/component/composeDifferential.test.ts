/**
 * Issue 19: compose + write counts tokens through a memo of pieces (src/core/handoff/tokenPieces.ts)
 * instead of counting every rendering whole. The old path is the plain counter; on a generated
 * repository of 2,000 changed files (bench/repo.ts), with a fixed clock and session id, the
 * handoff, history and briefing written must be the bytes the plain counter's path gives: the
 * same measured package, the same drop manifest and token figures, the same history cap.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fitToBudget, measurePackage } from '../../src/core/handoff/compose';
import { renderHistory } from '../../src/core/handoff/history';
import { BRIEFINGS_DIR, HISTORY_DIR, briefingFileName, handoffId } from '../../src/core/handoff/naming';
import { renderHandoff, type HandoffMeta } from '../../src/core/handoff/render';
import type { HandoffPackage } from '../../src/core/handoff/schema';
import { prepareHandover, writeHandover } from '../../src/engine/handover/handover';
import { counterFor } from '../../src/engine/tokenizers/tokenizer';
import { createBenchRepository } from '../../bench/repo';
import { cleanupTempDirs, tempDir } from '../helpers/repo';

const NOW = new Date(Date.UTC(2026, 10, 30, 12, 0, 0));

function metaFor(pkg: HandoffPackage, withHistory: boolean, date = NOW): HandoffMeta {
  const id = handoffId(date, pkg.specialist);
  return {
    id,
    created: date.toISOString(),
    status: 'pending',
    briefingFile: `${BRIEFINGS_DIR}/${briefingFileName(pkg.specialist, pkg.topic, date).replace(/\.md$/, '')}/${id}.md`,
    historyFile: withHistory ? `${HISTORY_DIR}/${id}.md` : null,
  };
}

/** The package as composed, before prepareHandover measured it. */
function unmeasured(pkg: HandoffPackage): HandoffPackage {
  return { ...pkg, estimated_tokens: 0, tokens_estimated: false, oversize_warning: false };
}

describe("compose + write with the token memo gives the plain counter's bytes (2,000 changed files)", function () {
  this.timeout(300_000);
  let repo: string;
  before(() => {
    repo = path.join(tempDir('handoff-differential-'), 'repo');
    createBenchRepository(repo, 2000);
  });
  // Each case starts from no handoff at all, as the first handoff of the repository.
  beforeEach(() => rmSync(path.join(repo, '.handoff'), { recursive: true, force: true }));
  after(cleanupTempDirs);

  const requests: Array<[string, Record<string, unknown>]> = [
    ['the default budget (diff and files cut, history capped at 50,000 tokens)', {}],
    ['a 20,000-token budget in cl100k_base', { max_context_tokens: 20_000, tokenizer: 'cl100k_base' }],
    [
      'a 400-token budget with turns, tests, commands, a long summary and requests (every stage cuts)',
      {
        max_context_tokens: 400,
        summary: 'The reviewer checks src/auth.ts for timing-safe comparison.\n\n  Indented, /slashed and 日本語 lines.\n'.repeat(60),
        recent_turns: Array.from({ length: 6 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', text: `turn ${i}\n- item\n/${'path/'.repeat(i)}` })),
        include_recent_turns: 6,
        tests_run: Array.from({ length: 8 }, (_, i) => ({
          command: `npm test -- part${i}`,
          result: i % 3 ? 'passed' : 'failed',
          exit_code: i % 3 ? 0 : 1,
          source: 'agent',
        })),
        commands_run: Array.from({ length: 12 }, (_, i) => ({
          command: `npm run step${i}`,
          kind: 'build',
          result: 'succeeded',
          exit_code: 0,
          source: 'agent',
        })),
        user_requests: Array.from({ length: 5 }, (_, i) => `request ${i}: ${'please review this part '.repeat(i + 3)}`),
      },
    ],
  ];

  for (const [what, extra] of requests) {
    it(what, async () => {
      const prepared = await prepareHandover(
        { specialist: 'quality_reviewer', topic: 'differential', ...extra },
        { workspaceRoot: repo, now: () => NOW, sessionId: 'session-fixed' },
      );
      if (prepared.status !== 'prepared') assert.fail(prepared.message);
      const p = prepared.prepared;
      const plain = counterFor(p.request.tokenizer);
      // The old path: every rendering counted whole by the plain counter.
      const measured = measurePackage(unmeasured(p.pkg), metaFor(p.pkg, false), p.specialist, plain);
      assert.deepEqual(p.pkg, measured, 'prepare measures what the plain counter measures');
      const fitted = fitToBudget(measured, metaFor(measured, true), p.specialist, plain);
      assert.ok(fitted.pkg.dropped.length > 0, 'something was cut');

      const written = await writeHandover(p);
      if (written.status !== 'ok') assert.fail(written.message);
      assert.deepEqual(written.package.dropped, fitted.pkg.dropped, 'the same drop manifest and token figures');
      assert.equal(written.package.estimated_tokens, fitted.pkg.estimated_tokens);
      const meta = metaFor(fitted.pkg, true);
      assert.equal(written.package.id, meta.id);
      assert.equal(readFileSync(written.handoff_file, 'utf8'), renderHandoff(fitted.pkg, meta, p.specialist), 'the handoff bytes');
      assert.ok(written.history_file);
      assert.equal(readFileSync(written.history_file, 'utf8'), renderHistory(fitted.original, meta, p.specialist, plain), 'the history bytes');
      const briefing = readFileSync(written.briefing.path, 'utf8');
      assert.match(briefing, new RegExp(`${fitted.pkg.estimated_tokens.toLocaleString('en')} / ${fitted.pkg.max_context_tokens.toLocaleString('en')} tokens`));
    });
  }
});
