/**
 * @module variants.bench
 * `npm run bench variants`: delivery variants against the result budget, and fair turns on the
 * encode thread.
 * 1. One held 256³ float32 volume (`smooth_volume`) asked for 80 distinct `window` values, by
 *    plain clients (identity bytes: the windowed copies alone) and by clients accepting gzip
 *    (the compressed bytes too), with `--cache-max-bytes 1000000000`: resident memory at its
 *    peak and after, against the bound of 1.5x the budget plus 300 MiB, and the budget's own
 *    count.
 * 2. Eight clients each asking for distinct `max_triangles` variants of a 400k-triangle mesh
 *    while a ninth downloads a small compressed variant: the ninth's time against an idle host.
 * `VITRINE_VARIANTS_ONLY=memory` or `=fair` runs one of the two.
 */
import { rssMiB } from '../helpers/process-rss.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { buildBenchPlugins, fmt, percentile } from './host-helpers.ts';
import { bystanderTimes, get, variantSpecimens } from './bystander-variants.ts';

const BUDGET = 1_000_000_000;
const BOUND_MIB = (1.5 * BUDGET) / 2 ** 20 + 300;

async function windows(host: RunningHost, encoding: string, lines: string[]): Promise<void> {
  const pid = host.child.pid!;
  const base = '/api/specimens/smooth-volume/data?params=%7B%22size%22%3A256%7D&room_id=variants';
  await get(host, base, { 'accept-encoding': 'identity' });
  const start = rssMiB(pid);
  let peak = start;
  for (let i = 0; i < 80; i++) {
    const res = await get(host, `${base}&window=${(-1 + i / 1000).toFixed(3)},1`, { 'accept-encoding': encoding });
    if (res.status !== 200) throw new Error(`window ${i} answered ${res.status}`);
    peak = Math.max(peak, rssMiB(pid));
  }
  const stats = (await (await fetch(`${host.url}/api/processing/cache/stats`)).json()) as { total_bytes: number };
  lines.push(
    `80 windows of a held 256³ volume (${encoding}): RSS ${fmt(start, 0)} MiB after the volume, peak ${fmt(peak, 0)} MiB, end ${fmt(rssMiB(pid), 0)} MiB ` +
    `(bound ${fmt(BOUND_MIB, 0)} MiB); budget counts ${fmt(stats.total_bytes / 1e6, 0)} MB`,
  );
}

async function fairness(host: RunningHost, lines: string[]): Promise<void> {
  const { idle, busy } = await bystanderTimes(host, 5);
  lines.push(
    `a bystander's small variant (20k-triangle mesh simplified, gzip): median ${fmt(percentile(idle, 50), 0)} ms idle, ${fmt(percentile(busy, 50), 0)} ms ` +
    `while 8 clients ask for distinct max_triangles of a 400k mesh`,
  );
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [];
  const plugins = buildBenchPlugins();
  const only = process.env.VITRINE_VARIANTS_ONLY;
  for (const encoding of ['identity', 'gzip']) {
    const args = ['--port', '0', '--plugins', plugins, '--specimens', variantSpecimens(), '--log-level', 'warn', '--cache-max-bytes', String(BUDGET)];
    const host = await spawnHost(args);
    try {
      if (only !== 'fair') await windows(host, encoding, lines);
      if (encoding === 'identity' && only !== 'memory') await fairness(host, lines);
    } finally {
      await host.stop('SIGKILL');
    }
    if (only === 'fair') break;
  }
  return { name: 'variants', lines };
}
