/**
 * What a careful person reads in a real session log (a `facts.json` beside the logs, read by
 * hand: see ../shared/fixtures/real-logs/SOURCES.md and test/fixtures/real/SOURCES.md), checked
 * against the handoff file the engine writes for that log: the written file, parsed back, never
 * the readers' events.
 *
 * When fit-to-budget cut something, the handoff names its history file (the uncut package, in the
 * same format): a fact the handoff file cut is carried when that file holds it, and counted apart
 * (`inHistory`); a false statement in either file counts.
 *
 * A fact is carried when the file says it: the latest user request holds `request`; each of
 * `tests` is a line of "Tests run" with that result; each of `edits` is named in "Touched files";
 * each of `open` is a next step and each of `done` an item of "Done"; each of `commands` is a line
 * of "Commands run". A statement is false when the file says what the log does not: a test run
 * no fact lists or with the other result, a `notRun` command shown as run, a `badEdits` path shown
 * as edited, an open item shown as done or a done one as still to do.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseCommandsRun, parseDone, parseTestsRun, parseUserRequests } from '../../src/core/handoff/draftSections';
import { parseHandoff } from '../../src/core/handoff/parse';
import { handover } from '../../src/engine/handover/handover';
import { commitAll, initRepo, tempDir, write } from './repo';

/** One log's facts (the shape of ../shared/fixtures/real-logs/facts.json). */
export const LogFactsSchema = z.strictObject({
  /** The log, relative to the facts file's folder: a file, or a Cline-family task folder. */
  file: z.string().min(1),
  /** The file name the agent itself gives such a log, where its own name differs. */
  as: z.string().min(1).optional(),
  request: z.string().min(1),
  tests: z.array(z.strictObject({ cmd: z.string().min(1), result: z.enum(['passed', 'failed']), basis: z.enum(['exit code', 'output', 'claim']).optional() })),
  notRun: z.array(z.string().min(1)).optional(),
  edits: z.array(z.string().min(1)).optional(),
  badEdits: z.array(z.string().min(1)).optional(),
  open: z.array(z.string().min(1)).optional(),
  done: z.array(z.string().min(1)).optional(),
  commands: z.array(z.string().min(1)).optional(),
});
export type LogFacts = z.infer<typeof LogFactsSchema>;

