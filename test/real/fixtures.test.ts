/**
 * `npm run test:real`: every real session log in ../shared/fixtures/session-logs, read in
 * place (never copied into this repository), against what a person reading the file
 * would list: the exact commands with their exit code (or unknown) and whether they ran,
 * the edited files, and the last turns.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SessionCommand, SessionFileEdit, SessionTurn, TranscriptRead } from '../../src/core/session/events';
import { testRunsFrom } from '../../src/core/session/testDetection';
import { readAider, readAiderInputHistory } from '../../src/evidence/session/readers/aider';
import { readClaudeCode } from '../../src/evidence/session/readers/claudeCode';
import { readClineTask } from '../../src/evidence/session/readers/cline';
import { readCodex } from '../../src/evidence/session/readers/codex';
import { readSpecStory } from '../../src/evidence/session/readers/specstory';
import { readAsFormat, readByContent } from '../../src/evidence/session/agentReaders';
import { formatOfHead, readHead, type TranscriptFormat } from '../../src/evidence/session/detect';

const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'shared', 'fixtures', 'session-logs');

type Cmd = [command: string, exit: number | null, ran: boolean];
const commands = (r: TranscriptRead): Cmd[] => r.events.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran]);
const edits = (r: TranscriptRead) =>
  r.events
    .filter((e): e is SessionFileEdit => e.kind === 'file_edit')
    .map((e) => e.path)
    .sort();
const turns = (r: TranscriptRead) => r.events.filter((e): e is SessionTurn => e.kind === 'turn');

interface Expected {
  readonly read: (file: string) => Promise<TranscriptRead>;
  readonly commands: Cmd[];
  readonly edits: string[];
  /** The last turns as [role, start of the text]. */
  readonly lastTurns: Array<[string, string]>;
  readonly tests?: Array<[command: string, result: string, counts?: Record<string, number>]>;
  readonly skipped?: number;
}

