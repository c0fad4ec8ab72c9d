/**
 * `npm run test:real`: on every file in ../shared/fixtures/session-logs/ the latest user request
 * is in the handoff. Each real session log, read in place, is handed over from a real temporary
 * git repository with the engine's defaults (3,000-token budget, 1,500 tokens of user requests),
 * and with `include_recent_turns: 0` and a budget the handoff cannot keep (where a long request
 * keeps its head, marked); the written file's "User requests" section must end with the latest request —
 * derived from the log itself by test/helpers/latestRequest.ts, independently of the readers —
 * as the gate writes every text (secrets redacted, invisible characters stripped).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseUserRequests } from '../../src/core/handoff/draftSections';
import { MIN_LATEST_REQUEST_CHARS } from '../../src/core/handoff/fitLimits';
import { parseHandoff } from '../../src/core/handoff/parse';
import { redactTexts } from '../../src/core/safety/redact';
import { stripInvisible } from '../../src/core/safety/invisible';
import { handover } from '../../src/engine/handover/handover';
import { FIXTURES, expectedLatest, logFiles, normalized } from '../helpers/latestRequest';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';

/** The text as the gate writes it into a handoff: invisible characters stripped, secrets redacted, line breaks as LF. */
async function asWritten(text: string): Promise<string> {
  const visible = stripInvisible(text).text;
  return (await redactTexts([visible])).texts[0].replace(/\r\n|\r/g, '\n').trim();
}

describe('real session logs: the latest user request is in the written handoff', function () {
  this.timeout(60_000);
  after(cleanupTempDirs);
  const files = logFiles(FIXTURES);

  it('there are logs to check', () => assert.ok(files.length >= 12, `only ${files.length} files in ${FIXTURES}`));

  for (const rel of files) {
    it(rel, async () => {
      const expected = await asWritten(normalized(expectedLatest(rel)));
      assert.ok(expected.length > 0, 'the reference found a request');
      const ws = initRepo(tempDir('handoff-real-latest-'));
      write(ws, 'README.md', '# app\n');
      commitAll(ws, 'initial');
      write(ws, 'README.md', '# app\n\nwork in progress\n');
      for (const [label, request] of [
        ['defaults', {}],
        ['no recent turns, a budget too small to keep everything', { include_recent_turns: 0, max_context_tokens: 400 }],
      ] as const) {
        const r = await handover(
          { specialist: 'implementation_engineer', topic: `latest ${label}`, ...request },
          { workspaceRoot: ws, sessionLog: { mode: path.join(FIXTURES, rel) } },
        );
        assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
        if (r.status !== 'ok') return;
        const parsed = parseHandoff(readFileSync(r.handoff_file, 'utf8'));
        assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
        const requests = parseUserRequests(parsed.handoff.sections.get('User requests') ?? '');
        assert.ok(requests.length > 0, `${label}: the handoff carries user requests`);
        const latest = requests.at(-1)?.text ?? '';
        const head = / … \[([\d,]+) more characters\]$/.exec(latest);
        if (label === 'defaults' || !head) assert.equal(latest, expected, `${label}: the latest request, verbatim`);
        else {
          // A budget too small for a long request keeps its head, cut at a word, and counts the rest (docs/DESIGN.md §4 "Fit to budget").
          const kept = latest.slice(0, head.index);
          assert.ok(expected.startsWith(kept), `${label}: the head is the request's own start: ${JSON.stringify(kept.slice(0, 120))}`);
          assert.ok(kept.length >= MIN_LATEST_REQUEST_CHARS / 2, `${label}: at least half of ${MIN_LATEST_REQUEST_CHARS} characters kept, not ${kept.length}`);
          assert.equal(Number(head[1].replace(/,/g, '')), expected.length - kept.length, `${label}: the characters left out, counted`);
        }
        assert.ok(parsed.handoff.frontmatter.drafted.includes('user_requests'), `${label}: marked as drafted`);
        if ('max_context_tokens' in request) {
          assert.equal(r.package.recent_turns.length, 0, `${label}: no recent turns`);
          // A short session may fit even this budget; otherwise fit-to-budget says what it shortened or cut.
          assert.ok(
            r.package.dropped.length > 0 || r.package.estimated_tokens <= request.max_context_tokens,
            `${label}: over budget (${r.package.estimated_tokens} tokens) and nothing reported cut`,
          );
        }
      }
    });
  }
});
