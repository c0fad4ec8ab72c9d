import { bundledEncoding } from './bundledEncoding';

export = bundledEncoding('o200k_base', __dirname);
