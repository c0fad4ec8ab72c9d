// What git says about the workspace, as plain data; collected by src/evidence/git/collectGit.ts.
import type { Commit, GitOperation, TouchedFile } from './schema';

/**
 * Git facts about one workspace at one moment. `touchedFiles` exclude the handoff root and are capped (`touchedFilesOmitted`
 * counts the rest); `commits` are `baseCommit..HEAD` (else the latest), newest first; `diffExcerpt` is the start of `git diff HEAD`
 * and `diffHash` the sha256 of all of it, for the hop guard; `notes` say what could not be collected, in words the user can act on.
 */
export interface GitEvidence {
  readonly repoRoot: string | null;
  readonly branch: string | null;
  readonly detached: boolean;
  readonly headCommit: string | null;
  readonly upstream: string | null;
  readonly ahead: number | null;
  readonly behind: number | null;
  readonly touchedFiles: readonly TouchedFile[];
  readonly touchedFilesOmitted: number;
  readonly baseCommit: string | null;
  readonly commits: readonly Commit[];
  readonly commitsOmitted: number;
  readonly diffExcerpt: string | null;
  readonly diffExcerptTruncated: boolean;
  readonly diffHash: string | null;
  readonly operation: GitOperation | null;
  readonly notes: readonly string[];
  readonly problem: GitProblem | null;
}

/** `git rev-parse --show-toplevel --show-object-format --absolute-git-dir` and HEAD's id ('' without a commit), asked once when the workspace is found. */
export type RepositoryProbe = readonly [string, string];

/** `no_work_tree`: a bare repository or inside `.git`; `failed`: anything else (a refused or corrupt repository, a cancelled run). */
export type GitProblem = 'not_repository' | 'no_work_tree' | 'git_missing' | 'failed';

/** Evidence for a folder where git could not be asked (no repository, no git, untrusted): empty lists and the reason. */
export function emptyGitEvidence(note: string, problem: GitProblem = 'failed'): GitEvidence {
  return {
    repoRoot: null,
    branch: null,
    detached: false,
    headCommit: null,
    upstream: null,
    ahead: null,
    behind: null,
    touchedFiles: [],
    touchedFilesOmitted: 0,
    baseCommit: null,
    commits: [],
    commitsOmitted: 0,
    diffExcerpt: null,
    diffExcerptTruncated: false,
    diffHash: null,
    operation: null,
    notes: [note],
    problem,
  };
}
