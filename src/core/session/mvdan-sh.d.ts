/**
 * Types for the parts of `mvdan-sh` (the JavaScript build of mvdan.cc/sh/v3/syntax) that
 * src/core/session/shellWords.ts uses. The package ships no types; names and shapes follow
 * the Go package's documentation (pkg.go.dev/mvdan.cc/sh/v3/syntax): positions are byte
 * offsets into the parsed source.
 */
declare module 'mvdan-sh' {
  /** A source position (Go `syntax.Pos`). */
  export interface Pos {
    /** Byte offset from the start of the source. */
    Offset(): number;
  }
  /** Any syntax node (Go `syntax.Node`). */
  export interface Node {
    Pos(): Pos;
    End(): Pos;
  }
  /** A literal, a single-quoted or a double-quoted part of a word, or another kind of part. */
  export interface WordPart extends Node {
    Value?: string;
    Parts?: WordPart[];
    /** `$'…'` strings are `SglQuoted` with Dollar set; `$"…"` are `DblQuoted` with Dollar set. */
    Dollar?: boolean;
  }
  /** A shell word (Go `syntax.Word`). */
  export interface Word extends Node {
    Parts: WordPart[];
  }
  /** A redirection (Go `syntax.Redirect`): `N` the file descriptor literal, `Word` the target, `Hdoc` a heredoc body. */
  export interface Redirect extends Node {
    OpPos: Pos;
    N: { Value: string } | null;
    Word: Word | null;
    Hdoc: Word | null;
  }
  /** A simple command (Go `syntax.CallExpr`). */
  export interface CallExpr extends Node {
    Args: Word[];
  }
  /** A command of a statement (Go `syntax.Command`): a `CallExpr`, a `BinaryCmd`, a subshell, a block … */
  export type Command = Node;
  /** A statement (Go `syntax.Stmt`), one of a file's or a binary command's sides. */
  export interface Stmt extends Node {
    Cmd: Command | null;
  }
  /** `X op Y` (Go `syntax.BinaryCmd`): `&&`, `||`, `|` or `|&`, as the parser's operator code. */
  export interface BinaryCmd extends Node {
    Op: number;
    X: Stmt;
    Y: Stmt;
  }
  /** A parsed source (Go `syntax.File`): its statements, in order. */
  export interface File extends Node {
    Stmts: Stmt[];
  }
  /** A parser (Go `syntax.Parser`). */
  export interface Parser {
    /** @throws a Go error object (its `message` is `LINE:COL: problem`) when the source is not valid shell */
    Parse(src: string, name: string): Node;
  }
  export const syntax: {
    NewParser(): Parser;
    /** Calls `visit` on every node, depth first; returning false skips the node's children. */
    Walk(node: Node, visit: (node: Node | null) => boolean): void;
    /** The Go type name of a node: `Redirect`, `CallExpr`, `Lit`, `SglQuoted`, `DblQuoted`, … */
    NodeType(node: Node): string;
  };
}
