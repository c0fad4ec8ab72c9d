/**
 * The test extension with a deterministic chat model (test/integration/chatModelExtension,
 * test only, never shipped), packaged as a .vsix for a test server to install beside ours:
 * code-server's remote extension host loads one `extensionDevelopmentPath` only.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './install';

/** The test extension's folder. */
export const CHAT_MODEL_EXTENSION = path.join(REPO_ROOT, 'test', 'integration', 'chatModelExtension');

/** Packages the test extension into out/handoff-test-chat-model.vsix (vsce) and returns its path. */
export function chatModelExtensionVsix(): string {
  mkdirSync(path.join(REPO_ROOT, 'out'), { recursive: true });
  const vsix = path.join(REPO_ROOT, 'out', 'handoff-test-chat-model.vsix');
  execFileSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '-o', vsix], {
    cwd: CHAT_MODEL_EXTENSION,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return vsix;
}
