/** What a handoff would be drafted with now, writing nothing (no handoff, briefing or session-log offsets). */
import { runJob } from '../project/jobError';
import { fieldError, jobError, type JobError } from '../../core/handoff/errors';
import type { SessionDraft } from '../../core/handoff/draftFields';
import { DEFAULT_INCLUDE_RECENT_TURNS, DEFAULT_USER_REQUEST_TOKENS } from '../../core/handoff/request';
import { TokenizerNameSchema, type SessionSourceSummary, type TokenizerName } from '../../core/handoff/schema';
import { collectDraftEvidence } from './draftSession';
import { draftFromEvidence } from './evidenceDraft';
import type { JobContext } from '../project/jobContext';
import { sessionSources } from '../handover/handoverEvidence';
import { handoffRootOf } from '../project/project';
import { counterFor } from '../tokenizers/tokenizer';

export interface DraftJobOptions {
  readonly tokenizer?: TokenizerName | string;
  readonly includeRecentTurns?: number;
  readonly commandsCap?: number;
}

export type DraftJobOutcome = { status: 'ok'; draft: SessionDraft; session_sources: SessionSourceSummary[]; warnings: string[] } | JobError;

/** Never throws: a bad handoff folder, tokenizer, turn count or request bound is an error naming the field. */
export async function draftJob(env: JobContext, options: DraftJobOptions = {}): Promise<DraftJobOutcome> {
  return runJob('drafting', async () => {
    const root = handoffRootOf(env);
    if (!root.ok) return root.error;
    const tokenizer = TokenizerNameSchema.safeParse(options.tokenizer ?? 'o200k_base');
    // Field errors (path, problem): each surface names the field its own way (the CLI: --tokenizer, --recent-turns).
    if (!tokenizer.success) return fieldError('tokenizer', `must be one of: ${TokenizerNameSchema.options.join(', ')} (got "${String(options.tokenizer)}")`);
    const turns = options.includeRecentTurns ?? DEFAULT_INCLUDE_RECENT_TURNS;
    if (!Number.isInteger(turns) || turns < 0) return fieldError('include_recent_turns', `must be a whole number, 0 or more (got ${turns})`);
    const bound = env.userRequestTokens ?? DEFAULT_USER_REQUEST_TOKENS;
    if (!Number.isInteger(bound) || bound < 0)
      return jobError(`userRequestTokens must be a whole number of tokens, 0 or more (got ${bound})`, 'userRequestTokens');
    const evidence = await collectDraftEvidence(env);
    const counter = counterFor(tokenizer.data);
    const draft = draftFromEvidence(evidence, {
      userRequestTokens: bound,
      countTokens: (t) => counter.count(t).tokens,
      includeRecentTurns: turns,
      commandsCap: options.commandsCap,
    });
    const notes = [...evidence.git.notes, ...(evidence.session?.notes ?? [])];
    return {
      status: 'ok',
      draft,
      session_sources: evidence.session ? sessionSources(evidence.session, env.workspaceRoot) : [],
      warnings: notes.map((n) => `WARNING: ${n}`),
    };
  });
}
