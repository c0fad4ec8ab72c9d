/**
 * The `yaml` library, loaded on first use: the extension's activation reads no frontmatter, so
 * it neither carries nor parses the library as it loads (esbuild.mjs VENDOR builds it into
 * dist/vendor/yaml.js; the CLI carries it in its bundle and evaluates it here, on first use).
 */
import type * as Yaml from 'yaml';

// The webview's type check reaches this file (through the panel protocol's imports) without Node's types; the bundles are CommonJS.
declare const require: (id: 'yaml') => unknown;

let loaded: typeof Yaml | undefined;

/** The `yaml` module (required on the first call, then the same module). */
export function yaml(): typeof Yaml {
  loaded ??= require('yaml') as typeof Yaml;
  return loaded;
}
