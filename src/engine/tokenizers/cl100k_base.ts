/** dist/tokenizers/cl100k_base.js (see ./bundledEncoding.ts). */
import { bundledEncoding } from './bundledEncoding';

export = bundledEncoding('cl100k_base', __dirname);
