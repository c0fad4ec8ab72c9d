/**
 * Building blocks of the secret corpus (issue 14): seeded draws from an alphabet and the
 * encodings and checksums providers publish for their keys — base62 CRC32 (GitHub's and
 * npm's token checksum), bech32 (age secret keys), base64 and base64url. Written from the
 * formats' own descriptions, not from any rule of ours. Pure; no I/O.
 */
import { seededRandom } from '../random';

/** Digits, upper, lower: the base62 alphabet in GitHub's token format ("Behind GitHub's new authentication token formats", 2021). */
export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Letters and digits (order irrelevant for random draws). */
export const ALNUM = BASE62;
/** Lowercase hexadecimal digits. */
export const HEX = '0123456789abcdef';
/** Uppercase letters and digits. */
export const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Letters only (Hugging Face tokens are `hf_` + 34 letters). */
export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The base64url alphabet (RFC 4648 §5): letters, digits, `-` and `_`. */
export const BASE64URL = `${ALNUM}-_`;
/** The base64 alphabet (RFC 4648 §4): letters, digits, `+` and `/`. */
export const BASE64 = `${ALNUM}+/`;
/** RFC 4648 §6 base32 (AWS access key ids draw from `A-Z2-7`). */
export const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** The bech32 data alphabet (BIP 173), in value order. */
export const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** A seeded source of draws: `pick(alphabet, n)` gives `n` characters, `int(n)` a number in [0, n). */
export interface Draw {
  /** `n` characters drawn uniformly from `alphabet`. */
  pick(alphabet: string, n: number): string;
  /** An integer in [0, n). */
  int(n: number): number;
  /** `n` random bytes. */
  bytes(n: number): Buffer;
  /** One element of `xs`. */
  one<T>(xs: readonly T[]): T;
}

/** A {@link Draw} from `seed` (test/helpers/random.ts's mulberry32): the same characters on every run. */
export function draw(seed: number): Draw {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  return {
    int,
    pick: (alphabet, n) => Array.from({ length: n }, () => alphabet[int(alphabet.length)]).join(''),
    bytes: (n) => Buffer.from(Array.from({ length: n }, () => int(256))),
    one: (xs) => xs[int(xs.length)],
  };
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (ISO-HDLC, the zlib one) of the UTF-8 bytes of `text`, as an unsigned 32-bit number. */
export function crc32(text: string): number {
  let c = 0xffffffff;
  for (const b of Buffer.from(text, 'utf8')) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** `n` in base62 (alphabet {@link BASE62}), left-padded with `0` to `width` characters. */
export function base62(n: number, width: number): string {
  let s = '';
  let v = n;
  while (v > 0) {
    s = BASE62[v % 62] + s;
    v = Math.floor(v / 62);
  }
  return s.padStart(width, '0');
}

/**
 * A token in GitHub's 2021 format (also npm's, "npm has a new access token format", 2021):
 * `prefix` + 30 random base62 characters + the CRC32 of those 30 characters in base62,
 * padded to 6 — 36 characters after the prefix.
 */
export function checksummedToken(d: Draw, prefix: string, entropyChars = 30): string {
  const entropy = d.pick(BASE62, entropyChars);
  return `${prefix}${entropy}${base62(crc32(entropy), 6)}`;
}

function bech32Polymod(values: number[]): number {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = (((chk & 0x1ffffff) << 5) ^ v) >>> 0;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk = (chk ^ gen[i]) >>> 0;
  }
  return chk;
}

/** bech32 (BIP 173) of `data` under the human-readable part `hrp`: `hrp` + `1` + data + 6-character checksum. */
export function bech32(hrp: string, data: Buffer): string {
  const words: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const b of data) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) words.push((acc << (5 - bits)) & 31);
  const expand = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];
  const mod = bech32Polymod([...expand, ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...words, ...checksum].map((w) => BECH32[w]).join('')}`;
}

/** Base64url without padding of a UTF-8 text (JWT segments, RFC 7515 §2). */
export function b64url(text: string | Buffer): string {
  return Buffer.from(text).toString('base64url');
}

/** Base64 with padding of a UTF-8 text or bytes. */
export function b64(text: string | Buffer): string {
  return Buffer.from(text).toString('base64');
}
