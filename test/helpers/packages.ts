/** Small hand-written packages and evidence for core tests. */
import { composePackage } from '../../src/core/handoff/compose';
import { emptyGitEvidence, type GitEvidence } from '../../src/core/handoff/gitEvidence';
import type { HandoffMeta } from '../../src/core/handoff/render';
import { parseHandoverRequest, type HandoverRequestInput } from '../../src/core/handoff/request';
import type { HandoffPackage, TouchedFile } from '../../src/core/handoff/schema';
import { SpecialistRegistry, type Specialist } from '../../src/core/specialists/registry';

/** The built-in quality reviewer. */
export const reviewer: Specialist = (() => {
  const r = new SpecialistRegistry().lookup('quality_reviewer');
  if (!r.ok) throw new Error(r.message);
  return r.specialist;
})();

/** A fixed identity for rendering. */
export const META: HandoffMeta = {
  id: '2026-05-26T14-30-45.123Z_quality_reviewer',
  created: '2026-05-26T14:30:45.123Z',
  status: 'pending',
  briefingFile: 'briefings/quality-reviewer-auth-2026-05-26.md',
  historyFile: null,
};

/** `n` touched files named src/file-<i>.ts, modified with i added lines. */
export function files(n: number): TouchedFile[] {
  return Array.from({ length: n }, (_, i) => ({
    path: `src/file-${i}.ts`,
    status: 'M' as const,
    old_path: null,
    added: i,
    deleted: 1,
    binary: false,
    xy: '.M',
  }));
}

/** Evidence with the given overrides on an empty base. */
export function evidence(over: Partial<GitEvidence> = {}): GitEvidence {
  return {
    ...emptyGitEvidence('x'),
    notes: [],
    repoRoot: '/repo',
    branch: 'main',
    headCommit: 'a'.repeat(40),
    diffHash: 'f'.repeat(64),
    problem: null,
    ...over,
  };
}

/** Composes a package for the quality reviewer from a partial request and evidence. */
export function pkgFrom(req: Partial<HandoverRequestInput>, ev: GitEvidence = evidence()): HandoffPackage {
  const parsed = parseHandoverRequest({ specialist: 'quality_reviewer', topic: 'auth', ...req });
  if (!parsed.ok) throw new Error(parsed.message);
  return composePackage(parsed.request, { specialist: reviewer, topic: { slug: 'auth', title: 'Auth' }, evidence: ev, sessionId: 'session-1' });
}
