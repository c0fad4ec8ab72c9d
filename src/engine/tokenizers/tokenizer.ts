/**
 * Loads gpt-tokenizer encodings on first use, only the one configured (`handoff.tokenizer`),
 * and keeps it for the life of the process. The bundles load each encoding from its own
 * file (`dist/tokenizers/<name>.js`, see esbuild.mjs), so activation never parses the
 * multi-megabyte rank tables.
 */
import type { TokenizerName } from '../../core/handoff/schema';
import { tokenCounter, type TokenCounter, type TokenEncoding } from '../../core/handoff/tokens';
import { startWorkerEncoding, type WorkerEncoding } from './tokenizerWorker';

const loaded = new Map<TokenizerName, TokenEncoding | WorkerEncoding>();

/** Loads the encoding module in this process (synchronous; the tables are large and only one is needed). */
function requireEncoding(name: TokenizerName): TokenEncoding {
  /* eslint-disable @typescript-eslint/no-require-imports -- lazy load: the tables are large and only one is needed */
  return name === 'cl100k_base'
    ? (require('gpt-tokenizer/encoding/cl100k_base') as TokenEncoding)
    : (require('gpt-tokenizer/encoding/o200k_base') as TokenEncoding);
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** An encoding loading on a worker thread ({@link startEncodingWorker}), with its name. */
export interface PreloadedEncoding {
  readonly name: TokenizerName;
  readonly encoding: WorkerEncoding;
}

/**
 * Starts loading `name` on a worker thread now (src/engine/tokenizers/tokenizerWorker.ts), for a
 * short-lived process that will count tokens after other start-up work (the CLI's `handover`,
 * `hook`, `draft`). The CLI's launcher starts it before it loads the CLI bundle, which then
 * {@link adoptEncoding}s it; should the worker fail, the encoding loads in the process.
 */
export function startEncodingWorker(name: TokenizerName): PreloadedEncoding {
  return { name, encoding: startWorkerEncoding(name, () => requireEncoding(name)) };
}

/**
 * Makes `preloaded` the encoding {@link loadEncoding} returns for its name (its counts are the
 * library's own). Does nothing when that encoding is already loaded.
 */
export function adoptEncoding(preloaded: PreloadedEncoding): void {
  if (!loaded.has(preloaded.name)) loaded.set(preloaded.name, preloaded.encoding);
}

/** {@link startEncodingWorker} and {@link adoptEncoding} at once: `name` starts loading on a worker thread now, unless it is loaded. */
export function preloadEncoding(name: TokenizerName): void {
  if (!loaded.has(name)) adoptEncoding(startEncodingWorker(name));
}

/**
 * Returns the encoding for `name`, loading it on the first call.
 * @throws Error only if the encoding module is missing from the installation
 */
export function loadEncoding(name: TokenizerName): TokenEncoding {
  let enc = loaded.get(name);
  if (!enc) {
    enc = requireEncoding(name);
    loaded.set(name, enc);
  }
  return enc;
}

/** A {@link TokenCounter} for the named encoding (loaded lazily on first use). */
export function counterFor(name: TokenizerName): TokenCounter {
  return tokenCounter(name, loadEncoding(name));
}

/**
 * Ends the worker threads of the encodings loaded on them ({@link preloadEncoding}): the CLI
 * calls it once its command will count no more tokens (`HandoverEnvironment.onCountingDone`),
 * so the workers' heaps are freed while the command writes its files, not as the process exits
 * (src/engine/tokenizers/tokenizerWorker.ts `WorkerEncoding.release`). Encodings loaded in the process
 * are kept; a later count of a released one loads it in the process (the same counts).
 */
export function releaseEncodings(): void {
  for (const enc of loaded.values()) if ('release' in enc) enc.release();
}
