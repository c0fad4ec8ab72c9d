/** Loads only the configured gpt-tokenizer encoding, on first use, and keeps it for the process. */
import type { TokenizerName } from '../../core/handoff/schema';
import { tokenCounter, type TokenCounter, type TokenEncoding } from '../../core/handoff/tokens';
import { startWorkerEncoding, type WorkerEncoding } from './tokenizerWorker';

const loaded = new Map<TokenizerName, TokenEncoding | WorkerEncoding>();

function requireEncoding(name: TokenizerName): TokenEncoding {
  /* eslint-disable @typescript-eslint/no-require-imports -- lazy load: the tables are large and only one is needed */
  return name === 'cl100k_base'
    ? (require('gpt-tokenizer/encoding/cl100k_base') as TokenEncoding)
    : (require('gpt-tokenizer/encoding/o200k_base') as TokenEncoding);
  /* eslint-enable @typescript-eslint/no-require-imports */
}

export interface PreloadedEncoding {
  readonly name: TokenizerName;
  readonly encoding: WorkerEncoding;
}

/** Starts loading `name` on a worker thread, for a short-lived CLI command that counts tokens after other start-up work. */
export function startEncodingWorker(name: TokenizerName): PreloadedEncoding {
  return { name, encoding: startWorkerEncoding(name, () => requireEncoding(name)) };
}

/** Makes `preloaded` what {@link loadEncoding} returns for its name, unless one is already loaded. */
export function adoptEncoding(preloaded: PreloadedEncoding): void {
  if (!loaded.has(preloaded.name)) loaded.set(preloaded.name, preloaded.encoding);
}

export function preloadEncoding(name: TokenizerName): void {
  if (!loaded.has(name)) adoptEncoding(startEncodingWorker(name));
}

/** @throws Error only if the encoding module is missing from the installation */
export function loadEncoding(name: TokenizerName): TokenEncoding {
  let enc = loaded.get(name);
  if (!enc) {
    enc = requireEncoding(name);
    loaded.set(name, enc);
  }
  return enc;
}

export function counterFor(name: TokenizerName): TokenCounter {
  return tokenCounter(name, loadEncoding(name));
}

/** Ends the worker threads so their heaps are freed before exit; a later count loads the encoding in the process. */
export function releaseEncodings(): void {
  for (const enc of loaded.values()) if ('release' in enc) enc.release();
}
