import { jobError, type JobError } from '../../core/handoff/errors';
import { StoreError } from '../../store/safeWrite';

/** A `StoreError` stays an `io` error in its own words; anything else is an `internal` bug. */
export function errorOfException(err: unknown, doing: string): JobError {
  if (err instanceof StoreError) return jobError(err.message, 'io', { code: 'io', ...err.parts });
  return jobError(`internal error while ${doing}: ${(err as Error)?.message ?? String(err)}`, 'internal');
}

/** Runs a job's body; an exception it throws becomes the job's error value (jobs never throw). */
export async function runJob<T>(doing: string, body: () => Promise<T>): Promise<T | JobError> {
  try {
    return await body();
  } catch (err) {
    return errorOfException(err, doing);
  }
}
