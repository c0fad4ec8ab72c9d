/**
 * The digest of a prior handoff in the receiving prompt ("A compact receiving
 * prompt"; docs/DESIGN.md §5 "Prior handoffs context"): what the next specialist needs from an
 * earlier hop — who handed to whom, its status now, its summary, decisions and failed
 * approaches — and a link to the file for the rest. Its machine metadata (hashes, git
 * fields, counts, the drop manifest) and the sections that are stale or repeated in the
 * handoff picked up (touched files, diff excerpt, commits, tests, commands) stay in the
 * file. Pure: the engine reads the file and applies its status events
 * (src/engine/priorHandoffs.ts).
 */
import { codeSpan } from '../handoff/codeSpan';
import { demoteHeadings } from '../receive/pickedUpHandoff';

/** The sections of a handoff file a digest carries, in this order (headings of docs/DESIGN.md §5 "Handoff files"). */
export const DIGEST_SECTIONS = ['Summary', 'Decisions', 'Failed approaches'] as const;

/**
 * One prior handoff (or result) as its frontmatter and body say, for {@link priorHandoffDigest}.
 * - `id`, `from`, `to`, `created` (ISO 8601), `topic` (the topic title as written): from the frontmatter;
 * - `kind`: `handoff` or `result` (a result hands work back, docs/DESIGN.md §5 "Results");
 * - `status`: the current status, the frontmatter's with the handoff's status events applied
 *   (docs/DESIGN.md §5 "Status"), not the one the file was written with;
 * - `sections`: the body's `## ` sections (heading → content, as `splitSections` reads them);
 *   those of {@link DIGEST_SECTIONS} that say something are carried, `_None._` ones left out;
 * - `link`: the file's path relative to the workspace folder, `/`-separated.
 */
export interface PriorHandoffFacts {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly kind: string;
  readonly status: string;
  readonly created: string;
  readonly topic: string;
  readonly sections: ReadonlyMap<string, string>;
  readonly link: string;
}

/** Text on one line: line breaks and runs of white space become one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The digest as Markdown (`\n` line ends, no final line end), shown under the entry's
 * `### <file name>` heading by `priorHandoffsBlock`:
 * ```
 * - id: `2026-12-01T09-00-00.000Z_codebase_explorer`
 * - from → to: developer → codebase_explorer
 * - kind: result                                  ← only for a result
 * - status: complete
 * - created: 2026-12-01T09:00:00.000Z
 * - topic: timing-safe token check
 * - file (for the rest): `.handoff/handoffs/2026-12-01T09-00-00.000Z_codebase_explorer.md`
 *
 * #### Summary
 *
 * <the section as the file has it>
 *
 * #### Decisions … #### Failed approaches …       ← those that say something
 * ```
 * The metadata values are put on one line each, so a value cannot add a heading or a list
 * item of its own. Sections are demoted to `####` under the entry's `###` heading; their
 * text is the file's (ours renders them structure-safe: docs/DESIGN.md §5), a heading a
 * hand-edited file has in them three levels deeper, so it cannot stand beside the entries.
 * Never throws.
 */
export function priorHandoffDigest(facts: PriorHandoffFacts): string {
  const meta = [
    `- id: ${codeSpan(oneLine(facts.id))}`,
    `- from → to: ${oneLine(facts.from)} → ${oneLine(facts.to)}`,
    ...(facts.kind === 'handoff' ? [] : [`- kind: ${oneLine(facts.kind)}`]),
    `- status: ${oneLine(facts.status)}`,
    `- created: ${oneLine(facts.created)}`,
    `- topic: ${oneLine(facts.topic)}`,
    `- file (for the rest): ${codeSpan(oneLine(facts.link))}`,
  ];
  const parts = [meta.join('\n')];
  for (const heading of DIGEST_SECTIONS) {
    const body = facts.sections.get(heading)?.trim();
    if (body && body !== '_None._') parts.push(`#### ${heading}`, demoteHeadings(body, 3));
  }
  return parts.join('\n\n');
}
