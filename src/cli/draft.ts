/** `specialist-handoff draft`: prints what a handoff would be drafted with now. Writes nothing. */
import type { SessionDraft, Provenance } from '../core/handoff/draftFields';
import { draftItemText } from '../core/handoff/drafted';
import { renderCommandRun } from '../core/handoff/draftSections';
import { describeLeftOut } from '../core/handoff/summary';
import { cliSessionLogStatePath } from '../engine/project/cliSession';
import { draftJob } from '../engine/draft/draftJob';
import { integer, userRequestTokens, type Values } from './args';
import { EXIT_BAD_INPUT, EXIT_OK, type CliIo } from './io';
import { escapeControls, exitCodeOf, fail, failWith } from './wording';
import { resolveWorkspace, sessionLogMode } from './workspace';

/** `[claude-code 2026-12-01T10:00:00Z]`: an item's source (the file is left to --json). */
function from(p: Provenance): string {
  return `[${p.reader}${p.time ? ` ${p.time}` : ''}]`;
}

export function formatDraft(d: SessionDraft): string {
  const block = (title: string, lines: string[]) => [`${title}:`, ...(lines.length ? lines : ['  (none)'])];
  const quoted = (text: string) =>
    text
      .trim()
      .split(/\r\n|\r|\n/)
      .map((l) => `    > ${l}`);
  const out = [
    'Draft from the session log and git (nothing was written; "handover --draft" writes a handoff with it):',
    '',
    ...block('Summary', d.summary.text ? d.summary.text.split('\n').map((l) => `  ${l}`) : []),
    '',
    ...block(
      'Next steps',
      d.next_steps.map((s, i) => `  ${i + 1}. ${draftItemText(s)} ${from(s.source)}`),
    ),
    '',
    ...block(
      'Done',
      d.completed.map((s) => `  - ${s.text} ${from(s.source)}`),
    ),
    '',
    ...block(
      'Blockers',
      d.blockers.map((s) => `  - ${s.text} ${from(s.source)}`),
    ),
    '',
    ...block(
      `User requests (${d.user_requests.length} carried${d.left_out.older_requests ? `, ${d.left_out.older_requests} older not carried` : ''})`,
      d.user_requests.flatMap((r, i) => [
        `  ${i + 1}${i === d.user_requests.length - 1 ? ' (latest)' : ''} ${from({ reader: r.source, file: r.file, time: r.time })}`,
        ...quoted(r.text),
      ]),
    ),
    '',
    ...block(
      `Commands run (${d.commands_run.length} listed${d.commands_run_omitted ? `, ${d.commands_run_omitted} more` : ''})`,
      d.commands_run.map((c) => `  ${renderCommandRun(c)}`),
    ),
  ];
  const leftOut = describeLeftOut(d.left_out);
  if (leftOut) out.push('', `Left out: ${leftOut}.`);
  return out.join('\n');
}

/** Exit 0 printed, 2 bad input, 1 an unreadable folder or internal failure. */
export async function runDraft(values: Values, io: CliIo): Promise<number> {
  const cwd = await resolveWorkspace(values, io);
  if (typeof cwd !== 'string') return fail(io, values, cwd.error, EXIT_BAD_INPUT, 'cwd');
  const recentTurns = integer(values['recent-turns'], 'recent-turns');
  const bound = userRequestTokens(values);
  for (const v of [recentTurns, bound]) {
    if (v && typeof v === 'object') return fail(io, values, v.error, EXIT_BAD_INPUT);
  }
  const mode = await sessionLogMode(values, io);
  if (typeof mode === 'object') return fail(io, values, mode.error, EXIT_BAD_INPUT, 'session-log');
  // The read offsets are read (the draft starts where the last handoff stopped), never saved.
  const result = await draftJob(
    {
      workspaceRoot: cwd,
      handoffDirectory: values.dir,
      sessionLog: { mode, statePath: cliSessionLogStatePath(cwd) },
      ...(typeof bound === 'number' ? { userRequestTokens: bound } : {}),
    },
    { tokenizer: values.tokenizer, ...(typeof recentTurns === 'number' ? { includeRecentTurns: recentTurns } : {}) },
  );
  if (result.status === 'error') return failWith(io, values, result, exitCodeOf(result));
  io.stdout(values.json ? JSON.stringify(result, null, 2) : formatDraft(result.draft));
  result.warnings.forEach((w) => io.stderr(escapeControls(w)));
  return EXIT_OK;
}
