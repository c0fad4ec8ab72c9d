/**
 * `specialist-handoff export-agents [--target github|claude|all] [--force] [--json]` and
 * the command "Handoff: Export Specialists to Agent Folders…" (docs/DESIGN.md §3, "Specialists"): one job that
 * loads the registry of a workspace and writes it into the agent folders of VS Code /
 * GitHub Copilot (`.github/agents/`) and Claude Code (`.claude/agents/`). Never throws: a
 * bad request is `{status:"error", message:"ERROR: …", field}`.
 */
import path from 'node:path';
import { AGENT_TARGETS, type AgentTarget } from '../../core/specialists/agentFiles';
import { formatCount, plural } from '../../core/handoff/render';
import { handoverError, type HandoverError } from '../../core/handoff/schema';
import { exportSpecialists, type ExportSummary } from '../../store/specialists/agentFolders';
import { openProject } from '../project/project';
import { jobError } from '../project/jobError';

/** What `--target` accepts: one folder, or `all` (the default). */
export const EXPORT_TARGET_CHOICES = ['github', 'claude', 'all'] as const;

/**
 * A request to export: `target` (`github` = `.github/agents/<id>.agent.md`, `claude` =
 * `.claude/agents/<id>.md`, `all` — the default — or a list of targets) and `force`
 * (replace files whose text differs from ours; default false).
 */
export interface ExportAgentsRequest {
  readonly target?: string | readonly AgentTarget[];
  readonly force?: boolean;
}

/** Where to export: the absolute workspace folder and the `handoff.directory` setting (custom specialists live there). */
export interface ExportAgentsEnvironment {
  readonly workspaceRoot: string;
  readonly handoffDirectory?: string;
}

/**
 * A finished export: the {@link ExportSummary} lists (workspace-relative POSIX paths), the
 * targets written, how many specialists were exported, and warnings (`WARNING: …`) from
 * loading the registry (custom or discovered files that were skipped).
 */
export type ExportAgentsOk = ExportSummary & {
  readonly status: 'ok';
  readonly targets: AgentTarget[];
  readonly specialists: number;
  readonly warnings: string[];
};

/** Either outcome of {@link exportAgents}. */
export type ExportAgentsResult = ExportAgentsOk | HandoverError;

/** Reads `--target`: `github`, `claude`, `all` (any case, spaces ignored) or a list of targets. */
function targetsOf(target: ExportAgentsRequest['target']): AgentTarget[] | undefined {
  if (target === undefined) return [...AGENT_TARGETS];
  if (Array.isArray(target)) return target.every((t) => AGENT_TARGETS.includes(t)) && target.length > 0 ? [...new Set(target)] : undefined;
  const t = String(target).trim().toLowerCase();
  if (t === 'all' || t === '') return [...AGENT_TARGETS];
  return AGENT_TARGETS.includes(t as AgentTarget) ? [t as AgentTarget] : undefined;
}

/**
 * Exports the workspace's specialists (built-in and `.handoff/specialists`) to the agent
 * folders: see `exportSpecialists` for what is written, kept or replaced.
 *
 * @returns the summary, or an `ERROR:` naming the bad input (`target`, `project_root`,
 *   `handoff.directory`) and how to fix it. Never throws.
 */
export async function exportAgents(request: ExportAgentsRequest, env: ExportAgentsEnvironment): Promise<ExportAgentsResult> {
  try {
    if (!env.workspaceRoot || !path.isAbsolute(env.workspaceRoot)) {
      return handoverError(`project_root must be an absolute path (got "${env.workspaceRoot ?? ''}")`, 'project_root');
    }
    const targets = targetsOf(request.target);
    if (!targets) {
      return handoverError(
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
    // Warnings as the folders are now: a file a forced export just replaced no longer "says
    // otherwise". Only then is the registry read again.
    const reopened = request.force === true && summary.written.length ? await openProject(env) : opened;
    if (!reopened.ok) {
      return reopened.error;
    }
    const { warnings } = reopened.project;
    const specialists = registry.all().filter((s) => s.source === 'builtin' || s.source === 'custom').length;
    return { status: 'ok', targets, specialists, ...summary, warnings: warnings.map((w) => `WARNING: ${w}`) };
  } catch (err) {
    return jobError(err, 'exporting the specialists');
  }
}

/**
 * The exit code of `export-agents`: 2 for bad input (an `ERROR:` about the request), 1 when
 * a file could not be written, else 0 (files kept because they differ are not a failure:
 * the summary names them and `--force`).
 */
export function exportAgentsExitCode(result: ExportAgentsResult): 0 | 1 | 2 {
  if (result.status === 'error') return result.field === 'internal' ? 1 : 2;
  return result.failed.length > 0 ? 1 : 0;
}

/**
 * The summary as text for a terminal or a notification: one line of counts, then one line
 * per skipped file with its reason, then one line per cause of failure (with the number of
 * files it failed when more than one). E.g. "Exported 12 specialists to
 * .github/agents and .claude/agents: 20 written, 3 unchanged, 1 skipped."
 */
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
