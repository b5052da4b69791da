/**
 * @module process-cpu
 * The CPU time a process, or one of its threads, has used (Linux `/proc`), for benchmarks that
 * quote work per CPU second: a figure the machine's load changes far less than wall time.
 */
import { readFileSync } from 'node:fs';

/** User + system seconds of `/proc/<path>/stat` (clock ticks of 1/100 s). */
function statSeconds(path: string): number {
  const fields = readFileSync(`/proc/${path}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds process `pid` has used, every thread counted. */
export function cpuSeconds(pid: number): number {
  return statSeconds(String(pid));
}

/** CPU seconds the main thread of process `pid` (a Node process: its event loop) has used. */
export function mainThreadCpuSeconds(pid: number): number {
  return statSeconds(`${pid}/task/${pid}`);
}
