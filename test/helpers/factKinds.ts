/**
 * Every kind of fact a receiver needs from a long session, checked in a written handoff file
 * (issue 34, "Done when"): a summary, every git-changed path (or its folder rolled up with the
 * right count), the latest request, every test outcome, every open plan item and every
 * state-changing command's first line. Read from the file as written, parsed back; the
 * expectations come from the caller (a facts file read by hand, git, or the test's own input).
 */
import { parseCommandsRun, parseTestsRun, parseUserRequests } from '../../src/core/handoff/draftSections';
import { parseHandoff } from '../../src/core/handoff/parse';

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** What the handoff must carry. */
export interface Expected {
  /** The latest request, or its start (the handoff may carry a long one as its head). */
  readonly request: string;
  /** Paths git reports changed (relative to the repository). */
  readonly gitPaths: readonly string[];
  /** Test runs: a pattern of the command and the run's result; runs of one command may be one line with its count. */
  readonly tests: ReadonlyArray<{ readonly cmd: RegExp; readonly result: 'passed' | 'failed' }>;
  /** Open plan items: each is a next step. */
  readonly open: readonly string[];
  /** State-changing commands: each is the start of a line of "Commands run". */
  readonly commands: readonly string[];
}

/** The paths a "Touched files" section names one by one, and the folders it rolls up with their counts. */
function touched(section: string): { paths: Set<string>; folders: Map<string, number> } {
  const paths = new Set<string>();
  const folders = new Map<string, number>();
  for (const line of section.split('\n')) {
    if (line.startsWith('### ')) break;
    const folder = /^- (`+)(.+?\/)\1 — ([\d,]+) files \(/.exec(line);
    if (folder) {
      folders.set(folder[2], Number(folder[3].replace(/,/g, '')));
      continue;
    }
    for (const m of line.matchAll(/(`+)(.+?)\1/g)) paths.add(m[2].trim());
  }
  return { paths, folders };
}

/**
 * The runs a "Tests run" line stands for: one, or (one line per command, fit to a budget) its
 * `×N, F failed`, the latest run's result on the line.
 */
function testSlots(section: string): Array<{ command: string; passed: number; failed: number }> {
  return section
    .split('\n')
    .filter((l) => /^- (✅ passed|❌ failed|❔ unknown) /.test(l))
    .map((line) => {
      const run = parseTestsRun(line)[0];
      const group = /; ×(\d+)(?:, (\d+) failed)?/.exec(line);
      const runs = group ? Number(group[1]) : 1;
      const failed = group ? Number(group[2] ?? 0) : run?.result === 'failed' ? 1 : 0;
      return { command: run?.command ?? '', passed: runs - failed, failed };
    });
}

/**
 * The facts of `expected` the handoff file `text` does not carry, in words; empty when it
 * carries every one. Also what it says falsely about them (a rolled-up folder with the wrong count).
 */
export function missingKinds(text: string, expected: Expected): string[] {
  const parsed = parseHandoff(text);
  if (!parsed.ok) return [`the handoff does not parse: ${parsed.message}`];
  const section = (name: string) => parsed.handoff.sections.get(name) ?? '';
  const missing: string[] = [];

  const summary = section('Summary').split('\n\n_')[0].trim();
  if (!summary || summary === '_None._') missing.push('a non-empty summary');

  const { paths, folders } = touched(section('Touched files'));
  for (const p of expected.gitPaths) {
    const folder = [...folders.keys()].filter((f) => p.startsWith(f)).sort((a, b) => b.length - a.length)[0];
    if (!paths.has(p) && !folder) missing.push(`git-changed path ${p}`);
  }
  for (const [folder, count] of folders) {
    const under = expected.gitPaths.filter(
      (p) => p.startsWith(folder) && ![...folders.keys()].some((f) => f !== folder && f.startsWith(folder) && p.startsWith(f)),
    ).length;
    if (under !== count) missing.push(`folder ${folder} says ${count} files, git has ${under} there`);
  }

  const latest = parseUserRequests(section('User requests')).at(-1)?.text ?? '';
  const head = squash(latest.replace(/ … \[[\d,]+ more characters\]$/, ''));
  const want = squash(expected.request);
  if (!(head.includes(want) || (head.length >= 100 && want.startsWith(head))))
    missing.push(`the latest request ${JSON.stringify(expected.request.slice(0, 80))} (carried: ${JSON.stringify(latest.slice(0, 80))})`);

  const slots = testSlots(section('Tests run'));
  for (const t of expected.tests) {
    const slot = slots.find((s) => t.cmd.test(s.command) && s[t.result] > 0);
    if (slot) slot[t.result]--;
    else missing.push(`test /${t.cmd.source}/ ${t.result}`);
  }
  if (/^- … and [\d,]+ more \(passing runs cut/m.test(section('Tests run'))) missing.push('passing test runs cut to fit');

  const next = section('Next steps')
    .split('\n')
    .filter((l) => /^\d+\. /.test(l))
    .map((l) => squash(l.replace(/^\d+\. /, '').replace(/ _\(in progress\)_$/, '')));
  for (const o of expected.open) if (!next.some((n) => n.includes(squash(o)))) missing.push(`open plan item ${JSON.stringify(o)}`);

  const commands = parseCommandsRun(section('Commands run')).map((c) => squash(c.command));
  // A fact is part of its line (a facts file names a command by its start); a long command is its first line, marked " …".
  for (const c of expected.commands)
    if (!commands.some((line) => line.includes(squash(c)) || (line.endsWith(' …') && squash(c).startsWith(line.slice(0, -2)))))
      missing.push(`command ${JSON.stringify(c.slice(0, 80))}`);
  if (/^- … and [\d,]+ more \([\d,]+ cut to fit/m.test(section('Commands run'))) missing.push('commands cut to fit');
  return missing;
}
