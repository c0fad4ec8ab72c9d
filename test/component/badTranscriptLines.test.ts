/**
 * Transcript lines that are not valid records, through the real `specialist-handoff` process:
 * real transcripts of /work/shared/fixtures/real-logs (read in place; a temporary copy gets
 * the corrupted lines, never the repository) with bad JSON, a JSON value that is not an
 * object, a record of the wrong shape or a line cut in the middle inserted. The rest of the
 * file is read exactly as without them, and ONE warning per transcript counts them and names
 * the first — on standard error and in the handoff's evidence notes. An unfinished last line
 * (the agent still writing it) is no such line.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { CLI_FROM_SOURCE, repoWithWork } from '../helpers/cli';
import { cleanupTempDirs, tempDir } from '../helpers/repo';

const REAL_LOGS = path.resolve(__dirname, '..', '..', '..', 'shared', 'fixtures', 'real-logs');

/** Runs `handover --json` of the real CLI in `cwd` with `--session-log log`; the result, its warnings and the handoff's text. */
function handover(cwd: string, log: string) {
  const r = spawnSync(process.execPath, [...CLI_FROM_SOURCE, 'handover', '-s', 'hacker', '-t', 'x', '--session-log', log, '--json'], {
    cwd,
    encoding: 'utf8',
    env: process.env,
    timeout: 60_000,
  });
  assert.equal(r.status, 0, r.stderr);
  const result = HandoverOkSchema.parse(JSON.parse(r.stdout));
  return { result, stderr: r.stderr.trimEnd().split('\n').filter(Boolean), handoff: readFileSync(result.handoff_file, 'utf8') };
}

/** What a transcript gave a handoff: its tests, commands, requests and edits (nothing that names the file or the time of the run). */
function facts(result: ReturnType<typeof handover>['result']) {
  const p = result.package;
  return {
    tests: p.tests_run.map((t) => [t.command, t.result, t.exit_code]),
    commands: (p.commands_run ?? []).map((c) => [c.command, c.result, c.count]),
    requests: (p.user_requests ?? []).map((u) => u.text),
    sources: p.session_sources.map((s) => [s.source, s.commands, s.turns, s.edits]),
  };
}

/** A warning about lines or items that are not valid records. */
function isBadLinesWarning(line: string): boolean {
  return /(are not valid|is not a valid) (JSON )?records?/.test(line);
}

/** `lines` with `inserted` put before the line numbered by each key (1-based, in the result). */
function withLines(lines: readonly string[], inserted: Readonly<Record<number, string>>): string[] {
  const out = [...lines];
  for (const at of Object.keys(inserted)
    .map(Number)
    .sort((a, b) => a - b))
    out.splice(at - 1, 0, inserted[at]);
  return out;
}

