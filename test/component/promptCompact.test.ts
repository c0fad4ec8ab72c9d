/**
 * The compact receiving prompt (issue 18): the handoff picked up in full without its
 * frontmatter, prior handoffs as digests with their current status and a link, within the
 * goal of `npm run bench` for a chain of five handoffs (bench/promptChain.ts, the same
 * scenario: a real git repository, handoffs written by the engine).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseHandoff } from '../../src/core/handoff/parse';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { handover } from '../../src/engine/handover/handover';
import { buildPrompt } from '../../src/engine/receive/prompt';
import { recordResult } from '../../src/engine/receive/recordResult';
import { promptChainFigures, promptGoalTokens } from '../../bench/promptChain';
import { CLI_FROM_SOURCE, repoWithWork } from '../helpers/cli';
import { cleanupTempDirs, tempDir } from '../helpers/repo';

/** Lines only a quoted frontmatter would have (docs/DESIGN.md §5 "Handoff files"). */
const FRONTMATTER_LINE = /^(---$|schema: 1|diff_hash: |upstream: null|ahead: null|base_commit: |head_commit: |estimated_tokens: |session_sources: )/m;

/** The `### <name>` entries of the prior handoffs block, name → text. */
function priorEntries(prompt: string): Map<string, string> {
  const block = prompt.slice(prompt.indexOf('## Prior Agent Handoffs'));
  const entries = new Map<string, string>();
  for (const part of block.split(/^### /m).slice(1)) {
    const nl = part.indexOf('\n');
    entries.set(part.slice(0, nl), part.slice(nl + 1).trim());
  }
  return entries;
}

describe('the compact receiving prompt (issue 18)', function () {
  this.timeout(120_000);
  after(cleanupTempDirs);

  it('a chain of 5 handoffs: the prompt is at most 2 × the handoff + 600 tokens, the handoff in full once, the others as digests', async () => {
    const dir = tempDir('handoff-prompt-chain-');
    const f = await promptChainFigures(dir);
    console.log(
      `    figures: prompt ${f.promptTokens} tokens for a ${f.handoffTokens}-token handoff (${(f.promptTokens / f.handoffTokens).toFixed(2)}×; goal ≤ ${f.goalTokens})`,
    );
    assert.equal(f.goalTokens, promptGoalTokens(f.handoffTokens));
    assert.equal(f.goalTokens, 2 * f.handoffTokens + 600);
    assert.ok(f.met && f.promptTokens <= f.goalTokens, `${f.promptTokens} > ${f.goalTokens}`);
    assert.ok(f.handoffTokens > 500, 'the handoff is a real one, frontmatter and all');

    const prompt = f.prompt;
    assert.doesNotMatch(prompt, FRONTMATTER_LINE, 'no frontmatter, of the handoff picked up or of a prior one');
    const picked = path.basename(f.files[4]);
    const body = parseHandoff(readFileSync(f.files[4], 'utf8'));
    assert.ok(body.ok);
    // The handoff picked up: every section of its body, once, under its own heading, and not under the prior handoffs.
    assert.equal(prompt.split('## Handoff to Quality reviewer: timing-safe token check\n').length, 2);
    for (const heading of body.handoff.sections.keys()) assert.equal(prompt.split(`\n### ${heading}\n`).length, 2, heading);
    assert.ok(prompt.includes(body.handoff.sections.get('Summary')!));
    assert.ok(prompt.includes('```diff\n'), 'its diff excerpt');
    const entries = priorEntries(prompt);
    assert.deepEqual(
      [...entries.keys()],
      f.files.slice(0, 4).map((file) => path.basename(file)),
    );
    assert.ok(!entries.has(picked));

    for (const file of f.files.slice(0, 4)) {
      const parsed = parseHandoff(readFileSync(file, 'utf8'));
      assert.ok(parsed.ok);
      const fm = parsed.handoff.frontmatter;
      const entry = entries.get(path.basename(file))!;
      const link = path.relative(dir, file).split(path.sep).join('/');
      // The file says it was written pending; its status event says the next specialist took it.
      assert.equal(fm.status, 'pending');
      assert.equal(
        entry.split('\n\n')[0],
        [
          `- id: \`${fm.id}\``,
          `- from → to: ${fm.from} → ${fm.to}`,
          '- status: accepted',
          `- created: ${fm.created}`,
          `- topic: ${fm.topic_title}`,
          `- file (for the rest): \`${link}\``,
        ].join('\n'),
      );
      assert.ok(existsSync(path.join(dir, link)), 'the link leads to the file');
      assert.ok(entry.includes(`#### Summary\n\n${parsed.handoff.sections.get('Summary')}`));
      assert.ok(entry.includes(`#### Decisions\n\n${parsed.handoff.sections.get('Decisions')}`));
      const failed = parsed.handoff.sections.get('Failed approaches')!;
      assert.equal(entry.includes(`#### Failed approaches\n\n${failed}`), failed !== '_None._');
      // No touched files, diff excerpt, commits, tests or commands of a prior hop.
      assert.doesNotMatch(entry, /Touched files|Diff excerpt|Commits|Tests run|Commands run|src\/auth\/step|```/);
    }

    // The real CLI prints the same prompt as the engine built at the same moment (its run
    // context names that moment; and once the chain's handoffs are older than
    // handoff.pendingWarnAfter, both carry the same **Waiting:** lines — the chain is dated
    // 2026-12-01, so from 2026-12-03 on the CLI's prompt has them and the one built at the
    // chain's own time does not).
    const cli = execFileSync(process.execPath, [...CLI_FROM_SOURCE, 'prompt', '--handoff', 'latest', '--no-take'], { cwd: dir, encoding: 'utf8' });
    const same = await buildPrompt({ handoff: 'latest', take: false }, { workspaceRoot: dir, sessionLog: { mode: 'none' } });
    assert.equal(same.status, 'ok');
    const timeless = (p: string) => p.replace(/^- run\.(timestamp|handoff_path): .*$/gm, '').trim();
    assert.equal(timeless(cli), timeless(same.status === 'ok' ? same.prompt : ''));
  });

  it('a result and the handoff it answered: the result is a digest of kind result, the handoff shows its status now', async () => {
    const dir = repoWithWork();
    const T0 = Date.parse('2026-11-30T10:00:00.000Z');
    const at = (min: number) => () => new Date(T0 + min * 60_000);
    const first = HandoverOkSchema.parse(
      await handover(
        {
          specialist: 'quality_reviewer',
          topic: 'token auth',
          summary: 'Wrote the middleware.',
          failed_approaches: ['A regex for the header'],
          next_steps: ['Review it'],
        },
        { workspaceRoot: dir, now: at(0), sessionId: 'a', sessionLog: { mode: 'none' } },
      ),
    );
    const taken = await buildPrompt({ handoff: first.package.id }, { workspaceRoot: dir, now: at(1), sessionId: 'b' });
    assert.ok(taken.status === 'ok' && taken.taken);
    const result = await recordResult(
      { specialist: 'quality_reviewer', summary: 'Reviewed; one finding.', criteria_met: 'all' },
      { workspaceRoot: dir, now: at(5), sessionId: 'b', sessionLog: { mode: 'none' } },
    );
    assert.ok(result.status === 'ok', JSON.stringify(result).slice(0, 300));
    const next = HandoverOkSchema.parse(
      await handover(
        { specialist: 'implementation_engineer', topic: 'token auth', summary: 'Fix the finding.', parent: first.package.id },
        { workspaceRoot: dir, now: at(10), sessionId: 'b', sessionLog: { mode: 'none' } },
      ),
    );
    const p = await buildPrompt({ handoff: next.package.id, take: false }, { workspaceRoot: dir, now: at(11) });
    assert.ok(p.status === 'ok', p.status === 'error' ? p.message : '');
    const entries = priorEntries(p.prompt);
    assert.equal(entries.size, 2, [...entries.keys()].join(', '));
    const handoffEntry = entries.get(`${first.package.id}.md`)!;
    assert.match(handoffEntry, /^- from → to: developer → quality_reviewer\n- status: complete\n/m);
    assert.match(handoffEntry, /#### Summary\n\nWrote the middleware\.\n\n#### Failed approaches\n\n- A regex for the header$/);
    const [resultName, resultEntry] = [...entries].find(([name]) => name !== `${first.package.id}.md`)!;
    assert.match(resultName, /_quality_reviewer\.md$/);
    assert.match(resultEntry, /^- from → to: quality_reviewer → developer\n- kind: result\n- status: complete\n/m);
    assert.match(resultEntry, /#### Summary\n\nReviewed; one finding\./);
    assert.match(p.prompt, /^## Handoff to Implementation engineer: token auth$/m);
    assert.doesNotMatch(p.prompt, FRONTMATTER_LINE);
  });
});
