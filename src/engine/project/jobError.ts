import { handoverError, type HandoverError } from '../../core/handoff/errors';
import { StoreError } from '../../store/safeWrite';

/** A `StoreError` stays an `io` error in its own words; anything else is an `internal` bug. */
export function jobError(err: unknown, doing: string): HandoverError {
  if (err instanceof StoreError) return handoverError(err.message, 'io', { code: 'io', ...err.parts });
  return handoverError(`internal error while ${doing}: ${(err as Error)?.message ?? String(err)}`, 'internal');
}
