/**
 * @module process-groups
 * The live processes each plugin process holds, read from `/proc` (Linux): those in its process
 * group, and every process descended from it. A child that calls `setsid` leaves the group but
 * not the tree: the plugin process makes itself its descendants' subreaper at start (vitrine's
 * runner), so even a child that forks twice and lets its parent die stays under it. The pool uses
 * this to bound what a plugin process starts and to find children left behind by a call, and
 * `killTree` ends all of it. RLIMIT_NPROC cannot do this alone: it counts every thread of the
 * user, and the kernel does not apply it to root at all. Where there is no `/proc`, nothing is
 * counted (an empty map).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

interface ProcessStat {
  pid: number;
  ppid: number;
  group: number;
}

/** The process whose `/proc/<pid>/stat` is `stat`, or null when it is a zombie (dead, not yet reaped). */
function liveStatOf(pid: number, stat: string): ProcessStat | null {
  // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return null;
  const [ppid, group] = [Number(fields[1]), Number(fields[2])];
  return Number.isInteger(ppid) && Number.isInteger(group) ? { pid, ppid, group } : null;
}

/** Every live process of the machine; empty where there is no `/proc`. */
async function liveProcesses(): Promise<ProcessStat[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const stats = await Promise.all(
    entries.map(async (entry) => {
      if (!/^\d+$/.test(entry)) return null;
      try {
        return liveStatOf(Number(entry), await readFile(`/proc/${entry}/stat`, 'utf8'));
      } catch {
        return null; // gone since the listing
      }
    }),
  );
  return stats.filter((stat): stat is ProcessStat => stat !== null);
}

/** Live processes under each of `roots` (plugin processes' pids): each root itself, its group and its descendants. */
export async function groupMembers(roots: ReadonlySet<number>): Promise<Map<number, number[]>> {
  const members = new Map<number, number[]>();
  if (roots.size === 0) return members;
  const processes = await liveProcesses();
  const children = new Map<number, number[]>();
  for (const p of processes) {
    const siblings = children.get(p.ppid);
    if (siblings) siblings.push(p.pid);
    else children.set(p.ppid, [p.pid]);
  }
  const live = new Set(processes.map((p) => p.pid));
  for (const root of roots) {
    if (!live.has(root)) continue;
    const found = new Set<number>([root]);
    for (const p of processes) if (p.group === root) found.add(p.pid);
    // Descendants: the tree below the root (a pid is its own parent nowhere, so this ends).
    const queue = [root];
    while (queue.length > 0) {
      for (const child of children.get(queue.pop()!) ?? []) {
        found.add(child);
        queue.push(child);
      }
    }
    members.set(root, [...found]);
  }
  return members;
}

/** Whether the kernel lists each thread's children (`/proc/<pid>/task/<tid>/children`): then {@link processesUnder} is cheap. */
export const childListsKept = existsSync(`/proc/${process.pid}/task/${process.pid}/children`);

/**
 * The text of a small `/proc` file, or null when its process is gone. Read at once: each is a
 * few bytes, and a read through the thread pool costs ten times more.
 */
function procText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The children of `pid`, as each of its threads lists those it forked; those that are zombies are left out. */
function liveChildrenOf(pid: number): number[] {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return []; // gone
  }
  const children = threads.flatMap((tid) => (procText(`/proc/${pid}/task/${tid}/children`) ?? '').split(' ').filter(Boolean).map(Number));
  return children.filter((child) => {
    const stat = procText(`/proc/${child}/stat`);
    return stat !== null && liveStatOf(child, stat) !== null;
  });
}

/** The live processes under `root` (not itself), read from its tree: a few small files a process. */
function liveDescendants(root: number): number[] {
  const found: number[] = [];
  for (let level = [root]; level.length > 0; ) {
    level = level.flatMap(liveChildrenOf);
    found.push(...level);
  }
  return found;
}

/**
 * The live processes under each of `roots` (plugin processes' pids; the roots not counted).
 * Where the kernel lists children, read from each root's tree alone, a few small files a
 * process, so it can be asked often while a call runs (the plugin process is the subreaper of
 * all it starts, so its tree holds every one of them); elsewhere from {@link groupMembers},
 * which reads every process of the machine.
 */
export async function processesUnder(roots: number[]): Promise<number[][]> {
  if (childListsKept) return roots.map(liveDescendants);
  const groups = await groupMembers(new Set(roots));
  return roots.map((root) => (groups.get(root) ?? []).filter((pid) => pid !== root));
}

/** Rounds of looking for what is still under a process being ended (each may find children forked meanwhile). */
const KILL_ROUNDS = 5;

/**
 * Ends process `root`, its group and every process under it. The group is stopped first (it
 * forks no more), then what is under the root is killed round by round while the root still
 * lives, since a process orphaned meanwhile is handed to the root and found in the next round;
 * the root's group last.
 */
export async function killTree(root: number): Promise<void> {
  const signal = (pid: number, name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // Gone already.
    }
  };
  signal(-root, 'SIGSTOP');
  for (let round = 0; round < KILL_ROUNDS; round++) {
    const under = ((await groupMembers(new Set([root]))).get(root) ?? []).filter((pid) => pid !== root);
    if (under.length === 0) break;
    for (const pid of under) signal(pid, 'SIGKILL');
  }
  signal(-root, 'SIGKILL');
  signal(root, 'SIGKILL');
}
