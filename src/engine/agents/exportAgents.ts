/** `export-agents` and its command: writes the workspace's specialists into `.github/agents/` and `.claude/agents/`. */
import path from 'node:path';
import { runJob } from '../project/jobError';
import { AGENT_TARGETS, type AgentTarget } from '../../core/specialists/agentFiles';
import { formatCount } from '../../core/handoff/limits';
import { plural } from '../../core/handoff/text';
import { jobError, type JobError } from '../../core/handoff/schema';
import { exportSpecialists, type ExportSummary } from '../../store/specialists/agentFolders';
import { openProject } from '../project/project';

export const EXPORT_TARGET_CHOICES = ['github', 'claude', 'all'] as const;

/** `force` replaces files whose text differs from ours. */
export interface ExportAgentsRequest {
  readonly target?: string | readonly AgentTarget[];
  readonly force?: boolean;
}

export interface ExportAgentsEnvironment {
  readonly workspaceRoot: string;
  readonly handoffDirectory?: string;
}

/** Paths are workspace-relative POSIX; `warnings` come from loading the registry. */
export type ExportAgentsOk = ExportSummary & {
  readonly status: 'ok';
  readonly targets: AgentTarget[];
  readonly specialists: number;
  readonly warnings: string[];
};

export type ExportAgentsResult = ExportAgentsOk | JobError;

function targetsOf(target: ExportAgentsRequest['target']): AgentTarget[] | undefined {
  if (target === undefined) return [...AGENT_TARGETS];
  if (Array.isArray(target)) return target.every((t) => AGENT_TARGETS.includes(t)) && target.length > 0 ? [...new Set(target)] : undefined;
  const t = String(target).trim().toLowerCase();
  if (t === 'all' || t === '') return [...AGENT_TARGETS];
  return AGENT_TARGETS.includes(t as AgentTarget) ? [t as AgentTarget] : undefined;
}

/** See `exportSpecialists` for what is written, kept or replaced. Never throws. */
export async function exportAgents(request: ExportAgentsRequest, env: ExportAgentsEnvironment): Promise<ExportAgentsResult> {
  return runJob('exporting the specialists', async () => {
    if (!env.workspaceRoot || !path.isAbsolute(env.workspaceRoot)) {
      return jobError(`project_root must be an absolute path (got "${env.workspaceRoot ?? ''}")`, 'project_root');
    }
    const targets = targetsOf(request.target);
    if (!targets) {
      return jobError(
        `unknown export target "${String(request.target).slice(0, 40)}" — use --target github (.github/agents), claude (.claude/agents) or all`,
        'target',
      );
    }
    const opened = await openProject(env);
    if (!opened.ok) {
      return opened.error;
    }
    const loaded = opened.project;
    const registry = loaded.registry;
    const summary = await exportSpecialists(env.workspaceRoot, registry, { targets, force: request.force === true });
    // Warnings as the folders are after a forced export, which may have replaced the files they named.
    const reopened = request.force === true && summary.written.length ? await openProject(env) : opened;
    if (!reopened.ok) {
      return reopened.error;
    }
    const { warnings } = reopened.project;
    const specialists = registry.all().filter((s) => s.source === 'builtin' || s.source === 'custom').length;
    return { status: 'ok', targets, specialists, ...summary, warnings: warnings.map((w) => `WARNING: ${w}`) };
  });
}

/** 2 for bad input, 1 for a disk or internal error or a file not written, else 0 (files kept because they differ are no failure). */
export function exportAgentsExitCode(result: ExportAgentsResult): 0 | 1 | 2 {
  if (result.status === 'error') return result.field === 'internal' || result.field === 'io' ? 1 : 2;
  return result.failed.length > 0 ? 1 : 0;
}

/** One line of counts, then one per skipped file and one per cause of failure. */
export function formatExportSummary(result: ExportAgentsOk): string {
  const folders = result.targets.map((t) => (t === 'github' ? '.github/agents' : '.claude/agents')).join(' and ');
  const counts = [`${formatCount(result.written.length)} written`, `${formatCount(result.unchanged.length)} unchanged`];
  if (result.skipped.length) counts.push(`${formatCount(result.skipped.length)} skipped`);
  if (result.failed.length) counts.push(`${formatCount(result.failed.length)} failed`);
  const lines = [`Exported ${plural(result.specialists, 'specialist')} to ${folders}: ${counts.join(', ')}.`];
  for (const s of result.skipped) lines.push(`skipped: ${s.reason}`);
  // One cause, one line: a folder that cannot be written fails every file in it with the same reason.
  const failures = new Map<string, number>();
  for (const f of result.failed) failures.set(f.reason, (failures.get(f.reason) ?? 0) + 1);
  for (const [reason, n] of failures) lines.push(n > 1 ? `${reason} (${plural(n, 'file')})` : reason);
  return lines.join('\n');
}
