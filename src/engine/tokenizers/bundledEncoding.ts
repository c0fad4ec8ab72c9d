/** Loads an encoding from `<name>.ranks.json` beside the bundle: parsing JSON is much faster than evaluating the package's table literal. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';

export function bundledEncoding(name: 'o200k_base' | 'cl100k_base', dir: string): GptEncoding {
  return GptEncoding.getEncodingApi(name, () => JSON.parse(readFileSync(path.join(dir, `${name}.ranks.json`), 'utf8')) as string[]);
}
