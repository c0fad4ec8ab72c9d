/**
 * What words state that the work is in a good state ("all tests pass", "deployed to staging", "fixed #123"), and the guards
 * that keep requests, questions, negations, conditions and intentions from reading as one. Only success is a claim: a
 * statement of failure asks the receiver to trust nothing. Issue references follow GitHub's closing keywords.
 */
import type { ClaimKind } from './claimSchema';

/** `state`: a statement valid in any field; `task`: a plan item's wording ("Fix lint errors"), valid only in `completed`. Patterns run on one lower-cased clause; for `fix`, group 1 is the issue number. */
export interface ClaimRule {
  readonly kind: ClaimKind;
  /** Words every match contains: a clause without them is not tried, so a pattern is compiled only where it could match. */
  readonly words: RegExp;
  readonly state: readonly RegExp[];
  readonly task: readonly RegExp[];
}

const FILLER = String.raw`(?:\s+(?:now|all|still|again|both|fully|are|is|were|was|have|has|had|been|successfully)){0,4}`;
const TEST_SUBJECT = String.raw`(?:(?:unit|integration|e2e|end-to-end|golden|regression|smoke|new|existing|remaining|relevant|all|the|our|every|\d+(?:\/\d+)?|of|my|its|their)\s+){0,4}(?:tests?|specs?|test\s+suites?|suites?)`;
const LINT_SUBJECT =
  String.raw`(?:\b(?:lint(?:ing|er)?|eslint|ruff(?:\s+check)?|flake8|pylint|biome|stylelint|golangci-lint|clippy|rubocop|the\s+linter)|` +
  '`[^`]*lint[^`]*`' +
  ')';
const TYPE_SUBJECT =
  String.raw`(?:\b(?:type-?\s?check(?:s|ing|er)?|tsc(?:\s+--noemit)?|mypy|pyright|the\s+type\s?checker)|` +
  '`[^`]*(?:tsc|typecheck|type-check|mypy|pyright)[^`]*`' +
  ')';
const BUILD_SUBJECT =
  String.raw`(?:(?:the|a|our|production|prod|release|dev|docker|webpack|esbuild|vite|extension)\s+){0,3}(?:build|compilation|bundle)|` +
  '`[^`]*(?:build|make|compile)[^`]*`';
const OK = String.raw`(?:clean(?:ly)?|pass(?:es|ed|ing)?|green|happy|ok|succeed(?:s|ed)?|exits?\s+0|exited\s+0)`;
const ENV = String.raw`(?:staging|production|prod|preview|npm|pypi|the\s+marketplace|marketplace|vercel|netlify|fly\.io|heroku|kubernetes|k8s|the\s+cluster|live|\w+\s+(?:environment|server|cluster))`;

