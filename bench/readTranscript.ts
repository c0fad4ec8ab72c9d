/**
 * Child process of the session-log bench: reads one Claude Code transcript (from an
 * optional byte offset) and prints {ms, maxRssMb, events, lines, endOffset} as JSON. Run as a
 * separate process so its peak RSS is its own (see {@link ownPeakRssMb}).
 */
import { readFileSync } from 'node:fs';
import { readClaudeCode } from '../src/evidence/session/readers/claudeCode';

/**
 * This process's own peak resident set size (MB): `VmHWM` of /proc/self/status on Linux (the
 * high-water mark of this process image's memory, proc(5)), elsewhere getrusage's maxRSS. Not
 * getrusage on Linux: a child started with fork + exec keeps the parent's peak in it (the
 * kernel carries `maxrss` across exec), so every child of the bench process read at least the
 * bench's own ~90 MB. Keep in step with `PEAK_RSS_JS` in ./sessionLog.ts (the idle baseline).
 */
export function ownPeakRssMb(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // not Linux: getrusage below
  }
  return process.resourceUsage().maxRSS / 1024;
}

const [file, offset] = process.argv.slice(2);
const t = process.hrtime.bigint();
void readClaudeCode(file, { fromOffset: Number(offset ?? 0) }).then((r) => {
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  process.stdout.write(JSON.stringify({ ms, maxRssMb: ownPeakRssMb(), events: r.events.length, lines: r.stats.lines, endOffset: r.end_offset }));
});
