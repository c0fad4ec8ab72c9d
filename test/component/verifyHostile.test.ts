/**
 * `specialist-handoff verify` on a handoff file edited by hand or by another agent (or merged
 * from a branch) whose "Tests run" section holds hostile commands: a line break, bidi
 * controls (Trojan Source, CVE-2021-42574), Unicode tag characters (invisible text), `;`,
 * `$(…)` and a long tail of spaces. Real git repository in a temp folder, real CLI process,
 * the handoff written from a Claude Code transcript (test/helpers/claudeTranscript.ts) and
 * then edited. What `verify` lists without `--run` must be exactly what `--run` executes,
 * nothing invisible; a command holding invisible characters is never run; the recorded
 * verification stays readable (the prompt and timeline show it).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXIT_OK } from '../../src/cli/main';
import { EXIT_CONTRADICTED } from '../../src/cli/verify';
import { VerificationSchema } from '../../src/core/receive/verification';
import { INVISIBLE_PATTERN } from '../../src/core/safety/invisible';
import { latestVerification } from '../../src/store/handoffs/verifications';
import { CLI_FROM_SOURCE, cli } from '../helpers/cli';
import { writeClaudeTranscript } from '../helpers/claudeTranscript';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';

function spawnCli(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [...CLI_FROM_SOURCE, ...args], { cwd, encoding: 'utf8', env: process.env, timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const RLO = '\u202e';
const LRI = '\u2066';
const PDI = '\u2069';
/** "hi" in Unicode tag characters (U+E0068 U+E0069): invisible in every terminal and editor. */
const TAGS = '\u{e0068}\u{e0069}';

/** A repository whose handoff records `npm test` passing, then has `lines` added to its Tests run section by hand. */
async function editedHandoff(lines: string[]): Promise<{ repo: string; id: string }> {
  const repo = initRepo();
  write(
    repo,
    'package.json',
    `${JSON.stringify({ name: 'cart', version: '1.0.0', private: true, scripts: { test: 'node -e "process.exit(0)"' } }, null, 2)}\n`,
  );
  commitAll(repo, 'cart: first version');
  const transcript = writeClaudeTranscript(tempDir(), repo, 'Make the tests pass.', [{ command: 'npm test', cwd: repo, exitCode: 0, output: '3 passing' }]);
  const r = await cli(['handover', '-s', 'quality_reviewer', '-t', 'cart', '--summary', 'All tests pass.', '--session-log', transcript, '--json'], repo);
  assert.equal(r.code, EXIT_OK, r.err);
  const written = JSON.parse(r.out) as { handoff_file: string; package: { id: string } };
  const text = readFileSync(written.handoff_file, 'utf8');
  const at = text.indexOf('## Tests run\n\n') + '## Tests run\n\n'.length;
  writeFileSync(written.handoff_file, `${text.slice(0, at)}${lines.join('\n')}\n${text.slice(at)}`);
  return { repo, id: written.package.id };
}

describe('verify on a hand-edited handoff with hostile commands (real CLI process)', function () {
  this.timeout(120_000);
  after(cleanupTempDirs);

  it('lists each command exactly as it would run (line breaks and invisible characters shown escaped), never runs one holding invisible characters, and records a readable verification', async () => {
    const { repo, id } = await editedHandoff([
      '- ✅ passed `npm test\\ntouch ran-newline` (exit 0; source: claude-code)',
      `- ✅ passed \`npm test${RLO}${LRI} && touch ran-bidi${PDI}\` (exit 0; source: claude-code)`,
      `- ✅ passed \`npm test ${TAGS}&& touch ran-tags\` (exit 0; source: claude-code)`,
      '- ✅ passed `npm test; echo $(touch ran-subst)` (exit 0; source: claude-code)',
      `- ✅ passed \`npm test${' '.repeat(200)}&& touch ran-tail\` (exit 0; source: claude-code)`,
      `- ✅ passed \`npm test\` (exit 0; in \`pk${RLO}g\`; source: claude-code)`,
    ]);
    const dry = spawnCli(['verify'], repo);
    assert.equal(dry.code, EXIT_OK, dry.err);
    assert.equal(INVISIBLE_PATTERN.test(dry.out + dry.err), false, `nothing invisible in what verify prints:\n${JSON.stringify(dry.out)}`);
    INVISIBLE_PATTERN.lastIndex = 0;
    assert.ok(dry.out.includes('npm test\\ntouch ran-newline (test)'), `the line break is shown, not folded into a space:\n${dry.out}`);
    assert.ok(dry.out.includes('npm test\\u{202e}\\u{2066} && touch ran-bidi\\u{2069}'), `bidi controls shown as escapes:\n${dry.out}`);
    assert.ok(dry.out.includes('npm test \\u{e0068}\\u{e0069}&& touch ran-tags'), `tag characters shown as escapes:\n${dry.out}`);
    assert.ok(dry.out.includes(`npm test${' '.repeat(200)}&& touch ran-tail`), 'the spaces are kept as they will run');
    assert.match(dry.out, /unverifiable: npm test\\u\{202e\}.*holds invisible characters/);
    assert.ok(
      dry.out.includes(
        'unverifiable: npm test (test in pk\\u{202e}g) — passed at handoff (exit code 0); cannot be re-run here: the folder pk\\u{202e}g is gone',
      ),
      dry.out,
    );
    assert.match(dry.out, /unverifiable: npm test \\u\{e0068\}.*holds invisible characters/);

    const run = spawnCli(['verify', '--run', '--json', '--timeout', '60'], repo);
    assert.ok(run.code === EXIT_OK || run.code === EXIT_CONTRADICTED, `exit ${run.code}: ${run.err}`);
    const out = JSON.parse(run.out) as { verification: unknown; verification_file: string; line: string };
    const v = VerificationSchema.parse(out.verification);
    assert.equal(existsSync(path.join(repo, 'ran-bidi')), false, 'a command with bidi controls is not run');
    assert.equal(existsSync(path.join(repo, 'ran-tags')), false, 'a command with tag characters is not run');
    assert.equal(existsSync(path.join(repo, 'ran-newline')), true, 'the listed two-line command ran as listed');
    const bidi = v.rechecks.find((r) => r.command.includes('ran-bidi'));
    assert.equal(bidi?.verdict, 'unverifiable');
    assert.equal(bidi?.now, null, 'not started');

    // The verification file is valid JSON and the latest: the prompt and the timeline show it.
    const stored = await latestVerification(path.join(repo, '.handoff'), id);
    assert.ok(stored, `the verification file parses: ${readFileSync(out.verification_file, 'utf8').slice(0, 300)}`);
    assert.equal(stored.checked_at, v.checked_at);
    const p = spawnCli(['prompt', '--no-take'], repo);
    assert.equal(p.code, EXIT_OK, p.err);
    assert.ok(p.out.includes(`**Verification:** Checked at ${v.checked_at}`), p.out.slice(0, 800));
    assert.equal(INVISIBLE_PATTERN.test(p.out.split('## Mandate')[0]), false, 'no invisible character at the top of the prompt');
  });
});
