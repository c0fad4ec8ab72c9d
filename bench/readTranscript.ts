/**
 * Child process of the session-log bench: reads one Claude Code transcript (from an
 * optional byte offset) and prints {ms, maxRssMb, events, endOffset} as JSON. Run as a
 * separate process so its peak RSS is its own.
 */
import { readClaudeCode } from '../src/evidence/session/readers/claudeCode';

const [file, offset] = process.argv.slice(2);
const t = process.hrtime.bigint();
void readClaudeCode(file, { fromOffset: Number(offset ?? 0) }).then((r) => {
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  process.stdout.write(JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, events: r.events.length, lines: r.stats.lines, endOffset: r.end_offset }));
});
