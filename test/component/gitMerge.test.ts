/**
 * Handoffs that merge (issue 20; docs/DESIGN.md §5 "Git"): a team works on branches, each
 * writes handoffs, briefing sections and status changes of the same handoff, and
 * `git merge` or `git rebase` — real git, in a temporary repository — finishes without a
 * conflict; afterwards every briefing section is whole and none interleaved, the timeline
 * holds every handoff once in its chain, and the status is the latest change with both
 * branches' changes in its history. Everything is written through the engine, as the CLI,
 * the MCP server and VS Code do, with a fixed clock so the times (and the UTC day) are known.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HandoverOkSchema, type HandoverOk, type HandoverResult } from '../../src/core/handoff/schema';
import type { TimelineNode } from '../../src/core/timeline/chains';
import { handover } from '../../src/engine/handover/handover';
import { readBriefing, readHandoffHead } from '../../src/engine/handover/handoffFiles';
import { buildPrompt } from '../../src/engine/receive/prompt';
import { recordResult } from '../../src/engine/receive/recordResult';
import { openTimeline } from '../../src/engine/timeline/timeline';
import { appendBriefing } from '../../src/store/handoffs/handoffStore';
import { ensureSanitized } from '../../src/core/safety/gate';
import { changeStatus } from '../../src/core/handoff/status';
import { cleanupTempDirs, commitAll, git, initRepo, write } from '../helpers/repo';

const SPECIALIST = 'implementation_engineer';
const T0 = Date.parse('2026-11-30T09:00:00.000Z');
/** A clock at `minute` minutes past T0 (all on 2026-11-30, UTC). */
const at = (minute: number) => () => new Date(T0 + minute * 60_000);

function ok(r: HandoverResult): HandoverOk {
  if (r.status !== 'ok') assert.fail(r.message);
  return HandoverOkSchema.parse(r);
}

/** Every handoff written on a branch: ids, the section files and their bytes. */
interface BranchWork {
  readonly ids: string[];
  readonly sections: Map<string, string>;
}

/** A repository with one commit and one handoff on main (committed, with its .gitattributes). */
async function repoWithMainHandoff(): Promise<{ dir: string; h0: HandoverOk }> {
  const dir = initRepo();
  write(dir, 'src/auth.ts', 'export const auth = 0;\n');
  commitAll(dir, 'initial');
  const h0 = ok(
    await handover(
      { specialist: SPECIALIST, topic: 'Auth', summary: 'main: plan the login', next_steps: ['Build the login form'] },
      { workspaceRoot: dir, now: at(0), sessionId: 'main' },
    ),
  );
  commitAll(dir, 'handoff on main');
  return { dir, h0 };
}

/**
 * On a new branch from main: a commit, then three handoffs and three briefing sections on
 * the same specialist, topic and day (minutes `minutes[0..2]`; the first and third continue
 * h0, the second continues the first), and a status change of h0: `left` takes it up
 * (accepted) and hands back complete; `right` hands back blocked. Committed.
 */
async function branchWork(dir: string, branch: 'left' | 'right', h0: HandoverOk, minutes: readonly number[], statusMinute: number): Promise<BranchWork> {
  git(dir, 'checkout', '-q', '-b', branch, 'main');
  write(dir, `src/${branch}.ts`, `export const ${branch} = 1;\n`);
  commitAll(dir, `${branch}: code`);
  const env = (minute: number) => ({ workspaceRoot: dir, now: at(minute), sessionId: branch });
  const h1 = ok(
    await handover(
      {
        specialist: SPECIALIST,
        topic: 'Auth',
        parent: h0.package.id,
        summary: `${branch}: form built`,
        hop_guard_confirmed: true,
        next_steps: ['Add the tests'],
      },
      env(minutes[0]),
    ),
  );
  const h2 = ok(
    await handover(
      {
        specialist: SPECIALIST,
        topic: 'Auth',
        parent: h1.package.id,
        summary: `${branch}: tests added`,
        hop_guard_confirmed: true,
        next_steps: ['Add the tests'],
      },
      env(minutes[1]),
    ),
  );
  const h3 = ok(
    await handover(
      {
        specialist: SPECIALIST,
        topic: 'Auth',
        parent: h0.package.id,
        summary: `${branch}: a second try`,
        hop_guard_confirmed: true,
        next_steps: ['Add the tests'],
      },
      env(minutes[2]),
    ),
  );
  if (branch === 'left') {
    const taken = await buildPrompt({ handoff: h0.package.id }, env(statusMinute - 0.5));
    assert.ok(taken.status === 'ok' && taken.taken, 'the pick-up marks h0 accepted');
    const r = await recordResult({ specialist: SPECIALIST, handoffs: [h0.package.id], summary: 'left: done', criteria_met: 'all' }, env(statusMinute));
    assert.ok(r.status === 'ok' && r.entries[0].status === 'complete', JSON.stringify(r));
  } else {
    const r = await recordResult(
      { specialist: SPECIALIST, handoffs: [h0.package.id], summary: 'right: stuck', blockers: ['No issuer key'] },
      env(statusMinute),
    );
    assert.ok(r.status === 'ok' && r.entries[0].status === 'blocked', JSON.stringify(r));
  }
  commitAll(dir, `${branch}: handoffs`);
  const sections = new Map<string, string>();
  for (const h of [h1, h2, h3]) sections.set(h.briefing.path, readFileSync(h.briefing.path, 'utf8'));
  return { ids: [h1, h2, h3].map((h) => h.package.id), sections };
}

