/** shownCommand / invisibleInCommand (src/core/receive/shownCommand.ts): a recorded command shown exactly as the shell gets it. */
import assert from 'node:assert/strict';
import { invisibleInCommand, shownCommand } from '../../../../src/core/receive/shownCommand';

describe('shownCommand (what verify lists before it re-runs)', () => {
  it('escapes line breaks, tabs, bidi controls, tag characters and other whitespace; keeps spaces and printable text as they are', () => {
    assert.equal(shownCommand('npm test\nrm -rf build'), 'npm test\\nrm -rf build');
    assert.equal(shownCommand('a\r\tb'), 'a\\r\\tb');
    assert.equal(shownCommand('npm test\u202e\u2066 && x\u2069'), 'npm test\\u{202e}\\u{2066} && x\\u{2069}');
    assert.equal(shownCommand('npm test \u{e0068}\u{e0069}&& x'), 'npm test \\u{e0068}\\u{e0069}&& x');
    assert.equal(shownCommand('a\u2028b\u00a0c\u200bd'), 'a\\u{2028}b\\u{a0}c\\u{200b}d');
    assert.equal(shownCommand(`pytest -k "café 测试"${' '.repeat(50)}-q`), `pytest -k "café 测试"${' '.repeat(50)}-q`);
    assert.equal(shownCommand('echo $(id); `whoami`'), 'echo $(id); `whoami`');
  });

  it('names the invisible characters of a command (distinct, at most 5); none for line breaks, tabs or plain text', () => {
    assert.deepEqual(invisibleInCommand('npm test\u202e\u202e\u2066'), ['\\u{202e}', '\\u{2066}']);
    assert.deepEqual(invisibleInCommand('npm test\nnpm run lint\t-q'), []);
    assert.deepEqual(invisibleInCommand('\u0001\u0002\u0003\u0004\u0005\u0006'), ['\\u{1}', '\\u{2}', '\\u{3}', '\\u{4}', '\\u{5}']);
  });
});
