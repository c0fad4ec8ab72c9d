/**
 * The CLI as a terminal user meets it (issue 16, "CLI and hook as a terminal user meets
 * them"): the real `specialist-handoff` process, spawned from the sources on real temporary
 * git repositories. Errors name the CLI's flags (never a VS Code setting), each
 * subcommand's `--help` is its own usage and lists every option it takes, a one-value flag
 * given twice or a flag of another subcommand is an error, one cause prints one line, counts
 * agree with their nouns, quoted text is cut at a word, and the hook skips events it does
 * not document and refuses a FIFO or device as transcript without blocking on it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { COMMAND_OPTIONS, OPTIONS } from '../../src/cli/args';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { CLI_FROM_SOURCE, repoWithWork } from '../helpers/cli';
import { cleanupTempDirs, tempDir, write } from '../helpers/repo';

/** Runs the real CLI in `cwd`, with `input` on standard input. */
function run(args: string[], cwd: string, input = '') {
  const r = spawnSync(process.execPath, [...CLI_FROM_SOURCE, ...args], { cwd, input, encoding: 'utf8', env: process.env, timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr, lines: r.stderr.trimEnd().split('\n').filter(Boolean) };
}

function handoffsIn(dir: string): string[] {
  const d = path.join(dir, '.handoff', 'handoffs');
  return existsSync(d) ? readdirSync(d) : [];
}

/** Every string literal and template text of the TypeScript files under `dir` (comments left out). */
function sourceStrings(dir: string): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...sourceStrings(full));
    } else if (entry.name.endsWith('.ts')) {
      const code = readFileSync(full, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const m of code.matchAll(/'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g)) out.push({ file: full, text: m[0] });
    }
  }
  return out;
}

const REPO_ROOT = path.resolve(__dirname, '..', '..');

