/** The insights of a workspace folder for the insights panel; no figure is made here. */
import * as vscode from 'vscode';
import type { JobError } from '../../core/handoff/schema';
import type { InsightsSpecialist, InsightsView } from '../../core/panel/insightsProtocol';
import { DEFAULT_PENDING_WARN_AFTER } from '../../core/timeline/waiting';
import { readInsights } from '../../engine/timeline/insights';
import { openProject } from '../../engine/project/project';
import { Config } from '../constants';
import { projectOptions } from '../workspace/environment';
import { readSettings } from '../workspace/settings';

export type FolderInsights =
  { ok: true; insights: InsightsView; specialists: InsightsSpecialist[]; pendingWarnAfter: string; warnings: string[] } | { ok: false; error: JobError };

/** `since` undefined: all time. A bad `handoff.pendingWarnAfter` is a warning, and its default is used. */
export async function readFolderInsights(folder: vscode.WorkspaceFolder, options: { now: Date; since?: Date }): Promise<FolderInsights> {
  const settings = readSettings(folder);
  const opened = await openProject(projectOptions(folder, settings));
  if (!opened.ok) return opened;
  const { project } = opened;
  // As the user wrote it, for the page's wording; the ms (and a bad value's problem) from readSettings.
  const raw = vscode.workspace.getConfiguration(Config.section, folder).get<unknown>(Config.pendingWarnAfter);
  const warnings = [...project.warnings, ...(settings.pendingWarnAfterProblem ? [settings.pendingWarnAfterProblem] : [])];
  const insights = await readInsights(project, {
    now: options.now,
    ...(options.since ? { since: options.since } : {}),
    pendingWarnAfterMs: settings.pendingWarnAfterMs,
    maxDepth: settings.maxHandoverDepth,
  });
  const specialists = project.registry.all().map((s) => ({ id: s.id, label: s.label, icon: s.icon }));
  return {
    ok: true,
    insights,
    specialists,
    pendingWarnAfter: typeof raw === 'string' && !settings.pendingWarnAfterProblem ? raw.trim().slice(0, 100) : DEFAULT_PENDING_WARN_AFTER,
    warnings,
  };
}
