/** `specialist-handoff handover`: the flags become a handover request; prints the summary or --json. */
import path from 'node:path';
import { MAX_HOP_DEPTH } from '../core/handoff/compose';
import { parseTurn } from '../core/handoff/request';
import type { HandoverResult } from '../core/handoff/schema';
import { handoffSummary } from '../core/handoff/summary';
import { cliSessionLogStatePath, currentCliSessionId, startNewCliSession } from '../engine/project/cliSession';
import { handover } from '../engine/handover/handover';
import { collectEvidenceFor } from '../engine/handover/handoverEvidence';
import { releaseEncodings } from '../engine/tokenizers/tokenizer';
import { budgetOption, integer, userRequestTokens, type Values } from './args';
import { EXIT_BAD_INPUT, EXIT_OK, type CliIo } from './io';
import { cliHandoverWarning, escapeControls, exitCodeOf, fail, failWith } from './wording';
import { readSummary, resolveWorkspaceFolder, sessionLogMode } from './workspace';

/** The flags as a handover request; flags not given are left out, so the engine's defaults apply. */
function requestOf(values: Values, summary: string, numbers: { maxTokens?: number; recentTurns?: number; preset?: string }): Record<string, unknown> {
  const request: Record<string, unknown> = {
    specialist: values.specialist,
    topic: values.topic,
    summary,
    decisions: values.decision ?? [],
    failed_approaches: values.failed ?? [],
    next_steps: values.next ?? [],
    blockers: values.blocker ?? [],
    completed: values.done ?? [],
    // --draft: every field not given here is drafted from the session log and git.
    draft: values.draft === true,
    artifacts: values.artifact ?? [],
    recent_turns: (values.turn ?? []).map(parseTurn),
    return_condition: values['return-condition'],
    handover_reason: values.reason ?? '',
    reason_kind: values['reason-kind'],
    from: values.from,
    max_context_tokens: numbers.maxTokens,
    budget: numbers.preset,
    include_recent_turns: numbers.recentTurns,
    tokenizer: values.tokenizer,
    fit_to_budget: !values['no-fit'],
    session_id: values['session-id'],
    // "none" starts a new chain, as without --parent.
    parent: values.parent?.trim().toLowerCase() === 'none' ? undefined : values.parent,
    hop_guard_confirmed: values['confirm-hop'] === true,
  };
  for (const k of Object.keys(request)) {
    if (request[k] === undefined) {
      delete request[k];
    }
  }
  return request;
}

/** Exit 0 written (and a new CLI session starts for the workspace), 2 bad input, 1 not written. */
export async function runHandover(values: Values, io: CliIo): Promise<number> {
  const folder = await resolveWorkspaceFolder(values, io);
  if ('error' in folder) {
    return fail(io, values, folder.error, EXIT_BAD_INPUT, 'cwd');
  }
  const cwd = folder.path;
  const budget = budgetOption(values);
  if (typeof budget === 'object' && budget !== null) {
    return fail(io, values, budget.error, EXIT_BAD_INPUT, 'budget');
  }
  const maxTokens = typeof budget === 'number' ? budget : integer(values['max-tokens'], 'max-tokens');
  const recentTurns = integer(values['recent-turns'], 'recent-turns');
  const maxDepth = integer(values['max-depth'], 'max-depth');
  const requestTokens = userRequestTokens(values);
  for (const v of [maxTokens, recentTurns, maxDepth, requestTokens]) {
    if (v && typeof v === 'object') {
      return fail(io, values, v.error, EXIT_BAD_INPUT);
    }
  }
  if (typeof maxDepth === 'number' && (maxDepth < 1 || maxDepth > MAX_HOP_DEPTH)) {
    return fail(io, values, `ERROR: --max-depth must be between 1 and ${MAX_HOP_DEPTH} hops (got ${maxDepth})`, EXIT_BAD_INPUT);
  }
  const summary = await readSummary(values, io);
  if (typeof summary === 'object') {
    return fail(io, values, summary.error, EXIT_BAD_INPUT, 'summary');
  }
  const request = requestOf(values, summary, {
    maxTokens: maxTokens as number | undefined,
    recentTurns: recentTurns as number | undefined,
    preset: typeof budget === 'string' ? budget : undefined,
  });
  const mode = await sessionLogMode(values, io);
  if (typeof mode === 'object') {
    return fail(io, values, mode.error, EXIT_BAD_INPUT, 'session-log');
  }
  // git's answers from finding the workspace: the evidence starts from them.
  const where = { workspaceRoot: cwd, handoffDirectory: values.dir, ...(folder.repository ? { gitProbe: folder.gitProbe } : {}) };
  // Evidence collection runs while the engine reads the session id and checks the request.
  const evidence = collectEvidenceFor(where);
  const result: HandoverResult = await handover(request, {
    ...where,
    ...(values['session-id'] === undefined ? { sessionId: await currentCliSessionId(cwd) } : {}),
    ...(typeof maxDepth === 'number' ? { maxHandoverDepth: maxDepth } : {}),
    ...(typeof requestTokens === 'number' ? { userRequestTokens: requestTokens } : {}),
    sessionLog: { mode, statePath: cliSessionLogStatePath(cwd) },
    evidence,
    // The process ends after the handoff: the tokenizer's worker can go once counting is done.
    onCountingDone: releaseEncodings,
  });
  if (result.status === 'error') {
    return failWith(io, values, result, exitCodeOf(result));
  }
  await startNewCliSession(cwd);
  const warnings = result.warnings.map((w) => cliHandoverWarning(w, result.package, !values['no-fit']));
  if (values.json) {
    // The same words as on stderr: flags, not engine field names.
    io.stdout(JSON.stringify({ ...result, warnings }, null, 2));
  } else {
    io.stdout(formatSummary(result, cwd));
  }
  for (const w of warnings) {
    io.stderr(escapeControls(w));
  }
  return EXIT_OK;
}

/** The one-screen summary of a written handoff, paths relative to `cwd`. */
export function formatSummary(result: Extract<HandoverResult, { status: 'ok' }>, cwd: string): string {
  return handoffSummary(result, { layout: 'terminal', relativePath: (f) => path.relative(cwd, f).split(path.sep).join('/') || f });
}