/** The paths of files git reports unmerged, and whether any file under `.handoff` holds a conflict marker. */
function conflicts(dir: string): { unmerged: string; markers: string[] } {
  const unmerged = git(dir, 'diff', '--name-only', '--diff-filter=U').trim();
  const markers: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, name.name);
      if (name.isDirectory()) walk(full);
      else if (/^(<{7}|>{7}|={7})( |$)/m.test(readFileSync(full, 'utf8'))) markers.push(full);
    }
  };
  walk(path.join(dir, '.handoff'));
  return { unmerged, markers };
}

/** Every node of the timeline with its parent's id, and how often each id appears. */
function flatten(nodes: readonly TimelineNode[], parent: string | null, out: Array<{ id: string; parent: string | null; root: string }>, root?: string): void {
  for (const n of nodes) {
    const id = n.info?.id ?? n.file.name;
    out.push({ id, parent, root: root ?? id });
    flatten(n.children, id, out, root ?? id);
  }
}

/** Checks the repository after the branches came together: briefing, timeline, status, guards. */
async function checkCombined(dir: string, h0: HandoverOk, left: BranchWork, right: BranchWork): Promise<void> {
  const c = conflicts(dir);
  assert.equal(c.unmerged, '', 'git reports no unmerged file');
  assert.deepEqual(c.markers, [], 'no conflict marker anywhere in the handoff root');

  // Briefing: every section file byte for byte as its branch wrote it; read together, each section whole, in time order.
  for (const [file, text] of [...left.sections, ...right.sections]) assert.equal(readFileSync(file, 'utf8'), text, `${path.basename(file)} intact`);
  const whole = await readBriefing(h0.briefing.path);
  assert.ok(whole);
  const ids = [h0.package.id, ...left.ids, ...right.ids].sort();
  const parts = whole.split(/^(?=## )/m);
  assert.match(parts[0], /^# Briefing for Implementation engineer/);
  assert.equal(parts.length - 1, 7, 'seven sections: main, three per branch');
  parts.slice(1).forEach((part, i) => {
    assert.match(part, new RegExp(`^## ${new Date(T0 + minuteOf(ids[i]) * 60_000).toISOString()} — `), `section ${i + 1} starts with its own heading`);
    assert.equal((part.match(/^\*\*Handoff:\*\* \[/gm) ?? []).length, 1, 'one handoff link per section');
    assert.match(part, new RegExp(`\\*\\*Handoff:\\*\\* \\[${ids[i]}\\]\\([^)]+\\)\\n+$`), `section ${i + 1} ends with its own handoff link`);
  });
  for (const [, text] of [...left.sections, ...right.sections])
    assert.ok(whole.includes(text.slice(text.indexOf('\n## '))), 'each branch section is contiguous in the briefing');

  // Timeline: every handoff and result once, in the one chain rooted at h0, under the right parent.
  const opened = await openTimeline({ workspaceRoot: dir });
  assert.ok(opened.ok);
  const flat: Array<{ id: string; parent: string | null; root: string }> = [];
  flatten(opened.timeline.chains, null, flat);
  const seen = new Map<string, number>();
  for (const n of flat) seen.set(n.id, (seen.get(n.id) ?? 0) + 1);
  assert.ok(
    [...seen.values()].every((v) => v === 1),
    `no duplicate: ${JSON.stringify([...seen])}`,
  );
  assert.equal(flat.length, 1 + 6 + 2, 'h0, six handoffs, two results');
  assert.ok(
    flat.every((n) => n.root === h0.package.id),
    'one chain, rooted at the handoff on main',
  );
  const parentOf = new Map(flat.map((n) => [n.id, n.parent]));
  for (const b of [left, right]) {
    assert.equal(parentOf.get(b.ids[0]), h0.package.id);
    assert.equal(parentOf.get(b.ids[1]), b.ids[0]);
    assert.equal(parentOf.get(b.ids[2]), h0.package.id);
  }

  // Status: the latest change (right's blocked, at minute 8), with every change of both branches in its history.
  const head = await readHandoffHead(h0.handoff_file);
  assert.equal(head?.frontmatter.status, 'blocked');
  assert.deepEqual(
    head?.frontmatter.status_history.map((s) => [s.from, s.to, s.session_id, s.at]),
    [
      ['pending', 'accepted', 'left', at(6.5)().toISOString()],
      ['accepted', 'complete', 'left', at(7)().toISOString()],
      ['pending', 'blocked', 'right', at(8)().toISOString()],
    ],
  );
  assert.equal(
    opened.timeline.info.get(opened.timeline.files.find((f) => f.name === path.basename(h0.handoff_file))!.key)?.status,
    'blocked',
    'the timeline shows the latest status',
  );

  // Guards: an agent continuing a sibling (hop 3 of 3) on the same topic is not refused for the other branch's handoffs.
  const next = await handover(
    { specialist: SPECIALIST, topic: 'Auth', parent: left.ids[0], summary: 'after the merge', next_steps: ['Ship'] },
    { workspaceRoot: dir, now: at(30), sessionId: 'after', caller: 'agent' },
  );
  assert.equal(next.status, 'ok', next.status === 'error' ? next.message : '');
}

/** The minute (past T0) a handoff id names. */
function minuteOf(id: string): number {
  const stamp = id.slice(0, 24).replace(/T(\d{2})-(\d{2})-(\d{2})/, 'T$1:$2:$3');
  return (Date.parse(stamp) - T0) / 60_000;
}

describe('handoffs on branches: git merge and rebase without a conflict (real git)', function () {
  this.timeout(60_000);
  after(cleanupTempDirs);

  it('writing the handoff root also writes its .gitattributes (union merge for briefings) and .gitignore, under the configured folder name', async () => {
    const { dir } = await repoWithMainHandoff();
    assert.match(readFileSync(path.join(dir, '.handoff', '.gitattributes'), 'utf8'), /^briefings\/\*\/\*\.md merge=union$/m);
    assert.equal(git(dir, 'check-attr', 'merge', '--', '.handoff/briefings/x-2026-11-30/a.md').trim(), '.handoff/briefings/x-2026-11-30/a.md: merge: union');
    assert.match(git(dir, 'check-ignore', '--no-index', '-v', '.handoff/handoffs/.a.md.lock/x'), /^\.handoff\/\.gitignore:\d+:\.\*\.lock\/\t/);
    // A user's own lines stay; only missing ones are added, once.
    const custom = initRepo();
    write(custom, 'notes/team/.gitattributes', '*.md text eol=lf\n');
    ok(await handover({ specialist: SPECIALIST, topic: 'Auth', summary: 's' }, { workspaceRoot: custom, handoffDirectory: 'notes/team', now: at(0) }));
    ok(await handover({ specialist: SPECIALIST, topic: 'Auth', summary: 's' }, { workspaceRoot: custom, handoffDirectory: 'notes/team', now: at(1) }));
    const attrs = readFileSync(path.join(custom, 'notes', 'team', '.gitattributes'), 'utf8');
    assert.ok(attrs.startsWith('*.md text eol=lf\n'), attrs);
    assert.equal(attrs.match(/^briefings\/\*\.md merge=union$/gm)?.length, 1);
    assert.ok(existsSync(path.join(custom, 'notes', 'team', '.gitignore')));
  });

  it("why one file per section: git's union merge interleaves two sections appended to one file", async () => {
    // The layout before: one briefing file, each handoff appending a section. Both sides
    // append a section with the same structure (same headings, the same "Next steps" line);
    // git's union driver splits the conflict at those shared lines and interleaves them.
    const dir = initRepo();
    write(dir, '.gitattributes', 'briefing.md merge=union\n');
    const file = path.join(dir, 'briefing.md');
    await appendBriefing(dir, file, await ensureSanitized('# Briefing\n'), await ensureSanitized(section('main', 'Add the tests')));
    commitAll(dir, 'main');
    git(dir, 'checkout', '-q', '-b', 'side');
    await appendBriefing(dir, file, await ensureSanitized('# Briefing\n'), await ensureSanitized(section('side', 'Add the tests')));
    commitAll(dir, 'side');
    git(dir, 'checkout', '-q', 'main');
    await appendBriefing(dir, file, await ensureSanitized('# Briefing\n'), await ensureSanitized(section('other', 'Add the tests')));
    commitAll(dir, 'other');
    git(dir, 'merge', '-q', '--no-edit', 'side');
    const merged = readFileSync(file, 'utf8');
    assert.ok(
      !merged.includes(section('other', 'Add the tests')) || !merged.includes(section('side', 'Add the tests')),
      'union merge does not keep both sections whole',
    );
  });

  it('two branches, three handoffs and sections each plus a status change of the same handoff: git merge, no conflict, nothing lost', async () => {
    const { dir, h0 } = await repoWithMainHandoff();
    const left = await branchWork(dir, 'left', h0, [1, 3, 5], 7);
    const right = await branchWork(dir, 'right', h0, [2, 4, 6], 8);
    git(dir, 'checkout', '-q', 'left');
    git(dir, 'merge', '-q', '--no-edit', 'right'); // throws when git stops with a conflict
    await checkCombined(dir, h0, left, right);
  });

  it('the same with git rebase: no conflict, nothing lost', async () => {
    const { dir, h0 } = await repoWithMainHandoff();
    const left = await branchWork(dir, 'left', h0, [1, 3, 5], 7);
    const right = await branchWork(dir, 'right', h0, [2, 4, 6], 8);
    git(dir, 'checkout', '-q', 'right');
    git(dir, 'rebase', '-q', 'left'); // throws when git stops with a conflict
    await checkCombined(dir, h0, left, right);
  });

  it('a handoff with status_history in its frontmatter (written before events) and a single-file briefing keep reading, and take new changes', async () => {
    const { dir, h0 } = await repoWithMainHandoff();
    // The older format: status edited in place, history in the frontmatter; the briefing one file.
    // changeStatus is how the status was changed before events: in place, in the frontmatter.
    const edited = changeStatus(readFileSync(h0.handoff_file, 'utf8'), 'in_progress', { at: at(1)().toISOString(), session_id: 'old' });
    assert.ok(edited.ok);
    const text = edited.text.replace(/^briefing_file: .*$/m, `briefing_file: briefings/implementation-engineer-auth-2026-11-30.md`);
    assert.match(text, /status_history:\n {2}- from: pending/);
    writeFileSync(h0.handoff_file, text);
    const legacyBriefing = path.join(dir, '.handoff', 'briefings', 'implementation-engineer-auth-2026-11-30.md');
    writeFileSync(legacyBriefing, readFileSync(h0.briefing.path, 'utf8').replace('## ', '## OLD '));
    const before = await readHandoffHead(h0.handoff_file);
    assert.equal(before?.frontmatter.status, 'in_progress');
    assert.deepEqual(
      before?.frontmatter.status_history.map((s) => s.to),
      ['in_progress'],
    );
    // The older history is read: the pick-up by "old" counts, so this session has to proceed over it.
    const r = await recordResult(
      { specialist: SPECIALIST, handoffs: [h0.package.id], summary: 'done', criteria_met: 'all', proceed_if_taken: true },
      { workspaceRoot: dir, now: at(2), sessionId: 'new' },
    );
    assert.ok(r.status === 'ok' && r.entries[0].status === 'complete', JSON.stringify(r));
    assert.equal(readFileSync(h0.handoff_file, 'utf8'), text, 'the handoff file is not edited any more');
    const after = await readHandoffHead(h0.handoff_file);
    assert.equal(after?.frontmatter.status, 'complete');
    assert.deepEqual(
      after?.frontmatter.status_history.map((s) => [s.from, s.to, s.session_id]),
      [
        ['pending', 'in_progress', 'old'],
        ['in_progress', 'complete', 'new'],
      ],
    );
    // The single file first, then the folder's sections.
    const later = ok(await handover({ specialist: SPECIALIST, topic: 'Auth', summary: 'later the same day' }, { workspaceRoot: dir, now: at(3) }));
    const whole = await readBriefing(legacyBriefing);
    assert.ok(whole?.startsWith(readFileSync(legacyBriefing, 'utf8')));
    assert.deepEqual(
      whole?.match(/^## .*$/gm)?.map((l) => l.slice(0, 7)),
      ['## OLD ', '## 2026', '## 2026'],
    );
    assert.ok(whole?.includes('later the same day'));
    assert.equal(later.briefing.existed_before, true);
  });
});

/** A briefing section shaped like ours: a heading, the summary, next steps, and closing lines shared by every section. */
function section(who: string, next: string): string {
  return `\n## ${who}\n\n**Summary:** ${who} work\n\n**Next steps:**\n1. ${next}\n\n**Return condition:** when done\n\n**Handoff:** [${who}](x)\n`;
}
