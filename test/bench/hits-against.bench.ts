/**
 * @module hits-against.bench
 * `HOST_AGAINST=DIR npm run bench hits-against`: small mesh cache hits (the host bench's
 * section 3: a 2,000-triangle envelope of about 50 KB, 50 connections, 8 s) on this checkout's
 * host, on the host of another checkout DIR (a worktree of an earlier commit, compiled there
 * with `npm run compile`), and on a bare node:http server sending the same bytes, in
 * alternating rounds of one run: whether a change made hits slower, and how both stand to the
 * bare bound. The other checkout's own bench helpers start its host, with its own plugins and
 * defaults, as its `npm run bench host` would. Without HOST_AGAINST it says how to run it.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { cannon, cpuMs, startBaseline } from './hit-baselines.ts';
import { download, fmt, startBenchHost } from './host-helpers.ts';

const ROUNDS = 5;
const SMALL = `/api/specimens/grid_mesh/data?params=${encodeURIComponent('{"triangles":2000}')}&room_id=bench-small`;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(): Promise<{ name: string; lines: string[] }> {
  const tree = process.env.HOST_AGAINST;
  const name = 'hits against another checkout';
  if (!tree) return { name, lines: ['set HOST_AGAINST to a compiled checkout (git worktree add ../before COMMIT; npm run compile there) to compare'] };
  const other = (await import(pathToFileURL(path.join(path.resolve(tree), 'test/bench/host-helpers.ts')).href)) as {
    startBenchHost: () => Promise<RunningHost>;
  };
  const ours = await startBenchHost();
  const theirs = await other.startBenchHost();
  const [oursFirst, theirsFirst] = [await download(`${ours.url}${SMALL}`), await download(`${theirs.url}${SMALL}`)];
  const bare = await startBaseline('node', `${ours.url}${SMALL}`);
  try {
    const servers = [
      ['this checkout', `${ours.url}${SMALL}`, ours.child.pid!],
      [path.basename(path.resolve(tree)), `${theirs.url}${SMALL}`, theirs.child.pid!],
      ['bare node:http', bare.url, bare.pid],
    ] as const;
    for (const [, url] of servers) await cannon(url);
    const rates: number[][] = servers.map(() => []);
    const cpu: number[][] = servers.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      // Each round in another order, so no server always runs first.
      for (let k = 0; k < servers.length; k++) {
        const at = (k + round) % servers.length;
        const [, url, pid] = servers[at]!;
        const before = cpuMs(pid);
        const result = await cannon(url);
        rates[at]!.push(result.requests.average);
        cpu[at]!.push((cpuMs(pid) - before) / result.requests.total);
      }
    }
    const ratio = (a: number, b: number) => rates[a]!.map((rate, i) => rate / rates[b]![i]!);
    return {
      name,
      lines: [
        `small mesh envelope cache hits (${oursFirst.bytes} bytes here, ${theirsFirst.bytes} there), 50 connections, 8 s, ${ROUNDS} alternating rounds:`,
        ...servers.map(([label], i) => `  ${label}: median ${fmt(median(rates[i]!), 0)} req/s (rounds ${rates[i]!.map((r) => fmt(r, 0)).join(', ')}), ` +
          `CPU ${fmt(median(cpu[i]!) * 1000, 0)} us per request`),
        `  this checkout / ${servers[1][0]}: median ${fmt(median(ratio(0, 1)))} (rounds ${ratio(0, 1).map((r) => fmt(r)).join(', ')})`,
        `  this checkout / bare: ${fmt(median(ratio(0, 2)))}; ${servers[1][0]} / bare: ${fmt(median(ratio(1, 2)))}`,
      ],
    };
  } finally {
    bare.stop();
    await ours.stop('SIGTERM');
    await theirs.stop('SIGTERM');
  }
}
