/**
 * The error of an engine job that ended in an exception (jobs never throw: their catch-all
 * turns it into a value). A store failure — a folder that cannot be listed or written, a link
 * loop, permission denied — is a `StoreError` whose message already names the path, the cause
 * and the fix: it stays an `io` error in its own words. Anything else is a bug: `internal`.
 */
import { handoverError, type HandoverError } from '../../core/handoff/errors';
import { StoreError } from '../../store/safeWrite';

/**
 * @param doing what the job was doing, for an internal error (`building the prompt`)
 * @returns `{field: "io"}` with the store's message and parts, or `{field: "internal"}`
 */
export function jobError(err: unknown, doing: string): HandoverError {
  if (err instanceof StoreError) return handoverError(err.message, 'io', { code: 'io', ...err.parts });
  return handoverError(`internal error while ${doing}: ${(err as Error)?.message ?? String(err)}`, 'internal');
}
