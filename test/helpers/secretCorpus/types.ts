/**
 * Shapes of the secret corpus (issue 14, "Test corpus built from the formats, not from the
 * library"): a generated key, the pieces of it that must never reach a handoff, and a
 * look-alike that must stay.
 */

/**
 * A part of a key that must not survive redaction: `text`, of which the first
 * `publicPrefix` characters are the provider's published, non-secret prefix (`ghp_`,
 * `sk-ant-api03-`, a PEM body's fixed DER header). A leak is the whole `text`, or any run of
 * 8 characters of it that starts at or after `publicPrefix`.
 */
export interface SecretPiece {
  readonly text: string;
  readonly publicPrefix: number;
}

/**
 * How a key is placed: `line` (a token on one line), `url` (a URL with credentials in it:
 * placed where a URL goes, not after `-p`) or `doc` (a multi-line document: a PEM block, a
 * key file).
 */
export type KeyShape = 'line' | 'url' | 'doc';

/** One generated key: its family (provider), variant, the variable it is usually kept in, its value, and what is secret in it. */
export interface CorpusKey {
  /** The provider or kind, e.g. `openai`, `github`, `url-password`. */
  readonly family: string;
  /** The format within the family, e.g. `sk-proj`, `ghp`, `postgres`. */
  readonly variant: string;
  /** The name it is kept under, e.g. `OPENAI_API_KEY`, `client-key-data`. */
  readonly name: string;
  /** What is assigned: the token, the URL, the document. */
  readonly value: string;
  readonly shape: KeyShape;
  /** The parts that must not appear in any output (for a URL, its password; for a document, its key material). */
  readonly secrets: readonly SecretPiece[];
  /** The published format it was generated from, by name. */
  readonly source: string;
}

/** A placement of a key: the syntax's id and a function that renders a key in it. */
export interface Syntax {
  readonly id: string;
  /** The shapes this syntax can carry (`mysql -p…` carries a password, not a PEM block). */
  readonly shapes: readonly KeyShape[];
  readonly render: (key: CorpusKey) => string;
}

/** A text that looks like a secret and is not: it must come back from redaction unchanged. */
export interface LookAlike {
  /** What it is, e.g. `git-sha`, `placeholder`, `uuid`. */
  readonly kind: string;
  /** The text as it would appear (a line of a file, a command, a log line). */
  readonly text: string;
}
