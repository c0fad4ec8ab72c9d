/**
 * Claims and their evidence (docs/DESIGN.md §4 "Claims"): the statements a handoff
 * makes about the state of the work — in its summary, decisions, done items and the user's own
 * requests — found by the rule table of ./claimRules.ts, then judged against what the session
 * recorded: `backed` (by which run or commit, and on what basis), `contradicted` (the latest
 * matching run failed) or `no_evidence` (claimed, nothing recorded matches).
 *
 *   {summary, decisions, completed, user_requests} ─▶ findClaims ─▶ FoundClaim[]
 *   FoundClaim[] + {tests_run, commands_run, commits} ─▶ judgeClaims ─▶ Claim[] (./claimSchema.ts)
 *
 * Pure: no I/O, no clock. The package's `claims` are filled by {@link claimsOfPackage}
 * (src/core/handoff/compose.ts, and again on the sanitized texts in src/engine).
 */
import { clipText } from '../handoff/render';
import type { CommandRun } from '../handoff/draftFields';
import type { Commit, HandoffPackage, TestRun } from '../handoff/schema';
import type { Claim, ClaimEvidence, ClaimField, ClaimKind } from './claimSchema';
import { CLAIM_RULES, NEGATION, NOT_A_STATEMENT, QUESTION_START, TASK_LEAD, UNCHECKED_TASK, opensWithImperative } from './claimRules';
import { failuresAfterLastPass } from './handBackPolicy';

/** Characters of a claim's text kept (the schema's bound, `ClaimSchema.text`): 300, cut at a word. */
export const MAX_CLAIM_CHARS = 300;
/** Claims kept per handoff: 100 (the first found, in field order); the Claims section lists at most {@link MAX_CLAIMS_LISTED}. */
export const MAX_CLAIMS = 100;
/**
 * Characters of one sentence the rules read: its first 2,000 (the bound of a user request,
 * src/core/session/requests.ts). A statement of the work's state is short; a longer run
 * without a sentence end is a pasted log or code, and reading it whole would cost time for nothing.
 */
export const MAX_SENTENCE_CHARS = 2_000;
/** Claims listed one by one in the handoff's Claims section: 20, contradicted first; the rest are counted. */
export const MAX_CLAIMS_LISTED = 20;

/** A claim found in the handoff's words, before it is judged: its kind, text, field and, for `fix`, the issue number. */
export interface FoundClaim {
  readonly kind: ClaimKind;
  /** The sentence that makes the claim, on one line, at most {@link MAX_CLAIM_CHARS} characters. */
  readonly text: string;
  readonly field: ClaimField;
  /** For `fix`: the issue number named (`123` for "fixed #123"). */
  readonly issue?: string;
}

/** The handoff fields claims are looked for in (`user_requests`: the texts of the user's requests). */
export interface ClaimSources {
  readonly summary: string;
  readonly decisions: readonly string[];
  readonly completed: readonly string[];
  readonly user_requests: readonly string[];
}

/** The recorded evidence claims are judged against (the package's lists, chronological as recorded). */
export interface ClaimEvidenceSources {
  readonly tests_run: readonly TestRun[];
  readonly commands_run: readonly CommandRun[];
  readonly commits: readonly Commit[];
}

/** Text on one line: whitespace runs as one space, trimmed. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `text` within {@link MAX_CLAIM_CHARS} UTF-16 code units (the schema counts those), cut at a word with `…`. */
function clipClaim(text: string): string {
  let max = MAX_CLAIM_CHARS;
  let out = clipText(text, max);
  while (out.length > MAX_CLAIM_CHARS && max > 20) out = clipText(text, (max -= 20));
  return out;
}

/**
 * The sentences of a text: its lines (Markdown list items and headings are lines), each split
 * after `.`, `!` or `?` followed by a space. An unchecked task-list line (`- [ ] …`) is left
 * out whole: it is an open criterion (./claimRules.ts `UNCHECKED_TASK`).
 */
function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (UNCHECKED_TASK.test(line)) continue;
    for (const s of line.split(/(?<=[.!?])\s+/)) if (s.trim()) out.push(s.trim().slice(0, MAX_SENTENCE_CHARS));
  }
  return out;
}

/** A Markdown list or quote mark at the start of a line (`- `, `1. `, `> `, `- [x] `): not part of the claim's words. */
const LIST_MARK = /^(?:(?:[-*+>]|\d+[.)])\s+){1,4}(?:\[[xX ]\]\s+)?/;