/** One row per kind, in the order claims are looked for. */
export const CLAIM_RULES: readonly ClaimRule[] = [
  {
    kind: 'tests',
    words: /test|spec|suite|pass/,
    state: [
      new RegExp(String.raw`\b${TEST_SUBJECT}\b${FILLER}\s+(?:pass(?:es|ed|ing)?|green|succeed(?:s|ed)?)\b`),
      /\bpass(?:es|ed|ing)?\s+all\s+(?:\S+\s+){0,2}?tests?\b/,
      /`[^`]*\btest\b[^`]*`\s+(?:now\s+)?(?:pass(?:es|ed)?|succeeds|succeeded|is\s+green|exits?\s+0|exited\s+0)\b/,
      /\b(\d+)\s*\/\s*\1\s+(?:tests?\s+)?pass(?:ed|ing)?\b/,
      /\b\d+\s+(?:tests?\s+)?pass(?:ed|ing),?\s+0\s+fail(?:ed|ing|ures?)?\b/,
    ],
    task: [
      /\bfix\s+(?:the\s+|all\s+)?(?:\S+\s+){0,2}?(?:failing|broken|red)\s+(?:\S+\s+)?tests?\b/,
      new RegExp(String.raw`(?:^|\b(?:make|get)\s+)${TEST_SUBJECT}\s+(?:to\s+)?(?:pass(?:ing)?|green)\b`),
    ],
  },
  {
    kind: 'lint',
    words: /lint|ruff|flake8|biome|clippy|rubocop/,
    state: [
      new RegExp(String.raw`${LINT_SUBJECT}${FILLER}(?:\s+(?:comes\s+back|runs?|ran|reports?|check))?\s+${OK}\b`),
      /\bno\s+(?:(?:new|remaining|more|eslint|ruff)\s+)?(?:lint(?:ing)?|eslint|linter)\s+(?:errors?|warnings?|issues?|problems?|violations?|complaints?)\b/,
      /\blint(?:s|ed)\s+clean(?:ly)?\b|\bpass(?:es|ed)?\s+(?:the\s+)?lint(?:ing|er)?\b|\blint-clean\b/,
      /\blint\s+(?:errors?|warnings?|issues?)\s+(?:are\s+|were\s+|have\s+been\s+)?(?:all\s+)?(?:fixed|gone|resolved)\b/,
    ],
    task: [/\bfix\s+(?:all\s+|the\s+|remaining\s+)?(?:lint(?:ing)?|eslint|ruff|linter)(?:\s+(?:errors?|warnings?|issues?|problems?))?\b/],
  },
  {
    kind: 'typecheck',
    words: /typ|tsc|mypy|pyright/,
    state: [
      new RegExp(String.raw`${TYPE_SUBJECT}${FILLER}\s+${OK}\b`),
      /\bno\s+(?:(?:new|remaining|more)\s+)?(?:type|typing|tsc|typescript|mypy|pyright)\s+(?:errors?|issues?|problems?)\b/,
      /\btype-?\s?checks\s+(?:clean(?:ly)?|fine|now)\b|\b(?:it|everything|the\s+code|the\s+project)\s+(?:now\s+)?type-?\s?checks\b/,
      /\btype\s+errors?\s+(?:are\s+|were\s+|have\s+been\s+)?(?:all\s+)?(?:fixed|gone|resolved)\b/,
    ],
    task: [/\bfix\s+(?:all\s+|the\s+|remaining\s+)?(?:type|tsc|typescript|mypy|typing)\s+(?:errors?|issues?)\b/],
  },
  {
    kind: 'build',
    words: /buil|compil|bundle|make/,
    state: [
      new RegExp(
        String.raw`(?:\b${BUILD_SUBJECT})(?:\s+(?:now|still|again|is|was|has|had|went|comes|came)){0,3}\s+(?:pass(?:es|ed|ing)?|green|succeed(?:s|ed)?|successful|clean|works|ok|fine|through|exits?\s+0|exited\s+0)\b`,
      ),
      /\b(?:it|everything|the\s+(?:project|app|code|extension|package|site|repo|library))\s+(?:now\s+|still\s+)?(?:builds|compiles)\b/,
      /\b(?:builds|compiles|built|compiled)\s+(?:clean(?:ly)?|fine|successfully|without\s+(?:errors?|warnings?))\b/,
      /\bsuccessful(?:ly)?\s+(?:build|compil(?:e|ed|ation))\b|\bsuccessfully\s+(?:built|compiled)\b|\bno\s+(?:build|compil(?:e|er|ation))\s+errors?\b/,
    ],
    task: [/\bfix\s+(?:the\s+)?(?:broken\s+)?build\b|\bfix\s+(?:the\s+)?compil(?:e|ation)\s+errors?\b/],
  },
  {
    kind: 'migration',
    words: /migrat/,
    state: [
      /\bmigrated\s+(?:the\s+)?(?:\S+\s+){0,2}?(?:db|database|schema|tables?|data)\b/,
      /\bmigrations?(?:\s+(?:have|has|were|was|are|is|all|now|been|successfully)){0,4}\s+(?:ran|applied|succeeded|completed?|done|went\s+through|up\s+to\s+date)\b/,
      /\b(?:ran|applied|executed)\s+(?:all\s+|the\s+|pending\s+|new\s+){0,3}(?:db\s+|database\s+)?migrations?\b/,
      /\b(?:db|database|schema)\s+(?:is\s+|was\s+|has\s+been\s+)?(?:now\s+)?migrated\b/,
    ],
    task: [
      /\b(?:run|apply)\s+(?:the\s+|all\s+|pending\s+){0,3}(?:db\s+|database\s+)?migrations?\b/,
      /\bmigrate\s+(?:the\s+)?(?:\S+\s+){0,2}?(?:db|database|schema|tables?|data)\b/,
    ],
  },
  {
    kind: 'deploy',
    words: /deploy|shipped|releas|publish|rollout|live/,
    state: [
      new RegExp(String.raw`\b(?:deployed|shipped|released|published)\s+(?:\S+\s+){0,3}?(?:to|on|in)\s+(?:the\s+)?${ENV}\b`),
      /\b(?:deploy(?:ment)?|release|rollout)(?:\s+(?:to\s+\w+|is|was|has|now)){0,3}\s+(?:succeeded|successful|completed?|done|live|finished|went\s+(?:out|through))\b/,
      /\b(?:is|are)\s+(?:now\s+)?live\s+(?:on|in|at)\s+(?:staging|production|prod)\b|\bsuccessfully\s+deployed\b|\b(?:was|is|has\s+been|been)\s+deployed\b/,
    ],
    task: [new RegExp(String.raw`\b(?:deploy|publish|release)\s+(?:\S+\s+){0,3}?(?:to|on)\s+(?:the\s+)?${ENV}\b`)],
  },
  {
    kind: 'fix',
    words: /#|gh-/,
    state: [
      /\b(?:fixed|fixes|resolved|resolves|closed|closes)\s+(?:(?:issue|bug|ticket)\s+)?(?:#|gh-)(\d+)\b/,
      /(?:#|gh-)(\d+)\s+(?:is\s+|was\s+|has\s+been\s+|now\s+){0,3}(?:fixed|resolved|closed)\b/,
    ],
    task: [/\b(?:fix|resolve|close)\s+(?:(?:issue|bug|ticket)\s+)?(?:#|gh-)(\d+)\b/],
  },
];

/** A request, condition or intention up to the claim's clause ("please", "if", "will", `Asked: "…"`, "to make"): never a statement that it is done. */
export const NOT_A_STATEMENT =
  /\b(?:please|pls|can\s+you|could\s+you|would\s+you|will\s+you|i\s+want|i'd\s+like|i\s+would\s+like|we\s+need|i\s+need|you\s+need|needs?\s+to|should|must|have\s+to|has\s+to|ought\s+to|make\s+sure|ensure|so\s+that|in\s+order\s+to|until|try(?:ing)?\s+to|let's|let\s+me|let\s+us|will|won't|going\s+to|gonna|about\s+to|plan(?:ning)?\s+to|intend\s+to|wants?\s+to|expects?\s+to|supposed\s+to|hopefully|hope|would|might|may|if|unless|once|whether|when|before|to\s+make|to\s+get|to\s+pass|to\s+be\s+(?:clean|green)|asked|next|todo|goal)\b|'ll\b|['’]d\s+like\b/;

/** Within the claim's own clause, outside the matched words. */
export const NEGATION =
  /\b(?:not|no|never|none|neither|nor|without|cannot|fail\w*|broken|break\w*|red|flaky|except|almost|mostly|nearly|partially|some|most)\b|n['’]t\b/;

/** Read past by {@link opensWithImperative}: "please run …", "ok, fix …". */
const INSTRUCTION_LEAD = /^(?:please\s+|ok(?:ay)?,?\s+|now,?\s+|then,?\s+|also,?\s+|and\s+|so\s+)/;

/** The kinds' own nouns ("Build passes", "Lint is clean") are left out: they open statements. */
const IMPERATIVE_VERB =
  /^(?:make|fix|get|run|rerun|re-run|try|check|verify|confirm|add|update|keep|see|do|write|implement|create|remove|refactor|debug|help|investigate|look|find|set|change|use|start|continue|finish|resolve|address|rebuild|rewrite|ensure|show|tell|explain|review|handle|move|rename|apply|push|commit|merge|open|close|bump|upgrade|install)\b(?!\s*:)/;

/** One lead at most, then a verb: two tests, not one pattern with an optional lead, which is slow on first run. No lead word is a verb, so the answers are the same. */
export function opensWithImperative(clause: string): boolean {
  return IMPERATIVE_VERB.test(clause.replace(INSTRUCTION_LEAD, ''));
}

/** A question's opening ("Is lint clean", "Did the tests pass"). */
export const QUESTION_START = /^(?:can|could|would|will|shall|should|do|does|did|is|are|was|were|have|has|had|why|how|what|when|where|which|who|whether|any)\b/;

/** Removed from a completed item before its state is read ("Make all tests pass" → "all tests pass"). */
export const TASK_LEAD = /^(?:make\s+sure\s+(?:that\s+)?|ensure\s+(?:that\s+)?|verify\s+(?:that\s+)?|confirm\s+(?:that\s+)?|check\s+that\s+|get|make)\s+/;

/** An unchecked task-list item (`- [ ] …`) is a criterion still open, never a claim. */
export const UNCHECKED_TASK = /^\s*(?:[-*+]|\d+[.)])\s+\[\s\]/;
