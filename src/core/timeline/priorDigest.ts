/** A prior handoff's digest in the receiving prompt: who handed to whom, its status now, the sections that matter, a link for the rest. */
import { codeSpan } from '../handoff/codeSpan';
import { demoteHeadings } from '../receive/pickedUpHandoff';

/** In this order. */
export const DIGEST_SECTIONS = ['Summary', 'Decisions', 'Failed approaches'] as const;

/** `status` is the current one, status events applied; `sections` maps `## ` headings to content; `link` is workspace-relative, `/`-separated. */
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

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Markdown under the entry's `### <file name>` heading: a `- id:` / `- from → to:` / `- kind:` (results only) /
 * `- status:` / `- created:` / `- topic:` / `- file (for the rest):` list, then each section that says something as
 * `####`. Values are put on one line, so none can add a heading or list item; headings inside sections are demoted three
 * levels, so they cannot stand beside the entries. Never throws.
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
