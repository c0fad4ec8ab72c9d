/**
 * What a shell command line writes, read from its parsed syntax tree — never from the text of a
 * heredoc body or a quoted string (`python - <<'PY' … if n>5:` gave a file `5:`).
 * The parser is `mvdan-sh`, the JavaScript build of mvdan.cc/sh (POSIX / Bash syntax, heredocs,
 * quoting and `$(…)` parsed as bash does): pure JavaScript and synchronous.
 */
import type { CallExpr, Node, Parser, Redirect, Word, syntax } from 'mvdan-sh';

type Syntax = typeof syntax;
let loaded: Syntax | undefined;

/**
 * The parser's module, loaded on first use: it is 1.5 MB of JavaScript (Go compiled by
 * GopherJS) and costs about half a second to load, which a CLI start or a log without a
 * single redirection should not pay.
 */
function sh(): Syntax {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= (require('mvdan-sh') as { syntax: Syntax }).syntax;
  return loaded;
}

/** Redirection operators that write a file (bash manual §3.6): `>`, `>>`, `>|`, `&>`, `&>>`, `>&` (with a file name). */
const WRITE_OP = /^(?:&>>|&>|>>|>\||>&|>)/;

/**
 * The literal value of a word, or undefined when it depends on the shell's state
 * (a variable, `$(…)`, a glob, `~`): such a target is not a file name we can report.
 * Quotes are removed as the shell removes them; a backslash escapes the next character.
 */
export function literalWord(word: Word): string | undefined {
  let out = '';
  for (const part of word.Parts) {
    const type = sh().NodeType(part);
    if (type === 'Lit') {
      const v = part.Value ?? '';
      if (/[*?[]/.test(v) || (out === '' && v.startsWith('~'))) return undefined;
      out += v.replace(/\\([\s\S])/g, '$1');
    } else if (type === 'SglQuoted' && !part.Dollar) {
      out += part.Value ?? '';
    } else if (type === 'DblQuoted' && !part.Dollar) {
      for (const inner of part.Parts ?? []) {
        if (sh().NodeType(inner) !== 'Lit') return undefined;
        out += (inner.Value ?? '').replace(/\\([$`"\\\n])/g, '$1');
      }
    } else {
      return undefined;
    }
  }
  return out;
}

let parser: Parser | undefined;

/** Longest command line parsed: 65,536 characters (a longer one, a huge heredoc, is not searched for writes). */
export const MAX_PARSED_CHARS = 65_536;

/** Parses a command line; undefined when it is not valid shell (then nothing is read from it). */
export function parseShell(command: string): Node | undefined {
  try {
    parser ??= sh().NewParser();
    return parser.Parse(command, '');
  } catch {
    return undefined;
  }
}

/**
 * The simple commands of a command line as they appear in it (`a | b && c` → `a`, `b`, `c`),
 * found in its syntax tree: the separators inside quotes, heredoc bodies and comments are text,
 * not separators (`rg "a|b" src` is one command). Commands inside `$(…)` and subshells count too;
 * redirections are not part of a command's text. Undefined when the line does not parse as
 * shell or is longer than {@link MAX_PARSED_CHARS}: the caller then splits it another way.
 */
export function simpleCommands(command: string): string[] | undefined {
  if (command.length > MAX_PARSED_CHARS) return undefined;
  const tree = parseShell(command);
  if (!tree) return undefined;
  const src = Buffer.from(command, 'utf8');
  const out: string[] = [];
  sh().Walk(tree, (node) => {
    if (node && sh().NodeType(node) === 'CallExpr' && (node as CallExpr).Args.length) {
      out.push(src.subarray(node.Pos().Offset(), node.End().Offset()).toString('utf8'));
    }
    return true;
  });
  return out;
}

/**
 * Files a shell command line writes: redirection targets (`> f`, `>> f`, `>| f`, `&> f`,
 * `2> f`) and `tee` arguments — literal paths only: not `/dev/…`, file descriptors
 * (`2>&1`), variables or globs. A heredoc body (`<<'EOF' … EOF`) and quoted text are data,
 * never redirections. A line that does not parse as shell writes nothing we can name.
 */
export function shellWrites(command: string): string[] {
  // Nothing is written without a ">" or a "tee": skip the parse (it costs milliseconds: the
  // parser is Go compiled to JavaScript). Descriptor copies and /dev/null writes are not files.
  const rest = command.replace(/\d*>>?\s*\/dev\/null\b|\d*>&\s*(?:\d+|-)(?![\w./-])|&>\s*\/dev\/null\b/g, '');
  if ((!rest.includes('>') && !rest.includes('tee')) || command.length > MAX_PARSED_CHARS) return [];
  const tree = parseShell(command);
  if (!tree) return [];
  const src = Buffer.from(command, 'utf8');
  const out = new Set<string>();
  sh().Walk(tree, (node) => {
    if (!node) return true;
    const type = sh().NodeType(node);
    if (type === 'Redirect') {
      const r = node as Redirect;
      const at = r.OpPos.Offset();
      const op = WRITE_OP.exec(src.subarray(at, at + 3).toString('latin1'))?.[0];
      const target = op && r.Word ? literalWord(r.Word) : undefined;
      if (target !== undefined && !(op === '>&' && /^(?:\d+|-)$/.test(target))) out.add(target);
    } else if (type === 'CallExpr') {
      const args = (node as CallExpr).Args.map(literalWord);
      if (args[0] === 'tee' || args[0]?.endsWith('/tee')) {
        for (const a of args.slice(1)) if (a !== undefined && !a.startsWith('-')) out.add(a);
      }
    }
    return true;
  });
  return [...out].filter((p) => p && !p.startsWith('/dev/'));
}
