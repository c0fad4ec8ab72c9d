/** What several subcommands share: the workspace, its handoff root, and flags read the same everywhere. */
import { readFileSync, statSync } from 'node:fs';
import { fsCause, type FsFailure } from '../core/handoff/fsErrors';
import path from 'node:path';
import type { JobContext } from '../engine/project/jobContext';
import { cliSessionLogStatePath, currentCliSessionId } from '../engine/project/cliSession';
import { handoffRootOf, workspaceFolderOf, type WorkspaceFolder } from '../engine/project/project';
import { transcriptAccess } from '../engine/project/namedTranscript';
import type { Values } from './args';
import { EXIT_BAD_INPUT, type CliIo } from './io';
import { fail, failWith } from './wording';

/**
 * The workspace root: git's top level of `--cwd`, or `--cwd` itself outside a repository.
 * @param flag how the error names the folder
 */
export async function resolveWorkspace(values: Pick<Values, 'cwd'>, io: CliIo, flag = '--cwd'): Promise<string | { error: string }> {
  const folder = await resolveWorkspaceFolder(values, io, flag);
  return 'error' in folder ? folder : folder.path;
}

/** {@link resolveWorkspace} with git's first answers (`gitProbe`): pass them on so git is asked once. */
export async function resolveWorkspaceFolder(
  values: Pick<Values, 'cwd'>,
  io: CliIo,
  flag = '--cwd',
): Promise<Extract<WorkspaceFolder, { ok: true }> | { error: string }> {
  const dir = path.resolve(io.cwd, values.cwd ?? '.');
  const folder = await workspaceFolderOf(dir);
  return folder.ok ? folder : { error: `ERROR: ${flag} ${folder.problem}${folder.fix ? ` — ${folder.fix}` : ''}` };
}

/** The workspace and its handoff root, or the exit code after the `ERROR:` was printed. */
export async function workspaceAndRoot(values: Values, io: CliIo): Promise<{ cwd: string; root: string } | number> {
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') {
    return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  }
  const root = handoffRootOf({ workspaceRoot: cwd, handoffDirectory: values.dir });
  if (!root.ok) {
    return failWith(io, values, root.error, EXIT_BAD_INPUT);
  }
  return { cwd, root: root.path };
}

const SESSION_LOG_FIXES: Readonly<Partial<Record<FsFailure, string>>> = {
  denied: 'make it readable (fix its permissions) or pass another transcript, "auto" or "none"',
  'link-loop': 'remove the link or point it at the transcript, or pass another path, "auto" or "none"',
};

/** `--session-log`: auto (default), none, or the path of a transcript that can be opened (file or Cline task folder). */
export async function sessionLogMode(values: Values, io: CliIo): Promise<string | { error: string }> {
  const raw = values['session-log'] ?? 'auto';
  const word = raw.trim().toLowerCase();
  if (word === 'auto' || word === 'none') {
    return word;
  }
  const file = path.resolve(io.cwd, raw);
  const refused = await transcriptAccess(file);
  if (refused) {
    return {
      error: `ERROR: --session-log ${raw}: ${refused.problem} — ${SESSION_LOG_FIXES[refused.kind] ?? 'pass the path of a transcript, "auto" or "none"'}`,
    };
  }
  return file;
}

const SUMMARY_FILE_FIXES: Readonly<Partial<Record<FsFailure, string>>> = {
  denied: 'make it readable (fix its permissions) or pass another file, or - for standard input',
  'link-loop': 'remove the link or point it at the summary, or pass another file, or - for standard input',
};

/** --summary, or --summary-file (a path, or "-" for standard input); not both. */
export async function readSummary(values: Values, io: CliIo): Promise<string | { error: string }> {
  const file = values['summary-file'];
  if (file === undefined) {
    return values.summary ?? '';
  }
  if (values.summary !== undefined) {
    return { error: 'ERROR: --summary and --summary-file both given — pass one' };
  }
  try {
    if (file === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    }
    const target = path.resolve(io.cwd, file);
    if (statSync(target).size > 8 * 1024 * 1024) {
      return { error: `ERROR: --summary-file ${file} is larger than 8 MiB — a summary is at most 200,000 characters` };
    }
    return readFileSync(target, 'utf8');
  } catch (err) {
    const cause = fsCause(err);
    return {
      error: `ERROR: --summary-file ${file} cannot be read: ${cause.kind === 'missing' ? 'no such file' : cause.words} — ${SUMMARY_FILE_FIXES[cause.kind] ?? 'pass a readable file, or - for standard input'}`,
    };
  }
}

/** The engine environment of the CLI's session: `--session-id`, else the CLI's current one. */
export async function cliEnvironment(cwd: string, values: Values, mode: string): Promise<JobContext> {
  return {
    workspaceRoot: cwd,
    handoffDirectory: values.dir,
    sessionId: values['session-id'] ?? (await currentCliSessionId(cwd)),
    sessionLog: { mode, statePath: cliSessionLogStatePath(cwd) },
  };
}
