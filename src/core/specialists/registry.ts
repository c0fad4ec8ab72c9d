/** Built-in and custom specialists, and the allow-list lookup that names the closest ids for an unknown one. */
import { distance } from 'fastest-levenshtein';
import * as z from 'zod';
import { composeError, type ErrorParts } from '../handoff/errors';
import { splitFrontmatter } from '../handoff/frontmatter';
import { SpecialistIdSchema } from '../handoff/ids';

export { SPECIALIST_ID_PATTERN, SpecialistIdSchema } from '../handoff/ids';

/** In order of precedence: an id defined by an earlier source is never redefined by a later one. */
export const SPECIALIST_SOURCES = ['builtin', 'custom', 'github-agent', 'claude-agent'] as const;

export type SpecialistSource = (typeof SPECIALIST_SOURCES)[number];

/** `personaMarker`: how the receiving agent introduces itself (`[quality reviewer]`); `icon`: a codicon name; `file`: workspace-relative POSIX path. */
export interface Specialist {
  readonly id: string;
  readonly label: string;
  readonly personaMarker: string;
  readonly icon: string;
  readonly mandate: string;
  readonly returnCondition: string;
  readonly source: SpecialistSource;
  readonly instructions?: string;
  readonly file?: string;
}

function builtin(id: string, label: string, icon: string, mandate: string, returnCondition: string): Specialist {
  return { id, label, personaMarker: `[${label.toLowerCase()}]`, icon, mandate, returnCondition, source: 'builtin' };
}

/** Agent Zero's `handover_to_specialist` allow-list plus `frontend_designer`, in picker order. */
export const BUILTIN_SPECIALISTS: readonly Specialist[] = Object.freeze([
  builtin(
    'a0_software_orchestrator',
    'Software orchestrator',
    'organization',
    'Owns the whole task: splits it into steps, picks the specialist for each step, keeps the chain of handoffs moving and decides when the work is done. Writes no code itself unless a step is trivial.',
    'Every step of the plan is complete or explicitly handed to a named specialist.',
  ),
  builtin(
    'codebase_explorer',
    'Codebase explorer',
    'search',
    'Maps the parts of the codebase that matter for the task: entry points, data flow, existing patterns to follow and risks to flag. Reads and reports; changes nothing.',
    'A written map of the relevant files, patterns and risks, ending with a recommended next step.',
  ),
  builtin(
    'implementation_engineer',
    'Implementation engineer',
    'tools',
    'Implements the smallest complete change that satisfies the task, following the patterns already in the codebase, and writes or updates the tests that prove it.',
    'The change is implemented, its tests pass, and the touched files are listed for review.',
  ),
  builtin(
    'quality_reviewer',
    'Quality reviewer',
    'checklist',
    'Reviews the change against its intent: real bugs, regressions, missing tests, unclear code and scope creep. Findings name the file and line and are grouped by severity; no invented issues.',
    'A review grouped by severity, or a plain statement that nothing needs to change.',
  ),
  builtin(
    'release_auditor',
    'Release auditor',
    'package',
    'Checks that the change is ready to ship: versioning, changelog, migrations, configuration, packaging and rollback path. Blocks the release on anything that would surprise users.',
    'A go / no-go verdict with the reasons and the exact items left to do.',
  ),
  builtin(
    'requirements_analyst',
    'Requirements analyst',
    'note',
    'Turns the request into testable requirements: scope, acceptance criteria, edge cases and open questions for the user. Resolves ambiguity before anyone builds.',
    'Acceptance criteria the next specialist can test, and the open questions answered or listed.',
  ),
  builtin(
    'runtime_devops_engineer',
    'Runtime / DevOps engineer',
    'server-process',
    'Owns how the code runs: build, CI, containers, deployment, environment configuration, observability and performance in production-like conditions.',
    'The build and deployment path works end to end and the steps to reproduce it are written down.',
  ),
  builtin(
    'security_data_engineer',
    'Security & data engineer',
    'shield',
    'Reviews and hardens the change for security and data handling: secrets, injection, authentication and authorisation, personal data, dependency risk and data migrations.',
    'Every finding is fixed or recorded with its risk and owner; no secret or personal data is exposed.',
  ),
  builtin(
    'solution_architect',
    'Solution architect',
    'symbol-structure',
    'Designs the shape of the solution: components, interfaces, data model and trade-offs, written down as decisions the implementer can follow without re-deciding.',
    'A design with its decisions and rejected alternatives, small enough to implement in one hop.',
  ),
  builtin(
    'test_debug_engineer',
    'Test & debug engineer',
    'beaker',
    'Reproduces failures, finds root causes and writes the tests that pin the behaviour down: failing test first, then the fix or a precise diagnosis for the implementer.',
    'The failure is reproduced by a test, and the root cause is fixed or precisely diagnosed.',
  ),
  builtin(
    'hacker',
    'Hacker',
    'zap',
    'Gets something working fast to learn what is possible: spikes, prototypes and one-off scripts. Says clearly what is throwaway and what is worth keeping.',
    'A working spike and a note saying what to keep, what to throw away and what was learned.',
  ),
  builtin(
    'frontend_designer',
    'Frontend designer',
    'paintcan',
    'Designs and builds the user interface: layout, interaction, accessibility and visual consistency with the product, checked in the real browser or editor it runs in.',
    'The UI is built, looked at in light and dark themes, and keyboard and screen-reader use are checked.',
  ),
]);

