/**
 * The project context: a workspace folder opened once for every job. Every entry point —
 * the VS Code extension, the CLI, the MCP server, the Claude Code hook — opens the folder
 * through {@link openProject} and hands the result to the engine's jobs, so the handoff
 * root, the specialist registry and the warnings found on the way are worked out in one
 * place (docs/ARCHITECTURE.md, "The front door").
 *
 *   workspace folder + settings ─▶ openProject ─▶ Project { handoff root, registry, warnings } ─▶ job
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { HANDOFFS_DIR } from '../../core/handoff/naming';
import { handoverError, type HandoverError } from '../../core/handoff/errors';
import { fsCause, linkLoopProblem, loopingLink } from '../../core/handoff/fsErrors';
import { SpecialistRegistry } from '../../core/specialists/registry';
import type { RepositoryProbe } from '../../core/handoff/gitEvidence';
import { findRepository, findRepositoryRoot } from '../../evidence/git/repository';
import { resolveHandoffRoot } from '../../store/pathGuard';
import { loadCustomSpecialists } from '../../store/specialists/specialistFiles';

/** What opening a project needs: the folder and the `handoff.directory` setting (or `--dir`). */
export interface ProjectOptions {
  /** Absolute path of the workspace folder (the project root). */
  readonly workspaceRoot: string;
  /** `handoff.directory` setting (CLI `--dir`), relative to the workspace folder; default `.handoff`. */
  readonly handoffDirectory?: string;
}

/** A workspace folder, opened: where its handoffs live and who its specialists are. */
export interface Project {
  /** Absolute path of the workspace folder. */
  readonly workspaceRoot: string;
  /** Absolute handoff root (`<workspace>/.handoff` by default), checked to be inside the workspace. */
  readonly handoffRoot: string;
  /** Absolute `<handoff root>/handoffs` folder. */
  readonly handoffsDir: string;
  /** Built-in, custom (`<handoff root>/specialists/`) and discovered specialists. */
  readonly registry: SpecialistRegistry;
  /** One line per specialist file that was skipped, each naming the file and the fix (without the `WARNING: ` prefix). */
  readonly warnings: readonly string[];
}

/** Outcome of {@link openProject}: the project, or the error naming the field at fault (`project_root`, `handoff.directory`). */
export type ProjectOutcome = { readonly ok: true; readonly project: Project } | { readonly ok: false; readonly error: HandoverError };

/**
 * Resolves only the handoff root of a workspace folder (no registry): for callers that
 * need the folder and nothing else (counting handoffs, excluding it from git evidence).
 * @returns the absolute root, or the `handoff.directory` error (`field: "handoff.directory"`)
 */
export function handoffRootOf(options: ProjectOptions): { ok: true; path: string } | { ok: false; error: HandoverError } {
  if (!options.workspaceRoot || !path.isAbsolute(options.workspaceRoot)) {
    return { ok: false, error: handoverError(`project_root must be an absolute path (got "${options.workspaceRoot ?? ''}")`, 'project_root') };
  }
  const root = resolveHandoffRoot(options.workspaceRoot, options.handoffDirectory);
  return root.ok ? root : { ok: false, error: handoverError(root.message, 'handoff.directory', { code: 'bad_setting', ...root.parts }) };
}

/**
 * Loads the registry for a handoff root: built-ins, then the custom specialists of
 * `<root>/specialists/`, then the agents discovered in `.github/agents/`,
 * `.github/chatmodes/` and `.claude/agents/` (each with its `source`; an id is taken by
 * the first that defines it), with a warning per file that was skipped.
 */
export async function loadRegistry(root: string, workspaceRoot: string): Promise<{ registry: SpecialistRegistry; warnings: string[] }> {
  const custom = await loadCustomSpecialists(root, workspaceRoot);
  // A persona marker names one specialist: a custom one that repeats another's would let a
  // chain return to "the same" specialist under another id, past the hop guard. Compared
  // without brackets, hyphens and underscores, so a label "[Quality reviewer]" (marker
  // "[[quality reviewer]]") or "Quality-Reviewer" cannot pass for the quality reviewer.
  const key = (marker: string) =>
    marker
      .toLowerCase()
      .replace(/[[\]\s_-]+/g, ' ')
      .trim();
  const markers = new Map(new SpecialistRegistry().all().map((s) => [key(s.personaMarker), s.id]));
  const warnings = [...custom.warnings];
  const kept = custom.specialists.filter((s) => {
    const taken = markers.get(key(s.personaMarker));
    if (taken !== undefined && taken !== s.id) {
      warnings.push(`${s.file ?? s.id}: its persona marker ${s.personaMarker} is already ${taken}'s — give it a label of its own; it was skipped`);
      return false;
    }
    markers.set(key(s.personaMarker), s.id);
    return true;
  });
  return { registry: new SpecialistRegistry(kept), warnings };
}

