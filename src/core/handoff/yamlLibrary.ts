// Loaded on first use: activation reads no frontmatter, so it should neither carry nor parse the library.
import type * as Yaml from 'yaml';

// The webview's type check reaches this file (through the panel protocol's imports) without Node's types; the bundles are CommonJS.
declare const require: (id: 'yaml') => unknown;

let loaded: typeof Yaml | undefined;

export function yaml(): typeof Yaml {
  loaded ??= require('yaml') as typeof Yaml;
  return loaded;
}
