/**
 * @module loop-delay
 * A host's event-loop delay as benches read it: the host started with `--import
 * LOOP_DELAY_PRELOAD` and `LOOP_DELAY_FILE` in its environment (loop-delay-preload.mjs) writes
 * what its main thread's timer saw when asked, and starts over.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../helpers/wait-for.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { fmt } from './host-helpers.ts';

export const LOOP_DELAY_PRELOAD = fileURLToPath(new URL('./loop-delay-preload.mjs', import.meta.url));

/** The host's event-loop delay since the last call, as a line's words. */
export async function loopDelay(host: RunningHost, file: string): Promise<string> {
  rmSync(file, { force: true });
  host.child.kill('SIGUSR2');
  const text = await waitFor(() => (existsSync(file) ? readFileSync(file, 'utf8') || undefined : undefined), 'the loop delay written');
  const { max, p99, count } = JSON.parse(text) as { max: number; p99: number; count: number };
  return `event-loop delay p99 ${fmt(p99, 0)} ms, max ${fmt(max, 0)} ms (${count} timer turns)`;
}
