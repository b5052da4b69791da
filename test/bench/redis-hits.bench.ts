/**
 * @module redis-hits.bench
 * `npm run bench redis-hits`: small mesh hits (a 2,000-triangle envelope of about 50 KB, the
 * peer bench driver's 50 connections, 8 s) on a Redis service's front end (`--redis --compute 0`,
 * a `vitrine worker` beside it, the room pointer held) against a lone in-memory host, in
 * alternating rounds of one run (target: the median ratio ≥ 0.9), with each server's CPU per
 * hit and the load average at every round (the machine is shared). HITS_PROFILE=DIR also writes
 * both hosts' CPU profiles there (`--cpu-prof`), to see what a hit does on each.
 */
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { startRedis } from '../helpers/redis-server.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { cannon, cpuMs } from './hit-baselines.ts';
import { benchSpecimens, buildBenchPlugins, download, fmt, startBenchWorker } from './host-helpers.ts';

const ROUNDS = 5;
const SMALL = `/api/specimens/grid_mesh/data?params=${encodeURIComponent('{"triangles":2000}')}&room_id=bench-small`;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const load = () => loadavg()[0]!.toFixed(1);

/** `--cpu-prof` into HITS_PROFILE/<name>, when it is set. */
function profiling(name: string): string[] {
  const dir = process.env.HITS_PROFILE;
  if (!dir) return [];
  mkdirSync(path.join(dir, name), { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${path.join(dir, name)}`];
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const redis = await startRedis();
  const plugins = buildBenchPlugins();
  const common = ['--port', '0', '--plugins', plugins, '--specimens', benchSpecimens(), '--log-level', 'warn', '--data-dir', 'none'];
  const worker = await startBenchWorker(['--redis', redis.url, '--plugins', plugins]);
  const memory = await spawnHost(common, { nodeArgs: profiling('memory') });
  const front = await spawnHost([...common, '--redis', redis.url, '--compute', '0'], { nodeArgs: profiling('redis') });
  try {
    const servers = [
      ['in-memory host', `${memory.url}${SMALL}`, memory.child.pid!],
      ['Redis front end', `${front.url}${SMALL}`, front.child.pid!],
    ] as const;
    const bytes = (await download(servers[0][1])).bytes;
    for (const [, url] of servers) {
      await download(url);
      await cannon(url);
    }
    const rates: number[][] = [[], []];
    const cpu: number[][] = [[], []];
    const loads: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      loads.push(load());
      for (let k = 0; k < 2; k++) {
        const at = (k + round) % 2;
        const [, url, pid] = servers[at]!;
        const before = cpuMs(pid);
        const result = await cannon(url);
        if (result.errors + result.non2xx > 0) throw new Error(`${servers[at]![0]}: ${result.errors} errors, ${result.non2xx} not 2xx`);
        rates[at]!.push(result.requests.average);
        cpu[at]!.push((cpuMs(pid) - before) / result.requests.total);
      }
    }
    const ratios = rates[1]!.map((rate, i) => rate / rates[0]![i]!);
    return {
      name: 'small mesh hits: a Redis service against the in-memory host',
      lines: [
        `small mesh envelope hits (${bytes} bytes), 50 connections, 8 s, ${ROUNDS} alternating rounds; load average (1 min) at each round: ${loads.join(', ')}`,
        ...servers.map(
          ([label], i) =>
            `  ${label}: median ${fmt(median(rates[i]!), 0)} req/s (rounds ${rates[i]!.map((r) => fmt(r, 0)).join(', ')}), ` +
            `CPU ${fmt(median(cpu[i]!) * 1000, 0)} us per hit`,
        ),
        `  Redis front end / in-memory host: median ${fmt(median(ratios))} (rounds ${ratios.map((r) => fmt(r)).join(', ')}; target >= 0.9)`,
      ],
    };
  } finally {
    await front.stop('SIGTERM');
    await memory.stop('SIGTERM');
    worker.kill('SIGTERM');
    await redis.stop();
  }
}
