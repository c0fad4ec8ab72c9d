/**
 * How the "Hand over" panel words an engine error: the request fields the panel fills
 * from settings by their VS Code names (the `handoff.maxContextTokens` and
 * `handoff.includeRecentTurns` settings), and the hop guard's confirmation as the
 * checkbox the user ticks. Built from the error's parts (docs/ARCHITECTURE.md,
 * "Errors"); an error without parts, or about another field, is shown as the engine
 * words it.
 */
import { composeError, type HandoverError } from '../../core/handoff/errors';

/** The setting behind each request field the panel fills from the settings. */
const SETTING_OF_FIELD: Readonly<Record<string, string>> = {
  max_context_tokens: 'handoff.maxContextTokens',
  include_recent_turns: 'handoff.includeRecentTurns',
};

/** The hop guard's fix in the panel's words: its confirmation is the "Hand over anyway" checkbox. */
const HOP_GUARD_FIX = 'confirm the handoff to proceed (tick "Hand over anyway"), or hand over to someone else';

/**
 * The message of `error` as the panel shows it (with its `ERROR:` prefix, like the engine's).
 * @param error an error result of the engine (`prepareHandover`, `writeHandover`)
 */
export function panelErrorText(error: Pick<HandoverError, 'message' | 'field' | 'path' | 'subject' | 'problem' | 'fix'>): string {
  if (error.problem === undefined) return error.message;
  if (error.field === 'hop_guard') return composeError({ subject: error.subject, problem: error.problem, fix: HOP_GUARD_FIX });
  const field = error.path?.length === 1 ? String(error.path[0]) : undefined;
  const setting = field !== undefined && Object.hasOwn(SETTING_OF_FIELD, field) ? SETTING_OF_FIELD[field] : undefined;
  return setting ? composeError({ subject: setting, problem: error.problem, fix: error.fix }) : error.message;
}
