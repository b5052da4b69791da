/**
 * @module process-rss
 * The resident memory of a process (Linux `/proc/<pid>/status`), for tests and benchmarks that
 * watch a host process's memory: now, and its peak since it was last reset (the kernel keeps
 * it, so no sampling misses a short peak).
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** A field of `/proc/<pid>/status` in bytes (VmRSS: now; VmHWM: the peak since the last reset). */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} for process ${pid}`);
  return Number(match[1]) * 1024;
}

export function rssBytes(pid: number): number {
  return statusBytes(pid, 'VmRSS');
}

export function rssMiB(pid: number): number {
  return rssBytes(pid) / (1024 * 1024);
}

/** Starts the process's peak memory again from what it holds now (writing 5 to clear_refs). */
export function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** The process's peak resident memory in MiB since `resetPeakRss` (or its start). */
export function peakRssMiB(pid: number): number {
  return statusBytes(pid, 'VmHWM') / (1024 * 1024);
}