export const BUILTIN_SPECIALIST_IDS: readonly string[] = BUILTIN_SPECIALISTS.map((s) => s.id);

// Control, bidi, zero-width and tag characters (text a model reads but a person does not see), as redaction strips them from other agents' text.
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/u;

/** The rule every label, description and return condition read from a file must pass; `\n` only when `multiline`. */
export function isVisibleText(text: string, multiline = false): boolean {
  return !UNPRINTABLE.test(multiline ? text.replace(/\n/g, ' ') : text);
}

function visibleText(max: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((v) => !UNPRINTABLE.test(v.replace(/\n/g, ' ')), 'must not contain control, bidi, zero-width or tag characters')
    .optional();
}

const CustomSpecialistFrontmatterSchema = z.object({
  id: SpecialistIdSchema,
  label: z
    .string()
    .trim()
    .min(1)
    .max(80)
    .refine((v) => !UNPRINTABLE.test(v), 'must be one line of visible text (no control, bidi, zero-width or tag characters)')
    .optional(),
  description: visibleText(2000),
  icon: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'must be a codicon name such as "person" (see https://microsoft.github.io/vscode-codicons/)')
    .optional(),
  return_condition: visibleText(2000),
});

export type CustomSpecialistParse = { ok: true; specialist: Specialist } | { ok: false; message: string };

