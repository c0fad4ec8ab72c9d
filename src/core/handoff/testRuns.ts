/** Test runs as fit-to-budget's `grouped` form lists them (./fit.ts, ./render.ts). Pure. */
import type { TestRun } from './schema';

export interface TestRunGroup {
  readonly latest: TestRun;
  readonly runs: number;
  readonly failed: number;
}

/** In the order the commands came, failing ones (by their latest run) first. */
export function groupTestRuns(tests: readonly TestRun[]): TestRunGroup[] {
  const groups = new Map<string, TestRunGroup>();
  for (const t of tests) {
    const key = `${t.cwd ?? ''}\0${t.command}`;
    const g = groups.get(key);
    groups.set(key, { latest: t, runs: (g?.runs ?? 0) + 1, failed: (g?.failed ?? 0) + (t.result === 'failed' ? 1 : 0) });
  }
  const all = [...groups.values()];
  return [...all.filter((g) => g.latest.result === 'failed'), ...all.filter((g) => g.latest.result !== 'failed')];
}
