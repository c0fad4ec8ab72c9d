import { bundledEncoding } from './bundledEncoding';

export = bundledEncoding('cl100k_base', __dirname);
