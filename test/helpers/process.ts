/**
 * Process helpers for tests that stop commands (verify's timeouts and cancels).
 */
import { existsSync, readFileSync } from 'node:fs';

/** Whether process `pid` still runs: it exists and (where /proc tells) is not a zombie waiting to be reaped. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return !existsSync('/proc');
  }
}
