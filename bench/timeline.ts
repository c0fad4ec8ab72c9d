/**
 * Timeline rows of `npm run bench`: a handoff folder of 10,000 files (one real handoff
 * written by the engine, copied under 10,000 names in chains of five hops), and
 *
 * - the tree's first page as the provider builds it for a folder this big (names only:
 *   list the three timeline folders, parse the names, group, take the first 200 chains)
 *   beside `readdir` of the same folder;
 * - the chain links of all 10,000 files as the tree reads them in the background
 *   (`readChainInfos`: one listing of status/, each file's start up to its frontmatter's
 *   closing `---`, the head fields by the fast reader) beside reading every file whole;
 *   goal ≤ 1.5× (issue 19);
 * - the insights of all 10,000 files (issue 21: readInsights, after 1 in 20 was picked up and
 *   1 in 40 completed, so status events are read too) beside reading every file whole, with
 *   the chain links' goal;
 * - the latest verifications (issue 18) with 1 handoff in 100 verified, read in bulk once per
 *   timeline read (`latestVerifications`), beside `readdir` of the handoffs folder.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { handoffId } from '../src/core/handoff/naming';
import { groupChains, TIMELINE_PAGE_SIZE } from '../src/core/timeline/chains';
import { handover } from '../src/engine/handover/handover';
import { countRechecks, judgeRecheck } from '../src/core/receive/verification';
import { listTimelineFiles, readChainInfos } from '../src/store/handoffs/timelineFiles';
import { latestVerifications, writeVerification } from '../src/store/handoffs/verifications';
import { setHandoffStatus } from '../src/store/handoffs/handoffStore';
import { readInsights } from '../src/engine/timeline/insights';
import { openProject } from '../src/engine/project/project';

/** One measured figure: ours and the baseline, in milliseconds, and a note (the goal, where the row has one). */
export interface TimelineRow {
  readonly name: string;
  readonly ours: number;
  readonly baseline: number;
  readonly note?: string;
}

/** Goal of the chain-links row (issue 19): at most 1.5× reading every file whole. */
export const CHAIN_LINKS_GOAL = 1.5;

/**
 * Builds the folder and measures.
 * @param compare interleaved medians of ours and the baseline (the bench's)
 */
