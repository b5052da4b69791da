/**
 * @module data-lock
 * One host per data folder: a `lock` file holding the process id of the host using it, made
 * with exclusive creation. A lock whose process is gone (a crash, `kill -9`) is stale and
 * taken over; a live one refuses the second host with the folder and the first one's pid.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'lock';

/** Whether a process of id `pid` is running (one we may not signal still counts). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function tryCreate(file: string): boolean {
  try {
    const fd = openSync(file, 'wx');
    writeSync(fd, `${process.pid}\n`);
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
    if (owner !== null && owner !== process.pid && alive(owner)) {
      throw new Error(`the data dir ${dir} is in use by another vitrine host (pid ${owner}); stop it first, or give this one another --data-dir`);
    }
    // Stale (its host is gone) or half written: taken over.
    try {
      unlinkSync(file);
    } catch {
      // Another host starting at the same moment removed it first; the next attempt decides.
    }
  }
  throw new Error(`the data dir ${dir} could not be locked (${file} keeps coming back); is another host starting on it?`);
}

function release(file: string): void {
  if (ownerOf(file) !== process.pid) return;
  try {
    unlinkSync(file);
  } catch {
    // Already gone: nothing to give back.
  }
}
