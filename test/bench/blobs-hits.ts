/**
 * @module blobs-hits
 * Cache hits through nginx against the same bytes as a static file of the same nginx, measured
 * fairly on a shared machine: the same load generator (autocannon, in this process), the same
 * connections and duration, in rounds whose order alternates (blob first, then file first) so a
 * neighbour's burst of work does not always land on one side. Each round gives a ratio; the
 * spread of the rounds is the figure's uncertainty.
 *
 * Beside the rates, the CPU time each request cost nginx's processes (from
 * `/proc/PID/schedstat`, nanoseconds on a CPU) and the load generator (`process.cpuUsage`):
 * what a hit costs nginx does not depend on neighbours, and when the generator costs more per
 * request than nginx, the generator is what the rates measure.
 */
import autocannon from 'autocannon';
import { readFileSync, readdirSync } from 'node:fs';

export interface HitOptions {
  rounds: number;
  seconds: number;
  connections: number;
}

interface Side {
  /** Requests per second, one per round. */
  rates: number[];
  /** Microseconds of nginx's CPU time per request, one per round. */
  nginxUs: number[];
  /** Microseconds of the load generator's CPU time per request, one per round. */
  generatorUs: number[];
}

export interface HitComparison {
  blob: Side;
  file: Side;
  /** blob rate / file rate, one per round. */
  ratios: number[];
}

/** Nanoseconds on a CPU so far of every child of `master` (nginx's workers and cache processes). */
function childrenCpuNs(master: number): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state, ppid, ...
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === master) total += Number(readFileSync(`/proc/${entry}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

async function measure(url: string, master: number, options: HitOptions, side: Side): Promise<void> {
  const nginxBefore = childrenCpuNs(master);
  const generatorBefore = process.cpuUsage();
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    pipelining: 1,
    headers: { 'accept-encoding': 'identity' },
  });
  const generator = process.cpuUsage(generatorBefore);
  const nginxNs = childrenCpuNs(master) - nginxBefore;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const requests = Math.max(1, result.requests.total);
  side.rates.push(result.requests.total / options.seconds);
  side.nginxUs.push(nginxNs / 1000 / requests);
  side.generatorUs.push((generator.user + generator.system) / requests);
}

/** Compares hits on `blobUrl` with `fileUrl`, both served by the nginx whose master is `master`. */
export async function compareHits(blobUrl: string, fileUrl: string, master: number, options: HitOptions): Promise<HitComparison> {
  const blob: Side = { rates: [], nginxUs: [], generatorUs: [] };
  const file: Side = { rates: [], nginxUs: [], generatorUs: [] };
  // One short untimed run of each: connections open, pages and descriptors cached.
  const warm = { ...options, seconds: 1 };
  await measure(blobUrl, master, warm, { rates: [], nginxUs: [], generatorUs: [] });
  await measure(fileUrl, master, warm, { rates: [], nginxUs: [], generatorUs: [] });
  for (let round = 0; round < options.rounds; round++) {
    if (round % 2 === 0) {
      await measure(blobUrl, master, options, blob);
      await measure(fileUrl, master, options, file);
    } else {
      await measure(fileUrl, master, options, file);
      await measure(blobUrl, master, options, blob);
    }
  }
  return { blob, file, ratios: blob.rates.map((rate, i) => rate / file.rates[i]!) };
}

/** Smallest, median and largest of `values`. */
export function spread(values: number[]): { min: number; median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { min: sorted[0]!, median, max: sorted.at(-1)! };
}
