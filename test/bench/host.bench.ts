/**
 * @module host.bench
 * Host benchmarks, each a ratio measured in one run on this machine:
 * 1. a cached 256 MiB float32 volume envelope downloaded by a plain HTTP client, against a
 *    plain node:http server sending a buffer of the same size (target ≥ 0.8);
 * 2. cache hits of a 100k-triangle mesh envelope at 50 concurrent connections (autocannon):
 *    p99 latency, and requests per second against a plain fastify route returning the same bytes;
 * 3. cache hits of a small (2,000-triangle, about 50 KB) mesh envelope at 50 connections with
 *    every operations feature on, against a bare node:http server sending the same bytes
 *    (target ≥ 0.95; the median of alternating rounds), and against one sending the host's
 *    head as well, with each server's CPU per request;
 * 4. a small request sent with a user's Bearer token against the same request sent anonymously
 *    (identified-cost.ts; target: within noise);
 * 5. progress-poll p99 while two CPU-bound jobs run, against the same polls on an idle host
 *    (target ≤ 2x).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import autocannon from 'autocannon';
import { peopleDir } from '../people/people-helpers.ts';
import { download, fmt, percentile, startBaseline, startBenchHost } from './host-helpers.ts';
import { identifiedCost } from './identified-cost.ts';

/** CPU time (user and system) a process has used so far, in milliseconds (Linux /proc). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** The kernel's clock ticks per second, the unit of /proc/PID/stat times. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** Rounds of the small-hit comparison (each one run of each server). */
const SMALL_ROUNDS = 5;