describe('the CLI as a terminal user meets it', function () {
  // Every case spawns the real CLI (tsx compiles the sources each time): seconds each on a busy machine.
  this.timeout(180_000);
  after(cleanupTempDirs);

  it('errors name --dir, not the VS Code setting: a .handoff link leading out of the workspace, a file in the way', () => {
    const dir = repoWithWork();
    const outside = tempDir('handoff-outside-');
    symlinkSync(outside, path.join(dir, '.handoff'));
    const r = run(['handover', '-s', 'hacker', '-t', 'x', '--session-log', 'none'], dir);
    assert.equal(r.code, 1, r.err);
    assert.equal(r.lines.length, 1, r.err);
    assert.match(
      r.lines[0],
      /^ERROR: .*resolves to .*outside the workspace \(a symbolic link leads out\) — remove the link or point --dir at a real folder inside the workspace$/,
    );
    assert.doesNotMatch(r.err, /handoff\.directory/);
    assert.deepEqual(readdirSync(outside), [], 'nothing written through the link');

    const file = repoWithWork();
    write(file, 'notes', 'a file where --dir wants a folder\n');
    const inTheWay = run(['handover', '-s', 'hacker', '-t', 'x', '--session-log', 'none', '--dir', 'notes/handoffs'], file);
    assert.equal(inTheWay.code, 1, inTheWay.err);
    assert.match(inTheWay.err, /a file stands where a folder is needed .* — move it away or point --dir elsewhere/);
    assert.doesNotMatch(inTheWay.err, /handoff\.directory/);
  });

  it("<subcommand> --help prints that subcommand's usage only, naming every option it takes (--dir and --cwd included)", () => {
    const dir = repoWithWork();
    for (const [command, options] of Object.entries(COMMAND_OPTIONS)) {
      const r = run([command, '--help'], dir);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, new RegExp(`^Usage:\\n  specialist-handoff ${command} `), command);
      for (const other of Object.keys(COMMAND_OPTIONS).filter((c) => c !== command)) {
        assert.doesNotMatch(r.out, new RegExp(`specialist-handoff ${other} `), `${command} --help shows no usage of ${other}`);
      }
      for (const option of options) {
        assert.ok(r.out.includes(`--${option}`), `${command} --help names --${option}`);
      }
      assert.ok(r.out.includes('--dir FOLDER'), `${command} --help shows --dir`);
    }
    const viaHelp = run(['help', 'prompt'], dir);
    assert.equal(viaHelp.out, run(['prompt', '--help'], dir).out);
    const all = run(['--help'], dir);
    assert.ok(
      Object.keys(COMMAND_OPTIONS).every((c) => all.out.includes(`specialist-handoff ${c} `)),
      'the full usage lists every subcommand',
    );
    // Every option of the table belongs to some subcommand (or is --help / --version).
    const used = new Set(Object.values(COMMAND_OPTIONS).flat());
    assert.deepEqual(
      Object.keys(OPTIONS).filter((o) => !used.has(o as keyof typeof OPTIONS)),
      ['help', 'version'],
    );
  });

  it('a one-value flag given twice is an error naming it and both values, not a silent last-wins', () => {
    const dir = repoWithWork();
    const r = run(['handover', '-s', 'hacker', '--specialist', 'quality_reviewer', '-t', 'x', '--session-log', 'none'], dir);
    assert.equal(r.code, 2);
    assert.deepEqual(r.lines, ['ERROR: --specialist given twice ("hacker", then "quality_reviewer") — it takes one value: pass it once']);
    assert.deepEqual(handoffsIn(dir), []);
    const hook = run(['hook', '--topic', 'a', '--topic', 'b'], dir, '{}');
    assert.equal(hook.code, 1, 'hook never exits 2');
    assert.match(hook.err, /^ERROR: --topic given twice/);
    // Repeatable flags stay repeatable.
    const ok = run(['handover', '-s', 'hacker', '-t', 'x', '--next', 'one', '--next', 'two', '--session-log', 'none', '--json'], dir);
    assert.equal(ok.code, 0, ok.err);
    assert.deepEqual(HandoverOkSchema.parse(JSON.parse(ok.out)).package.next_steps, ['one', 'two']);
  });

  it('a flag another subcommand takes is an error naming this subcommand', () => {
    const dir = repoWithWork();
    const r = run(['specialists', '--summary', 'x'], dir);
    assert.equal(r.code, 2);
    assert.deepEqual(r.lines, ['ERROR: --summary is not an option of "specialists" — run "specialist-handoff specialists --help" for its options']);
    const two = run(['prompt', '--force', '--target', 'claude'], dir);
    assert.equal(two.code, 2);
    assert.match(two.err, /^ERROR: --force, --target are not options of "prompt"/);
    const hook = run(['hook', '--json'], dir, '{}');
    assert.equal(hook.code, 1, 'hook never exits 2');
    assert.match(hook.err, /^ERROR: --json is not an option of "hook"/);
    assert.deepEqual(handoffsIn(dir), []);
  });

  it('one cause, one message: export-agents into a .github that is a file says so once, with how many files it failed', () => {
    const dir = repoWithWork();
    write(dir, '.github', 'not a folder\n');
    const r = run(['export-agents', '--target', 'github'], dir);
    assert.equal(r.code, 1);
    const errors = r.out.split('\n').filter((l) => l.startsWith('ERROR:'));
    assert.equal(errors.length, 1, r.out);
    assert.match(errors[0], /a file stands where a folder is needed .*\(12 files\)$/);
  });

  it('counts agree with their nouns: "1 line not understood", "limit of 1 hop"; no "(s)" left in any message', () => {
    const dir = repoWithWork();
    const log = path.join(tempDir('handoff-log-'), 'session.jsonl');
    writeFileSync(
      log,
      [
        JSON.stringify({ type: 'user', message: { role: 'user', content: 'fix the login' }, timestamp: '2026-03-01T10:00:00Z', cwd: dir }),
        'this line is not JSON',
        JSON.stringify({
          type: 'assistant',
          message: { role: 'assistant', content: [{ type: 'text', text: 'Fixed.' }] },
          timestamp: '2026-03-01T10:01:00Z',
          cwd: dir,
        }),
      ].join('\n') + '\n',
    );
    const first = run(['handover', '-s', 'hacker', '-t', 'x', '--session-log', log, '--json'], dir);
    assert.equal(first.code, 0, first.err);
    const text = readFileSync(HandoverOkSchema.parse(JSON.parse(first.out)).handoff_file, 'utf8');
    assert.match(text, /; 1 line not understood\)/);
    assert.doesNotMatch(text, /\b1 (lines|files|turns|tokens|commands|test runs)\b/);

    const deep = run(['handover', '-s', 'quality_reviewer', '-t', 'x', '--parent', 'latest', '--max-depth', '1', '--session-log', 'none'], dir);
    assert.equal(deep.code, 2);
    assert.match(deep.err, /would exceed the limit of 1 hop\b/);
    assert.doesNotMatch(deep.err, /1 hops/);

    const left = sourceStrings(path.join(REPO_ROOT, 'src'))
      .concat(sourceStrings(path.join(REPO_ROOT, 'webview')))
      .map((s) => ({ ...s, text: s.text.replace(/\$\{[^}]*\}/g, '') }))
      .filter((s) => /[a-z]\(s\)/.test(s.text) && !/https?\(s\)/.test(s.text));
    assert.deepEqual(
      left.map((s) => `${path.relative(REPO_ROOT, s.file)}: ${s.text}`),
      [],
    );
  });

  it('a quoted text in a warning is cut at a word, with "…"', () => {
    const dir = repoWithWork();
    assert.equal(run(['handover', '-s', 'hacker', '-t', 'x', '--next', 'write the migration', '--session-log', 'none'], dir).code, 0);
    const long = 'the release notes mention every renamed configuration option and the upgrade path for existing installations';
    const r = run(['record-result', '-s', 'hacker', '--met', long, '--session-log', 'none'], dir);
    assert.equal(r.code, 0, r.err);
    const warning = r.lines.find((l) => l.includes('is not an acceptance criterion'));
    assert.ok(warning, r.err);
    const quoted = /^WARNING: "([^"]*)…" is not an acceptance criterion/.exec(warning);
    assert.ok(quoted, warning);
    assert.ok(long.startsWith(quoted[1]) && long[quoted[1].length] === ' ', `cut before a space: ${quoted[1]}`);
  });

  it('record-result --tokenizer bad names the choices; --parent none starts a new chain', () => {
    const dir = repoWithWork();
    const bad = run(['record-result', '-s', 'hacker', '--tokenizer', 'bad', '--session-log', 'none'], dir);
    assert.equal(bad.code, 2);
    assert.deepEqual(bad.lines, ['ERROR: --tokenizer must be one of: o200k_base, cl100k_base']);

    const first = HandoverOkSchema.parse(JSON.parse(run(['handover', '-s', 'hacker', '-t', 'x', '--session-log', 'none', '--json'], dir).out));
    const r = run(['handover', '-s', 'quality_reviewer', '-t', 'x', '--parent', 'none', '--session-log', 'none', '--json'], dir);
    assert.equal(r.code, 0, r.err);
    const second = HandoverOkSchema.parse(JSON.parse(r.out)).package;
    assert.equal(second.parent_id, null);
    assert.equal(second.hop, 1);
    assert.equal(second.correlation_id, second.id);
    assert.notEqual(second.correlation_id, first.package.correlation_id);
  });

  it('a --turn longer than a list item may be (20,000 characters) is refused, naming the turn', () => {
    const dir = repoWithWork();
    // 100,000 characters: Linux passes at most 128 KiB in one argument.
    const r = run(
      ['handover', '-s', 'hacker', '-t', 'x', '--turn', 'user: short', '--turn', `assistant: ${'x'.repeat(100_000)}`, '--session-log', 'none'],
      dir,
    );
    assert.equal(r.code, 2);
    assert.deepEqual(r.lines, ['ERROR: --turn #2 must be at most 20,000 characters']);
    assert.deepEqual(handoffsIn(dir), []);
  });

  it('hook: an event it does not document is skipped and named; a FIFO or device as transcript_path is refused with its own note, never read', () => {
    const dir = repoWithWork();
    const stop = run(['hook'], dir, JSON.stringify({ session_id: 's1', transcript_path: '/nowhere.jsonl', cwd: dir, hook_event_name: 'Stop' }));
    assert.equal(stop.code, 0, stop.err);
    assert.deepEqual(stop.lines, [
      "specialist-handoff hook: Stop: skipped, nothing written — the hook writes a safety net on SessionEnd and PreCompact only; remove this event from the hook's settings",
    ]);
    assert.deepEqual(handoffsIn(dir), []);

    const fifoDir = tempDir('handoff-fifo-');
    const fifo = path.join(fifoDir, 'transcript.jsonl');
    spawnSync('mkfifo', [fifo]);
    mkdirSync(path.join(fifoDir, 'x'));
    for (const [transcript, kind] of [
      [fifo, 'is a FIFO (named pipe)'],
      ['/dev/null', 'is a character device'],
    ]) {
      const r = run(['hook'], dir, JSON.stringify({ session_id: 's1', transcript_path: transcript, cwd: dir, hook_event_name: 'PreCompact', trigger: 'auto' }));
      assert.equal(r.code, 0, r.err);
      assert.equal(r.lines.length, 1);
      assert.ok(r.lines[0].includes(`transcript_path ${transcript} ${kind}, not a transcript file: not read, git only`), r.lines[0]);
    }
    assert.equal(handoffsIn(dir).length, 2, 'the safety net is still written, from git');
  });
});
