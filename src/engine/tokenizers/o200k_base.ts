/** dist/tokenizers/o200k_base.js (see ./bundledEncoding.ts). */
import { bundledEncoding } from './bundledEncoding';

export = bundledEncoding('o200k_base', __dirname);
