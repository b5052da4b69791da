/**
 * @module loop-delay
 * A host's event-loop delay as benches read it: the host started with `--import
 * LOOP_DELAY_PRELOAD` and `LOOP_DELAY_FILE` in its environment (loop-delay-preload.mjs) writes
 * what its main thread's timer saw when asked, and starts over: the delay, and its longest and
 * busiest turns split into the main thread's CPU time and its wait for a core, so that a loaded
 * machine (long turns, little CPU in them) is told apart from a host that blocks (a turn of
 * much CPU).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../helpers/wait-for.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { fmt } from './host-helpers.ts';

export const LOOP_DELAY_PRELOAD = fileURLToPath(new URL('./loop-delay-preload.mjs', import.meta.url));

/** A turn of the host's event loop: its wall time, the main thread's CPU and wait for a core in it (ms), when it began (monotonic ms). */
export interface Turn {
  wall: number;
  cpu: number;
  wait: number;
  at: number;
}

export interface LoopDelay {
  max: number;
  p99: number;
  p50: number;
  count: number;
  /** Null where the kernel does not count a thread's times. */
  longest: Turn | null;
  busiest: Turn | null;
  /** The busiest few, most CPU first. */
  turns: Turn[];
}

/** A turn as words: `812 ms (CPU 40 ms, waiting for a core 760 ms)`. */
export const turnWords = (turn: Turn): string => `${fmt(turn.wall, 0)} ms (CPU ${fmt(turn.cpu, 0)} ms, waiting for a core ${fmt(turn.wait, 0)} ms)`;

/** The host's event-loop delay since the last call, as recorded. */
export async function readLoopDelay(host: RunningHost, file: string): Promise<LoopDelay> {
  rmSync(file, { force: true });
  host.child.kill('SIGUSR2');
  const text = await waitFor(() => (existsSync(file) ? readFileSync(file, 'utf8') || undefined : undefined), 'the loop delay written');
  return JSON.parse(text) as LoopDelay;
}

/** The host's event-loop delay since the last call, as a line's words: the delay, its longest turn and its busiest. */
export async function loopDelay(host: RunningHost, file: string): Promise<string> {
  const { max, p99, count, longest, busiest } = await readLoopDelay(host, file);
  const split = longest && busiest ? `; longest turn ${turnWords(longest)}, busiest turn ${turnWords(busiest)}` : '';
  return `event-loop delay p99 ${fmt(p99, 0)} ms, max ${fmt(max, 0)} ms (${count} timer turns)${split}`;
}