/** Reads and validates a facts file. @throws naming the file and the entry at fault */
export function loadFacts(file: string): LogFacts[] {
  const parsed = z.array(LogFactsSchema).safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** What one handoff carried of one log's facts. */
export interface FactsCheck {
  readonly total: number;
  readonly carried: number;
  /** Of `carried`, the facts the handoff file cut to fit its budget and its history file holds. */
  readonly inHistory: number;
  /** The facts not carried, in words. */
  readonly missing: string[];
  /** The false statements, in words. */
  readonly falses: string[];
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A path as a handoff names it (`src/a.ts`, or absolute outside the session's folder) is the fact's path. */
function samePath(shown: string, fact: string): boolean {
  return shown === fact || shown.endsWith(`/${fact}`);
}

/** The paths named in code spans of the "Touched files" section (its list and "Also edited in the session"). */
function touchedPaths(section: string): string[] {
  const out: string[] = [];
  for (const line of section.split('\n')) {
    if (line.startsWith('### ')) break;
    for (const m of line.matchAll(/(`+)(.+?)\1/g)) out.push(m[2].trim());
  }
  return out;
}

/**
 * Checks a written handoff against one log's facts: its file, and where fit-to-budget cut
 * something, its history file for what was cut.
 */
export function checkFacts(facts: LogFacts, written: WrittenHandoff): FactsCheck {
  const main = checkOne(facts, written.handoff);
  if (!written.history || !main.missing.length) return { ...main, inHistory: 0 };
  const full = checkOne(facts, written.history);
  const recovered = main.missing.filter((m) => !full.missing.includes(m) && !m.startsWith('('));
  return {
    total: main.total,
    carried: main.carried + recovered.length,
    inHistory: recovered.length,
    missing: main.missing.filter((m) => !recovered.includes(m) && !(m.startsWith('(') && full.missing.length === 0)),
    falses: [...new Set([...main.falses, ...full.falses])],
  };
}

/** A written handoff: its file's text, and its history file's when fit-to-budget cut something. */
export interface WrittenHandoff {
  readonly handoff: string;
  readonly history?: string;
}

function checkOne(facts: LogFacts, text: string): Omit<FactsCheck, 'inHistory'> {
  const parsed = parseHandoff(text);
  if (!parsed.ok) return { total: 1, carried: 0, missing: [`the handoff does not parse: ${parsed.message}`], falses: [] };
  const section = (name: string) => parsed.handoff.sections.get(name) ?? '';
  const missing: string[] = [];
  const falses: string[] = [];
  let total = 0;
  let carried = 0;
  const fact = (ok: boolean, words: string) => {
    total++;
    if (ok) carried++;
    else missing.push(words);
  };

  const requests = parseUserRequests(section('User requests'));
  const latest = requests.at(-1)?.text ?? '';
  fact(
    squash(latest).includes(squash(facts.request)),
    `the latest request holds ${JSON.stringify(facts.request)} (it is ${JSON.stringify(latest.slice(0, 160))})`,
  );

  const runs = parseTestsRun(section('Tests run'));
  const used = new Set<number>();
  for (const t of facts.tests) {
    const re = new RegExp(t.cmd);
    const i = runs.findIndex((r, j) => !used.has(j) && re.test(r.command) && r.result === t.result);
    const other = i < 0 ? runs.findIndex((r, j) => !used.has(j) && re.test(r.command)) : -1;
    if (i >= 0) {
      used.add(i);
      const basisOk = !t.basis || basisOf(runs[i]) === t.basis;
      fact(basisOk, `test /${t.cmd}/ ${t.result} on the basis of ${t.basis} (shown: ${basisOf(runs[i])})`);
      if (!basisOk) falses.push(`test ${JSON.stringify(runs[i].command)} shown on the basis of ${basisOf(runs[i])}, the log's basis is ${t.basis}`);
    } else if (other >= 0) {
      used.add(other);
      fact(false, `test /${t.cmd}/ ${t.result}`);
      falses.push(`test ${JSON.stringify(runs[other].command)} shown ${runs[other].result}, it ${t.result}`);
    } else {
      fact(false, `test /${t.cmd}/ ${t.result}`);
    }
  }
  runs.forEach((r, j) => {
    if (!used.has(j)) falses.push(`${JSON.stringify(r.command)} shown as a test run (${r.result}); the log has no such test run`);
  });
  const omittedTests = /^- … and ([\d,]+) more \(passing runs cut/m.exec(section('Tests run'));
  if (omittedTests && facts.tests.length > 0) missing.push(`(${omittedTests[1]} passing test runs cut to fit the budget)`);

  const commands = parseCommandsRun(section('Commands run'));
  for (const c of facts.commands ?? [])
    fact(
      commands.some((r) => squash(r.command).includes(squash(c))),
      `command ${JSON.stringify(c)} in Commands run`,
    );
  for (const n of facts.notRun ?? []) {
    for (const r of runs) if (r.command.includes(n)) falses.push(`${JSON.stringify(r.command)} shown as a test run; it never ran`);
    for (const r of commands) if (r.command.includes(n)) falses.push(`${JSON.stringify(r.command)} shown as run; it never ran`);
  }

  const touched = touchedPaths(section('Touched files'));
  for (const e of facts.edits ?? [])
    fact(
      touched.some((p) => samePath(p, e)),
      `edit ${e} in Touched files`,
    );
  for (const b of facts.badEdits ?? [])
    if (touched.some((p) => samePath(p, b))) falses.push(`${JSON.stringify(b)} shown as edited; the session did not edit it`);

  const done = parseDone(section('Done')).map(squash);
  const next = section('Next steps')
    .split('\n')
    .filter((l) => /^\d+\. /.test(l))
    .map((l) => squash(l.replace(/^\d+\. /, '')));
  const holds = (items: string[], t: string) => items.some((i) => i.includes(squash(t)));
  for (const d of facts.done ?? []) {
    fact(holds(done, d), `done: ${d}`);
    if (holds(next, d)) falses.push(`${JSON.stringify(d)} shown as a next step; it is done`);
  }
  for (const o of facts.open ?? []) {
    fact(holds(next, o), `open: ${o}`);
    if (holds(done, o)) falses.push(`${JSON.stringify(o)} shown as done; it is still open`);
  }
  return { total, carried, missing, falses };
}

/** The basis a "Tests run" line states: its exit code, the run's printed output, or only the agent's words. */
function basisOf(r: ReturnType<typeof parseTestsRun>[number]): 'exit code' | 'output' | 'claim' {
  if (r.exit_code !== null) return 'exit code';
  return r.basis === 'output' ? 'output' : 'claim';
}

/**
 * Writes a drafted handoff of one log (as `handover --draft --session-log LOG` does) from a new
 * temporary git repository, with the engine's defaults, and returns the written files' texts.
 * @throws when the engine returns an error (its message)
 */
export async function handoffTextOf(log: string): Promise<WrittenHandoff> {
  const ws = initRepo(tempDir('handoff-real-facts-'));
  write(ws, 'README.md', '# app\n');
  commitAll(ws, 'initial');
  const r = await handover(
    { specialist: 'implementation_engineer', topic: `facts of ${path.basename(log)}`, draft: true },
    { workspaceRoot: ws, sessionLog: { mode: log } },
  );
  if (r.status !== 'ok') throw new Error(r.message);
  return { handoff: readFileSync(r.handoff_file, 'utf8'), ...(r.history_file ? { history: readFileSync(r.history_file, 'utf8') } : {}) };
}
