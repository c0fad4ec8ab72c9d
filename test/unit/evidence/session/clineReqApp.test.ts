/**
 * Cline appends `REQ_APP` (COMMAND_REQ_APP_STRING, cline `src/shared/combineCommandSequences.ts`)
 * to the text of a command that asks for the user's approval: a marker, never part of the command
 * — read as text, `2>&1REQ_APP` became a command no one ran and an edit of a file `1REQ_APP`.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { SessionCommand } from '../../../../src/core/session/events';
import { readClineTask } from '../../../../src/evidence/session/readers/cline';
import { cleanupTempDirs, tempDir, write } from '../../../helpers/repo';

describe('Cline: a command asking for approval', () => {
  after(cleanupTempDirs);

  it('is read without the REQ_APP marker, and redirects nothing into a file of that name', async () => {
    const dir = tempDir();
    const t0 = 1770584000000;
    write(
      dir,
      'ui_messages.json',
      JSON.stringify([
        { ts: t0, type: 'say', say: 'text', text: 'kill the app and rebuild' },
        { ts: t0 + 1, type: 'ask', ask: 'command', text: 'taskkill /IM jira-viewer.exe /F 2>&1REQ_APP' },
        { ts: t0 + 2, type: 'ask', ask: 'command_output', text: ' SUCCESS: The process "jira-viewer.exe" with PID 98360 has been terminated.' },
        { ts: t0 + 3, type: 'say', say: 'command', text: 'cargo build 2>&1' },
        { ts: t0 + 4, type: 'ask', ask: 'command_output', text: 'Finished `dev` profile' },
      ]),
    );
    const r = await readClineTask(path.join(dir));
    assert.deepEqual(
      r.events.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.ran]),
      [
        ['taskkill /IM jira-viewer.exe /F 2>&1', true],
        ['cargo build 2>&1', true],
      ],
    );
    assert.deepEqual(
      r.events.filter((e) => e.kind === 'file_edit'),
      [],
    );
  });
});