const EXPECTED: Record<string, Expected> = {
  'aider/metadata-aider.aider.input.history': {
    read: readAiderInputHistory,
    commands: [],
    edits: [],
    lastTurns: [
      ['user', 'help me debug why the labels on the chart are not displayinh'],
      ['user', 'write a README file in the root project directory describing the summary of the project'],
    ],
  },
  'claude-code/pyrycode-clean-trimmed.jsonl': {
    read: readClaudeCode,
    commands: [
      ['ls docs/ docs/specs/ docs/specs/architecture/ docs/knowledge/ docs/knowledge/architecture/ 2>&1 | head -100', 0, true],
      ['ls internal/relay/ cmd/ 2>&1', 0, true],
      ['gh issue view 15 --json labels,title,number,state 2>&1', 0, true],
      ["git fetch origin --prune --quiet && git branch -r | grep -E 'origin/feature/[0-9]+$' 2>&1", 0, true],
      ['cat docs/threat-model.md 2>&1 | head -80', 0, true],
      ['git diff --name-only origin/main...origin/feature/5 2>&1', 0, true],
      ["gh issue view 5 --json title,number,labels 2>&1; echo '---'; gh issue list --search 'split from #4' --state all --json number,title 2>&1", 0, true],
      ['git add docs/specs/architecture/15-wsconn-adapter.md && git commit -m "spec: WSConn adapter for nhooyr.io/websocket (#15)" 2>&1', 0, true],
    ],
    edits: ['docs/specs/architecture/15-wsconn-adapter.md'],
    lastTurns: [
      ['user', '# Ticket #15: relay: WSConn adapter'],
      ['assistant', 'Empty diff means feature/5 has no commits ahead of main'],
      ['assistant', 'Now writing the spec.'],
      ['assistant', 'Spec written and committed: `docs/specs/architecture/15-wsconn-adapter.md`.'],
    ],
    tests: [],
  },
  'claude-code/agent-history-real-session-01.jsonl': {
    read: readClaudeCode,
    commands: [],
    edits: [],
    lastTurns: [
      ['user', '[REDACTED_PROMPT]'],
      ['assistant', '[REDACTED_ASSISTANT_TEXT]'],
    ],
  },
  'claude-code/claude-code-log-representative_messages.jsonl': {
    read: readClaudeCode,
    commands: [['python /tmp/decorator_example.py', 0, true]],
    edits: ['decorator_example.py'],
    lastTurns: [
      ['assistant', "Perfect! I've created an example of a parameterized decorator."],
      ['user', 'Can you run that example to show the output?'],
      ['assistant', 'Perfect! As you can see, the `@repeat(3)` decorator'],
      ['user', 'This is really helpful! Let me try to implement a timing decorator myself.'],
    ],
  },
  'codex/agent-history-codex_with_escalation.jsonl': {
    read: readCodex,
    commands: [
      ["echo 'Hello World' > test.txt", null, true],
      ['cat test.txt', null, true],
      ["printf 'Goodbye World\n' > test.txt", null, false],
      ['rm test.txt', null, false],
    ],
    edits: ['test.txt'],
    lastTurns: [
      ['user', "Can you read what's in it?"],
      ['assistant', "The file contains 'Hello World' - exactly as you wanted to keep it."],
      ['user', 'Delete the file'],
    ],
  },
  'codex/agent-history-real-session-01.jsonl': {
    read: readCodex,
    commands: [],
    edits: [],
    lastTurns: [
      ['user', '[REDACTED_PROMPT]'],
      ['assistant', '[REDACTED_ASSISTANT_TEXT]'],
    ],
  },
  'codex/claude-code-log-rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl': {
    read: readCodex,
    commands: [['find . -maxdepth 1 -type f', null, true]],
    edits: ['gamma.txt'],
    lastTurns: [
      ['user', 'List the synthetic files.'],
      ['assistant', 'The synthetic files are alpha.txt and beta.txt.'],
    ],
    skipped: 1,
  },
  'aider/metadata-aider.aider.chat.history.md': {
    read: readAider,
    commands: [
      ['mkdir data', null, false],
      ['mkdir results', null, false],
      ['mkdir frontend', null, false],
    ],
    edits: [
      '.aidar.json',
      'README.md',
      'frontend/README.md',
      'frontend/display.ts',
      'frontend/index.html',
      'frontend/ui.ts',
      'scripts/generate_data.py',
      'src/dataset.py',
      'src/model.py',
      'src/train.py',
    ],
    lastTurns: [
      ['user', 'write a README file in the root project directory describing the summary of the project'],
      ['assistant', 'To create a README file in the root project directory summarizing the project'],
    ],
  },
  'cline/gmfstu-task-1769053680585': {
    read: (f) => readClineTask(f),
    commands: [
      [
        'cd /workspaces/Online-Card-Architecture && for file in BeginTurnGA.cs BeginTurnSystem.cs DiscardCardGA.cs DiscardCardSystem.cs DestroyCardGA.cs DestroyCardSystem.cs ModifyCardGA.cs ModifyCardSystem.cs ActivateAbilityGA.cs ActivateAbilitySystem.cs EditCardGA.cs EditCardSystem.cs; do echo "fileFormatVersion: 2" > "${file}.meta"; echo "guid: $(uuidgen | tr -d \'-\' | tr \'[:upper:]\' \'[:lower:]\' | cut -c1-32)" >> "${file}.meta"; done',
        null,
        true,
      ],
      ['cd /workspaces/Online-Card-Architecture/golden_tests && dotnet run --configuration Release', null, true],
    ],
    edits: [
      'ActivateAbilityGA.cs.meta',
      'ActivateAbilitySystem.cs.meta',
      'BeginTurnGA.cs.meta',
      'BeginTurnSystem.cs.meta',
      'CardDataJSON.txt',
      'DestroyCardGA.cs.meta',
      'DestroyCardSystem.cs.meta',
      'DiscardCardGA.cs.meta',
      'DiscardCardSystem.cs.meta',
      'EditCardGA.cs.meta',
      'EditCardSystem.cs.meta',
      'IMPLEMENTATION_GUIDE.md',
      'ModifyCardGA.cs.meta',
      'ModifyCardSystem.cs.meta',
      'SECURITY_AND_MODULARITY_REPORT.md',
    ],
    lastTurns: [
      ['assistant', 'Perfect! All 41 tests passed.'],
      ['assistant', 'I have successfully secured and extended the Online Card Architecture'],
    ],
    // Issue 16: Cline records no exit code; the run's own summary (41/41) gives the result, basis output.
    tests: [['cd /workspaces/Online-Card-Architecture/golden_tests && dotnet run --configuration Release', 'passed', { passed: 41, failed: 0 }]],
  },
  'specstory/better-agents-2025-11-15_06-33Z-check-and-fix-tag-format-in-config.md': {
    read: readSpecStory,
    commands: [],
    edits: ['.github/workflows/release.yml', '.release-please-config.json'],
    lastTurns: [
      ['user', 'getting this error from release-please'],
      ['assistant', 'This is a repository settings issue, not a workflow configuration problem.'],
    ],
  },
};

