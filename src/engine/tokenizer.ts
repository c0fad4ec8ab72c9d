/**
 * Loads gpt-tokenizer encodings on first use, only the one configured (`handoff.tokenizer`),
 * and keeps it for the life of the process. The bundles load each encoding from its own
 * file (`dist/tokenizers/<name>.js`, see esbuild.mjs), so activation never parses the
 * multi-megabyte rank tables.
 */
import type { TokenizerName } from '../core/handoff/schema';
import { tokenCounter, type TokenCounter, type TokenEncoding } from '../core/handoff/tokens';

const loaded = new Map<TokenizerName, TokenEncoding>();

/**
 * Returns the encoding for `name`, loading it on the first call.
 * @throws Error only if the encoding module is missing from the installation
 */
export function loadEncoding(name: TokenizerName): TokenEncoding {
  let enc = loaded.get(name);
  if (!enc) {
    /* eslint-disable @typescript-eslint/no-require-imports -- lazy load: the tables are large and only one is needed */
    enc =
      name === 'cl100k_base'
        ? (require('gpt-tokenizer/encoding/cl100k_base') as TokenEncoding)
        : (require('gpt-tokenizer/encoding/o200k_base') as TokenEncoding);
    /* eslint-enable @typescript-eslint/no-require-imports */
    loaded.set(name, enc);
  }
  return enc;
}

/** A {@link TokenCounter} for the named encoding (loaded lazily on first use). */
export function counterFor(name: TokenizerName): TokenCounter {
  return tokenCounter(name, loadEncoding(name));
}
