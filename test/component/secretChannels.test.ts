/**
 * "Nothing leaked" (docs/DESIGN.md §7), channel by channel: every channel a handoff has passes
 * the same gate with the same rules (for a secret found once and recurring across channels:
 * secretRecurrence.test.ts).
 *
 * One secret-bearing line in four formats (a keyed assignment, a bare GitHub token, a PEM
 * block, a URL with credentials) is placed, one handover each, in every channel: the summary,
 * a decision, a next step, the transcript's user and assistant turns, a command run, a test
 * command, a file's path, the branch, the topic and a commit subject. Real git repositories in
 * temporary folders, a Claude Code transcript written from a real one's lines
 * (test/helpers/claudeTranscript.ts), the engine's `handover` with the draft on and a budget
 * the package does not fit, so the handoff, its briefing and its history file are all
 * written. None of the value's 8-character pieces may reach any file under `.handoff/` or the
 * result, and the channel's tag must (the line really went through that channel). Where a
 * channel cannot carry the line at all ({@link CANNOT}), the test proves that instead.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { SessionStep } from '../helpers/claudeTranscript';
import { randomString } from '../helpers/fakeSecrets';
import { cleanupTempDirs, git, write } from '../helpers/repo';
import { changedRepository, gitTakesBranch, handOverWith, pieces, writtenFiles } from '../helpers/secretPlacement';

const KEY = 'Zq8xT4mB2nR7vK9pL3wY6sD1fH5jC0gE';
const GHP = 'ghp_Q7mZ2xR9vL4kT8pW3nY6sB1dF5hJ0cG2aE7u';
const PASSWORD = 'Xy7pQ2vR9sLm4Kt8';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** An EC key's body in the shape of a real P-256 SEC1 key (164 base64 characters), fixed so every run places the same file names. */
const PEM_BODY = `MHcCAQEEI${randomString(4711, 155, B64)}`.match(/.{1,64}/g) ?? [];
const PEM = `-----BEGIN EC PRIVATE KEY-----\n${PEM_BODY.join('\n')}\n-----END EC PRIVATE KEY-----`;

interface Format {
  readonly name: string;
  /** The secret-bearing line placed in every channel. */
  readonly line: string;
  /** What must not reach a file: every 8-character piece of each. */
  readonly values: readonly string[];
}

const FORMATS: readonly Format[] = [
  { name: 'a keyed assignment', line: `api_token="${KEY}"`, values: [KEY] },
  { name: 'a bare GitHub token', line: GHP, values: [GHP] },
  { name: 'a PEM block', line: PEM, values: PEM_BODY.filter((l) => l.length >= 8) },
  { name: 'a URL with credentials', line: `postgres://deploy:${PASSWORD}@db.internal.example.com:5432/app`, values: [PASSWORD] },
];

const CHANNELS = [
  'summary',
  'decision',
  'next step',
  'user turn',
  'assistant turn',
  'command run',
  'test command',
  'file path',
  'branch',
  'topic',
  'commit subject',
] as const;
type Channel = (typeof CHANNELS)[number];

/**
 * The channels that cannot carry a format's line as it is, and why: git refuses spaces and `:`
 * in a branch name, a topic is at most 200 characters, and no file system keeps the `//` of a
 * URL in a path.
 */
const CANNOT: Record<string, Partial<Record<Channel, RegExp>>> = {
  'a PEM block': { branch: /git refuses/, topic: /topic.*at most 200 characters/ },
  'a URL with credentials': { branch: /git refuses/, 'file path': /no file system/ },
};

interface Placed {
  readonly request: Record<string, unknown>;
  readonly steps: SessionStep[];
  /** Why the channel cannot carry this line, when it cannot. */
  readonly impossible?: string;
}