describe('transcript lines that are not valid records: skipped, counted once, the rest read', function () {
  // Every case spawns the real CLI (tsx compiles the sources each time): seconds each on a busy machine.
  this.timeout(300_000);
  after(cleanupTempDirs);

  it('a Claude Code transcript with bad JSON, a non-object and a record without its message: one WARNING counting 3, the rest read as without them', () => {
    const original = path.join(REAL_LOGS, 'claude-code', 'claude-reliability-coverage-test-fix.jsonl');
    const lines = readFileSync(original, 'utf8').trimEnd().split('\n');
    const copy = path.join(tempDir('handoff-bad-lines-'), 'session.jsonl');
    const sessionId = (JSON.parse(lines[0]) as { sessionId: string }).sessionId;
    writeFileSync(
      copy,
      `${withLines(lines, {
        17: '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"cut',
        25: '[1, 2, 3]',
        30: JSON.stringify({ type: 'user', sessionId, uuid: 'x', timestamp: '2026-01-01T00:00:00.000Z' }),
      }).join('\n')}\n`,
    );
    const clean = handover(repoWithWork(), original);
    assert.deepEqual(clean.stderr.filter(isBadLinesWarning), [], 'the real transcript as it is: no such warning');
    const ws = repoWithWork();
    const bad = handover(ws, copy);
    const note = `Session log ${copy}: 3 of ${lines.length + 3} lines are not valid JSON records and were skipped (first at line 17)`;
    assert.deepEqual(bad.stderr.filter(isBadLinesWarning), [`WARNING: ${note}`]);
    assert.ok(bad.result.warnings.includes(`WARNING: ${note}`));
    assert.ok(bad.handoff.includes(`> ⚠️ ${note}`), 'the handoff carries the note in its evidence notes');
    assert.deepEqual(facts(bad.result), facts(clean.result), 'everything else read as from the real transcript');
    assert.deepEqual(
      bad.result.package.tests_run.map((t) => [t.command, t.result]),
      [['python -m pytest tests/test_math_utils.py -v', 'passed']],
      'the test run the transcript holds (SOURCES.md)',
    );

    // The next handoff reads only what was added: a bad line among them is counted among them.
    const more = withLines(lines.slice(-3), { 2: '{"type":"user",' });
    appendFileSync(copy, `${more.join('\n')}\n`);
    const next = handover(ws, copy);
    assert.deepEqual(next.stderr.filter(isBadLinesWarning), [
      `WARNING: Session log ${copy}: 1 of the 4 lines new since the previous read is not a valid JSON record and was skipped (line 2 of them)`,
    ]);

    // A last line the agent is still writing (no newline yet) is no bad line: it is read once complete.
    appendFileSync(copy, '{"parentUuid":"p","type":"user","message":{"role":"user","content":"still bei');
    const writing = handover(ws, copy);
    assert.deepEqual(writing.stderr.filter(isBadLinesWarning), []);
  });

  it('a Codex rollout with a line cut in the middle and a rollout record without its payload: one WARNING counting 2', () => {
    const original = path.join(REAL_LOGS, 'codex', 'agentlogs-joke-crud-exec-0.89.0.jsonl');
    const lines = readFileSync(original, 'utf8').trimEnd().split('\n');
    const copy = path.join(tempDir('handoff-bad-lines-'), 'rollout.jsonl');
    writeFileSync(
      copy,
      `${withLines(lines, { 5: lines[4].slice(0, 40), 12: '{"timestamp":"2026-01-25T10:32:01.000Z","type":"response_item"}' }).join('\n')}\n`,
    );
    const clean = handover(repoWithWork(), original);
    const bad = handover(repoWithWork(), copy);
    assert.deepEqual(bad.stderr.filter(isBadLinesWarning), [
      `WARNING: Session log ${copy}: 2 of ${lines.length + 2} lines are not valid JSON records and were skipped (first at line 5)`,
    ]);
    assert.deepEqual(facts(bad.result), facts(clean.result));
    assert.ok(facts(bad.result).commands.length > 0, "the rollout's commands were read");
  });

  it('a Cline task whose ui_messages.json holds an item that is not a record: one WARNING counting items, the task read as without it', () => {
    const task = path.join(REAL_LOGS, 'cline', 'mcp-vscode-server-task');
    const text = readFileSync(path.join(task, 'ui_messages.json'), 'utf8');
    const items = (JSON.parse(text) as unknown[]).length;
    const copy = path.join(tempDir('handoff-bad-items-'), 'mcp-vscode-server-task');
    mkdirSync(copy);
    // An element that is not an object, before the last one.
    const last = text.lastIndexOf(',{');
    writeFileSync(path.join(copy, 'ui_messages.json'), `${text.slice(0, last)},"not a message"${text.slice(last)}`);
    const clean = handover(repoWithWork(), task);
    const bad = handover(repoWithWork(), copy);
    const file = path.join(copy, 'ui_messages.json');
    assert.deepEqual(bad.stderr.filter(isBadLinesWarning), [
      `WARNING: Session log ${file}: 1 of ${items + 1} items is not a valid record and was skipped (item ${items})`,
    ]);
    assert.deepEqual(facts(bad.result), facts(clean.result));
  });
});