/**
 * Opens a workspace folder: checks the folder path and the handoff folder setting, and
 * loads the specialist registry. Reads files (the specialist folders); starts no git
 * process and writes nothing.
 * @returns `{ok:true, project}`, or `{ok:false, error}` with `field` `project_root` or
 *   `handoff.directory` and a message naming the fix. Never throws.
 */
export async function openProject(options: ProjectOptions): Promise<ProjectOutcome> {
  const root = handoffRootOf(options);
  if (!root.ok) return root;
  try {
    const { registry, warnings } = await loadRegistry(root.path, options.workspaceRoot);
    return {
      ok: true,
      project: { workspaceRoot: options.workspaceRoot, handoffRoot: root.path, handoffsDir: path.join(root.path, HANDOFFS_DIR), registry, warnings },
    };
  } catch (err) {
    return { ok: false, error: handoverError(`internal error while reading the specialists: ${(err as Error)?.message ?? String(err)}`, 'internal') };
  }
}

/**
 * Outcome of {@link workspaceFolderOf}: the workspace folder and whether git answered it (its
 * top level: `repository`, with git's answers the evidence starts from, `gitProbe`, to pass on
 * as `HandoverEnvironment.gitProbe`), or what is wrong with the folder given and how to fix it
 * (`problem` starts with or names the folder: `folder does not exist: <dir>`, `<dir> is a link
 * loop (…)`, `<dir> is a bare git repository …`), for the caller to put after its name for it.
 */
export type WorkspaceFolder =
  | { readonly ok: true; readonly path: string; readonly repository: true; readonly gitProbe?: RepositoryProbe }
  | { readonly ok: true; readonly path: string; readonly repository: false }
  | { readonly ok: false; readonly problem: string; readonly fix?: string };

/**
 * The workspace folder of a directory, found the way git finds its repository: the top
 * level of the git working tree containing `dir` (real path, `repository: true`), or `dir`
 * itself outside git (`repository: false`). One `git rev-parse` process, whose answers the
 * evidence of that folder can start from (`gitProbe`). A bare repository and a
 * repository's git folder are refused: they have no working tree, and a handoff folder made
 * there would sit among git's own data.
 * @param dir absolute path of the folder to start from
 * @returns the folder, or the problem with `dir` (missing, a link loop, unreadable, not a
 *   folder, no working tree) and its fix, for the caller to name. Never throws.
 */
export async function workspaceFolderOf(dir: string): Promise<WorkspaceFolder> {
  let real: string;
  try {
    real = await realpath(dir);
    if (!(await stat(real)).isDirectory()) {
      return { ok: false, problem: `is not a folder: ${dir}` };
    }
  } catch (err) {
    const cause = fsCause(err);
    if (cause.kind === 'link-loop')
      return { ok: false, problem: linkLoopProblem(dir, await loopingLink(dir, realpath)), fix: 'remove the link or point it at a real folder' };
    return { ok: false, problem: cause.kind === 'missing' ? `folder does not exist: ${dir}` : `${dir} cannot be opened: ${cause.words}` };
  }
  const found = await findRepository(real);
  if (found?.outside === 'bare') {
    return {
      ok: false,
      problem: `${dir} is a bare git repository: it has no working tree to hand over from, and nothing is written into it`,
      fix: `run it in the working folder of a clone (git clone ${dir} <folder>)`,
    };
  }
  if (found?.outside === 'git-dir') {
    return {
      ok: false,
      problem: `${dir} is inside a git repository's own folder (.git): handoffs are never written among git's data`,
      fix: "run it in the repository's working folder",
    };
  }
  return found?.top !== undefined ? { ok: true, path: found.top, repository: true, gitProbe: found.probe } : { ok: true, path: real, repository: false };
}

/**
 * The top level of the git working tree containing `dir`, or undefined outside one (or
 * when git is missing): whether a folder is in a git project.
 */
export async function repositoryRootOf(dir: string): Promise<string | undefined> {
  return findRepositoryRoot(dir);
}
