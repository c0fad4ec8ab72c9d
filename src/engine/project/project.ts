import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { HANDOFFS_DIR } from '../../core/handoff/naming';
import { jobError, type JobError } from '../../core/handoff/errors';
import { errorOfException } from './jobError';
import { fsCause, linkLoopProblem, loopingLink } from '../../core/handoff/fsErrors';
import { SpecialistRegistry } from '../../core/specialists/registry';
import type { RepositoryProbe } from '../../core/handoff/gitEvidence';
import { findRepository, findRepositoryRoot } from '../../evidence/git/repository';
import { resolveHandoffRoot } from '../../store/pathGuard';
import { loadCustomSpecialists } from '../../store/specialists/specialistFiles';

export interface ProjectOptions {
  readonly workspaceRoot: string;
  readonly handoffDirectory?: string;
}

export interface Project {
  readonly workspaceRoot: string;
  readonly handoffRoot: string;
  readonly handoffsDir: string;
  readonly registry: SpecialistRegistry;
  /** One line per skipped specialist file, naming the file and the fix (no `WARNING: ` prefix). */
  readonly warnings: readonly string[];
}

export type ProjectOutcome = { readonly ok: true; readonly project: Project } | { readonly ok: false; readonly error: JobError };

/** Resolves only the handoff root, without loading the registry. */
export function handoffRootOf(options: ProjectOptions): { ok: true; path: string } | { ok: false; error: JobError } {
  if (!options.workspaceRoot || !path.isAbsolute(options.workspaceRoot)) {
    return { ok: false, error: jobError(`project_root must be an absolute path (got "${options.workspaceRoot ?? ''}")`, 'project_root') };
  }
  const root = resolveHandoffRoot(options.workspaceRoot, options.handoffDirectory);
  return root.ok ? root : { ok: false, error: jobError(root.message, 'handoff.directory', { code: 'bad_setting', ...root.parts }) };
}

/** Built-ins, then `<root>/specialists/`, then discovered agents; an id is taken by the first that defines it. */
export async function loadRegistry(root: string, workspaceRoot: string): Promise<{ registry: SpecialistRegistry; warnings: string[] }> {
  const custom = await loadCustomSpecialists(root, workspaceRoot);
  // One persona marker per specialist, compared loosely, so a custom one cannot pass for another past the hop guard.
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

/** Reads the specialist folders; starts no git process and writes nothing. Never throws. */
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
    return { ok: false, error: errorOfException(err, 'reading the specialists') };
  }
}

/** `problem` names the folder, for the caller to put after its own name for it. */
export type WorkspaceFolder =
  | { readonly ok: true; readonly path: string; readonly repository: true; readonly gitProbe?: RepositoryProbe }
  | { readonly ok: true; readonly path: string; readonly repository: false }
  | { readonly ok: false; readonly problem: string; readonly fix?: string };

/** Git's top level for `dir`, else `dir`; refuses bare repositories and git folders (no working tree). Never throws. */
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

export async function repositoryRootOf(dir: string): Promise<string | undefined> {
  return findRepositoryRoot(dir);
}
