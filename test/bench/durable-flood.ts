/**
 * @module durable-flood
 * Section 6 of `npm run bench durable`: writes from many clients at once, which mostly share
 * commits on lmdb-js's write thread (one that meets nothing under way commits alone, in place),
 * and what they cost the rest of the host. 32 clients add 100 marks
 * each to eight rooms, on a host with a data folder and then on one with `--data-dir none`,
 * while one more client reads another room's marks every 2 ms: adds a second and the reads'
 * p50/p99, which say how long the loop was held; then the disk flushes a third flood took, on
 * disk under strace (fewer than one a write when commits are shared).
 */
import path from 'node:path';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { addOne, flushesDuring, startMeasured } from './durable-flushes.ts';
import { benchSpecimens, buildBenchPlugins, fmt, percentile } from './host-helpers.ts';

const CLIENTS = 32;
const EACH = 100;

/** The flood on `host`: its duration, and the quiet room's read latencies meanwhile. */
async function flood(host: RunningHost): Promise<{ ms: number; reads: number[] }> {
  await addOne(host.url, 0, 'quiet');
  let flooding = true;
  const reads: number[] = [];
  const reader = (async () => {
    while (flooding) {
      const started = performance.now();
      await (await fetch(`${host.url}/api/rooms/quiet/annotations`)).arrayBuffer();
      reads.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; i < EACH; i++) await addOne(host.url, i, `flood-${client % 8}`, client);
    }),
  );
  const ms = performance.now() - started;
  flooding = false;
  await reader;
  return { ms, reads };
}

/** Section 6: the flood on disk, then in memory; then again on disk under strace, for its flushes alone (strace slows the host). */
export async function manyWriters(dir: string): Promise<string[]> {
  const [plugins, specimens] = [buildBenchPlugins(), benchSpecimens()];
  const adds = CLIENTS * EACH;
  const line = (label: string, run: { ms: number; reads: number[] }) =>
    `${label} ${fmt((adds / run.ms) * 1000)} adds/s, another room's read p50 ${fmt(percentile(run.reads, 50))} ms, p99 ${fmt(percentile(run.reads, 99))} ms`;
  const on = async <T>(dataDir: string, work: (host: RunningHost) => Promise<T>): Promise<T> => {
    const host = await startMeasured(dataDir, plugins, specimens);
    try {
      return await work(host);
    } finally {
      await host.stop();
    }
  };
  const onDisk = await on(path.join(dir, 'flood'), flood);
  const inMemory = await on('none', flood);
  const traced = (host: RunningHost) => flushesDuring(host.child.pid!, path.join(dir, 'flood-strace.txt'), async () => void (await flood(host)));
  const flushes = await on(path.join(dir, 'flood-traced'), traced);
  const counted = typeof flushes === 'string' ? `not counted, ${flushes}` : `${flushes.calls}, ${fmt(flushes.calls / adds)} a write`;
  return [
    `${adds} adds by ${CLIENTS} clients at once into 8 rooms: ${line('on disk', onDisk)}; ${line('in memory', inMemory)}; ` +
      `the flushes on disk (a run of its own under strace -f) ${counted}`,
  ];
}
