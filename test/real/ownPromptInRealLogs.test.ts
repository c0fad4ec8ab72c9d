/**
 * `npm run test:real`: every real Claude Code and Codex transcript in ../shared/fixtures (both
 * corpora), continued the way *Continue in…* continues one — the next user message is our own
 * receiving prompt (every built-in specialist's, with and without a handoff), and for Claude
 * Code the CLI's own notice answers in the model's place (`isApiErrorMessage`, model
 * `<synthetic>`) — reads exactly as the real transcript alone: the same user requests, the same
 * recent turns. Nothing real is lost, nothing of ours or the chat's is taken for the user's
 * request or the agent's words. The appended records are copies of the file's own last user
 * and assistant records with their text replaced, so each carries that log's own shape.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSpecialistPrompt } from '../../src/core/receive/receiverPrompt';
import { BUILTIN_SPECIALISTS } from '../../src/core/specialists/registry';
import { collectSessionLog } from '../../src/evidence/session/collectSessionLog';
import { logFiles } from '../helpers/latestRequest';
import { cleanupTempDirs, tempDir } from '../helpers/repo';

const SHARED = path.resolve(__dirname, '..', '..', '..', 'shared', 'fixtures');
const ROOTS = ['session-logs', 'real-logs'].map((r) => path.join(SHARED, r)).filter((r) => existsSync(r));
const NOTICE = 'Invalid API key · Please run /login';

type Rec = Record<string, unknown>;

/** Our receiving prompt for the `i`-th built-in specialist (every other one picks up a handoff). */
function prompt(i: number): string {
  const s = BUILTIN_SPECIALISTS[i % BUILTIN_SPECIALISTS.length];
  return buildSpecialistPrompt({
    specialist: { id: s.id, label: s.label, personaMarker: s.personaMarker, mandate: s.mandate, returnCondition: s.returnCondition },
    handoff:
      i % 2
        ? {
            id: '2026-12-01T10-00-00.000Z_implementation_engineer',
            relativePath: '.handoff/handoffs/2026-12-01T10-00-00.000Z_implementation_engineer.md',
            returnCondition: 'user_request',
            body: '## Handoff to Implementation engineer: cart\n\n### Summary\n\nDone.',
          }
        : null,
    priorHandoffs: '',
    staleness: [],
    runContext: { timestamp: '2026-12-01T10:00:00.000Z', deliverablePath: `.handoff/handoffs/2026-12-01T10-00-00.000Z_${s.id}.md` },
  });
}

/** A typed user message's content: a string, or text blocks (not tool results). */
const typed = (content: unknown) => typeof content === 'string' || (Array.isArray(content) && content.some((b) => (b as Rec)?.type === 'text'));

/** The log's records with our prompt (and for Claude Code the CLI's notice) appended as that log's own records. */
function continued(rel: string, records: Rec[], text: string): Rec[] {
  const later = (r: Rec) => ({ ...r, timestamp: '2099-01-01T00:00:00.000Z' });
  if (rel.startsWith('claude-code/')) {
    const user = [...records]
      .reverse()
      .find((r) => r.type === 'user' && r.isMeta !== true && r.isSidechain !== true && typed((r.message as Rec | undefined)?.content));
    const assistant = [...records].reverse().find((r) => r.type === 'assistant' && r.isSidechain !== true);
    assert.ok(user && assistant, 'the log has a typed user record and an assistant record to copy');
    return [
      ...records,
      later({ ...user, uuid: 'own-prompt', message: { ...(user.message as Rec), content: text } }),
      later({
        ...assistant,
        uuid: 'own-notice',
        isApiErrorMessage: true,
        message: { ...(assistant.message as Rec), model: '<synthetic>', content: [{ type: 'text', text: NOTICE }] },
      }),
    ];
  }
  const user = [...records]
    .reverse()
    .find((r) => r.type === 'response_item' && (r.payload as Rec | undefined)?.type === 'message' && (r.payload as Rec).role === 'user');
  assert.ok(user, 'the log has a user message item to copy');
  const payload = user.payload as Rec;
  return [...records, later({ ...user, payload: { ...payload, content: [{ type: 'input_text', text }] } })];
}

describe('real transcripts continued with our receiving prompt and a chat notice read as the real ones', function () {
  this.timeout(60_000);
  after(cleanupTempDirs);
  const files = ROOTS.flatMap((root) =>
    logFiles(root)
      .filter((rel) => /^(claude-code|codex)\/.*\.jsonl$/.test(rel))
      .map((rel) => ({ root, rel })),
  );

  it('there are transcripts to continue', () => assert.ok(files.length >= 10, `only ${files.length} transcripts in ${ROOTS.join(', ')}`));

  files.forEach(({ root, rel }, i) => {
    it(`${path.basename(root)}/${rel}`, async () => {
      const file = path.join(root, rel);
      const records = readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as Rec];
          } catch {
            return [];
          }
        });
      const text = prompt(i);
      const copy = path.join(tempDir('handoff-own-prompt-real-'), path.basename(rel));
      writeFileSync(
        copy,
        `${continued(rel, records, text)
          .map((r) => JSON.stringify(r))
          .join('\n')}\n`,
      );
      const mode = rel.startsWith('claude-code/') ? 'claude-code' : 'codex';
      const real = await collectSessionLog({ workspaceRoot: '/nonexistent-workspace', mode: file });
      const ours = await collectSessionLog({ workspaceRoot: '/nonexistent-workspace', mode: copy });
      assert.ok((real.user_requests ?? []).length > 0, 'the real log has user requests');
      assert.deepEqual(
        (ours.user_requests ?? []).map((r) => r.text),
        (real.user_requests ?? []).map((r) => r.text),
        `${mode}: the user requests are the real ones`,
      );
      assert.deepEqual(
        ours.recent_turns.map((t) => [t.role, t.text]),
        real.recent_turns.map((t) => [t.role, t.text]),
        `${mode}: the turns are the real ones`,
      );
      for (const t of ours.recent_turns) assert.ok(!t.text.includes('## Receive rules') && t.text !== NOTICE, `a turn quotes ours: ${t.text.slice(0, 80)}`);
    });
  });
});
