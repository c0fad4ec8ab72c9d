/**
 * A Claude Code session transcript (`~/.claude/projects/<folder>/<session>.jsonl`) written the
 * way Claude Code writes one: one JSON object per line, `type` user / assistant, the user's
 * typed messages as string content, tool calls as `tool_use` blocks (TodoWrite with its
 * `todos`, Bash with its `command`), their results as `tool_result` blocks of a user line
 * (a failing Bash call: `is_error: true` and "Error: Exit code N"), a slash command as an
 * `isMeta` line with `<command-name>`, and a Stop hook's feedback as a user line Claude Code
 * adds itself. For the drafting tests (issue 15).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** The user's own typed requests in {@link writeClaudeSession}'s transcript, oldest first. */
export const SESSION_REQUESTS = [
  'Add a cart total to the checkout page and make the tests pass.',
  'No — show the total in cents, and keep the old total format for the API.',
] as const;

/** The plan the transcript's last TodoWrite call leaves, in its order. */
export const SESSION_PLAN = [
  { content: 'Read the checkout page', status: 'completed' },
  { content: 'Run the tests', status: 'pending' },
  { content: 'Add the cart total', status: 'in_progress' },
  { content: 'Keep the old API format', status: 'pending' },
  { content: 'Show cents', status: 'completed' },
] as const;

/**
 * Writes the transcript into `dir` as `<session id>.jsonl` and returns its path. The session
 * works in `cwd`: two typed requests, a slash command, a Stop hook's feedback, two TodoWrite
 * calls (the latest is {@link SESSION_PLAN}), `npm run build` failing with exit code 2, then
 * `npm test` passing, and the agent's last message.
 */
export function writeClaudeSession(dir: string, cwd: string, sessionId = '7d2a4c1e-5b6f-4e8a-9c3d-1f2e3a4b5c6d'): string {
  const base = { parentUuid: null, isSidechain: false, userType: 'external', cwd, sessionId, version: '2.0.14', gitBranch: 'main' };
  let n = 0;
  const at = () => `2026-12-01T10:${String(n++).padStart(2, '0')}:00.000Z`;
  const user = (content: unknown, extra: Record<string, unknown> = {}) => ({
    ...base,
    type: 'user',
    message: { role: 'user', content },
    uuid: `u${n}`,
    timestamp: at(),
    ...extra,
  });
  const assistant = (content: unknown[]) => ({
    ...base,
    type: 'assistant',
    message: { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: null },
    uuid: `a${n}`,
    timestamp: at(),
  });
  const todo = (id: string, todos: ReadonlyArray<{ content: string; status: string }>) => [
    assistant([{ type: 'tool_use', id, name: 'TodoWrite', input: { todos: todos.map((t) => ({ ...t, activeForm: t.content })) } }]),
    user([
      {
        tool_use_id: id,
        type: 'tool_result',
        content:
          'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable',
      },
    ]),
  ];
  const bash = (id: string, command: string, result: { error: boolean; output: string }) => [
    assistant([{ type: 'tool_use', id, name: 'Bash', input: { command, description: command } }]),
    user([{ type: 'tool_result', tool_use_id: id, content: result.error ? `Error: ${result.output}` : result.output, is_error: result.error }], {
      toolUseResult: { stdout: result.output, stderr: '', interrupted: false },
    }),
  ];
  const lines = [
    user(SESSION_REQUESTS[0]),
    ...todo('toolu_todo1', [
      { content: 'Read the checkout page', status: 'in_progress' },
      { content: 'Add the cart total', status: 'pending' },
      { content: 'Run the tests', status: 'pending' },
    ]),
    assistant([{ type: 'text', text: 'The page renders the line items; I will add the total next.' }]),
    ...bash('toolu_build1', 'npm run build', {
      error: true,
      output: 'Exit code 2\nsrc/checkout.ts(12,7): error TS2322: Type string is not assignable to type number.',
    }),
    user('<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>', { isMeta: true }),
    user(SESSION_REQUESTS[1]),
    ...todo('toolu_todo2', SESSION_PLAN),
    ...bash('toolu_test1', 'npm test', { error: false, output: 'Tests:       12 passed, 12 total' }),
    user('Stop hook feedback:\n[npm run lint]: 2 problems (0 errors, 2 warnings)'),
    assistant([{ type: 'text', text: 'The total shows cents now; the old API format is next.' }]),
  ];
  const file = path.join(dir, `${sessionId}.jsonl`);
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return file;
}
