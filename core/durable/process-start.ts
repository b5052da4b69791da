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