async function cannon(url: string, connections = 50): Promise<autocannon.Result> {
  return autocannon({ url, connections, duration: 8, pipelining: 1 });
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [];
  // The host's data folder holds a user, as `vitrine users add` leaves one, for section 4.
  const people = await peopleDir(['bench']);
  const host = await startBenchHost(['--data-dir', people.dir]);
  try {
    // 1. Large envelope throughput.
    const volumeUrl = `${host.url}/api/specimens/float_volume/data?params=${encodeURIComponent('{"megabytes":256}')}&room_id=bench`;
    const first = await download(volumeUrl);
    const baseline = await startBaseline('node', volumeUrl);
    try {
      const ours: number[] = [];
      const plain: number[] = [];
      for (let i = 0; i < 3; i++) {
        const a = await download(volumeUrl);
        ours.push(a.bytes / a.seconds);
        const b = await download(baseline.url);
        plain.push(b.bytes / b.seconds);
      }
      const best = (xs: number[]) => Math.max(...xs);
      lines.push(
        `256 MiB volume envelope (${first.bytes} bytes, cached): vitrine ${fmt(best(ours) / 1e6, 0)} MB/s, plain node:http ${fmt(best(plain) / 1e6, 0)} ` +
        `MB/s, ratio ${fmt(best(ours) / best(plain))} (target >= 0.8; best of 3 each, alternating)`,
      );
    } finally {
      baseline.stop();
    }

    // 2. Cache hits of a 100k-triangle mesh at 50 connections.
    const meshUrl = `${host.url}/api/specimens/grid_mesh/data?params=${encodeURIComponent('{"triangles":100000}')}&room_id=bench-mesh`;
    const meshFirst = await download(meshUrl);
    const fastifyBase = await startBaseline('fastify', meshUrl);
    try {
      const ours = await cannon(meshUrl);
      const plain = await cannon(fastifyBase.url);
      const oursOne = await cannon(meshUrl, 1);
      const plainOne = await cannon(fastifyBase.url, 1);
      lines.push(
        `same, 1 connection: vitrine ${fmt(oursOne.requests.average, 0)} req/s p99 ${oursOne.latency.p99} ms; plain fastify ` +
        `${fmt(plainOne.requests.average, 0)} req/s p99 ${plainOne.latency.p99} ms; req/s ratio ` +
        `${fmt(oursOne.requests.average / plainOne.requests.average)}`,
      );
      lines.push(
        `100k-triangle mesh envelope (${meshFirst.bytes} bytes) cache hits, 50 connections, 8 s: vitrine ${fmt(ours.requests.average, 0)} req/s p99 ` +
        `${ours.latency.p99} ms; plain fastify route ${fmt(plain.requests.average, 0)} req/s p99 ${plain.latency.p99} ms; req/s ratio ` +
        `${fmt(ours.requests.average / plain.requests.average)}; errors ${ours.errors + ours.non2xx}`,
      );
    } finally {
      fastifyBase.stop();
    }

    // 3. Small mesh hits (a 2,000-triangle envelope of about 50 KB) at 50 connections, every
    // operations feature on (the defaults: metrics, CORS, allowed hosts, load shedding,
    // compression), against a bare node:http server sending the same bytes. Alternating
    // rounds, the median ratio (the machine is shared). A second bare server sends the host's
    // own head too (CORS, Vary, X-Result-Id): the load generator parses every header line in
    // JavaScript, so that ratio shows what the host's own work costs, apart from its headers.
    // Server CPU per request is read from /proc for each.
    const smallUrl = `${host.url}/api/specimens/grid_mesh/data?params=${encodeURIComponent('{"triangles":2000}')}&room_id=bench-small`;
    const smallFirst = await download(smallUrl);
    const bare = await startBaseline('node', smallUrl);
    const sameHead = await startBaseline('node-same-head', smallUrl);
    try {
      const measure = async (url: string, pid: number) => {
        const before = cpuMs(pid);
        const result = await cannon(url);
        return { result, cpuPerRequest: (cpuMs(pid) - before) / result.requests.total };
      };
      await cannon(smallUrl);
      await cannon(bare.url);
      await cannon(sameHead.url);
      type Measured = Awaited<ReturnType<typeof measure>>;
      const rounds: { ours: Measured; plain: Measured; head: Measured }[] = [];
      for (let i = 0; i < SMALL_ROUNDS; i++) {
        // Each round in another order, so no server always runs first.
        const order = [['ours', smallUrl, host.child.pid!], ['plain', bare.url, bare.pid], ['head', sameHead.url, sameHead.pid]] as const;
        const round: Partial<Record<'ours' | 'plain' | 'head', Measured>> = {};
        for (let k = 0; k < order.length; k++) {
          const [name, url, pid] = order[(k + i) % order.length]!;
          round[name] = await measure(url, pid);
        }
        rounds.push(round as { ours: Measured; plain: Measured; head: Measured });
      }
      const ratios = rounds.map((r) => r.ours.result.requests.average / r.plain.result.requests.average);
      const headRatios = rounds.map((r) => r.ours.result.requests.average / r.head.result.requests.average);
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      const at = rounds[ratios.indexOf(median(ratios))]!;
      const us = (pick: (r: (typeof rounds)[number]) => Measured) => fmt(median(rounds.map((r) => pick(r).cpuPerRequest)) * 1000, 0);
      lines.push(
        `small mesh envelope (${smallFirst.bytes} bytes) cache hits, 50 connections, 8 s, every operations feature on: vitrine ` +
        `${fmt(at.ours.result.requests.average, 0)} req/s p99 ${at.ours.result.latency.p99} ms; bare node:http ${fmt(at.plain.result.requests.average, 0)} ` +
        `req/s p99 ${at.plain.result.latency.p99} ms; req/s ratio ${fmt(median(ratios))} (target >= 0.95; median of ${SMALL_ROUNDS} alternating rounds: ` +
        `${ratios.map((r) => fmt(r)).join(', ')}); errors ${rounds.reduce((n, r) => n + r.ours.result.errors + r.ours.result.non2xx, 0)}`,
        `same, against a bare node:http server sending the host's own head and body: req/s ratio ${fmt(median(headRatios))} (rounds: ` +
        `${headRatios.map((r) => fmt(r)).join(', ')}); server CPU per request (medians): vitrine ${us((r) => r.ours)} us, bare ${us((r) => r.plain)} us, ` +
        `bare with the host's head ${us((r) => r.head)} us`,
      );
    } finally {
      bare.stop();
      sameHead.stop();
    }

    // 4. The same small request anonymous and identified (before any job loads the machine).
    lines.push(...(await identifiedCost(host.url, people.tokens.bench!, 'bench')));

    // 5. Progress polls, idle vs two CPU-bound jobs.
    const stepJob = (await (
      await fetch(`${host.url}/api/specimens/burn/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ params: { seconds: 0 }, room_id: 'poll-idle' }),
      })
    ).json()) as { job_id: string };
    const poll = async (jobId: string, n: number) => {
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        const res = await fetch(`${host.url}/api/jobs/${jobId}/progress?since=-1`);
        await res.arrayBuffer();
        times.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 10));
      }
      return times;
    };
    await poll(stepJob.job_id, 50);
    const idle = await poll(stepJob.job_id, 300);
    const burners = await Promise.all(
      [1, 2].map(
        async (seed) =>
          (await (
            await fetch(`${host.url}/api/specimens/burn/start`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ params: { seconds: 60, seed }, room_id: `burn-${seed}` }),
            })
          ).json()) as { job_id: string },
      ),
    );
    await new Promise((r) => setTimeout(r, 500));
    await poll(burners[0]!.job_id, 50);
    const busy = await poll(burners[0]!.job_id, 300);
    for (const b of burners) await fetch(`${host.url}/api/jobs/${b.job_id}`, { method: 'DELETE' });
    const p99Idle = percentile(idle, 99);
    const p99Busy = percentile(busy, 99);
    lines.push(
      `progress polls (300 each): idle p50 ${fmt(percentile(idle, 50))} ms p99 ${fmt(p99Idle)} ms; with two CPU-bound jobs p50 ` +
      `${fmt(percentile(busy, 50))} ms p99 ${fmt(p99Busy)} ms; p99 ratio ${fmt(p99Busy / p99Idle)} (target <= 2)`,
    );
  } finally {
    await host.stop('SIGTERM');
    await rm(people.dir, { recursive: true, force: true });
  }
  return { name: 'host', lines };
}
