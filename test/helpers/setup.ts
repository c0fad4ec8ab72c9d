/**
 * Loaded before every unit test (see .mocharc.json): points the agents' transcript
 * folders and the CLI's state folder at empty temporary folders, so tests never read
 * the developer's own Claude Code / Codex sessions or write into their home.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = mkdtempSync(path.join(tmpdir(), 'handoff-test-home-'));
process.env.XDG_STATE_HOME = path.join(root, 'state');
process.env.CLAUDE_CONFIG_DIR = path.join(root, 'claude');
process.env.CODEX_HOME = path.join(root, 'codex');
process.env.XDG_CONFIG_HOME = path.join(root, 'config');
// Removed when the run ends, so repeated runs leave nothing in the temporary folder.
process.on('exit', () => rmSync(root, { recursive: true, force: true }));
