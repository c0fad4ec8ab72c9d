/** Engine errors in the panel's words: settings by their VS Code names, the hop guard as its checkbox. */
import { composeError, type JobError } from '../../core/handoff/errors';

const SETTING_OF_FIELD: Readonly<Record<string, string>> = {
  max_context_tokens: 'handoff.maxContextTokens',
  include_recent_turns: 'handoff.includeRecentTurns',
};

const HOP_GUARD_FIX = 'confirm the handoff to proceed (tick "Hand over anyway"), or hand over to someone else';

/** Errors without parts, or about another field, keep the engine's words. */
export function panelErrorText(error: Pick<JobError, 'message' | 'field' | 'path' | 'subject' | 'problem' | 'fix'>): string {
  if (error.problem === undefined) return error.message;
  if (error.field === 'hop_guard') return composeError({ subject: error.subject, problem: error.problem, fix: HOP_GUARD_FIX });
  const field = error.path?.length === 1 ? String(error.path[0]) : undefined;
  const setting = field !== undefined && Object.hasOwn(SETTING_OF_FIELD, field) ? SETTING_OF_FIELD[field] : undefined;
  return setting ? composeError({ subject: setting, problem: error.problem, fix: error.fix }) : error.message;
}
