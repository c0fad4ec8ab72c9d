/**
 * A gpt-tokenizer encoding built by the library's own `GptEncoding.getEncodingApi` over its rank
 * table read from `<name>.ranks.json` beside the bundle (esbuild.mjs writes that file from the
 * package's table): parsing JSON is several times faster than evaluating the package's
 * table, a JavaScript literal of ~200,000 strings. Used only by dist/tokenizers/<name>.js.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';

export function bundledEncoding(name: 'o200k_base' | 'cl100k_base', dir: string): GptEncoding {
  return GptEncoding.getEncodingApi(name, () => JSON.parse(readFileSync(path.join(dir, `${name}.ranks.json`), 'utf8')) as string[]);
}
