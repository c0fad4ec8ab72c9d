/**
 * Claims a handoff's words make about the state of the work, found by ./claimRules.ts and judged against what the session
 * recorded: `findClaims` on the summary, decisions, done items and user requests, then `judgeClaims` against the test
 * runs, commands run and commits.
 */
import { clipText } from '../handoff/text';
import type { CommandRun } from '../handoff/draftFields';
import type { Commit, HandoffPackage, TestRun } from '../handoff/schema';
import type { Claim, ClaimEvidence, ClaimField, ClaimKind } from './claimSchema';
import { CLAIM_RULES, NEGATION, NOT_A_STATEMENT, QUESTION_START, TASK_LEAD, UNCHECKED_TASK, opensWithImperative } from './claimRules';
import { failuresAfterLastPass } from './handBackPolicy';

/** The schema's bound; cut at a word. */
export const MAX_CLAIM_CHARS = 300;
export const MAX_CLAIMS = 100;
/** A statement of the work's state is short; a longer run without a sentence end is a pasted log or code. */
export const MAX_SENTENCE_CHARS = 2_000;
/** Contradicted first; the rest are counted. */
export const MAX_CLAIMS_LISTED = 20;

export interface FoundClaim {
  readonly kind: ClaimKind;
  readonly text: string;
  readonly field: ClaimField;
  /** For `fix`: the issue number named (`123` for "fixed #123"). */
  readonly issue?: string;
}

export interface ClaimSources {
  readonly summary: string;
  readonly decisions: readonly string[];
  readonly completed: readonly string[];
  readonly user_requests: readonly string[];
}

export interface ClaimEvidenceSources {
  readonly tests_run: readonly TestRun[];
  readonly commands_run: readonly CommandRun[];
  readonly commits: readonly Commit[];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Within {@link MAX_CLAIM_CHARS} UTF-16 code units (the schema counts those). */
function clipClaim(text: string): string {
  let max = MAX_CLAIM_CHARS;
  let out = clipText(text, max);
  while (out.length > MAX_CLAIM_CHARS && max > 20) out = clipText(text, (max -= 20));
  return out;
}

/** Lines split after `.`, `!` or `?`; an unchecked task-list line is an open criterion and left out. */
function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (UNCHECKED_TASK.test(line)) continue;
    for (const s of line.split(/(?<=[.!?])\s+/)) if (s.trim()) out.push(s.trim().slice(0, MAX_SENTENCE_CHARS));
  }
  return out;
}

const LIST_MARK = /^(?:(?:[-*+>]|\d+[.)])\s+){1,4}(?:\[[xX ]\]\s+)?/;

