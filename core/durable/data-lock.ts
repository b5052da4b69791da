/**
 * @module data-lock
 * One host per data folder: a `lock` file holding the process id of the host using it and when
 * that process started (by `/proc`), made with exclusive creation. A lock is held only
 * while a process of that id runs and is that very process: one whose pid is gone (a crash,
 * `kill -9`) or now names another process (started at another time: after a reboot or a
 * container's restart, pid 1 is the new container's first process) is stale and taken over,
 * and so is one whose process is ending (a zombie, or killed and still tearing down): it can run
 * none of its own code again, so a supervisor that starts a new host the moment after kill -9
 * is not refused. A held one refuses the second host with the folder and the first one's pid.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'lock';

/** The text of the `/proc` file `file`; null when it cannot be read (no `/proc`, or the process is gone). */
function procText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The fields of `/proc/<pid>/stat` from the state (field 3) on; null when it cannot be read. The
 * name (field 2) may hold spaces and parentheses: the fields after its last ')' start at field 3.
 */
function statFields(pid: number): string[] | null {
  const stat = procText(`/proc/${pid}/stat`);
  return stat === null ? null : stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * Where a process stands in time, as the kernel tells it (`/proc/<pid>/stat`, clock ticks since
 * boot, with the boot's id): `<boot id>/<start ticks>`, so that a process id written down earlier
 * can be told from a later process given the same id. Null where there is no `/proc` to ask (the
 * pid alone must then do).
 */
function processStart(pid: number): string | null {
  // The start time is field 22.
  const ticks = statFields(pid)?.[19];
  if (!ticks || !/^\d+$/.test(ticks)) return null;
  return `${bootId()}/${ticks}`;
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
function isEnding(pid: number): boolean {
  // The state (field 3) first, the kernel's flags (field 9) seventh.
  const fields = statFields(pid);
  if (fields === null) return false;
  if (['Z', 'X', 'x'].includes(fields[0]!) || (Number(fields[6]) & PF_EXITING) !== 0) return true;
  const pending = procText(`/proc/${pid}/status`)?.matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gim) ?? [];
  return [...pending].some((mask) => (BigInt(`0x${mask[1]}`) & SIGKILL_BIT) !== 0n);
}

/** Whether process `pid` runs vitrine, by its command line; null when that cannot be read. */
function runsVitrine(pid: number): boolean | null {
  return procText(`/proc/${pid}/cmdline`)?.includes('vitrine') ?? null;
}

function bootId(): string {
  return procText('/proc/sys/kernel/random/boot_id')?.trim() ?? 'boot';
}

/** Whether a process of id `pid` is running (one we may not signal still counts). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What a lock says: the holder's pid, and when it started (absent in a lock an older vitrine wrote). */
interface LockOwner {
  pid: number;
  start: string | null;
}

function ownerOf(file: string): LockOwner | null {
  try {
    const [first, second] = readFileSync(file, 'utf8').split('\n');
    const pid = Number(first?.trim());
    if (!Number.isSafeInteger(pid) || pid <= 0) return null;
    const start = second?.startsWith('start ') ? second.slice(6).trim() : null;
    return { pid, start };
  } catch {
    return null;
  }
}

/** Whether the lock's holder still runs: its pid alive, not ending, and the same process that wrote it. */
function holds(owner: LockOwner): boolean {
  if (!alive(owner.pid) || isEnding(owner.pid)) return false;
  const now = processStart(owner.pid);
  // Without /proc the pid alone decides; a lock with no start (an older vitrine's) holds while a vitrine runs under that pid.
  if (now === null) return true;
  return owner.start !== null ? owner.start === now : runsVitrine(owner.pid) !== false;
}

function tryCreate(file: string): boolean {
  try {
    const fd = openSync(file, 'wx');
    const start = processStart(process.pid);
    writeSync(fd, `${process.pid}\n${start ? `start ${start}\n` : ''}`);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Takes the folder's lock; returns the function that gives it back. */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(file)) return () => release(file);
    const owner = ownerOf(file);
    if (owner !== null && owner.pid !== process.pid && holds(owner)) {
      throw new Error(`the data dir ${dir} is in use by another vitrine host (pid ${owner.pid}); stop it first, or give this one another --data-dir`);
    }
    // Stale (its host is gone, or its pid is another process's now) or half written: taken over.
    try {
      unlinkSync(file);
    } catch {
      // Another host starting at the same moment removed it first; the next attempt decides.
    }
  }
  throw new Error(`the data dir ${dir} could not be locked (${file} keeps coming back); is another host starting on it?`);
}

function release(file: string): void {
  if (ownerOf(file)?.pid !== process.pid) return;
  try {
    unlinkSync(file);
  } catch {
    // Already gone: nothing to give back.
  }
}
