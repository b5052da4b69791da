/**
 * @module process-rss
 * The resident memory of a process (Linux `/proc/<pid>/status`), for tests and benchmarks that
 * watch a host process's memory.
 */
import { readFileSync } from 'node:fs';

export function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

export function rssMiB(pid: number): number {
  return rssBytes(pid) / (1024 * 1024);
}
