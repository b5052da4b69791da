/**
 * @module process-groups
 * How many live processes each process group holds, read from `/proc` (Linux). The pool uses
 * it to bound what a plugin process starts and to find children left behind by a cancelled
 * call. RLIMIT_NPROC cannot do this alone: it counts every thread of the user, and the kernel
 * does not apply it to root at all. Where there is no `/proc`, nothing is counted (an empty map).
 */
import { readdir, readFile } from 'node:fs/promises';

/** The process group of the process whose `/proc/<pid>/stat` is `stat`, or null when it is a zombie. */
function liveGroupOf(stat: string): number | null {
  // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return null;
  const group = Number(fields[2]);
  return Number.isInteger(group) ? group : null;
}

/** Live processes per process group, for the groups in `groups` (members' pids). */
export async function groupMembers(groups: ReadonlySet<number>): Promise<Map<number, number[]>> {
  const members = new Map<number, number[]>();
  if (groups.size === 0) return members;
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return members;
  }
  await Promise.all(
    entries.map(async (entry) => {
      if (!/^\d+$/.test(entry)) return;
      let stat: string;
      try {
        stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      } catch {
        return; // gone since the listing
      }
      const group = liveGroupOf(stat);
      if (group === null || !groups.has(group)) return;
      const list = members.get(group);
      if (list) list.push(Number(entry));
      else members.set(group, [Number(entry)]);
    }),
  );
  return members;
}
