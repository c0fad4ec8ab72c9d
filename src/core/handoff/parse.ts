// Reads handoff files back: the frontmatter validated, the body split into its `## ` sections. The inverse of render.ts. Never throws.
import { splitFrontmatter } from './frontmatter';
import { HandoffFrontmatterSchema, type HandoffFrontmatter, type TouchedFile } from './schema';

function unCodeSpan(fence: string, inner: string): string {
  const body = fence.length > 1 && inner.startsWith(' ') && inner.endsWith(' ') ? inner.slice(1, -1) : inner;
  return body.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
}

const TOUCHED_LINE =
  /^- \*\*([AMDRCU?])\*\* (`+)(.*?)\2(?: → (`+)(.*?)\4)?(?: \((?:\+(\d+) \/ −(\d+)|(binary)|untracked|submodule ([0-9a-f]{4,64}|none)\.\.([0-9a-f]{4,64}|none)(, with uncommitted changes inside)?)\))?$/;

/** Other lines are skipped. */
export function parseTouchedFiles(section: string): TouchedFile[] {
  const files: TouchedFile[] = [];
  for (const line of section.split('\n')) {
    const m = TOUCHED_LINE.exec(line.trimEnd());
    if (!m) {
      continue;
    }
    const renamed = m[4] !== undefined;
    const first = unCodeSpan(m[2], m[3]);
    files.push({
      path: renamed ? unCodeSpan(m[4], m[5]) : first,
      status: m[1] as TouchedFile['status'],
      old_path: renamed ? first : null,
      added: m[6] !== undefined ? Number(m[6]) : null,
      deleted: m[7] !== undefined ? Number(m[7]) : null,
      binary: m[8] !== undefined,
      ...(m[9] !== undefined ? { submodule: { from: m[9] === 'none' ? null : m[9], to: m[10] === 'none' ? null : m[10], dirty: m[11] !== undefined } } : {}),
    });
  }
  return files;
}

export interface ParsedHandoff {
  readonly frontmatter: HandoffFrontmatter;
  readonly body: string;
  readonly sections: ReadonlyMap<string, string>;
}

export type HandoffParse = { ok: true; handoff: ParsedHandoff } | { ok: false; message: string };

/** `{ok:false, message}` names the field at fault; unknown frontmatter keys are kept. */
export function parseHandoff(text: string): HandoffParse {
  const split = splitFrontmatter(text);
  if (!split.ok) {
    return { ok: false, message: split.message };
  }
  if (!split.hasFrontmatter) {
    return { ok: false, message: 'no frontmatter — a handoff file starts with a "---" YAML block' };
  }
  const fm = HandoffFrontmatterSchema.safeParse(split.data);
  if (!fm.success) {
    const issue = fm.error.issues[0];
    return { ok: false, message: `frontmatter field "${issue?.path.join('.') || '(root)'}" ${issue?.message ?? 'is invalid'}` };
  }
  return { ok: true, handoff: { frontmatter: fm.data, body: split.body, sections: splitSections(split.body) } };
}

/** Splits a Markdown body into `## ` sections (heading text → content, trimmed). Fenced code is respected. */
export function splitSections(body: string): Map<string, string> {
  const sections = new Map<string, string>();
  let current: string | undefined;
  let buf: string[] = [];
  let fence: string | undefined;
  for (const line of body.split(/\r?\n/)) {
    const f = /^(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) {
        fence = f[1];
      } else if (line.startsWith(fence) && line.trim() === line.trim().replace(/[^`~]/g, '') && line.trim().length >= fence.length) {
        fence = undefined;
      }
    }
    const h = !fence && !f ? /^## (.+?)\s*$/.exec(line) : null;
    if (h) {
      if (current !== undefined) {
        sections.set(current, buf.join('\n').trim());
      }
      current = h[1];
      buf = [];
    } else if (current !== undefined) {
      buf.push(line);
    }
  }
  if (current !== undefined) {
    sections.set(current, buf.join('\n').trim());
  }
  return sections;
}
