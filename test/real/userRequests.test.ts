/**
 * `npm run test:real`, issue 15: on every real session log in ../shared/fixtures/session-logs
 * (read in place), the latest thing the user typed is the last of `user_requests`. The expected
 * text is derived independently of the readers (test/helpers/latestRequest.ts), from the file itself: with `jq` over the
 * JSON formats (Claude Code, Codex CLI, Cline) and with `grep` / `awk` over the Markdown ones
 * (Aider, SpecStory), then normalized as every turn is (blank-line runs collapsed, trimmed) and
 * cut at the documented 2,000-character bound.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { collectSessionLog } from '../../src/evidence/session/collectSessionLog';
import { FIXTURES, expectedLatest, logFiles, normalized } from '../helpers/latestRequest';

describe('real session logs: the latest user request is found (issue 15)', () => {
  const files = logFiles(FIXTURES);

  it('there are logs to check', () => assert.ok(files.length >= 12, `only ${files.length} files in ${FIXTURES}`));

  for (const rel of files) {
    it(rel, async () => {
      const expected = normalized(expectedLatest(rel));
      assert.ok(expected.length > 0, 'the reference found a request');
      const e = await collectSessionLog({ workspaceRoot: '/nonexistent-workspace', mode: path.join(FIXTURES, rel) });
      const requests = e.user_requests ?? [];
      assert.ok(requests.length > 0, 'user requests were read');
      assert.equal(requests.at(-1)?.text, expected);
      assert.ok((e.user_requests_seen ?? 0) >= requests.length, 'seen counts every kept request');
    });
  }
});
