/**
 * `npm run test:real`: every log of both real corpora (../shared/fixtures/real-logs and
 * test/fixtures/real, read in place) is read by its content with its agent's format, whatever its
 * name: a copy under a neutral name (no extension, no agent's file name; a task folder renamed) is
 * detected as the same format and gives the same events as the log in place.
 */
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { readByContent } from '../../src/evidence/session/agentReaders';
import { loadFacts } from '../helpers/realFacts';
import { cleanupTempDirs, tempDir } from '../helpers/repo';

const SHARED = path.resolve(__dirname, '..', '..', '..', 'shared', 'fixtures');
const OWN = path.resolve(__dirname, '..', 'fixtures', 'real');
const CORPORA = [
  { facts: path.join(SHARED, 'real-logs', 'facts.json'), logs: path.join(SHARED, 'real-logs') },
  { facts: path.join(OWN, 'facts.json'), logs: existsSync(path.join(OWN, 'claude-code')) ? OWN : path.join(SHARED, 'real-corpus') },
];

/** The reader each corpus folder's logs belong to. */
const SOURCE_OF_FOLDER: Record<string, readonly string[]> = {
  'claude-code': ['claude-code'],
  codex: ['codex'],
  aider: ['aider'],
  cline: ['cline', 'roo', 'kilo'],
  specstory: ['specstory'],
  gemini: ['gemini'],
  opencode: ['opencode'],
  copilot: ['copilot'],
  'copilot-cli': ['copilot-cli'],
  qwen: ['qwen'],
  droid: ['droid'],
  continue: ['continue'],
  cursor: ['cursor'],
  amp: ['amp'],
  kiro: ['kiro'],
  windsurf: ['windsurf'],
  antigravity: ['antigravity'],
};

describe("real logs are read by content with their agent's format, whatever their name", function () {
  this.timeout(60_000);
  after(cleanupTempDirs);

  for (const corpus of CORPORA) {
    if (!existsSync(corpus.facts) || !existsSync(corpus.logs)) continue;
    loadFacts(corpus.facts).forEach((f, i) => {
      it(`${path.basename(path.dirname(corpus.facts))}/${f.file}`, async () => {
        const log = path.join(corpus.logs, f.file);
        const inPlace = await readByContent(log);
        assert.ok(inPlace, `${f.file} is read in place`);
        assert.ok(SOURCE_OF_FOLDER[f.file.split('/')[0]]?.includes(inPlace.detected.source), `read as ${inPlace.detected.source}`);
        const dir = tempDir('handoff-real-neutral-');
        let neutral: string;
        if (statSync(log).isDirectory()) {
          neutral = path.join(dir, `task-${i}`);
          cpSync(log, neutral, { recursive: true });
        } else {
          mkdirSync(dir, { recursive: true });
          neutral = path.join(dir, `log-${i}`);
          copyFileSync(log, neutral);
        }
        const renamed = await readByContent(neutral);
        assert.ok(renamed, 'the renamed copy is read');
        assert.equal(renamed.detected.format, inPlace.detected.format);
        assert.equal(renamed.read.error, undefined);
        assert.deepEqual(renamed.read.events, inPlace.read.events, 'the same events whatever the name');
      });
    });
  }
});
