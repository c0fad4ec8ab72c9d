/**
 * Fit to budget: compress every section to its floor (the shortest form that still carries its facts), grow sections back in
 * the order that helps a receiver most, and cut items only when the floor itself does not fit, so a receiver gets every kind
 * of fact, each shorter, rather than some sections whole and others gone. The drop manifest records what was cut and shortened.
 */
import { renderHandoffBody, type HandoffMeta } from './render';
import type { Compaction, Dropped, HandoffPackage, Turn } from './schema';
import { groupTestRuns } from './testRuns';
import {
  FLOOR_COMPACTION_CHARS,
  FLOOR_FOLDERS,
  FLOOR_LATEST_REQUEST_CHARS,
  FLOOR_SUMMARY_CHARS,
  FLOOR_TURN_CHARS,
  LINE_CHARS,
  MIN_LATEST_REQUEST_CHARS,
  MIN_SUMMARY_CHARS,
  MIN_TURN_CHARS,
  SHORTENED_MARKER,
  SUMMARY_TRUNCATED_MARKER,
} from './fitLimits';

export { FLOOR_FOLDERS, SHORTENED_MARKER, SUMMARY_TRUNCATED_MARKER } from './fitLimits';
import type { UserRequest } from './draftFields';
import type { Specialist } from '../specialists/registry';
import type { TokenCounter } from './tokens';

export interface FitResult {
  readonly pkg: HandoffPackage;
  readonly fits: boolean;
  readonly original: HandoffPackage;
}

/** `text` cut to at most `max` characters at a word where one is near, marked `marker`; unchanged when it fits. */
export function headOf(text: string, max: number, marker = SHORTENED_MARKER): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const head = t.slice(0, Math.max(1, max));
  const space = head.search(/\s\S*$/);
  return `${(space >= max / 2 ? head.slice(0, space) : head).trimEnd()}${marker}`;
}

/** The first non-empty line of `text`, at most `max` characters, marked when anything was left out. */
export function firstLineOf(text: string, max = LINE_CHARS): string {
  const t = text.trim();
  const line = t.split(/\r\n|\r|\n/)[0];
  if (line.length === t.length && line.length <= max) return t;
  return `${headOf(line, max, '').trimEnd()}${SHORTENED_MARKER}`;
}

/** Never empty when it was not. */
function summaryAt(summary: string, chars: number): string {
  return chars >= summary.length ? summary : headOf(summary, Math.max(1, chars), SUMMARY_TRUNCATED_MARKER);
}

/** The last assistant turn (else the last turn), its text at most `chars` long. */
function lastTurnAt(turns: readonly Turn[], chars: number): Turn[] {
  const i = turns.map((t) => t.role).lastIndexOf('assistant');
  const last = turns[i >= 0 ? i : turns.length - 1];
  return last ? [{ ...last, text: chars >= last.text.length ? last.text : headOf(last.text, chars) }] : [];
}

function compactionAt(c: Compaction | null, chars: number): Compaction | null {
  if (!c || chars >= c.text.length) return c;
  return { ...c, text: chars <= 0 ? '' : headOf(c.text, chars) };
}

/** The latest request with at most `chars` of its text, marked with how many characters were left out. */
function latestAt(request: UserRequest, chars: number): UserRequest {
  if (chars >= request.text.trim().length) return request;
  const head = headOf(request.text, chars, '');
  return { ...request, text: `${head}${SHORTENED_MARKER} [${request.text.trim().length - head.length} more characters]` };
}

