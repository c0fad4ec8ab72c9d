import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_MAX_HANDOVER_DEPTH, hopGuard } from '../../src/core/handoff/compose';
import { parseHandoff } from '../../src/core/handoff/parse';
import { HandoverOkSchema, type HandoffFrontmatter } from '../../src/core/handoff/schema';
import { EXIT_BAD_INPUT, EXIT_OK } from '../../src/cli/main';
import { handover } from '../../src/engine/handover/handover';
import { cli, repoWithWork } from '../helpers/cli';
import { cleanupTempDirs } from '../helpers/repo';

function parent(hop: number, chain: string[]): HandoffFrontmatter {
  return { hop, chain } as unknown as HandoffFrontmatter;
}

describe('hop guard', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('finds nothing for a new chain or a hop within the limit to a new specialist', () => {
    assert.equal(DEFAULT_MAX_HANDOVER_DEPTH, 3);
    assert.equal(hopGuard(undefined, 'hacker', 3, false), null);
    assert.equal(hopGuard(parent(1, ['codebase_explorer']), 'hacker', 3, false), null);
    assert.equal(hopGuard(parent(2, ['a', 'b']), 'c', 3, false), null, 'hop 3 is within a limit of 3');
  });

  it('warns when the hop goes beyond the limit, when the chain returns to a specialist, or both', () => {
    assert.deepEqual(hopGuard(parent(3, ['a', 'b', 'c']), 'd', 3, false), { reasons: ['depth'], max_depth: 3, confirmed: false });
    assert.deepEqual(hopGuard(parent(1, ['a']), 'a', 3, true), { reasons: ['cycle'], max_depth: 3, confirmed: true });
    assert.deepEqual(hopGuard(parent(5, ['a', 'b', 'c', 'd', 'e']), 'b', 5, false), { reasons: ['depth', 'cycle'], max_depth: 5, confirmed: false });
  });

  it('the engine refuses an unconfirmed hop, naming why and how to proceed, and writes nothing', async () => {
    const dir = repoWithWork();
    const first = HandoverOkSchema.parse(await handover({ specialist: 'codebase_explorer', topic: 'loop' }, { workspaceRoot: dir }));
    const refused = await handover({ specialist: 'codebase_explorer', topic: 'loop', parent: 'latest' }, { workspaceRoot: dir });
    assert.equal(refused.status, 'error');
    assert.ok(refused.status === 'error');
    assert.equal(refused.field, 'hop_guard');
    assert.match(refused.message, /^ERROR: hop guard: codebase_explorer is already in this chain \(codebase_explorer\) — confirm the handoff to proceed/);
    const again = HandoverOkSchema.parse(await handover({ specialist: 'implementation_engineer', topic: 'loop', parent: 'latest' }, { workspaceRoot: dir }));
    assert.equal(again.package.parent_id, first.package.id, 'the refused handoff was not written: the latest is still the first');
  });

  it('a confirmed hop is written, and the handoff records the confirmation in its frontmatter and text', async () => {
    const dir = repoWithWork();
    await handover({ specialist: 'codebase_explorer', topic: 'deep' }, { workspaceRoot: dir });
    await handover({ specialist: 'implementation_engineer', topic: 'deep', parent: 'latest' }, { workspaceRoot: dir, maxHandoverDepth: 2 });
    const refused = await handover({ specialist: 'quality_reviewer', topic: 'deep', parent: 'latest' }, { workspaceRoot: dir, maxHandoverDepth: 2 });
    assert.ok(refused.status === 'error');
    assert.match(refused.message, /hop 3 would exceed the limit of 2 hops/);
    const r = HandoverOkSchema.parse(
      await handover(
        { specialist: 'quality_reviewer', topic: 'deep', parent: 'latest', hop_guard_confirmed: true },
        { workspaceRoot: dir, maxHandoverDepth: 2 },
      ),
    );
    assert.deepEqual(r.package.hop_guard, { reasons: ['depth'], max_depth: 2, confirmed: true });
    const text = readFileSync(r.handoff_file, 'utf8');
    const parsed = parseHandoff(text);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.handoff.frontmatter.hop_guard, { reasons: ['depth'], max_depth: 2, confirmed: true });
    assert.match(
      text,
      /> ⚠️ Hop guard: hop 3 is deeper than the limit of 2 \(chain: codebase_explorer → implementation_engineer → quality_reviewer\); handed over anyway after an explicit confirmation\./,
    );
  });

  it('a handoff without a guard finding records hop_guard: null, and older files without the field still read', async () => {
    const dir = repoWithWork();
    const r = HandoverOkSchema.parse(await handover({ specialist: 'hacker', topic: 'plain' }, { workspaceRoot: dir }));
    const text = readFileSync(r.handoff_file, 'utf8');
    assert.match(text, /^hop_guard: null$/m);
    const old = parseHandoff(text.replace(/^hop_guard: null\n/m, ''));
    assert.ok(old.ok);
    assert.equal(old.handoff.frontmatter.hop_guard, null);
  });

  it('CLI: --confirm-hop proceeds, --max-depth sets the limit, and the refusal names the flag', async () => {
    const dir = repoWithWork();
    assert.equal((await cli(['handover', '-s', 'hacker', '-t', 'c'], dir)).code, EXIT_OK);
    const refused = await cli(['handover', '-s', 'hacker', '-t', 'c', '--parent', 'latest'], dir);
    assert.equal(refused.code, EXIT_BAD_INPUT);
    assert.match(refused.err, /^ERROR: hop guard: hacker is already in this chain \(hacker\) — confirm the handoff to proceed \(--confirm-hop\)/);
    const ok = await cli(['handover', '-s', 'hacker', '-t', 'c', '--parent', 'latest', '--confirm-hop', '--json'], dir);
    assert.equal(ok.code, EXIT_OK, ok.err);
    assert.deepEqual(HandoverOkSchema.parse(JSON.parse(ok.out)).package.hop_guard, { reasons: ['cycle'], max_depth: 3, confirmed: true });
    const deep = await cli(['handover', '-s', 'solution_architect', '-t', 'c', '--parent', 'latest', '--max-depth', '2'], dir);
    assert.equal(deep.code, EXIT_BAD_INPUT);
    assert.match(deep.err, /hop 3 would exceed the limit of 2 hops/);
  });

  it('CLI: --max-depth must be a whole number from 1 to 100', async () => {
    const dir = repoWithWork();
    for (const [value, re] of [
      ['0', /^ERROR: --max-depth must be between 1 and 100 hops \(got 0\)/],
      ['-2', /^ERROR: --max-depth must be between 1 and 100 hops \(got -2\)/],
      ['101', /^ERROR: --max-depth must be between 1 and 100 hops \(got 101\)/],
      ['two', /^ERROR: --max-depth must be a whole number \(got "two"\)/],
    ] as const) {
      const r = await cli(['handover', '-s', 'hacker', '-t', 'c', '--max-depth', value], dir);
      assert.equal(r.code, EXIT_BAD_INPUT, value);
      assert.match(r.err, re);
    }
  });
});
