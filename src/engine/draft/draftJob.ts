/**
 * The draft job: what a handoff of the workspace would be drafted with now — git
 * and the session log collected once, drafted by `draftFromEvidence` (src/engine/draft/evidenceDraft.ts)
 * — without writing anything: no handoff, no briefing, no session-log read offsets. The CLI's
 * `specialist-handoff draft` prints it; every other surface drafts inside its handoff.
 */
import { fieldError, handoverError, type HandoverError } from '../../core/handoff/errors';
import type { Draft } from '../../core/handoff/draftFields';
import { DEFAULT_INCLUDE_RECENT_TURNS, DEFAULT_USER_REQUEST_TOKENS } from '../../core/handoff/request';
import { TokenizerNameSchema, type SessionSourceSummary, type TokenizerName } from '../../core/handoff/schema';
import { collectDraftEvidence } from './draftSession';
import { draftFromEvidence } from './evidenceDraft';
import type { HandoverEnvironment } from '../project/environment';
import { sessionSources } from '../handover/handoverEvidence';
import { handoffRootOf } from '../project/project';
import { counterFor } from '../tokenizers/tokenizer';
import { jobError } from '../project/jobError';

/** What to draft with: the encoding tokens are counted in (default `o200k_base`), the recent turns a handoff would keep (default 5), the commands cap. */
export interface DraftJobOptions {
  readonly tokenizer?: TokenizerName | string;
  readonly includeRecentTurns?: number;
  readonly commandsCap?: number;
}

/** Outcome of {@link draftJob}: the draft, the transcripts it read (named as a handoff names them) and `WARNING:` lines, or the error. */
export type DraftJobOutcome = { status: 'ok'; draft: Draft; session_sources: SessionSourceSummary[]; warnings: string[] } | HandoverError;

/**
 * Drafts a handoff of `env`'s workspace from evidence alone, writing nothing. The user-request
 * bound is `env.userRequestTokens` (default 1,500 tokens). Never throws.
 * @returns `{status: "error", field}` for a bad handoff folder (`handoff.directory`), tokenizer
 *   (`tokenizer`) or recent-turn count (`include_recent_turns`)
 */
export async function draftJob(env: HandoverEnvironment, options: DraftJobOptions = {}): Promise<DraftJobOutcome> {
  try {
    const root = handoffRootOf(env);
    if (!root.ok) return root.error;
    const tokenizer = TokenizerNameSchema.safeParse(options.tokenizer ?? 'o200k_base');
    // Field errors (path, problem): each surface names the field its own way (the CLI: --tokenizer, --recent-turns).
    if (!tokenizer.success) return fieldError('tokenizer', `must be one of: ${TokenizerNameSchema.options.join(', ')} (got "${String(options.tokenizer)}")`);
    const turns = options.includeRecentTurns ?? DEFAULT_INCLUDE_RECENT_TURNS;
    if (!Number.isInteger(turns) || turns < 0) return fieldError('include_recent_turns', `must be a whole number, 0 or more (got ${turns})`);
    const bound = env.userRequestTokens ?? DEFAULT_USER_REQUEST_TOKENS;
    if (!Number.isInteger(bound) || bound < 0)
      return handoverError(`userRequestTokens must be a whole number of tokens, 0 or more (got ${bound})`, 'userRequestTokens');
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
  } catch (err) {
    return jobError(err, 'drafting');
  }
}
