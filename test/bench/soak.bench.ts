/**
 * @module soak.bench
 * `npm run bench soak`: a mixed soak against a host process: 150 concurrent clients for 5
 * minutes (VITRINE_SOAK_SECONDS, VITRINE_SOAK_CLIENTS change them), each looping over every
 * kind of request: catalog, metadata, thumbnails, static data, dynamic data (hits and misses
 * in many rooms), invoke, a job with progress and result, cache stats, and bad input, against
 * a host with a 1 GiB result budget (--cache-max-bytes). Reports
 * requests, status counts, latency percentiles and the host's RSS over time.
 */
import { fmt, percentile, startBenchHost } from './host-helpers.ts';
import { rssMiB } from '../helpers/process-rss.ts';

const SECONDS = Number(process.env.VITRINE_SOAK_SECONDS ?? 300);
const CLIENTS = Number(process.env.VITRINE_SOAK_CLIENTS ?? 150);
const BUDGET = 1024 * 1024 * 1024;


type Step = (base: string, client: number, i: number) => Promise<Response>;

const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const params = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** One of each kind of request; the client and iteration pick rooms and parameters. */
const STEPS: Step[] = [
  (base) => fetch(`${base}/api/specimens/`),
  (base) => fetch(`${base}/api/specimens/grid_mesh`),
  (base) => fetch(`${base}/api/specimens/grid_mesh/thumbnail`),
  // A hit for most (40 rooms share a few parameter sets), a miss now and then.
  (base, c, i) => fetch(`${base}/api/specimens/grid_mesh/data?params=${params({ triangles: 2000 + (i % 3) * 100 })}&room_id=room-${c % 40}`),
  (base, c, i) =>
    fetch(`${base}/api/processing/invoke`, json({ function_name: 'grid_mesh', kwargs: { triangles: 500 + (i % 5) }, room_id: `invoke-${c % 20}` })),
  async (base, c, i) => {
    const start = await fetch(`${base}/api/specimens/float_volume/start`, json({ params: { megabytes: 1, seed: i % 7 }, room_id: `jobs-${c % 10}` }));
    if (start.status !== 200) return start;
    const { job_id } = (await start.json()) as { job_id: string };
    for (;;) {
      const progress = await fetch(`${base}/api/jobs/${job_id}/progress?since=-1`);
      const body = (await progress.json()) as { status: string };
      if (body.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return fetch(`${base}/api/specimens/float_volume/data?params=${params({ megabytes: 1, seed: i % 7 })}&room_id=jobs-${c % 10}`);
  },
  (base) => fetch(`${base}/api/processing/cache/stats`),
  (base) => fetch(`${base}/api/specimens/grid_mesh/data?params=${params({ triangles: 'many' })}`),
  (base) => fetch(`${base}/api/specimens/no-such-specimen`),
];

export async function run(): Promise<{ name: string; lines: string[] }> {
  // A 1 GiB byte budget: the soak shows that memory stays bounded by it.
  const host = await startBenchHost(['--cache-max-bytes', String(BUDGET)]);
  const pid = host.child.pid!;
  const statuses = new Map<string, number>();
  const latencies: number[] = [];
  const rss: string[] = [`0 s: ${fmt(rssMiB(pid), 0)} MiB`];
  const deadline = Date.now() + SECONDS * 1000;
  const started = Date.now();
  const sampler = setInterval(() => rss.push(`${Math.round((Date.now() - started) / 1000)} s: ${fmt(rssMiB(pid), 0)} MiB`), Math.max(5, SECONDS / 10) * 1000);
  const client = async (c: number) => {
    for (let i = 0; Date.now() < deadline; i++) {
      const step = STEPS[(c + i) % STEPS.length]!;
      const t0 = performance.now();
      let status: string;
      try {
        const res = await step(host.url, c, i);
        await res.arrayBuffer();
        status = String(res.status);
      } catch (error) {
        status = `failed (${(error as Error).message})`;
      }
      latencies.push(performance.now() - t0);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  clearInterval(sampler);
  rss.push(`end: ${fmt(rssMiB(pid), 0)} MiB`);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  rss.push(`5 s after: ${fmt(rssMiB(pid), 0)} MiB`);
  await host.stop();
  const total = latencies.length;
  const counts = [...statuses].sort().map(([status, n]) => `${status}: ${n}`).join(', ');
  return {
    name: `soak: ${CLIENTS} clients for ${SECONDS} s, every kind of request, --cache-max-bytes 1 GiB`,
    lines: [
      `requests: ${total} (${fmt(total / SECONDS, 0)}/s); statuses: ${counts}`,
      `latency p50 ${fmt(percentile(latencies, 50), 1)} ms, p99 ${fmt(percentile(latencies, 99), 1)} ms, max ${fmt(
        latencies.reduce((a, b) => Math.max(a, b), 0),
        1,
      )} ms (a job step counts start to data)`,
      `host RSS: ${rss.join(', ')}`,
    ],
  };
}
