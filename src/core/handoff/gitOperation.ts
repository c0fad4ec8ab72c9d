// A git operation in progress, in the words of the handoff's git header. Pure.
import { codeSpan } from './codeSpan';
import type { GitOperation } from './schema';

const NAMES: Record<GitOperation['kind'], string> = {
  merge: 'Merge',
  rebase: 'Rebase',
  am: 'git am',
  'cherry-pick': 'Cherry-pick',
  revert: 'Revert',
  bisect: 'Bisect',
};

function commitWords(commit: string | null, ref: string | null): string {
  if (!commit) return ref ? codeSpan(ref) : 'an unknown commit';
  return `${commit.slice(0, 10)}${ref ? ` (${codeSpan(ref)})` : ''}`;
}

function stepWords(op: GitOperation, noun: string): string {
  if (op.step === null) return '';
  return `, ${noun} ${op.step}${op.total !== null ? `/${op.total}` : ''}`;
}

/** e.g. `Rebase in progress: rebasing \`topic\` onto 1a2b3c4d5e (\`main\`), step 2/5`, then how to continue or abort. */
export function describeGitOperation(op: GitOperation): string {
  const head = `${NAMES[op.kind]} in progress`;
  const subject = op.subject ? ` "${op.subject.replace(/\s+/g, ' ').trim()}"` : '';
  switch (op.kind) {
    case 'merge':
      return `${head}: merging ${commitWords(op.commit, op.ref)} — finish with \`git commit\` or undo with \`git merge --abort\``;
    case 'rebase':
      return `${head}: rebasing ${op.branch ? codeSpan(op.branch) : 'a detached HEAD'} onto ${commitWords(op.commit, op.ref)}${stepWords(op, 'step')} — continue with \`git rebase --continue\` or undo with \`git rebase --abort\``;
    case 'am':
      return `${head}: applying patches${stepWords(op, 'patch')} — continue with \`git am --continue\` or undo with \`git am --abort\``;
    case 'cherry-pick':
      return `${head}: picking ${commitWords(op.commit, op.ref)}${subject} — continue with \`git cherry-pick --continue\` or undo with \`git cherry-pick --abort\``;
    case 'revert':
      return `${head}: reverting ${commitWords(op.commit, op.ref)}${subject} — continue with \`git revert --continue\` or undo with \`git revert --abort\``;
    case 'bisect':
      return `${head}: started from ${op.branch ? codeSpan(op.branch) : 'a detached HEAD'}${op.commit ? `; first bad commit so far ${op.commit.slice(0, 10)}` : '; no bad commit marked yet'} — end with \`git bisect reset\``;
  }
}
