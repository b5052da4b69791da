/**
 * @module loop-delay-preload
 * Loaded into a host process by the event-loop bench (`node --import`): the delay of a timer of
 * 5 ms resolution on the main thread (perf_hooks), i.e. how long its longest turns were. SIGUSR2
 * writes what was recorded since the last SIGUSR2 to the file LOOP_DELAY_FILE names (JSON of
 * max, p99, p50 in ms and the count) and starts over.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
process.on('SIGUSR2', () => {
  const ms = (ns) => ns / 1e6;
  const summary = { max: ms(histogram.max), p99: ms(histogram.percentile(99)), p50: ms(histogram.percentile(50)), count: histogram.count };
  // Written aside then renamed: the bench never reads half of it.
  writeFileSync(`${process.env.LOOP_DELAY_FILE}.part`, JSON.stringify(summary));
  renameSync(`${process.env.LOOP_DELAY_FILE}.part`, process.env.LOOP_DELAY_FILE);
  histogram.reset();
});
