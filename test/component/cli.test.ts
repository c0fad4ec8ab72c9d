import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseHandoff, parseTouchedFiles } from '../../src/core/handoff/parse';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { EXIT_BAD_INPUT, EXIT_OK, parseTurn } from '../../src/cli/main';
import { BUILTIN_SPECIALIST_IDS } from '../../src/core/specialists/registry';
import { cli, repoWithWork, CLI_FROM_SOURCE } from '../helpers/cli';
import { cleanupTempDirs, commitAll, rawGitView, write } from '../helpers/repo';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

describe('CLI', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('specialists lists every built-in id', async () => {
    const r = await cli(['specialists'], repoWithWork());
    assert.equal(r.code, EXIT_OK);
    for (const id of BUILTIN_SPECIALIST_IDS) {
      assert.match(r.out, new RegExp(`^${id} `, 'm'));
    }
    const json = await cli(['specialists', '--json'], repoWithWork());
    assert.deepEqual(
      JSON.parse(json.out).map((s: { id: string }) => s.id),
      [...BUILTIN_SPECIALIST_IDS],
    );
  });

  it('handover writes the files and prints the summary (exit 0)', async () => {
    const dir = repoWithWork();
    const r = await cli(
      [
        'handover',
        '--specialist',
        'quality_reviewer',
        '--topic',
        'Auth review',
        '--summary',
        'S',
        '--decision',
        'D one',
        '--decision',
        'D two',
        '--next',
        'N',
        '--blocker',
        'B',
      ],
      dir,
    );
    assert.equal(r.code, EXIT_OK, r.err);
    assert.match(r.out, /^Handed over to \[quality reviewer\]/);
    assert.match(r.out, /handoff {3}\.handoff\/handoffs\/.+_quality_reviewer\.md/);
    assert.match(r.out, /files {5}2 touched \(M 1, \? 1\)/);
    assert.match(r.out, /tokens {4}[\d,]+ \/ 3,000 \(o200k_base\)/);
  });

  it('--json prints the result object', async () => {
    const dir = repoWithWork();
    const r = await cli(['handover', '-s', 'hacker', '-t', 'spike', '--json', '--turn', 'user: try it', '--turn', 'assistant: done'], dir);
    assert.equal(r.code, EXIT_OK, r.err);
    const result = HandoverOkSchema.parse(JSON.parse(r.out));
    assert.equal(result.persona_marker, '[hacker]');
    assert.deepEqual(result.package.recent_turns, [
      { role: 'user', text: 'try it' },
      { role: 'assistant', text: 'done' },
    ]);
    assert.ok(existsSync(result.handoff_file));
  });

  it('bad input exits 2 with one ERROR line on stderr and writes nothing', async () => {
    const dir = repoWithWork();
    const cases: Array<[string[], RegExp]> = [
      [['handover', '--topic', 't'], /^ERROR: --specialist is required/],
      [['handover', '-s', 'quality_reviwer', '-t', 't'], /^ERROR: unknown specialist "quality_reviwer" — did you mean: quality_reviewer/],
      [['handover', '-s', 'hacker'], /^ERROR: --topic is required/],
      [['handover', '-s', 'hacker', '-t', '../../x'], /^ERROR: topic .* looks like a file path/],
      [['handover', '-s', 'hacker', '-t', 't', '--max-tokens', 'abc'], /^ERROR: --max-tokens must be a whole number/],
      [['handover', '-s', 'hacker', '-t', 't', '--max-tokens', '0'], /^ERROR: --max-tokens must be positive/],
      [['handover', '-s', 'hacker', '-t', 't', '--max-tokens', '-5'], /^ERROR: --max-tokens must be positive/],
      [['handover', '-s', 'hacker', '-t', 't', '--recent-turns', '-1'], /^ERROR: --recent-turns must be 0 or more/],
      [['handover', '-s', 'hacker', '-t', 't', '--tokenizer', 'gpt2'], /^ERROR: --tokenizer must be one of/],
      [
        ['handover', '-s', 'hacker', '-t', 't', '--dir', '../x'],
        /^ERROR: --dir "\.\.\/x" leads outside the workspace — pass --dir with a folder inside the workspace/,
      ],
      [['handover', '-s', 'hacker', '-t', 't', '--parent', 'nope'], /^ERROR: parent handoff "nope" not found/],
      [['handover', '--bogus'], /^ERROR: Unknown option '--bogus' — run "specialist-handoff --help"/],
      [['handover', '-s', 'hacker', '--topic', '--json'], /^ERROR: --topic needs a value; to pass one that starts with "-", write --topic=-value/],
      [['handover', '-s', 'hacker', '-t', 't', '--session-id', ' '], /^ERROR: --session-id must not be empty/],
      [['handover', '-s', 'hacker', '-t', 't', '--max-tokens', '99999999999999999999999'], /^ERROR: --max-tokens must be at most 10,000,000/],
      [['handover', '-s', 'hacker', '-t', 't', '--dir', '.git/refs/heads'], /^ERROR: --dir "\.git\/refs\/heads" is inside \.git/],
      [['handover', '-s', 'hacker', '-t', 't', '--dir', '~/x'], /^ERROR: --dir "~\/x" starts with "~"/],
      [['handover', '-s', 'hacker', '-t', 't', '--cwd', 'a.txt'], /^ERROR: --cwd is not a folder/],
      [['handover', '-s', 'hacker', '-t', 'two', 'words'], /^ERROR: unexpected argument "words"/],
      [['frobnicate'], /^ERROR: unknown command "frobnicate"/],
      [['handover', '-s', 'hacker', '-t', 't', '--cwd', '/does/not/exist'], /^ERROR: --cwd folder does not exist/],
    ];
    for (const [args, re] of cases) {
      const r = await cli(args, dir);
      assert.equal(r.code, EXIT_BAD_INPUT, args.join(' '));
      assert.match(r.err, re, args.join(' '));
      assert.equal(r.err.split('\n').length, 1, `one line: ${r.err}`);
    }
    assert.equal(existsSync(path.join(dir, '.handoff')), false);
  });

  it('--json prints the error object on stdout too', async () => {
    const dir = repoWithWork();
    for (const args of [
      ['handover', '--json', '--bogus'],
      ['handover', '--json', '-s', 'nope', '-t', 't'],
      ['handover', '--json', '-s', 'hacker', '-t', 't', '--max-tokens', 'x'],
    ]) {
      const r = await cli(args, dir);
      assert.equal(r.code, EXIT_BAD_INPUT);
      const obj = JSON.parse(r.out);
      assert.equal(obj.status, 'error');
      assert.equal(obj.message, r.err);
    }
  });

  it('from a subfolder it works on the repository, like git: one .handoff at the top level', async () => {
    const dir = repoWithWork();
    write(dir, 'lib/deep/x.txt', 'x\n');
    commitAll(dir, 'more');
    write(dir, 'lib/deep/x.txt', 'y\n');
    const r = await cli(['handover', '-s', 'hacker', '-t', 't', '--json', '--cwd', path.join(dir, 'lib', 'deep')], dir);
    assert.equal(r.code, EXIT_OK, r.err);
    assert.ok(existsSync(path.join(dir, '.handoff', 'handoffs')));
    assert.equal(existsSync(path.join(dir, 'lib', 'deep', '.handoff')), false);
  });

  it('--parent continues a chain: parent_id, root_id, hop and chain', async () => {
    const dir = repoWithWork();
    const first = HandoverOkSchema.parse(JSON.parse((await cli(['handover', '-s', 'codebase_explorer', '-t', 'chain', '--json'], dir)).out));
    assert.equal(first.package.correlation_id, first.package.id, 'a new chain is rooted at itself');
    const second = HandoverOkSchema.parse(
      JSON.parse((await cli(['handover', '-s', 'implementation_engineer', '-t', 'chain', '--parent', 'latest', '--json'], dir)).out),
    );
    assert.equal(second.package.parent_id, first.package.id);
    assert.equal(second.package.correlation_id, first.package.id);
    assert.equal(second.package.hop, 2);
    assert.deepEqual(second.package.chain, ['codebase_explorer', 'implementation_engineer']);
    assert.equal(second.package.from, 'codebase_explorer');
    const third = HandoverOkSchema.parse(
      JSON.parse((await cli(['handover', '-s', 'quality_reviewer', '-t', 'chain', '--parent', path.basename(second.handoff_file), '--json'], dir)).out),
    );
    assert.equal(third.package.hop, 3);
    const fm = parseHandoff(readFileSync(third.handoff_file, 'utf8'));
    assert.ok(fm.ok && fm.handoff.frontmatter.root_id === first.package.id && fm.handoff.frontmatter.parent_id === second.package.id);
  });

  it('the summary line counts files right when fitting shortens the list: every file still listed', async () => {
    const dir = repoWithWork();
    for (let i = 0; i < 8; i++) write(dir, `f${i}.txt`, `${i}\n`);
    const r = await cli(['handover', '-s', 'hacker', '-t', 't', '--max-tokens', '500', '--summary', 'word '.repeat(600)], dir);
    assert.equal(r.code, EXIT_OK, r.err);
    assert.match(r.out, /files {5}10 touched \((M|\?) \d+(, (M|\?) \d+)*\)\n/);
    assert.doesNotMatch(r.out, /not listed|\(, /);
    assert.match(r.out, /fit {7}touched files: 10 shortened/);
  });

  it('parses --turn roles', () => {
    assert.deepEqual(parseTurn('User: hi'), { role: 'user', text: 'hi' });
    assert.deepEqual(parseTurn('no role here'), { role: 'assistant', text: 'no role here' });
    assert.deepEqual(parseTurn('tool:  {"x":1}'), { role: 'tool', text: '{"x":1}' });
  });

  it('runs as a real process: exit codes and streams', () => {
    const dir = repoWithWork();
    const run = (args: string[]) => spawnSync(process.execPath, [...CLI_FROM_SOURCE, ...args], { cwd: dir, encoding: 'utf8' });
    const bad = run(['handover', '-s', 'nope', '-t', 't']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^ERROR: unknown specialist "nope"/);
    assert.equal(bad.stdout, '');
    const good = run(['handover', '-s', 'hacker', '-t', 't', '--json']);
    assert.equal(good.status, 0, good.stderr);
    assert.equal(JSON.parse(good.stdout).status, 'ok');
    const piped = spawnSync(
      'bash',
      [
        '-c',
        `"${process.execPath}" --require "${require.resolve('tsx/cjs')}" "${path.join(REPO_ROOT, 'src', 'cli', 'main.ts')}" specialists --json | head -c 10 >/dev/null; echo "exit=\${PIPESTATUS[0]}"`,
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.match(piped.stdout, /exit=0/, 'a closed pipe ends quietly');
    assert.doesNotMatch(piped.stderr, /EPIPE|at /, piped.stderr);
    const help = run(['--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /specialist-handoff handover --specialist ID --topic TOPIC/);
  });

  it("run from this repository's own root, the handoff's touched files equal git's own view", async () => {
    const dir = '.cache/cli-self-test';
    rmSync(path.join(REPO_ROOT, dir), { recursive: true, force: true });
    try {
      const r = await cli(['handover', '-s', 'quality_reviewer', '-t', 'self check', '--dir', dir, '--json', '--no-fit'], REPO_ROOT);
      assert.equal(r.code, EXIT_OK, r.err);
      const result = HandoverOkSchema.parse(JSON.parse(r.out));
      const parsed = parseHandoff(readFileSync(result.handoff_file, 'utf8'));
      assert.ok(parsed.ok);
      const listed = parseTouchedFiles(parsed.handoff.sections.get('Touched files') ?? '');
      const git = rawGitView(REPO_ROOT, `${dir}/`);
      assert.equal(result.package.touched_files_omitted, 0);
      assert.deepEqual(
        listed.map((f) => [f.path, f.old_path, f.added, f.deleted]),
        git.map((g) => [g.path, g.orig, g.added, g.deleted]),
      );
    } finally {
      rmSync(path.join(REPO_ROOT, dir), { recursive: true, force: true });
    }
  });
});