/** Puts `text` (tagged `tag`) into `channel` of a handover from `repo`. */
function place(repo: string, channel: Channel, tag: string, line: string): Placed {
  const text = `${tag} ${line}`;
  const steps: SessionStep[] = [{ user: 'Finish the cart totals and hand over to the reviewer.' }];
  const request: Record<string, unknown> = { specialist: 'quality_reviewer', topic: 'Cart totals' };
  switch (channel) {
    case 'summary':
      request.summary = `${tag}\n${line}`;
      break;
    case 'decision':
      request.decisions = [text];
      break;
    case 'next step':
      request.next_steps = [text];
      break;
    case 'user turn':
      steps.push({ user: text });
      break;
    case 'assistant turn':
      steps.push({ assistant: text });
      break;
    case 'command run':
      steps.push({ command: `printf '%s\\n' '${text}' > notes.txt`, cwd: repo, exitCode: 0, output: '' });
      break;
    case 'test command':
      steps.push({ command: `npm test -- --grep '${text}'`, cwd: repo, exitCode: 0, output: '3 passing' });
      break;
    case 'file path': {
      const rel = `${tag}/${line}`;
      if (path.posix.normalize(rel) !== rel || rel.split('/').some((c) => Buffer.byteLength(c) > 255))
        return { request, steps, impossible: 'no file system holds that path as it is' };
      write(repo, rel, 'x\n');
      break;
    }
    case 'branch': {
      const name = `${tag}/${line}`;
      if (!gitTakesBranch(repo, name)) return { request, steps, impossible: 'git refuses it as a branch name' };
      git(repo, 'checkout', '-q', '-b', name);
      break;
    }
    case 'topic':
      request.topic = text;
      break;
    case 'commit subject':
      write(repo, 'CHANGELOG.md', '- totals\n');
      git(repo, 'add', 'CHANGELOG.md');
      git(repo, 'commit', '-q', '-m', text);
      break;
  }
  return { request, steps };
}

describe('every channel of a handoff passes the same gate (real repositories and transcripts)', function () {
  this.timeout(120_000);
  after(cleanupTempDirs);

  for (const format of FORMATS) {
    describe(`${format.name}`, () => {
      for (const channel of CHANNELS) {
        const cannot = CANNOT[format.name]?.[channel];
        it(`in the ${channel}: ${cannot ? 'the channel cannot carry it, and nothing of it is written or shown' : 'none of it in any file written or in the result'}`, async () => {
          const repo = changedRepository();
          const tag = `chk-${channel.replace(/\s+/g, '-')}`;
          const placed = place(repo, channel, tag, format.line);
          if (placed.impossible) {
            assert.ok(cannot?.test(placed.impossible), `${channel} was expected to carry ${format.name}: ${placed.impossible}`);
            if (channel === 'branch') assert.equal(gitTakesBranch(repo, `${tag}/${format.line}`), false);
            return;
          }
          const result = await handOverWith(repo, placed.request, placed.steps);
          const files = writtenFiles(repo);
          const shown = pieces(JSON.stringify(result), format.values);
          if (result.status !== 'ok') {
            assert.ok(cannot?.test(result.message), `refused: ${result.message}`);
            assert.deepEqual(files, [], 'nothing written');
            assert.deepEqual(shown, [], `the message does not quote it: ${result.message}`);
            return;
          }
          assert.equal(cannot, undefined, `${channel} was expected to refuse ${format.name}`);
          assert.ok(result.history_file, 'the budget cut something, so the history file was written too');
          assert.ok(
            files.some((f) => f.text.includes(tag) || f.file.includes(tag)),
            `the ${channel} reached the handoff's files (its tag "${tag}" is there): ${files.map((f) => f.file).join(', ')}`,
          );
          for (const f of files) {
            const leaked = pieces(`${f.file}\n${f.text}`, format.values);
            assert.deepEqual(
              leaked,
              [],
              `${f.file} shows ${leaked.length} piece(s) of the secret placed in the ${channel}:\n${leaked.map((p) => f.text.split('\n').find((l) => l.includes(p)) ?? f.file).join('\n')}`,
            );
          }
          assert.deepEqual(shown, [], 'the result shows none of it either');
        });
      }
    });
  }
});
