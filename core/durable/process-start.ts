/**
 * @module process-start
 * When a process started, as the kernel tells it (`/proc/<pid>/stat`, clock ticks since boot,
 * with the boot's id), so that a process id written down earlier can be told from a later
 * process given the same id: after a reboot or a container's restart, pid 1 (or any pid) is
 * someone else. Null where there is no `/proc` to ask (the pid alone must then do).
 */
import { readFileSync } from 'node:fs';

/** Where a process stands in time: `<boot id>/<start ticks>`, or null when it cannot be told. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name (field 2) may hold spaces and parentheses: the fields after its last ')' start at field 3.
    const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    if (!ticks || !/^\d+$/.test(ticks)) return null;
    return `${bootId()}/${ticks}`;
  } catch {
    return null;
  }
}

/** The kernel's flag on a task that has begun to exit (include/linux/sched.h). */
const PF_EXITING = 0x4;
/** SIGKILL's bit in the signal masks of `/proc/<pid>/status` (signal 9: bit 8). */
const SIGKILL_BIT = 1n << 8n;

/**
 * Whether process `pid` is ending and can run no more of its own code: a zombie (`Z`: gone,
 * its parent not yet told) or dead (`X`) by `/proc/<pid>/stat`, one the kernel marks as exiting
 * (a killed process tearing down its memory, which takes a second or more for a large one), or
 * one with SIGKILL pending, not yet acted on.
 * False when that cannot be read: the pid alone must then do.
 */
export function isEnding(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the name's last ')': the state (field 3) first, the kernel's flags (field 9) seventh.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (['Z', 'X', 'x'].includes(fields[0]!) || (Number(fields[6]) & PF_EXITING) !== 0) return true;
    const pending = readFileSync(`/proc/${pid}/status`, 'utf8').matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gim);
    return [...pending].some((mask) => (BigInt(`0x${mask[1]}`) & SIGKILL_BIT) !== 0n);
  } catch {
    return false;
  }
}

/** Whether process `pid` runs vitrine, by its command line; null when that cannot be read. */
export function runsVitrine(pid: number): boolean | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('vitrine');
  } catch {
    return null;
  }
}

function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return 'boot';
  }
}
