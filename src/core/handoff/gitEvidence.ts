/**
 * The evidence a handoff is composed from (docs/DESIGN.md §6), as plain data: what git says
 * about the workspace. Collected by `src/evidence/git/collectGit.ts`; consumed by `compose.ts`.
 */
import type { Commit, GitOperation, TouchedFile } from './schema';

/**
 * Git facts about one workspace at one moment.
 * - `repoRoot`: absolute repository top level, or null when there is no repository.
 * - `branch`: current branch name; null when HEAD is detached or unknown.
 * - `detached`: HEAD points at a commit, not a branch.
 * - `headCommit`: full object name of HEAD; null in a repository without commits.
 * - `upstream`, `ahead`, `behind`: tracking branch and commit counts, when one is set.
 * - `touchedFiles`: status + numstat against HEAD, handoff root excluded, at most the
 *   collection cap; `touchedFilesOmitted` counts the rest ("… and N more").
 * - `baseCommit`: the commit the session started from (the previous handoff's HEAD),
 *   null when unknown; `commits` are `baseCommit..HEAD` (or the latest ones when
 *   there is no base), newest first, with `commitsOmitted` left out.
 * - `diffExcerpt`: the start of `git diff HEAD`, at most 40,000 characters;
 *   `diffExcerptTruncated` when the diff was longer.
 * - `diffHash`: sha256 (hex) of the whole `git diff HEAD` output, for the hop guard.
 * - `operation`: a merge, rebase, am, cherry-pick, revert or bisect left in progress; null when none.
 * - `notes`: what could not be collected, in words the user can act on
 *   ("Not a git repository: …", "git is not installed …").
 * - `problem`: why git evidence is missing, for choosing the next action; null when
 *   collection worked.
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

/**
 * Why git evidence could not be collected: `not_repository` (the folder is not in a git
 * repository), `no_work_tree` (it is in one that has no working tree there: a bare repository,
 * or the repository's own .git folder), `git_missing` (no git executable), `failed` (anything
 * else, e.g. a refused or corrupt repository, a cancelled run).
 */
/**
 * What the git evidence starts from, as `git rev-parse` answers it in a folder of the working
 * tree (src/evidence/git/repository.ts `probeRepository`): the lines of `--show-toplevel
 * --show-object-format --absolute-git-dir`, and HEAD's commit id ('' when HEAD has no commit),
 * each as git prints them. Asked once when the workspace is found and handed to the
 * collection of the same working tree, so one process answers both.
 */
export type RepositoryProbe = readonly [string, string];

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
