/**
 * A short Claude Code session transcript (`<projects dir>/<workspace folder name>/<session>.jsonl`)
 * written the way Claude Code writes one — one JSON object per line, `user` / `assistant`
 * messages, a Bash `tool_use` answered by a `tool_result` block of a user line with its
 * `toolUseResult` (`is_error: false`: the command exited 0) — in which the agent ran
 * `npm test` in the workspace and it passed. For the "Handoff: Verify" host tests (issue 18):
 * the handoff drafted from it records that run, and Verify re-runs it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The command the transcript's agent ran, passing. */
export const RECORDED_TEST = 'npm test';

/** Claude Code's project folder name for a workspace: its path with `/`, `\`, `:` and `.` as `-` (as Claude Code names it). */
export function claudeProjectDir(workspace: string): string {
  return path.resolve(workspace).replace(/[\\/:.]/g, '-');
}

/**
 * Writes the transcript under `projectsDir` (Claude Code's `~/.claude/projects`) for
 * `workspace`: the user's request, `npm test` run through Bash with its passing output, and
 * the agent's last words, in the last few minutes.
 * @returns the transcript's path
 */
export function writeClaudeTestRun(projectsDir: string, workspace: string, sessionId = '3b9e1f52-7c40-4d2a-8e6b-5a1c9d0e2f47'): string {
  const t0 = Date.now() - 5 * 60_000;
  const at = (s: number) => new Date(t0 + s * 1000).toISOString();
  const base = { parentUuid: null, isSidechain: false, userType: 'external', cwd: workspace, sessionId, version: '2.1.152', gitBranch: 'main' };
  let n = 0;
  const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  const output = '▶ format\n  ✔ formats a todo (0.4ms)\n✔ format (1.1ms)\nℹ tests 1\nℹ pass 1\nℹ fail 0';
  const lines = [
    { ...base, type: 'user', message: { role: 'user', content: 'Make formatTodo mark done items and run the tests.' }, uuid: uuid(), timestamp: at(0) },
    {
      ...base,
      type: 'assistant',
      message: {
        model: 'claude-opus-4-7',
        id: 'msg_01',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_test1', name: 'Bash', input: { command: RECORDED_TEST, description: 'Run the tests' } }],
        stop_reason: 'tool_use',
      },
      uuid: uuid(),
      timestamp: at(30),
    },
    {
      ...base,
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_test1', content: output, is_error: false }] },
      toolUseResult: { stdout: output, stderr: '', interrupted: false },
      uuid: uuid(),
      timestamp: at(34),
    },
    {
      ...base,
      type: 'assistant',
      message: {
        model: 'claude-opus-4-7',
        id: 'msg_02',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: 'formatTodo marks done items; all tests pass.' }],
        stop_reason: 'end_turn',
      },
      uuid: uuid(),
      timestamp: at(40),
    },
  ];
  const dir = path.join(projectsDir, claudeProjectDir(workspace));
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${sessionId}.jsonl`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}
