/**
 * Placing secrets in a handoff's channels and reading back what was written, for the channel
 * tests (test/component/secretChannels.test.ts, secretRecurrence.test.ts): a real repository
 * with a change too large for a small budget (so fit-to-budget cuts and the history file is
 * written too), the handover run by the engine with a Claude Code transcript the test writes,
 * and every file under `.handoff/` with its text.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { handover } from '../../src/engine/handover/handover';
import type { HandoverResult } from '../../src/core/handoff/schema';
import { writeClaudeSession, type SessionStep } from './claudeTranscript';
import { commitAll, filesUnder, GIT_ENV, initRepo, tempDir, write } from './repo';

/**
 * The 8-character pieces of `values` that `text` shows, each once (none: nothing of them
 * leaked), in any case: a topic's slug and a file name are lowercased.
 */
export function pieces(text: string, values: readonly string[]): string[] {
  const out = new Set<string>();
  const lower = text.toLowerCase();
  for (const v of values) for (let i = 0; i + 8 <= v.length; i++) if (lower.includes(v.slice(i, i + 8).toLowerCase())) out.add(v.slice(i, i + 8));
  return [...out];
}

/** Whether git takes `name` as a branch name (`git check-ref-format --branch`). */
export function gitTakesBranch(repo: string, name: string): boolean {
  try {
    execFileSync('git', ['check-ref-format', '--branch', name], { cwd: repo, env: GIT_ENV, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A repository with a first commit and a 600-line change to a tracked file: its diff excerpt alone is over a 2,500-token budget. */
export function changedRepository(): string {
  const repo = initRepo(tempDir('secret-channels-'));
  const steps = (op: string) =>
    Array.from(
      { length: 600 },
      (_, i) => `export const step${i} = (cart: Cart) => cart.items.filter((item) => item.quantity ${op} ${i}).length; // keep ${i}\n`,
    ).join('');
  write(repo, 'README.md', '# cart\n');
  write(repo, 'src/steps.ts', steps('>'));
  commitAll(repo, 'cart: first version');
  write(repo, 'src/steps.ts', steps('>='));
  return repo;
}

/** Every file written under the repository's `.handoff/` (path relative to it, and text). */
export function writtenFiles(repo: string): Array<{ file: string; text: string }> {
  const root = path.join(repo, '.handoff');
  return existsSync(root) ? filesUnder(root).map((f) => ({ file: path.relative(root, f.file), text: f.text })) : [];
}

/**
 * Hands over from `repo` with `request` (by default drafting on, a 2,500-token budget, fit to
 * it) and a Claude Code transcript of `steps` written for it.
 */
export async function handOverWith(repo: string, request: Record<string, unknown>, steps: readonly SessionStep[]): Promise<HandoverResult> {
  const transcript = writeClaudeSession(tempDir('secret-channels-log-'), repo, steps);
  return handover(
    { specialist: 'quality_reviewer', topic: 'Cart totals', draft: true, max_context_tokens: 2_500, fit_to_budget: true, ...request },
    { workspaceRoot: repo, sessionLog: { mode: transcript } },
  );
}
