// Exports the specialist registry into other tools' agent folders (docs/DESIGN.md §3): `.github/agents/<id>.agent.md`
// and `.claude/agents/<id>.md`. A file whose text differs from ours is kept and reported unless `force`.
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { AGENT_TARGETS, agentFileName, folderForTarget, type AgentTarget } from '../../core/specialists/agentFiles';
import { renderAgentFile } from '../../core/specialists/agentFileRender';
import type { Specialist, SpecialistRegistry } from '../../core/specialists/registry';
import { sanitizeFileName, sanitizeText } from '../../core/safety/gate';
import { createExclusive, ensureDir, openRegularFile, replaceFileAtomic } from '../safeWrite';
import { resolveInside } from '../pathGuard';

export interface ExportOptions {
  /** Default: both. */
  readonly targets?: readonly AgentTarget[];
  /** Replace files whose text differs from ours (default: keep them, reported as skipped). */
  readonly force?: boolean;
}

/** `file` is a workspace-relative POSIX path. */
export interface SkippedFile {
  readonly file: string;
  readonly reason: string;
}

/** Workspace-relative POSIX paths; `skipped` and `failed` carry the reason and the fix. */
export interface ExportSummary {
  readonly written: string[];
  readonly unchanged: string[];
  readonly skipped: SkippedFile[];
  readonly failed: SkippedFile[];
}

/** Ours are a few KiB; a bigger one is not ours and is skipped. */
export const MAX_COMPARED_AGENT_FILE_BYTES = 1024 * 1024;

/** Built-in and `.handoff/specialists` ones, never those discovered in the agent folders themselves. */
export function exportableSpecialists(registry: SpecialistRegistry): Specialist[] {
  return registry.all().filter((s) => s.source === 'builtin' || s.source === 'custom');
}

type Existing = { kind: 'absent' } | { kind: 'file'; text: string } | { kind: 'other'; what: string };

/** `other`: a link, folder, FIFO, or too large. */
async function existing(file: string): Promise<Existing> {
  let st;
  try {
    st = await lstat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    throw err;
  }
  if (st.isSymbolicLink()) return { kind: 'other', what: 'a symbolic link' };
  if (!st.isFile()) return { kind: 'other', what: st.isDirectory() ? 'a folder' : 'not a regular file' };
  if (st.size > MAX_COMPARED_AGENT_FILE_BYTES) return { kind: 'other', what: `larger than ${MAX_COMPARED_AGENT_FILE_BYTES / 1024 / 1024} MiB, so not ours` };
  const fh = await openRegularFile(file);
  if (!fh) return { kind: 'other', what: 'not a regular file' };
  try {
    return { kind: 'file', text: await fh.readFile('utf8') };
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** Creates the folders when needed. Never throws: a failure is an entry of `failed`. */
export async function exportSpecialists(workspaceRoot: string, registry: SpecialistRegistry, options: ExportOptions = {}): Promise<ExportSummary> {
  const summary: ExportSummary = { written: [], unchanged: [], skipped: [], failed: [] };
  const targets = AGENT_TARGETS.filter((t) => (options.targets ?? AGENT_TARGETS).includes(t));
  const specialists = exportableSpecialists(registry);
  const rel = (file: string) => path.relative(workspaceRoot, file).split(path.sep).join('/');
  for (const target of targets) {
    const folder = folderForTarget(target);
    const dir = path.join(workspaceRoot, ...folder.dir.split('/'));
    try {
      // The fix names this folder, not the handoff folder's setting.
      await ensureDir(workspaceRoot, dir, `make ${folder.dir} a real folder inside the workspace (remove the link or the file in the way), then export again`);
    } catch (err) {
      const message = (err as Error).message;
      for (const s of specialists) summary.failed.push({ file: `${folder.dir}/${agentFileName(target, s.id)}`, reason: message });
      continue;
    }
    for (const s of specialists) {
      const name = await sanitizeFileName(agentFileName(target, s.id));
      const checked = resolveInside(dir, name);
      if (!checked.ok) {
        summary.failed.push({ file: `${folder.dir}/${name}`, reason: checked.message });
        continue;
      }
      const file = checked.path;
      const content = (await sanitizeText(renderAgentFile(target, s, registry))).text;
      try {
        let now = await existing(file);
        if (now.kind === 'absent') {
          if (await createExclusive(file, content)) {
            summary.written.push(rel(file));
            continue;
          }
          now = await existing(file); // created meanwhile by someone else: judge what is there
        }
        if (now.kind === 'other') {
          summary.skipped.push({ file: rel(file), reason: `${rel(file)} is ${now.what} — kept; move it away to export ${s.id} there` });
        } else if (now.kind === 'file' && now.text === content) {
          summary.unchanged.push(rel(file));
        } else if (now.kind === 'file' && options.force) {
          await replaceFileAtomic(file, content);
          summary.written.push(rel(file));
        } else {
          summary.skipped.push({
            file: rel(file),
            reason: `${rel(file)} differs from what Specialist Handoff writes for ${s.id} (edited by hand?) — kept; export again with --force to replace it`,
          });
        }
      } catch (err) {
        const message = (err as Error).message;
        summary.failed.push({ file: rel(file), reason: message.startsWith('ERROR:') ? message : `ERROR: could not write ${rel(file)}: ${message}` });
      }
    }
  }
  return summary;
}
