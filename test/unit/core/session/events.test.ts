import assert from 'node:assert/strict';
import { MAX_KEPT_OTHER_COMMANDS, MAX_KEPT_TURNS, SessionAccumulator, cleanTurnText, shellWrites } from '../../../../src/core/session/events';

describe('session events', () => {
  it('finds files written by shell redirection, not inside quotes, not /dev/null or descriptors', () => {
    assert.deepEqual(shellWrites("echo 'Hello World' > test.txt"), ['test.txt']);
    assert.deepEqual(shellWrites('printf x >> "out file.txt"'), ['out file.txt']);
    assert.deepEqual(shellWrites('make 2>&1 | tee -a build.log'), ['build.log']);
    assert.deepEqual(shellWrites('cmd 2>&1 >out.txt'), ['out.txt']);
    for (const none of ['ls 2>&1 | head', 'cat a > /dev/null', 'git commit -m "a > b"', "grep -E 'x>y' f", 'echo $X > $OUT', 'npm test']) {
      assert.deepEqual(shellWrites(none), [], none);
    }
  });

  it('cleans turns: injected blocks removed, interrupts and empty turns dropped', () => {
    assert.equal(cleanTurnText('Hi <system-reminder>secret</system-reminder> there'), 'Hi  there');
    assert.equal(cleanTurnText('<environment_context><cwd>/x</cwd></environment_context>'), undefined);
    assert.equal(cleanTurnText('[Request interrupted by user for tool use]'), undefined);
    assert.equal(cleanTurnText('  \n '), undefined);
  });

  it('keeps bounded memory whatever the transcript size: newest turns, all test commands up to a cap, edits once per path', () => {
    const acc = new SessionAccumulator((c) => c.command === 'npm test');
    for (let i = 0; i < 10_000; i++) {
      acc.add({ kind: 'turn', role: 'user', text: `turn ${i}` });
      acc.add({ kind: 'command', command: i % 100 === 0 ? 'npm test' : `ls ${i}`, exit_code: 0, ran: true });
      acc.add({ kind: 'file_edit', path: `f${i % 10}.ts`, tool: 'Edit' });
    }
    const events = acc.events();
    const turns = events.filter((e) => e.kind === 'turn');
    assert.equal(turns.length, MAX_KEPT_TURNS);
    assert.equal(turns[turns.length - 1].kind === 'turn' && turns[turns.length - 1].text, 'turn 9999');
    const commands = events.filter((e) => e.kind === 'command');
    assert.equal(commands.filter((c) => c.kind === 'command' && c.command === 'npm test').length, 100);
    assert.equal(commands.length, 100 + MAX_KEPT_OTHER_COMMANDS);
    assert.equal(events.filter((e) => e.kind === 'file_edit').length, 10);
    assert.deepEqual(acc.counts, { turns: 10_000, commands: 10_000, edits: 10_000, plans: 0, compactions: 0 });
  });
});
