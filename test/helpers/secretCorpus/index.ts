/**
 * The secret corpus of issue 14 ("Test corpus built from the formats, not from the
 * library"): fake keys generated from the providers' published formats
 * (`aiProviders.ts`, `platforms.ts`, `documents.ts`), each placed in every syntax that can
 * carry it (`syntaxes.ts`), and look-alikes that must stay (`lookAlikes.ts`). Seeded, so
 * the corpus is the same on every run. Built without reading our own rules, so it
 * measures the redaction against the world rather than against itself.
 */
import { aiProviderKeys } from './aiProviders';
import { documentKeys } from './documents';
import { lookAlikes } from './lookAlikes';
import { platformKeys } from './platforms';
import { SYNTAXES } from './syntaxes';
import type { CorpusKey, LookAlike, Syntax } from './types';

export type { CorpusKey, LookAlike, SecretPiece, Syntax } from './types';
export { SYNTAXES } from './syntaxes';

/** The seed of the corpus; change it to draw a different corpus of the same formats. */
export const CORPUS_SEED = 14_2026;

/** One placement: a key rendered in a syntax. */
export interface CorpusCase {
  readonly key: CorpusKey;
  readonly syntax: Syntax;
  readonly text: string;
}

/** The whole corpus: the keys, every (key × syntax that carries its shape) case, the look-alikes. */
export interface Corpus {
  readonly keys: readonly CorpusKey[];
  readonly cases: readonly CorpusCase[];
  readonly lookAlikes: readonly LookAlike[];
}

/** Keys drawn per format: two, so no format passes on one lucky draw. */
export const DRAWS_PER_FORMAT = 2;

/** The keys of every format, one draw from `seed` (the AI providers', the platforms', the documents'). */
export function corpusKeys(seed: number): CorpusKey[] {
  return [...aiProviderKeys(seed), ...platformKeys(seed + 1), ...documentKeys(seed + 2)];
}

/** Builds the corpus from `seed` (default {@link CORPUS_SEED}), {@link DRAWS_PER_FORMAT} keys per format. Deterministic. */
export function secretCorpus(seed = CORPUS_SEED): Corpus {
  const keys = Array.from({ length: DRAWS_PER_FORMAT }, (_, i) => corpusKeys(seed + 10 * i)).flat();
  const cases: CorpusCase[] = [];
  for (const key of keys) for (const syntax of SYNTAXES) if (syntax.shapes.includes(key.shape)) cases.push({ key, syntax, text: syntax.render(key) });
  return { keys, cases, lookAlikes: lookAlikes(seed + 3) };
}

/** Length of the runs of a secret that count as a leak when found in an output. */
export const LEAK_RUN = 8;

/**
 * What of `key` survives in `output`: for each secret piece, the piece itself if it is
 * whole in the output, else its first run of {@link LEAK_RUN} characters (starting at or
 * after the piece's public prefix) found there. Empty when nothing leaked.
 */
export function leakedRuns(output: string, key: CorpusKey): string[] {
  const grams = new Set<string>();
  for (let i = 0; i + LEAK_RUN <= output.length; i++) grams.add(output.slice(i, i + LEAK_RUN));
  const found: string[] = [];
  for (const piece of key.secrets) {
    if (piece.text.length < LEAK_RUN) {
      if (output.includes(piece.text)) found.push(piece.text);
      continue;
    }
    if (output.includes(piece.text)) {
      found.push(piece.text);
      continue;
    }
    for (let i = piece.publicPrefix; i + LEAK_RUN <= piece.text.length; i++) {
      const run = piece.text.slice(i, i + LEAK_RUN);
      if (grams.has(run)) {
        found.push(run);
        break;
      }
    }
  }
  return found;
}
