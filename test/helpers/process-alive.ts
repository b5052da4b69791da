/**
 * @module process-alive
 * Whether a process lives, read from `/proc` (Linux): a zombie waiting to be reaped does not.
 */
import { readFileSync } from 'node:fs';

/** True while `pid` is a live process (a zombie waiting to be reaped is not). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return false;
  }
}