describe('real session logs (../shared/fixtures/session-logs, read in place)', () => {
  before(() => {
    assert.ok(existsSync(FIXTURES), `the shared fixtures are missing: ${FIXTURES} (CI has ../shared beside the clone)`);
  });

  it('covers every fixture file', () => {
    const files: string[] = [];
    for (const dir of readdirSync(FIXTURES, { withFileTypes: true }).filter((d) => d.isDirectory())) {
      for (const f of readdirSync(path.join(FIXTURES, dir.name), { withFileTypes: true })) {
        files.push(`${dir.name}/${f.name}`);
      }
    }
    assert.deepEqual(files.sort(), Object.keys(EXPECTED).sort());
  });

  for (const [rel, exp] of Object.entries(EXPECTED)) {
    it(rel, async () => {
      const r = await exp.read(path.join(FIXTURES, rel));
      assert.equal(r.error, undefined);
      assert.deepEqual(commands(r), exp.commands, 'commands');
      assert.deepEqual(edits(r), [...exp.edits].sort(), 'edited files');
      const last = turns(r).slice(-exp.lastTurns.length);
      assert.equal(last.length, exp.lastTurns.length, 'number of turns');
      last.forEach((t, i) => {
        assert.equal(t.role, exp.lastTurns[i][0], `turn ${i} role`);
        assert.ok(
          t.text.startsWith(exp.lastTurns[i][1]),
          `turn ${i}: expected to start with ${JSON.stringify(exp.lastTurns[i][1])}, got ${JSON.stringify(t.text.slice(0, 120))}`,
        );
        assert.doesNotMatch(t.text, /<system-reminder>|tool_result|<environment_context>/, 'no tool noise in turns');
      });
      assert.equal(r.stats.malformed, 0, 'no malformed lines');
      assert.equal(r.stats.skipped, exp.skipped ?? 0, 'skipped lines');
      if (exp.tests) {
        const runs = testRunsFrom(
          r.events.filter((e): e is SessionCommand => e.kind === 'command'),
          r.source,
        );
        assert.deepEqual(
          runs.map((t) => [t.command, t.result, ...(t.counts ? [t.counts] : [])]),
          exp.tests,
        );
      }
    });
  }
});

/** Each fixture file's true format (its agent's published on-disk shape), whatever its name. */
const TRUE_FORMAT: Record<string, TranscriptFormat> = {
  'aider/metadata-aider.aider.chat.history.md': 'aider-chat',
  'aider/metadata-aider.aider.input.history': 'aider-input',
  'claude-code/agent-history-real-session-01.jsonl': 'claude-code',
  'claude-code/claude-code-log-representative_messages.jsonl': 'claude-code',
  'claude-code/pyrycode-clean-trimmed.jsonl': 'claude-code',
  'cline/gmfstu-task-1769053680585/api_conversation_history.json': 'cline-api',
  'cline/gmfstu-task-1769053680585/task_metadata.json': 'cline-metadata',
  'cline/gmfstu-task-1769053680585/ui_messages.json': 'cline-task',
  'codex/agent-history-codex_with_escalation.jsonl': 'codex',
  'codex/agent-history-real-session-01.jsonl': 'codex',
  'codex/claude-code-log-rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl': 'codex',
  'specstory/better-agents-2025-11-15_06-33Z-check-and-fix-tag-format-in-config.md': 'specstory',
};

