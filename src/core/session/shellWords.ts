/** What a shell command writes, read from its syntax tree, never from a heredoc body or a quoted string. */
import type { BinaryCmd, CallExpr, Command, File, Node, Parser, Redirect, Stmt, Word, syntax } from 'mvdan-sh';

type Syntax = typeof syntax;
let loaded: Syntax | undefined;

/** Loaded on first use: a large GopherJS build that a CLI start or a log without redirections should not pay for. */
function sh(): Syntax {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= (require('mvdan-sh') as { syntax: Syntax }).syntax;
  return loaded;
}

/** Redirections that write a file (bash manual §3.6). */
const WRITE_OP = /^(?:&>>|&>|>>|>\||>&|>)/;

/** Undefined when the word depends on shell state (a variable, `$(…)`, a glob, `~`): no file name we can report. */
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

/** A longer line (a huge heredoc) is not searched. */
export const MAX_PARSED_CHARS = 65_536;

export function parseShell(command: string): Node | undefined {
  try {
    parser ??= sh().NewParser();
    return parser.Parse(command, '');
  } catch {
    return undefined;
  }
}

/** Simple commands as written (`a | b && c` → `a`, `b`, `c`; `rg "a|b" src` is one), `$(…)` included; undefined when unparsed. */
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

/** Redirection targets and `tee` arguments: literal paths only, no `/dev/…`, descriptors, variables or globs. */
export function shellWrites(command: string): string[] {
  // Skip the parse when nothing can be written: the parser is Go compiled to JavaScript, and slow.
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

/** The parser's operator codes, read from its own parse of each operator rather than written down here. */
let binaryOps: { and: number; or: number; pipe: number; pipeAll: number } | undefined;
function ops(): NonNullable<typeof binaryOps> {
  const of = (src: string) => (parseShell(src) as File | undefined)?.Stmts[0]?.Cmd as BinaryCmd | undefined;
  binaryOps ??= { and: of('a && b')?.Op ?? -1, or: of('a || b')?.Op ?? -1, pipe: of('a | b')?.Op ?? -1, pipeAll: of('a |& b')?.Op ?? -1 };
  return binaryOps;
}

/**
 * Whether a command `isRunner` accepts ran in `command` but the line's exit status is another command's: one after it
 * in a pipeline (without `pipefail`), after `||`, or in a later statement, unless a runner comes last. After `&&` the
 * status stands (the command after runs only when the runner passed). False when the line cannot be parsed.
 */
export function statusMasksRunner(command: string, isRunner: (simpleCommand: string) => boolean): boolean {
  if (command.length > MAX_PARSED_CHARS || !/[|;\n]/.test(command)) return false;
  const file = parseShell(command) as File | undefined;
  if (!file?.Stmts.length) return false;
  const src = Buffer.from(command, 'utf8');
  const text = (n: Node) => src.subarray(n.Pos().Offset(), n.End().Offset()).toString('utf8');
  const hasRunner = (n: Node | null | undefined): boolean => {
    let found = false;
    if (n)
      sh().Walk(n, (node) => {
        if (!found && node && sh().NodeType(node) === 'CallExpr' && (node as CallExpr).Args.length && isRunner(text(node))) found = true;
        return !found;
      });
    return found;
  };
  const pipefail = /\bpipefail\b/.test(command);
  const { and, or, pipe, pipeAll } = ops();
  const masked = (cmd: Command | null | undefined): boolean => {
    if (!cmd || sh().NodeType(cmd) !== 'BinaryCmd') return false;
    const b = cmd as BinaryCmd;
    if (b.Op === and) return masked(b.X.Cmd) || masked(b.Y.Cmd);
    if (b.Op === or || ((b.Op === pipe || b.Op === pipeAll) && !pipefail)) return masked(b.Y.Cmd) || (hasRunner(b.X) && !hasRunner(b.Y));
    return false;
  };
  const stmts: Stmt[] = file.Stmts;
  const last = stmts[stmts.length - 1];
  return masked(last.Cmd) || (stmts.slice(0, -1).some(hasRunner) && !hasRunner(last));
}