export async function timelineRows(
  say: (line: string) => void,
  compare: (ours: () => unknown, baseline: () => unknown, runs?: number) => Promise<{ ours: number; baseline: number }>,
  count = 10_000,
): Promise<TimelineRow[]> {
  const ws = path.join(tmpdir(), `handoff-bench-timeline-${process.pid}`);
  rmSync(ws, { recursive: true, force: true });
  mkdirSync(ws, { recursive: true });
  try {
    const r = await handover(
      { specialist: 'quality_reviewer', topic: 'bench', summary: 'A handoff of ordinary size.', next_steps: ['one', 'two'] },
      { workspaceRoot: ws },
    );
    if (r.status !== 'ok') throw new Error(r.message);
    const template = readFileSync(r.handoff_file, 'utf8');
    const dir = path.dirname(r.handoff_file);
    rmSync(r.handoff_file);
    say(`writing ${count.toLocaleString('en')} handoff files in ${dir} …`);
    const t0 = Date.parse('2026-01-01T00:00:00.000Z');
    const specialists = ['codebase_explorer', 'implementation_engineer', 'quality_reviewer', 'test_debug_engineer', 'security_data_engineer'];
    let root = '';
    let parent: string | null = null;
    for (let i = 0; i < count; i++) {
      const hop = (i % 5) + 1;
      const specialist = specialists[i % 5];
      const id = handoffId(new Date(t0 + i * 60_000), specialist);
      if (hop === 1) {
        root = id;
        parent = null;
      }
      const text = template
        .replace(/^id: .*$/m, `id: ${id}`)
        .replace(/^root_id: .*$/m, `root_id: ${root}`)
        .replace(/^correlation_id: .*$/m, `correlation_id: ${root}`)
        .replace(/^parent_id: .*$/m, `parent_id: ${parent ?? 'null'}`)
        .replace(/^hop: .*$/m, `hop: ${hop}`)
        .replace(/^specialist: .*$/m, `specialist: ${specialist}`)
        .replace(/^to: .*$/m, `to: ${specialist}`);
      writeFileSync(path.join(dir, `${id}.md`), text);
      parent = id;
    }
    const firstPage = async () => {
      const { files } = await listTimelineFiles(ws, path.join(ws, '.handoff'), specialists);
      return groupChains(files, new Map(), 'newest').slice(0, TIMELINE_PAGE_SIZE);
    };
    const page = await firstPage();
    if (page.length !== TIMELINE_PAGE_SIZE) throw new Error(`the first page has ${page.length} chains, not ${TIMELINE_PAGE_SIZE}`);
    const first = await compare(firstPage, () => readdir(dir));
    const { files } = await listTimelineFiles(ws, path.join(ws, '.handoff'), specialists);
    const links = await compare(
      () => readChainInfos(files, path.join(ws, '.handoff')),
      async () => {
        for (let i = 0; i < files.length; i += 100) await Promise.all(files.slice(i, i + 100).map((f) => readFile(f.path, 'utf8')));
      },
      3,
    );
    const handoffRoot = path.join(ws, '.handoff');
    // Insights (issue 21) of the same folder, after 1 handoff in 20 was picked up and 1 in 40 completed (status events).
    const t1 = Date.parse('2026-01-02T00:00:00.000Z');
    for (let i = 0; i < files.length; i += 20) {
      await setHandoffStatus(files[i].path, 'accepted', { at: new Date(t1 + i * 1000).toISOString(), session_id: 'bench' });
      if (i % 40 === 0) await setHandoffStatus(files[i].path, 'complete', { at: new Date(t1 + i * 1000 + 60_000).toISOString(), session_id: 'bench' });
    }
    const opened = await openProject({ workspaceRoot: ws });
    if (!opened.ok) throw new Error(opened.error.message);
    const now = new Date(t0 + count * 60_000 + 86_400_000);
    const figures = await readInsights(opened.project, { now, pendingWarnAfterMs: 2 * 86_400_000 });
    if (figures.overall.written !== count || figures.overall.picked_up !== Math.ceil(count / 20) || figures.chains.total !== Math.ceil(count / 5)) {
      throw new Error(`insights counted ${figures.overall.written} written, ${figures.overall.picked_up} picked up, ${figures.chains.total} chains`);
    }
    const insights = await compare(
      () => readInsights(opened.project, { now, pendingWarnAfterMs: 2 * 86_400_000 }),
      async () => {
        for (let i = 0; i < files.length; i += 100) await Promise.all(files.slice(i, i + 100).map((f) => readFile(f.path, 'utf8')));
      },
      3,
    );
    let verified = 0;
    for (let i = 0; i < files.length; i += 100) {
      const rechecks = [
        judgeRecheck({
          kind: 'test',
          command: 'npm test',
          cwd: null,
          recorded: { result: 'ok', exit_code: 0, at: null },
          now: { exit_code: i % 200 ? 0 : 1, timed_out: false, duration_ms: 900 },
        }),
      ];
      const id = files[i].name.replace(/\.md$/, '');
      await writeVerification(handoffRoot, {
        schema: 1,
        handoff_id: id,
        checked_at: new Date(t0 + i * 60_000 + 30_000).toISOString(),
        session_id: 'bench',
        ran: true,
        stale: false,
        staleness: [],
        rechecks,
        counts: countRechecks(rechecks),
      });
      verified++;
    }
    const found = await latestVerifications(handoffRoot);
    if (found.size !== verified) throw new Error(`latestVerifications found ${found.size} of ${verified}`);
    const verifications = await compare(
      () => latestVerifications(handoffRoot),
      () => readdir(dir),
    );
    return [
      {
        name: `timeline: first page (${TIMELINE_PAGE_SIZE} chains) of ${count.toLocaleString('en')} handoff files, names only (vs readdir of the folder)`,
        ours: first.ours,
        baseline: first.baseline,
      },
      {
        name: `timeline: chain links of all ${count.toLocaleString('en')} files, read in the background (vs reading every file whole)`,
        ours: links.ours,
        baseline: links.baseline,
        note: `goal ≤ ${CHAIN_LINKS_GOAL}×: ${links.ours / links.baseline <= CHAIN_LINKS_GOAL ? 'met' : 'NOT met'}`,
      },
      {
        name: `insights of ${count.toLocaleString('en')} handoff files, ${Math.ceil(count / 20).toLocaleString('en')} with status events (vs reading every file whole)`,
        ours: insights.ours,
        baseline: insights.baseline,
        note: `goal ≤ ${CHAIN_LINKS_GOAL}× (the chain links' budget): ${insights.ours / insights.baseline <= CHAIN_LINKS_GOAL ? 'met' : 'NOT met'}`,
      },
      {
        name: `timeline: latest verifications of ${count.toLocaleString('en')} handoffs, ${verified.toLocaleString('en')} verified, read once (vs readdir of the handoffs folder)`,
        ours: verifications.ours,
        baseline: verifications.baseline,
      },
    ];
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}
