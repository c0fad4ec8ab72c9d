import assert from 'node:assert/strict';
import { parseShell, shellWrites, simpleCommands } from '../../../../src/core/session/shellWords';
import { SessionAccumulator } from '../../../../src/core/session/events';

describe('shell words (mvdan-sh): files a command line writes', () => {
  it('never reads a heredoc body as redirections (issue 16: files "5:", "{", "m.to")', () => {
    const python = "python - <<'PY'\nimport json, sys\nn = len(sys.argv)\nif n>5:\n    print(n)\nelse:\n    print(0 >= n)\nPY";
    assert.deepEqual(shellWrites(python), []);
    const patch = [
      "apply_patch <<'EOF'",
      '*** Begin Patch',
      '*** Update File: src/map.ts',
      '@@',
      '-const to = items.map((m) => m.to);',
      '+const to = items.map((m) => { return m.to; });',
      '*** End Patch',
      'EOF',
    ].join('\n');
    assert.deepEqual(shellWrites(patch), []);
    // An unquoted heredoc delimiter: the body is still data (its text is never a command).
    assert.deepEqual(shellWrites('cat <<EOF\nx > y\nif a>b: {\nEOF'), []);
  });

  it('reads the real redirection of a heredoc command, not its body', () => {
    assert.deepEqual(shellWrites("cat > src/a.ts <<'EOF'\nexport const f = (m) => m.to > 1;\nEOF"), ['src/a.ts']);
    assert.deepEqual(shellWrites('cat <<-EOF >> notes.md\n\ta > b\n\tEOF\necho done > done.txt'), ['notes.md', 'done.txt']);
  });

  it('reads every write operator with its literal target, quotes removed', () => {
    assert.deepEqual(shellWrites('a > o1 >> o2 >| o3 &> o4 &>> o5 2> err.log >& o6'), ['o1', 'o2', 'o3', 'o4', 'o5', 'err.log', 'o6']);
    assert.deepEqual(shellWrites(`echo x > "my file.txt" > 'q.txt' > my\\ f.txt`), ['my file.txt', 'q.txt', 'my f.txt']);
    assert.deepEqual(shellWrites('make 2>&1 | tee -a build.log second.log >/dev/null'), ['build.log', 'second.log']);
    assert.deepEqual(shellWrites('(cd app && npm test > ../out.txt); x=$(echo a > inner.txt)'), ['../out.txt', 'inner.txt']);
  });

  it('skips what is not a literal file: descriptors, /dev, variables, globs, quoted ">" and input redirections', () => {
    for (const none of [
      'ls 2>&1 >&2 | head',
      'cat a > /dev/null',
      'git commit -m "a > b"',
      "grep -E 'x>y' f",
      'echo $X > $OUT',
      'echo > "$HOME/x"',
      'echo > *.txt',
      'sort < in.txt',
      'cat <<< "a > b"',
      'npm test',
    ]) {
      assert.deepEqual(shellWrites(none), [], none);
    }
  });

  it('reads nothing from a line that is not valid shell, rather than guessing', () => {
    assert.equal(parseShell("echo 'unterminated > x"), undefined);
    assert.deepEqual(shellWrites("echo 'unterminated > x"), []);
  });

  it('keeps heredoc commands out of the edited files of a session', () => {
    const acc = new SessionAccumulator(() => false);
    acc.add({ kind: 'command', command: "python - <<'PY'\nif n>5: pass\nPY", exit_code: 0, ran: true });
    assert.deepEqual(
      acc.events().filter((e) => e.kind === 'file_edit'),
      [],
    );
  });
});

describe('shell words (mvdan-sh): the simple commands of a line', () => {
  it('splits where the shell does, never inside quotes, a heredoc body or a comment; redirections are not part of a command', () => {
    assert.deepEqual(simpleCommands('rg "a|b" src | wc -l && echo "x; y" > out.txt'), ['rg "a|b" src', 'wc -l', 'echo "x; y"']);
    assert.deepEqual(simpleCommands("python - <<'PY'\nprint('a | b; c && d')\nPY"), ['python -']);
    assert.deepEqual(simpleCommands('ls # a | b'), ['ls']);
    assert.deepEqual(simpleCommands('git commit -m "$(cat <<\'EOF\'\nfix: a | b\nEOF\n)"'), ['git commit -m "$(cat <<\'EOF\'\nfix: a | b\nEOF\n)"', 'cat']);
    assert.deepEqual(simpleCommands('(cd "a b" && make) || true'), ['cd "a b"', 'make', 'true']);
  });

  it('gives nothing for a line that is not shell, so the caller splits it another way', () => {
    assert.equal(simpleCommands('echo "unterminated | quote'), undefined);
  });
});