function filesUnder(dir: string, rel = ''): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((d) => {
    const r = rel ? `${rel}/${d.name}` : d.name;
    return d.isDirectory() ? filesUnder(dir, r) : [r];
  });
}

describe('real session logs read by content, whatever the file name (issue 16)', () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(path.join(tmpdir(), 'handoff-real-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('knows the true format of every log file in the folder', () => {
    const logs = filesUnder(FIXTURES).filter((f) => f !== 'SOURCES.md');
    assert.deepEqual(logs.sort(), Object.keys(TRUE_FORMAT).sort());
  });

  Object.entries(TRUE_FORMAT).forEach(([rel, format], i) => {
    it(`${rel}: ${format} by content, in place and renamed`, async () => {
      const original = path.join(FIXTURES, rel);
      // A neutral name in a folder of its own: no extension, no agent's file name, no task folder beside it.
      const dir = path.join(tmp, `copy-${i}`);
      rmSync(dir, { recursive: true, force: true });
      const renamed = path.join(dir, `transcript-${i}.log`);
      mkdirSync(dir, { recursive: true });
      copyFileSync(original, renamed);
      assert.equal(formatOfHead(await readHead(original)), format, 'in place');
      assert.equal(formatOfHead(await readHead(renamed)), format, 'renamed');
      const inPlace = await readAsFormat(original, format);
      const again = await readByContent(renamed);
      assert.ok(again, 'the renamed copy is read');
      assert.equal(again.detected.format, format);
      assert.equal(again.read.error, undefined);
      assert.deepEqual(again.read.events, inPlace.events, 'the same events whatever the name');
      if (format === 'cline-metadata') {
        assert.equal(inPlace.events.length, 0);
        assert.match(again.detected.note ?? '', /holds no conversation; give the task folder/);
      } else {
        assert.ok(inPlace.events.length > 0, 'the format is understood: events are read');
      }
    });
  });

  it('a Cline task is read the same from its folder, its ui_messages.json, or its api_conversation_history.json (issue 16: ENOTDIR, 0 events)', async () => {
    const task = path.join(FIXTURES, 'cline/gmfstu-task-1769053680585');
    const fromDir = await readByContent(task);
    assert.ok(fromDir);
    for (const f of ['ui_messages.json', 'api_conversation_history.json', 'task_metadata.json']) {
      const r = await readByContent(path.join(task, f));
      assert.ok(r, f);
      assert.equal(r.read.error, undefined, f);
      assert.equal(r.detected.source, 'cline', f);
      assert.deepEqual(r.read.events, fromDir.read.events, f);
    }
    assert.deepEqual(commands(fromDir.read), EXPECTED['cline/gmfstu-task-1769053680585'].commands);
  });

  it('a Cline api_conversation_history.json alone gives the same commands, edits and test result as the task', async () => {
    const api = await readAsFormat(path.join(FIXTURES, 'cline/gmfstu-task-1769053680585/api_conversation_history.json'), 'cline-api', {
      workspaceRoot: '/workspaces/Online-Card-Architecture',
    });
    const exp = EXPECTED['cline/gmfstu-task-1769053680585'];
    assert.deepEqual(commands(api), exp.commands);
    // Its message 1 writes EditCardSystem.cs, a step the trimmed ui_messages.json no longer holds (SOURCES.md).
    assert.deepEqual(edits(api), [...exp.edits, 'EditCardSystem.cs'].sort());
    const runs = testRunsFrom(
      api.events.filter((e): e is SessionCommand => e.kind === 'command'),
      api.source,
    );
    assert.deepEqual(
      runs.map((t) => [t.command, t.result, t.basis, t.counts]),
      [[exp.commands[1][0], 'passed', 'output', { passed: 41, failed: 0 }]],
    );
    assert.equal(turns(api)[0].role, 'user');
    assert.ok(turns(api)[0].text.startsWith('You have been given a Dockerized codebase'));
  });
});
