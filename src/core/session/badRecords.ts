import { formatCount } from '../handoff/limits';
import type { ReadStats } from './events';

/** `<file>: 3 of 1,204 lines are not valid JSON records and were skipped (first at line 17)`; with `resumed`, positions count from the read's start. */
export function badRecordsNote(file: string, stats: Pick<ReadStats, 'lines' | 'bad_records'>, resumed: boolean): string | undefined {
  const bad = stats.bad_records;
  if (!bad) return undefined;
  const unit = bad.unit === 'line' ? 'line' : 'item';
  const units = `${unit}s`;
  const of = resumed
    ? `of the ${formatCount(stats.lines)} ${stats.lines === 1 ? unit : units} new since the previous read`
    : `of ${formatCount(stats.lines)} ${stats.lines === 1 ? unit : units}`;
  const what =
    bad.unit === 'line'
      ? bad.count === 1
        ? 'is not a valid JSON record and was'
        : 'are not valid JSON records and were'
      : bad.count === 1
        ? 'is not a valid record and was'
        : 'are not valid records and were';
  const where = bad.count === 1 ? `${unit} ${formatCount(bad.first)}` : `first at ${unit} ${formatCount(bad.first)}`;
  return `${file}: ${formatCount(bad.count)} ${of} ${what} skipped (${where}${resumed ? ' of them' : ''})`;
}