/** A sentence's words as the rules read them: lower-cased, curly apostrophes straight, list and quote marks off the start. */
function normalize(sentence: string): string {
  return sentence
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/^(?:[-*+>#]+|\d+[.)]|\[[x ]\])\s*/g, '')
    .replace(/^[-*+>#\s]+/, '');
}

/** Clauses of a normalized phrase with their start offsets: split at `, and`, ` and `, `, but`, `, so`, `, while`. */
function clauses(sentence: string): Array<{ text: string; start: number }> {
  const out: Array<{ text: string; start: number }> = [];
  const re = /,\s+(?:and|but|so|while)\s+|\s+and\s+(?=\w)/g;
  let last = 0;
  for (let m = re.exec(sentence); m; m = re.exec(sentence)) {
    out.push({ text: sentence.slice(last, m.index), start: last });
    last = m.index + m[0].length;
  }
  out.push({ text: sentence.slice(last), start: last });
  return out;
}

/** A clause's text with quotes, brackets and emphasis marks off its start and end. */
function bare(clause: string): string {
  return clause.replace(/^[\s"'“”(*_]+|[\s"'“”)*_.!,]+$/g, '');
}

/** A runner's zero tally of failures ("0 failed", "0 failing", "0 failures"): read past by the negation test. */
const ZERO_FAILURES = /(?<![\d.,])\b0\s+(?:failed|failing|failures?)\b/g;

/**
 * Whether the words of a clause state the kind's success (see ./claimRules.ts): the first
 * state pattern (or, in `completed`, task pattern) that matches with no negation outside the
 * matched words. Returns the match, or undefined.
 */
function stateMatch(clause: string, patterns: readonly RegExp[]): RegExpExecArray | undefined {
  for (const re of patterns) {
    const m = re.exec(clause);
    if (!m) continue;
    // A zero count ("0 failed", "0 failing") is a runner's tally, not a negation.
    const rest = (clause.slice(0, m.index) + ' ' + clause.slice(m.index + m[0].length)).replace(ZERO_FAILURES, ' ');
    if (NEGATION.test(rest)) continue;
    return m;
  }
  return undefined;
}

/**
 * The phrases of a sentence as written: split after `;` and `: ` (a label and what it
 * introduces — "the agent's last message: "…"" — are two phrases), but not inside
 * parentheses or a code span: "`npm test` passed (exit 0; 12 passed)" is one phrase, so its
 * quote keeps its closing parenthesis. A claim quotes its phrase.
 */
function phrases(sentence: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let code = false;
  let start = 0;
  for (let i = 0; i < sentence.length; i++) {
    const ch = sentence[i];
    if (ch === '`') code = !code;
    else if (code) continue;
    else if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (ch === ';' || (ch === ':' && /\s/.test(sentence[i + 1] ?? '')))) {
      out.push(sentence.slice(start, i));
      start = i + 1;
    }
  }
  out.push(sentence.slice(start));
  return out.map((p) => p.replace(/^\s+/, '')).filter((p) => p.trim());
}

/** The claims of one sentence of `field`, in rule-table order (one per kind), each quoting the phrase that makes it. */
function sentenceClaims(original: string, field: ClaimField): FoundClaim[] {
  const sentence = normalize(original);
  // A question is never a claim; an instruction neither, except a plan item marked done.
  if (/\?["'”)\s]*$/.test(sentence) || QUESTION_START.test(bare(sentence))) return [];
  const done = field === 'completed';
  if (!done && opensWithImperative(bare(sentence))) return [];
  // Each clause a rule reads is part of this sentence, lower-cased (phrases and clauses are
  // pieces of it, trimmed; the marks normalize strips never reach past the first phrase), and
  // contains the rule's words (./claimRules.ts `words`): a rule whose words the sentence lacks
  // cannot match, and most sentences lack every rule's (a hook's first claims search
  // spent most of its time splitting such sentences into phrases and clauses, once per rule).
  const rules = CLAIM_RULES.filter((rule) => rule.words.test(sentence));
  if (rules.length === 0) return [];
  const found: FoundClaim[] = [];
  const written = phrases(original);
  const read = written.map(normalize);
  for (const rule of rules) {
    let hit: { phrase: number; m: RegExpExecArray } | undefined;
    let before = '';
    for (let i = 0; i < read.length && !hit; before += ` ${read[i]}`, i++) {
      if (!done && opensWithImperative(bare(read[i]))) continue;
      for (const part of clauses(read[i])) {
        let clause = bare(part.text);
        if (QUESTION_START.test(clause)) continue;
        const prefix = `${before} ${read[i].slice(0, part.start)}`;
        let m: RegExpExecArray | undefined;
        if (done) {
          // A done plan item names its task: "Make all tests pass", "Fix lint errors".
          clause = clause.replace(TASK_LEAD, '');
          if (!rule.words.test(clause)) continue;
          m = stateMatch(clause, rule.state) ?? stateMatch(clause, rule.task);
          if (m && /\b(?:will|won't|going\s+to|if|unless|once|until|when)\b|'ll\b/.test(prefix + clause)) m = undefined;
        } else {
          if (!rule.words.test(clause) || opensWithImperative(clause)) continue;
          m = stateMatch(clause, rule.state);
          if (m && NOT_A_STATEMENT.test(`${prefix} ${clause}`)) m = undefined;
        }
        if (m) {
          hit = { phrase: i, m };
          break;
        }
      }
    }
    if (!hit) continue;
    // The phrase as written, its list mark and enclosing quotes off ("the agent's last message: "…"").
    const words = oneLine(written[hit.phrase]).replace(LIST_MARK, '').replace(/^["“']+|["”']+$/g, '').trim() || oneLine(original);
    found.push({ kind: rule.kind, text: clipClaim(words), field, ...(rule.kind === 'fix' && hit.m[1] ? { issue: hit.m[1] } : {}) });
  }
  return found;
}

/**
 * Finds the claims of a handoff's words (the rule table of ./claimRules.ts): sentence by
 * sentence, in the order summary, decisions, completed, user requests; the same kind and
 * text once (the first field wins); at most {@link MAX_CLAIMS}. Requests, questions,
 * negations, conditions and the future are never claims; in `completed` (plan items the agent
 * marked done) the task's own wording is ("Fix lint errors" states lint is clean).
 * @returns the claims found, unjudged; never throws
 */
export function findClaims(sources: ClaimSources): FoundClaim[] {
  const fields: Array<[ClaimField, readonly string[]]> = [
    ['summary', [sources.summary]],
    ['decisions', sources.decisions],
    ['completed', sources.completed],
    ['user_requests', sources.user_requests],
  ];
  const seen = new Set<string>();
  const out: FoundClaim[] = [];
  for (const [field, texts] of fields) {
    for (const text of texts) {
      for (const s of sentences(text)) {
        for (const c of sentenceClaims(s, field)) {
          const key = `${c.kind}\u0000${c.text}`;
          if (seen.has(key)) continue;
          seen.add(key);
          out.push(c);
          if (out.length >= MAX_CLAIMS) return out;
        }
      }
    }
  }
  return out;
}

/** Lint commands, by their first words anywhere in the line: eslint, ruff, flake8, pylint, biome lint/check, stylelint, golangci-lint, `cargo clippy`, `go vet`, rubocop, and `lint` scripts of npm/pnpm/yarn/bun (their documented command lines). */
const LINT_COMMAND = /(?:^|[\s;&|(/])(?:eslint|ruff(?:\s+check)?|flake8|pylint|biome\s+(?:lint|check|ci)|stylelint|golangci-lint|rubocop|cargo\s+(?:\+\S+\s+)?clippy|go\s+vet)(?=\s|$)|\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?lint(?:[:\w-]*)?(?=\s|$)/;
/** Type-check commands: `tsc` / `vue-tsc` (any run: a tsc build type-checks too), mypy, pyright, `cargo check`, and `typecheck` / `type-check` / `check-types` / `tsc` scripts. */
const TYPECHECK_COMMAND = /(?:^|[\s;&|(/])(?:tsc|vue-tsc|mypy|pyright|cargo\s+(?:\+\S+\s+)?check)(?=\s|$)|\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:typecheck|type-check|check-types|types|tsc)(?:[:\w-]*)?(?=\s|$)/;
/** Type-check-only commands, which are not builds though src/core/session/commands.ts classes them `build`: `tsc --noEmit`, `cargo check` and the type-check scripts. */
const TYPECHECK_ONLY = /(?:^|[\s;&|(/])(?:vue-)?tsc\b[^;&|]*--noemit\b|(?:^|[\s;&|(/])cargo\s+(?:\+\S+\s+)?check(?=\s|$)|\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:typecheck|type-check|check-types|types|tsc)(?:[:\w-]*)?(?=\s|$)/i;

/**
 * Whether a recorded command is evidence for a claim of `kind`: `lint` and `typecheck` by the
 * command line (entries of kind `build` or `other`: an install of eslint is not a lint run),
 * `build` = kind `build` minus type-check-only and lint commands, `migration` and `deploy` by
 * kind (src/core/session/commands.ts).
 */
export function commandMatches(kind: ClaimKind, c: Pick<CommandRun, 'command' | 'kind'>): boolean {
  const line = c.command;
  const checkable = c.kind === 'build' || c.kind === 'other';
  switch (kind) {
    case 'lint':
      return checkable && LINT_COMMAND.test(line);
    case 'typecheck':
      return checkable && TYPECHECK_COMMAND.test(line);
    case 'build':
      return c.kind === 'build' && !TYPECHECK_ONLY.test(line) && !LINT_COMMAND.test(line);
    case 'migration':
    case 'deploy':
      return c.kind === kind;
    default:
      return false;
  }
}

function testEvidence(t: TestRun): ClaimEvidence {
  // Runs resting on the agent's claim are no evidence (failuresAfterLastPass leaves them out): only these two bases reach here.
  return { command: t.command, cwd: t.cwd, result: t.result, exit_code: t.exit_code, basis: t.basis === 'output' ? 'output' : 'exit code', at: t.started_at, source: t.source };
}

function commandEvidence(c: CommandRun): ClaimEvidence {
  return { command: c.command, cwd: c.cwd, result: c.result, exit_code: c.exit_code, basis: 'exit code', at: c.last_at, source: c.source };
}

/**
 * The verdict of a tests claim, by the hand-back policy's test rule (./handBackPolicy.ts
 * `failuresAfterLastPass`, docs/DESIGN.md §5 "Hand-back policy"): a run that failed after the
 * last passing one (or with none passing) contradicts, the latest such failure its evidence;
 * else the last passing run backs it; runs with an unknown result only: no evidence.
 */
function judgeTests(tests: readonly TestRun[]): Pick<Claim, 'verdict' | 'evidence'> {
  const { failures, lastPass } = failuresAfterLastPass(tests);
  const failed = failures.at(-1);
  if (failed) return { verdict: 'contradicted', evidence: testEvidence(failed) };
  return lastPass ? { verdict: 'backed', evidence: testEvidence(lastPass) } : { verdict: 'no_evidence', evidence: null };
}

/**
 * The verdict of a command claim: the matching entries with a known result; the latest by
 * `last_at` decides (each entry already carries its latest run's result). When an entry has
 * no time the order cannot be told: a failing entry then contradicts (a failure after the
 * success cannot be ruled out: never guessed). None: no evidence.
 */
function judgeCommands(kind: ClaimKind, commands: readonly CommandRun[]): Pick<Claim, 'verdict' | 'evidence'> {
  const matching = commands.filter((c) => c.result !== 'unknown' && commandMatches(kind, c));
  if (!matching.length) return { verdict: 'no_evidence', evidence: null };
  const timed = matching.every((c) => c.last_at !== null);
  const latest = timed
    ? matching.reduce((a, b) => (Date.parse(b.last_at as string) >= Date.parse(a.last_at as string) ? b : a))
    : (matching.find((c) => c.result === 'failed') ?? matching[0]);
  return { verdict: latest.result === 'failed' ? 'contradicted' : 'backed', evidence: commandEvidence(latest) };
}

/**
 * The verdict of a fix claim: a commit whose subject names the issue (`#123` or `GH-123`, as
 * GitHub links them) backs it, the newest such commit its evidence; none: no evidence. A
 * commit cannot fail, so a fix is never contradicted.
 */
function judgeFix(issue: string | undefined, commits: readonly Commit[]): Pick<Claim, 'verdict' | 'evidence'> {
  const names = issue ? new RegExp(String.raw`(?:#|\bgh-)${issue}(?!\d)`, 'i') : undefined;
  const commit = names ? commits.find((c) => names.test(c.subject)) : undefined;
  if (!commit) return { verdict: 'no_evidence', evidence: null };
  const subject = oneLine(commit.subject);
  return {
    verdict: 'backed',
    evidence: { command: `${commit.sha.slice(0, 10)}${subject ? ` ${subject}` : ''}`, cwd: null, result: 'succeeded', exit_code: null, basis: 'commit', at: commit.date || null, source: 'git' },
  };
}

/**
 * Judges each claim against the recorded evidence: `tests` by the test runs (the hand-back
 * policy's rule), `lint` / `typecheck` / `build` / `migration` / `deploy` by the commands run
 * ({@link commandMatches}), `fix` by the commits. Pure; the claims keep their order.
 * @returns one {@link Claim} per found claim (./claimSchema.ts); never throws
 */
export function judgeClaims(found: readonly FoundClaim[], evidence: ClaimEvidenceSources): Claim[] {
  return found.map((f) => {
    const judged = f.kind === 'tests' ? judgeTests(evidence.tests_run) : f.kind === 'fix' ? judgeFix(f.issue, evidence.commits) : judgeCommands(f.kind, evidence.commands_run);
    return { kind: f.kind, text: f.text, field: f.field, ...judged };
  });
}

/**
 * The claims of a package: found in its summary, decisions, done items and user requests,
 * judged against its test runs, commands run and commits. Call it on the package as it will
 * be written (after sanitizing: the claims quote its texts).
 */
export function claimsOfPackage(pkg: Pick<HandoffPackage, 'summary' | 'decisions' | 'completed' | 'user_requests' | 'tests_run' | 'commands_run' | 'commits'>): Claim[] {
  const found = findClaims({ summary: pkg.summary, decisions: pkg.decisions.map((d) => d.text), completed: pkg.completed, user_requests: pkg.user_requests.map((u) => u.text) });
  return judgeClaims(found, pkg);
}