function normalize(sentence: string): string {
  return sentence
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/^(?:[-*+>#]+|\d+[.)]|\[[x ]\])\s*/g, '')
    .replace(/^[-*+>#\s]+/, '');
}

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

function bare(clause: string): string {
  return clause.replace(/^[\s"'“”(*_]+|[\s"'“”)*_.!,]+$/g, '');
}

/** A runner's tally ("0 failed"), read past by the negation test. */
const ZERO_FAILURES = /(?<![\d.,])\b0\s+(?:failed|failing|failures?)\b/g;

/** The first pattern that matches with no negation outside the matched words. */
function stateMatch(clause: string, patterns: readonly RegExp[]): RegExpExecArray | undefined {
  for (const re of patterns) {
    const m = re.exec(clause);
    if (!m) continue;
    const rest = (clause.slice(0, m.index) + ' ' + clause.slice(m.index + m[0].length)).replace(ZERO_FAILURES, ' ');
    if (NEGATION.test(rest)) continue;
    return m;
  }
  return undefined;
}

/** Split after `;` and `: `, but not inside parentheses or a code span, so a quoted phrase keeps its closing parenthesis. */
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

function sentenceClaims(original: string, field: ClaimField): FoundClaim[] {
  const sentence = normalize(original);
  // A question is never a claim; an instruction neither, except a plan item marked done.
  if (/\?["'”)\s]*$/.test(sentence) || QUESTION_START.test(bare(sentence))) return [];
  const done = field === 'completed';
  if (!done && opensWithImperative(bare(sentence))) return [];
  // Only rules whose words the sentence has can match, and most sentences have none: skip splitting those into clauses.
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
    const words =
      oneLine(written[hit.phrase])
        .replace(LIST_MARK, '')
        .replace(/^["“']+|["”']+$/g, '')
        .trim() || oneLine(original);
    found.push({ kind: rule.kind, text: clipClaim(words), field, ...(rule.kind === 'fix' && hit.m[1] ? { issue: hit.m[1] } : {}) });
  }
  return found;
}

/** Sentence by sentence in field order; a kind and text once (the first field wins); at most {@link MAX_CLAIMS}. Never throws. */
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

/** By their first words anywhere in the line, as each linter documents its command line. */
const LINT_COMMAND =
  /(?:^|[\s;&|(/])(?:eslint|ruff(?:\s+check)?|flake8|pylint|biome\s+(?:lint|check|ci)|stylelint|golangci-lint|rubocop|cargo\s+(?:\+\S+\s+)?clippy|go\s+vet)(?=\s|$)|\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?lint(?:[:\w-]*)?(?=\s|$)/;
/** Any `tsc` run counts: a tsc build type-checks too. */
const TYPECHECK_COMMAND =
  /(?:^|[\s;&|(/])(?:tsc|vue-tsc|mypy|pyright|cargo\s+(?:\+\S+\s+)?check)(?=\s|$)|\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:typecheck|type-check|check-types|types|tsc)(?:[:\w-]*)?(?=\s|$)/;
/** Not builds, though src/core/session/commands.ts classes them `build`. */
const TYPECHECK_ONLY =
  /(?:^|[\s;&|(/])(?:vue-)?tsc\b[^;&|]*--noemit\b|(?:^|[\s;&|(/])cargo\s+(?:\+\S+\s+)?check(?=\s|$)|\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:typecheck|type-check|check-types|types|tsc)(?:[:\w-]*)?(?=\s|$)/i;

/** `lint` and `typecheck` by the command line (of kind `build` or `other`: installing eslint is no lint run); `build` without those; the rest by kind. */
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
  return {
    command: t.command,
    cwd: t.cwd,
    result: t.result,
    exit_code: t.exit_code,
    basis: t.basis === 'output' ? 'output' : 'exit code',
    at: t.started_at,
    source: t.source,
  };
}

function commandEvidence(c: CommandRun): ClaimEvidence {
  return { command: c.command, cwd: c.cwd, result: c.result, exit_code: c.exit_code, basis: 'exit code', at: c.last_at, source: c.source };
}

/** By the hand-back test rule: a failure after the last pass contradicts; else the last pass backs it. */
function judgeTests(tests: readonly TestRun[]): Pick<Claim, 'verdict' | 'evidence'> {
  const { failures, lastPass } = failuresAfterLastPass(tests);
  const failed = failures.at(-1);
  if (failed) return { verdict: 'contradicted', evidence: testEvidence(failed) };
  return lastPass ? { verdict: 'backed', evidence: testEvidence(lastPass) } : { verdict: 'no_evidence', evidence: null };
}

/** The latest by `last_at` decides; without times, a failing entry contradicts (a failure after the success cannot be ruled out). */
function judgeCommands(kind: ClaimKind, commands: readonly CommandRun[]): Pick<Claim, 'verdict' | 'evidence'> {
  const matching = commands.filter((c) => c.result !== 'unknown' && commandMatches(kind, c));
  if (!matching.length) return { verdict: 'no_evidence', evidence: null };
  const timed = matching.every((c) => c.last_at !== null);
  const latest = timed
    ? matching.reduce((a, b) => (Date.parse(b.last_at as string) >= Date.parse(a.last_at as string) ? b : a))
    : (matching.find((c) => c.result === 'failed') ?? matching[0]);
  return { verdict: latest.result === 'failed' ? 'contradicted' : 'backed', evidence: commandEvidence(latest) };
}

/** A commit naming the issue (`#123`, `GH-123`) backs it; a commit cannot fail, so a fix is never contradicted. */
function judgeFix(issue: string | undefined, commits: readonly Commit[]): Pick<Claim, 'verdict' | 'evidence'> {
  const names = issue ? new RegExp(String.raw`(?:#|\bgh-)${issue}(?!\d)`, 'i') : undefined;
  const commit = names ? commits.find((c) => names.test(c.subject)) : undefined;
  if (!commit) return { verdict: 'no_evidence', evidence: null };
  const subject = oneLine(commit.subject);
  return {
    verdict: 'backed',
    evidence: {
      command: `${commit.sha.slice(0, 10)}${subject ? ` ${subject}` : ''}`,
      cwd: null,
      result: 'succeeded',
      exit_code: null,
      basis: 'commit',
      at: commit.date || null,
      source: 'git',
    },
  };
}

export function judgeClaims(found: readonly FoundClaim[], evidence: ClaimEvidenceSources): Claim[] {
  return found.map((f) => {
    const judged =
      f.kind === 'tests'
        ? judgeTests(evidence.tests_run)
        : f.kind === 'fix'
          ? judgeFix(f.issue, evidence.commits)
          : judgeCommands(f.kind, evidence.commands_run);
    return { kind: f.kind, text: f.text, field: f.field, ...judged };
  });
}

/** Call it on the package as it will be written: the claims quote its sanitized texts. */
export function claimsOfPackage(
  pkg: Pick<HandoffPackage, 'summary' | 'decisions' | 'completed' | 'user_requests' | 'tests_run' | 'commands_run' | 'commits'>,
): Claim[] {
  const found = findClaims({
    summary: pkg.summary,
    decisions: pkg.decisions.map((d) => d.text),
    completed: pkg.completed,
    user_requests: pkg.user_requests.map((u) => u.text),
  });
  return judgeClaims(found, pkg);
}
