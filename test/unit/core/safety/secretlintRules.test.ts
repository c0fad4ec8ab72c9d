/**
 * secretlint run for hours (the extension host, the MCP server): redacting leaves no
 * performance marks or measures behind (src/core/safety/secretlintRules.ts turns
 * secretlint's profiler off), so memory does not grow with every redaction.
 */
import assert from 'node:assert/strict';
import { redactSecrets } from '../../../../src/core/safety/redact';

describe('secretlint in a long-running process (src/core/safety/secretlintRules.ts)', function () {
  this.timeout(30_000);

  it('leaves no performance marks or measures of its runs behind', async () => {
    const secretlintEntries = () =>
      [...performance.getEntriesByType('mark'), ...performance.getEntriesByType('measure')].filter((e) => e.name.startsWith('@core>')).length;
    const before = secretlintEntries();
    for (let i = 0; i < 50; i++) {
      const r = await redactSecrets(`step ${i}: export GITHUB_TOKEN=ghp_${'A1b2C3d4E5'.repeat(3)}${String(i).padStart(6, '0')}`);
      assert.doesNotMatch(r.text, /ghp_A1b2/, 'the token is still redacted');
    }
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(secretlintEntries() - before, 0, 'no marks or measures of secretlint runs accumulate');
  });
});
