/**
 * Cleans the short fields `sanitizePackage` leaves alone (topic before slugging, names, paths, refs). Each pass
 * takes the secrets known before it and returns them with its own, so a value found anywhere is redacted everywhere.
 */
import type { HandoverRequest } from '../../core/handoff/request';
import type { HandoffPackage } from '../../core/handoff/schema';
import { slugifyTopic } from '../../core/handoff/topic';
import { neutralizeInvisible } from '../../core/safety/gate';
import { redactKnownInPackage, sanitizePackage } from '../../core/safety/packageGate';
import type { KnownSecrets } from '../../core/safety/recurrence';
import { addCounts, redactKnown, redactTexts } from '../../core/safety/redact';

/** Redacts `topic`, `from` and `session_id`; `secrets` maps value → kind, `known` included. Never throws. */
export async function sanitizeRequestFields(
  request: HandoverRequest,
  known?: KnownSecrets,
): Promise<{ request: HandoverRequest; found: Record<string, number>; secrets: Map<string, string> }> {
  const r = await redactTexts([request.topic, request.from, request.session_id ?? ''], { known });
  const [topic, from, sessionId] = r.texts;
  return {
    request: { ...request, topic, from, session_id: request.session_id === undefined ? undefined : sessionId },
    found: r.found,
    secrets: r.secrets,
  };
}

/** Redacted and without control characters. */
export async function sanitizeSessionId(id: string, known?: KnownSecrets): Promise<string> {
  const r = await redactTexts([id], { known });
  return neutralizeInvisible(r.texts[0], 'strip').text || id.replace(/[^A-Za-z0-9._:-]/g, '') || 'session';
}

/** Control and invisible characters in paths are escaped (`\u{…}`): readable and distinct, never raw. */
export async function sanitizePackageFields(
  pkg: HandoffPackage,
  known?: KnownSecrets,
): Promise<{ pkg: HandoffPackage; found: Record<string, number>; escaped: number; secrets: Map<string, string> }> {
  const texts: string[] = [];
  const slot = (s: string): number => texts.push(s) - 1;
  const opt = (s: string | null | undefined): number => (s ? slot(s) : -1);
  const idx = {
    branch: opt(pkg.branch),
    upstream: opt(pkg.upstream),
    from: slot(pkg.from),
    to: opt(pkg.to),
    session: slot(pkg.session_id),
    title: slot(pkg.topic_title),
    files: pkg.touched_files.map((f) => [slot(f.path), opt(f.old_path)] as const),
    sources: pkg.session_sources.map((s) => slot(s.file)),
    compaction: pkg.compaction ? ([slot(pkg.compaction.source), opt(pkg.compaction.file), opt(pkg.compaction.time)] as const) : undefined,
    opRef: opt(pkg.git_operation?.ref),
    opBranch: opt(pkg.git_operation?.branch),
    opSubject: opt(pkg.git_operation?.subject),
    // The drafted lists' short fields (their texts are sanitizePackage's).
    requests: pkg.user_requests.map((u) => [slot(u.source), opt(u.time)] as const),
    commands: pkg.commands_run.map((c) => [slot(c.source), opt(c.last_at)] as const),
  };
  const r = await redactTexts(texts, { known });
  let escaped = 0;
  const path = (i: number): string => {
    const n = neutralizeInvisible(r.texts[i], 'escape');
    escaped += n.count;
    return n.text;
  };
  const line = (i: number): string => neutralizeInvisible(r.texts[i], 'strip').text;
  const out: HandoffPackage = {
    ...pkg,
    branch: idx.branch < 0 ? pkg.branch : path(idx.branch),
    upstream: idx.upstream < 0 ? pkg.upstream : path(idx.upstream),
    from: line(idx.from) || pkg.from,
    to: idx.to < 0 ? pkg.to : line(idx.to) || pkg.to,
    session_id: line(idx.session) || pkg.session_id,
    topic_title: line(idx.title),
    touched_files: pkg.touched_files.map((f, i) => ({ ...f, path: path(idx.files[i][0]), old_path: idx.files[i][1] < 0 ? f.old_path : path(idx.files[i][1]) })),
    session_sources: pkg.session_sources.map((s, i) => ({ ...s, file: path(idx.sources[i]) })),
    compaction:
      pkg.compaction && idx.compaction
        ? {
            ...pkg.compaction,
            source: line(idx.compaction[0]) || 'session-log',
            file: idx.compaction[1] < 0 ? null : path(idx.compaction[1]),
            time: idx.compaction[2] < 0 ? null : line(idx.compaction[2]) || null,
          }
        : null,
    git_operation: pkg.git_operation && {
      ...pkg.git_operation,
      ref: idx.opRef < 0 ? pkg.git_operation.ref : path(idx.opRef),
      branch: idx.opBranch < 0 ? pkg.git_operation.branch : path(idx.opBranch),
      subject: idx.opSubject < 0 ? pkg.git_operation.subject : line(idx.opSubject),
    },
    user_requests: pkg.user_requests.map((u, i) => ({
      ...u,
      source: line(idx.requests[i][0]) || 'user',
      time: idx.requests[i][1] < 0 ? u.time : line(idx.requests[i][1]) || null,
    })),
    commands_run: pkg.commands_run.map((c, i) => ({
      ...c,
      source: line(idx.commands[i][0]) || 'user',
      last_at: idx.commands[i][1] < 0 ? c.last_at : line(idx.commands[i][1]) || null,
    })),
    redactions: addCounts(pkg.redactions ?? {}, r.found),
  };
  return { pkg: out, found: r.found, escaped, secrets: r.secrets };
}

export interface GatedPackage {
  /** Its topic is slugged again when its title lost a secret. */
  readonly pkg: HandoffPackage;
  readonly request: HandoverRequest;
  readonly found: Record<string, number>;
  readonly invisible: number;
  readonly escaped: number;
  readonly notes: string[];
  /** Value → kind. Never printed or written. */
  readonly secrets: Map<string, string>;
}

/**
 * Free texts, then short fields knowing the texts' secrets, then the texts again for what only the fields
 * showed. A topic that lost a secret is slugged again, so no file name keeps it. Never throws.
 */
export async function gatePackage(pkg: HandoffPackage, request: HandoverRequest, known: KnownSecrets): Promise<GatedPackage> {
  const texts = await sanitizePackage(pkg, known);
  const fields = await sanitizePackageFields(texts.pkg, texts.report.secrets);
  let out = fields.pkg;
  let found = addCounts(texts.report.found, fields.found);
  if (fields.secrets.size > texts.report.secrets.size) {
    const again = redactKnownInPackage(out, fields.secrets);
    out = again.pkg;
    found = addCounts(found, again.found);
  }
  const [topic, from, sessionId] = redactKnown([request.topic, request.from, request.session_id ?? ''], fields.secrets).texts;
  if (out.topic_title !== pkg.topic_title) {
    // The old slug may hold the secret, lowercased: never kept.
    const slug = slugifyTopic(out.topic_title);
    out = { ...out, topic: slug.ok ? slug.slug : 'redacted' };
  }
  return {
    pkg: out,
    request: { ...request, topic, from, session_id: request.session_id === undefined ? undefined : sessionId },
    found,
    invisible: texts.report.invisible,
    escaped: fields.escaped,
    notes: texts.report.notes,
    secrets: fields.secrets,
  };
}