/** Largest k in [lo, hi] with ok(k), assuming ok is true then false as k grows; lo - 1 when ok(lo) is false. */
function largestFitting(lo: number, hi: number, ok: (k: number) => boolean): number {
  if (ok(hi)) return hi;
  if (!ok(lo)) return lo - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Every section in its shortest form that still carries its facts. */
function floorOf(p: HandoffPackage): HandoffPackage {
  const requests = p.user_requests;
  const latest = requests.at(-1);
  return {
    ...p,
    summary: summaryAt(p.summary, FLOOR_SUMMARY_CHARS),
    touched_files_form:
      p.touched_files.length + p.session_edits.length === 0 ? undefined : p.touched_files.length + p.session_edits.length > FLOOR_FOLDERS ? 'folders' : 'paths',
    tests_run_form: 'grouped',
    user_requests: latest ? [latestAt(latest, FLOOR_LATEST_REQUEST_CHARS)] : [],
    user_requests_omitted: p.user_requests_omitted + Math.max(0, requests.length - 1),
    commands_run: p.commands_run.map((c) => ({ ...c, command: firstLineOf(c.command) })),
    commands_run_form: p.commands_run.length ? 'compact' : undefined,
    completed: p.completed.map((t) => firstLineOf(t)),
    recent_turns: lastTurnAt(p.recent_turns, FLOOR_TURN_CHARS),
    compaction: compactionAt(p.compaction, FLOOR_COMPACTION_CHARS),
    diff_excerpt: null,
    diff_excerpt_truncated: false,
  };
}

/**
 * `meta.historyFile` should name where the full package is kept, so the count includes the body's line naming it.
 * `fits: false` (with `oversize_warning`) when even the package cut below its floor is over budget.
 */
export function fitToBudget(pkg: HandoffPackage, meta: HandoffMeta, specialist: Specialist, counter: TokenCounter): FitResult {
  const budget = pkg.max_context_tokens;
  const original = pkg;
  // Measured as written, the notes of what was cut at their widest, so the final body never grows past what was measured.
  const wide = widestFigure(original, counter.count(renderHandoffBody(original, meta, specialist)).tokens);
  const asWritten = (p: HandoffPackage): string => renderHandoffBody({ ...p, dropped: placeholderManifest(original, p, wide) }, meta, specialist);
  const fits = (p: HandoffPackage) => counter.within(asWritten(p), budget) !== false;
  if (counter.within(renderHandoffBody(pkg, meta, specialist), budget) !== false) {
    return { pkg: measurePackage(pkg, meta, specialist, counter), fits: true, original };
  }
  let cur = floorOf(pkg);
  if (fits(cur)) {
    cur = growBack(cur, original, fits);
  } else {
    cur = cutBelowFloor(cur, original, fits);
  }
  const fitted = { ...cur, dropped: [...pkg.dropped, ...manifestOf(original, cur, meta, specialist, counter)] };
  const measured = measurePackage(fitted, meta, specialist, counter);
  return { pkg: measured, fits: !measured.oversize_warning, original };
}

/** Grows the floor package back toward `full`, section by section in the order that helps a receiver most. */
function growBack(floor: HandoffPackage, full: HandoffPackage, fits: (p: HandoffPackage) => boolean): HandoffPackage {
  let cur = floor;
  /** Keeps the largest k in [0, n] for which `make(k)` fits (k = 0: the current package). */
  const grow = (n: number, make: (k: number) => HandoffPackage) => {
    if (n <= 0) return;
    const k = largestFitting(0, n, (i) => i === 0 || fits(make(i)));
    if (k > 0) cur = make(k);
  };
  // 1. The summary, character by character up to whole.
  {
    const base = cur;
    const from = base.summary.length;
    grow(Math.max(0, full.summary.length - from), (k) => ({ ...base, summary: summaryAt(full.summary, from + k) }));
  }
  // 2. The latest request whole.
  const latest = full.user_requests.at(-1);
  let olderLines = 0;
  if (latest && cur.user_requests.at(-1)?.text !== latest.text) {
    const base = cur;
    const from = FLOOR_LATEST_REQUEST_CHARS;
    grow(latest.text.length - from, (k) => ({ ...base, user_requests: [...base.user_requests.slice(0, -1), latestAt(latest, from + k)] }));
  }
  // 3. The touched files: rolled up → paths → with their line counts.
  if (cur.touched_files_form) {
    const base = cur;
    const forms: Array<HandoffPackage['touched_files_form']> = base.touched_files_form === 'folders' ? ['folders', 'paths', undefined] : ['paths', undefined];
    grow(forms.length - 1, (k) => ({ ...base, touched_files_form: forms[k] }));
  }
  // 4. The test runs one per line.
  if (cur.tests_run_form) {
    const base = cur;
    grow(1, () => ({ ...base, tests_run_form: undefined }));
  }
  // 5. The last assistant message whole.
  {
    const base = cur;
    const whole = lastTurnAt(full.recent_turns, Number.MAX_SAFE_INTEGER);
    if (whole.length && whole[0].text !== base.recent_turns[0]?.text) grow(1, () => ({ ...base, recent_turns: whole }));
  }
  // 5b. The agent's compaction summary whole.
  if (full.compaction && cur.compaction && cur.compaction.text !== full.compaction.text) {
    const base = cur;
    const from = FLOOR_COMPACTION_CHARS;
    grow(full.compaction.text.length - from, (k) => ({ ...base, compaction: compactionAt(full.compaction, from + k) }));
  }
  // 6. The older requests as their first lines, newest first; (8.) then whole, newest first.
  const older = full.user_requests.slice(0, -1);
  const withOlder = (from: HandoffPackage, lines: number, whole: number): HandoffPackage => {
    const shown = older.slice(older.length - lines).map((r, i, all) => (i >= all.length - whole ? r : { ...r, text: firstLineOf(r.text) }));
    return {
      ...from,
      user_requests: [...shown, from.user_requests[from.user_requests.length - 1]],
      user_requests_omitted: full.user_requests_omitted + older.length - lines,
    };
  };
  if (older.length && latest) {
    const base = cur;
    grow(older.length, (k) => withOlder(base, k, 0));
    olderLines = older.length - (cur.user_requests_omitted - full.user_requests_omitted);
  }
  // 7. The commands run with their source and time, then whole, in their order (failures first).
  if (cur.commands_run_form) {
    const base = cur;
    grow(1, () => ({ ...base, commands_run_form: undefined }));
  }
  {
    const base = cur;
    grow(full.commands_run.length, (k) => ({ ...base, commands_run: full.commands_run.map((c, i) => (i < k ? c : base.commands_run[i])) }));
  }
  // 7b. The done items whole.
  {
    const base = cur;
    grow(full.completed.length, (k) => ({ ...base, completed: full.completed.map((t, i) => (i < k ? t : base.completed[i])) }));
  }
  // 8. The older requests shown, whole.
  if (olderLines > 0) {
    const base = cur;
    grow(olderLines, (k) => withOlder(base, olderLines, k));
  }
  // 9. More recent turns, newest first.
  if (full.recent_turns.length > cur.recent_turns.length) {
    const base = cur;
    const turns = full.recent_turns;
    const kept = base.recent_turns[0];
    const at = kept ? turns.map((t) => t.text).lastIndexOf(kept.text) : -1;
    grow(turns.length, (k) =>
      k === 0 ? base : { ...base, recent_turns: turns.filter((t, i) => i >= turns.length - k || (i === at && kept.text === t.text)) },
    );
  }
  // 10. The diff excerpt, file by file from its start (a file's diff whole or not at all).
  if (full.diff_excerpt !== null) {
    const base = cur;
    const files = full.diff_excerpt.split(/(?=^diff --git )/m);
    grow(files.length, (k) =>
      k >= files.length
        ? { ...base, diff_excerpt: full.diff_excerpt, diff_excerpt_truncated: full.diff_excerpt_truncated }
        : { ...base, diff_excerpt: files.slice(0, k).join('').replace(/\n$/, ''), diff_excerpt_truncated: true },
    );
  }
  return cur;
}

/** Cuts below the floor until the package fits, least useful first; what cannot be cut stays (the package is then over budget). */
function cutBelowFloor(floor: HandoffPackage, full: HandoffPackage, fits: (p: HandoffPackage) => boolean): HandoffPackage {
  let cur = floor;
  const keep = (n: number, make: (k: number) => HandoffPackage) => {
    const k = largestFitting(0, n, (i) => fits(make(i)));
    cur = make(Math.max(0, k));
    return fits(cur);
  };
  const steps: Array<() => boolean> = [
    // The agent's compaction summary shorter, then gone (the section still says it compacted).
    () => {
      const base = cur;
      if (!full.compaction) return fits(cur);
      return keep(FLOOR_COMPACTION_CHARS, (k) => ({ ...base, compaction: compactionAt(full.compaction, k) }));
    },
    // The touched files rolled up into folders with counts, the session's other edits into a few: every path still counted.
    () => {
      const base = cur;
      if (base.touched_files_form !== 'paths') return fits(cur);
      cur = { ...base, touched_files_form: 'folders' };
      return fits(cur);
    },
    // The oldest done items (the newest stay longest).
    () => {
      const base = cur;
      return keep(base.completed.length, (k) => ({ ...base, completed: base.completed.slice(base.completed.length - k) }));
    },
    // The summary shorter, never empty.
    () => {
      const base = cur;
      const from = MIN_SUMMARY_CHARS;
      return keep(Math.max(0, FLOOR_SUMMARY_CHARS - from), (k) => ({ ...base, summary: summaryAt(full.summary, from + k) }));
    },
    // The latest request shorter.
    () => {
      const base = cur;
      const latest = full.user_requests.at(-1);
      if (!latest) return fits(cur);
      return keep(Math.max(0, FLOOR_LATEST_REQUEST_CHARS - MIN_LATEST_REQUEST_CHARS), (k) => ({
        ...base,
        user_requests: [latestAt(latest, MIN_LATEST_REQUEST_CHARS + k)],
      }));
    },
    // The last turn shorter, then gone.
    () => {
      const base = cur;
      return keep(Math.max(0, FLOOR_TURN_CHARS - MIN_TURN_CHARS) + 1, (k) => ({
        ...base,
        recent_turns: k === 0 ? [] : lastTurnAt(full.recent_turns, MIN_TURN_CHARS + k - 1),
      }));
    },
    // Commands run from the end of the list (failures stay longest).
    () => {
      const base = cur;
      return keep(base.commands_run.length, (k) => ({
        ...base,
        commands_run: base.commands_run.slice(0, k),
        commands_run_omitted: base.commands_run_omitted + base.commands_run.length - k,
      }));
    },
    // Test commands whose every run passed, oldest first; a command that ever failed keeps its line.
    () => {
      const base = cur;
      const key = (t: HandoffPackage['tests_run'][number]) => `${t.cwd ?? ''}\0${t.command}`;
      const everFailed = new Set(base.tests_run.filter((t) => t.result === 'failed').map(key));
      const passing = [...new Set(base.tests_run.map(key))].filter((k) => !everFailed.has(k));
      return keep(passing.length, (k) => {
        const gone = new Set(passing.slice(0, passing.length - k));
        const kept = base.tests_run.filter((t) => !gone.has(key(t)));
        return { ...base, tests_run: kept, tests_run_omitted: base.tests_run_omitted + base.tests_run.length - kept.length };
      });
    },
  ];
  for (const step of steps) {
    if (fits(cur) || step()) break;
  }
  return cur;
}

/** Counts the body's tokens (what the budget counts) into `estimated_tokens`, `tokens_estimated` and `oversize_warning`. */
export function measurePackage(pkg: HandoffPackage, meta: HandoffMeta, specialist: Specialist, counter: TokenCounter): HandoffPackage {
  const c = counter.count(renderHandoffBody(pkg, meta, specialist));
  return { ...pkg, estimated_tokens: c.tokens, tokens_estimated: c.estimated, oversize_warning: c.tokens > pkg.max_context_tokens };
}

/** The sections of the package the manifest speaks of, and whether `p` holds them as `o` does. */
const SECTIONS: ReadonlyArray<[Dropped['section'], (o: HandoffPackage, p: HandoffPackage) => boolean]> = [
  ['summary', (o, p) => o.summary === p.summary],
  ['user_requests', (o, p) => o.user_requests === p.user_requests],
  ['touched_files', (o, p) => p.touched_files_form === o.touched_files_form],
  ['tests_run', (o, p) => o.tests_run === p.tests_run && p.tests_run_form === o.tests_run_form],
  ['commands_run', (o, p) => o.commands_run === p.commands_run && p.commands_run_form === o.commands_run_form],
  ['recent_turns', (o, p) => o.recent_turns === p.recent_turns],
  ['compaction', (o, p) => o.compaction === p.compaction],
  ['completed', (o, p) => o.completed === p.completed],
  ['diff_excerpt', (o, p) => o.diff_excerpt === p.diff_excerpt],
];

/** A figure at least as wide as any in a manifest of `o`: no count exceeds its largest section, no saving exceeds `tokens`. */
function widestFigure(o: HandoffPackage, tokens: number): number {
  const most = Math.max(
    tokens,
    o.summary.length,
    o.compaction?.text.length ?? 0,
    o.touched_files.length + o.session_edits.length,
    o.tests_run.length + o.tests_run_omitted,
    o.commands_run.length + o.commands_run_omitted,
    o.user_requests.length + o.user_requests_omitted,
    o.recent_turns.length,
    o.completed.length,
    o.diff_excerpt?.split('\n').length ?? 0,
  );
  return 10 ** String(Math.max(1, most)).length - 1;
}

/** A manifest at least as long as the real one will be for `p`: its entries, their tokens figure at its widest. */
function placeholderManifest(o: HandoffPackage, p: HandoffPackage, wide: number): Dropped[] {
  // What was cut and shortened is counted as the real manifest counts it (cheap); only the tokens saved, which take a count of their own, are at their widest.
  const entries = SECTIONS.filter(([, same]) => !same(o, p)).flatMap(([section]): Dropped[] => {
    const { count, shortened } = changes(o, p, section);
    return count > 0 || shortened > 0 ? [{ section, count: Math.max(0, count), ...(shortened > 0 ? { shortened } : {}), tokens: wide }] : [];
  });
  return [...o.dropped, ...entries];
}

function restored(o: HandoffPackage, p: HandoffPackage, section: Dropped['section']): HandoffPackage {
  switch (section) {
    case 'summary':
      return { ...p, summary: o.summary };
    case 'user_requests':
      return { ...p, user_requests: o.user_requests, user_requests_omitted: o.user_requests_omitted };
    case 'touched_files':
      return { ...p, touched_files_form: o.touched_files_form };
    case 'tests_run':
      return { ...p, tests_run: o.tests_run, tests_run_omitted: o.tests_run_omitted, tests_run_form: o.tests_run_form };
    case 'commands_run':
      return { ...p, commands_run: o.commands_run, commands_run_omitted: o.commands_run_omitted, commands_run_form: o.commands_run_form };
    case 'recent_turns':
      return { ...p, recent_turns: o.recent_turns };
    case 'compaction':
      return { ...p, compaction: o.compaction };
    case 'completed':
      return { ...p, completed: o.completed };
    case 'diff_excerpt':
      return { ...p, diff_excerpt: o.diff_excerpt, diff_excerpt_truncated: o.diff_excerpt_truncated };
  }
}

function changes(o: HandoffPackage, p: HandoffPackage, section: Dropped['section']): { count: number; shortened: number } {
  const texts = (xs: ReadonlyArray<{ text: string }>) => new Set(xs.map((x) => x.text));
  switch (section) {
    case 'summary':
      return { count: Math.max(0, o.summary.length - p.summary.replace(SUMMARY_TRUNCATED_MARKER, '').length), shortened: 0 };
    case 'user_requests': {
      const kept = texts(o.user_requests);
      return { count: p.user_requests_omitted - o.user_requests_omitted, shortened: p.user_requests.filter((r) => !kept.has(r.text)).length };
    }
    case 'touched_files':
      return { count: 0, shortened: p.touched_files_form ? p.touched_files.length + p.session_edits.length : 0 };
    case 'tests_run':
      return { count: p.tests_run_omitted - o.tests_run_omitted, shortened: p.tests_run_form ? p.tests_run.length - groupTestRuns(p.tests_run).length : 0 };
    case 'commands_run': {
      const kept = new Set(o.commands_run.map((c) => c.command));
      return {
        count: p.commands_run_omitted - o.commands_run_omitted,
        shortened: p.commands_run_form ? p.commands_run.length : p.commands_run.filter((c) => !kept.has(c.command)).length,
      };
    }
    case 'recent_turns': {
      const kept = texts(o.recent_turns);
      return { count: o.recent_turns.length - p.recent_turns.length, shortened: p.recent_turns.filter((t) => !kept.has(t.text)).length };
    }
    case 'completed': {
      const kept = new Set(o.completed);
      return { count: o.completed.length - p.completed.length, shortened: p.completed.filter((t) => !kept.has(t)).length };
    }
    case 'compaction':
      return { count: Math.max(0, (o.compaction?.text.length ?? 0) - (p.compaction?.text.replace(SHORTENED_MARKER, '').length ?? 0)), shortened: 0 };
    case 'diff_excerpt':
      return { count: (o.diff_excerpt?.split('\n').length ?? 0) - (p.diff_excerpt?.split('\n').length ?? 0), shortened: 0 };
  }
}

/** The drop manifest of the fitted package `p` against the original `o`: per section what was cut and shortened, and the tokens that saved. */
function manifestOf(o: HandoffPackage, p: HandoffPackage, meta: HandoffMeta, specialist: Specialist, counter: TokenCounter): Dropped[] {
  const tokens = (x: HandoffPackage) => counter.count(renderHandoffBody({ ...x, dropped: [] }, meta, specialist)).tokens;
  const now = tokens(p);
  const out: Dropped[] = [];
  for (const [section, same] of SECTIONS) {
    if (same(o, p)) continue;
    const { count, shortened } = changes(o, p, section);
    if (count <= 0 && shortened <= 0) continue;
    out.push({ section, count: Math.max(0, count), ...(shortened > 0 ? { shortened } : {}), tokens: Math.max(0, tokens(restored(o, p, section)) - now) });
  }
  return out;
}