/** A label made from an id when a file gives none: `data_migrator` → "Data migrator". */
export function labelFromId(id: string): string {
  const words = id.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `.handoff/specialists/<id>.md`: frontmatter `id`, `label`, `description`, `icon`, `return_condition`; body = instructions; the stem must equal `id`. Never throws. */
export function parseCustomSpecialist(fileName: string, text: string, relativePath: string): CustomSpecialistParse {
  const split = splitFrontmatter(text);
  if (!split.ok) {
    return {
      ok: false,
      message: `${relativePath}: ${split.message} — fix the frontmatter (a "---" block of YAML at the top) or remove the file; it was skipped`,
    };
  }
  const parsed = CustomSpecialistFrontmatterSchema.safeParse(split.data ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'frontmatter';
    const hint = field === 'id' ? ` — start the file with "---", a line "id: ${fileName.replace(/\.md$/i, '')}", and "---"` : '';
    return { ok: false, message: `${relativePath}: field "${field}" ${issue?.message ?? 'is invalid'}${hint}` };
  }
  const fm = parsed.data;
  const stem = fileName.replace(/\.md$/i, '');
  if (stem !== fm.id) {
    return {
      ok: false,
      message: `${relativePath}: the file name must match its id — rename it to ${fm.id}.md or set id: ${stem}`,
    };
  }
  if (BUILTIN_SPECIALIST_IDS.includes(fm.id)) {
    return {
      ok: false,
      message: `${relativePath}: "${fm.id}" is a built-in specialist and cannot be redefined — choose another id`,
    };
  }
  const label = fm.label ?? labelFromId(fm.id);
  const body = split.body.trim();
  return {
    ok: true,
    specialist: {
      id: fm.id,
      label,
      personaMarker: `[${label.toLowerCase()}]`,
      icon: fm.icon ?? 'person',
      mandate: fm.description ?? (body.split(/\n\s*\n/)[0] || `Custom specialist defined in ${relativePath}.`),
      returnCondition: fm.return_condition ?? 'user_request',
      source: 'custom',
      instructions: body || undefined,
      file: relativePath,
    },
  };
}

/** Result of a registry lookup: the specialist, or an `ERROR:` message that names the closest ids. */
export type SpecialistLookup = { ok: true; specialist: Specialist } | { ok: false; message: string; parts?: ErrorParts };

/** The parts of "specialist is required" (src/core/handoff/errors.ts): a surface names the field its own way. */
const SPECIALIST_REQUIRED: ErrorParts = {
  path: ['specialist'],
  subject: 'specialist',
  problem: 'is required',
  fix: 'pass one of the ids from `specialist-handoff specialists`',
};

/** Built-ins first, then custom ones; an unknown id fails naming the closest known ids. */
export class SpecialistRegistry {
  private readonly byId = new Map<string, Specialist>();

  /** Ids repeating a built-in or an earlier custom id are ignored. */
  constructor(custom: readonly Specialist[] = []) {
    for (const s of [...BUILTIN_SPECIALISTS, ...custom]) {
      if (!this.byId.has(s.id)) {
        this.byId.set(s.id, s);
      }
    }
  }

  all(): Specialist[] {
    return [...this.byId.values()];
  }

  get(id: string): Specialist | undefined {
    return this.byId.get(id);
  }

  /** Substring matches first, then by edit distance (at most half the query's length, minimum 3). */
  closest(query: string, max = 3): string[] {
    const q = query
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_');
    const limit = Math.max(3, Math.floor(q.length / 2));
    return this.all()
      .map((s) => {
        const d = q.length > 2 && (s.id.includes(q) || q.includes(s.id)) ? 0 : distance(q, s.id);
        return { id: s.id, d };
      })
      .filter((x) => x.d <= limit)
      .sort((a, b) => a.d - b.d || a.id.localeCompare(b.id))
      .slice(0, max)
      .map((x) => x.id);
  }

  /** Unknown ids give `ERROR: unknown specialist "x" — did you mean: a, b?`. */
  lookup(rawId: string | undefined): SpecialistLookup {
    const id = (rawId ?? '').trim();
    if (!id) {
      return { ok: false, message: composeError(SPECIALIST_REQUIRED), parts: SPECIALIST_REQUIRED };
    }
    const found = this.byId.get(id);
    if (found) {
      return { ok: true, specialist: found };
    }
    const near = this.closest(id);
    const hint = near.length
      ? ` — did you mean: ${near.join(', ')}?`
      : ` — known ids: ${this.all()
          .map((s) => s.id)
          .join(', ')}`;
    return { ok: false, message: `ERROR: unknown specialist "${truncateForMessage(id)}"${hint}` };
  }
}

/** Shortens untrusted input echoed in messages to at most `max` characters (default 80). */
export function truncateForMessage(text: string, max = 80): string {
  const oneLine = text.replace(/[\r\n\t]+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** A specialist as `list_specialists` (and the CLI's `specialists --json`) describes it. */
export function describeSpecialist(s: Specialist): Record<string, unknown> {
  return {
    id: s.id,
    label: s.label,
    persona_marker: s.personaMarker,
    icon: s.icon,
    mandate: s.mandate,
    return_condition: s.returnCondition,
    source: s.source,
    ...(s.file ? { file: s.file } : {}),
    ...(s.instructions ? { instructions: s.instructions } : {}),
  };
}
