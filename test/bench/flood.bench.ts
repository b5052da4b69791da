/**
 * @module flood.bench
 * `npm run bench flood`: 2,000 `/start` requests with distinct parameters (a 4 MiB volume
 * each) at 50 concurrent, against a host process with its default limits and a 10 s job TTL.
 * Reports what was admitted and refused, the host's peak RSS, its RSS once the jobs are swept
 * and the cache cleared (against the idle host: target within 1.5x), and the latency of small
 * requests in another room during the flood. VITRINE_FLOOD_JOBS changes the count.
 */
import { fmt, percentile, startBenchHost } from './host-helpers.ts';
import { rssMiB } from '../helpers/process-rss.ts';

const JOBS = Number(process.env.VITRINE_FLOOD_JOBS ?? 2000);
const CONCURRENCY = 50;
const JOB_TTL_S = 10;


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function run(): Promise<{ name: string; lines: string[] }> {
  const host = await startBenchHost(['--job-ttl', String(JOB_TTL_S), '--cache-ttl', String(JOB_TTL_S)]);
  const pid = host.child.pid!;
  const post = (path: string, body: unknown) =>
    fetch(`${host.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  // Warm every compute thread (one job per room, two rooms), then settle: the idle figure is
  // a host whose threads have all run once.
  await Promise.all(
    ['warm-1', 'warm-2'].map(async (room_id, i) =>
      (await post('/api/specimens/float_volume/start', { params: { megabytes: 4, seed: -1 - i }, room_id })).arrayBuffer(),
    ),
  );
  await sleep(1000);
  await post('/api/processing/cache/clear', {});
  await sleep(2000);
  const idle = rssMiB(pid);

  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 100);
  const statuses = new Map<number, number>();
  const jobIds: string[] = [];
  let next = 0;
  const flood = async () => {
    while (next < JOBS) {
      const seed = next++;
      const res = await post('/api/specimens/float_volume/start', { params: { megabytes: 4, seed }, room_id: 'flood' });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const body = (await res.json()) as { job_id?: string };
      if (body.job_id) jobIds.push(body.job_id);
    }
  };
  // Small requests in another room while the flood runs: each a cache miss of a tiny mesh.
  const latencies: number[] = [];
  let flooding = true;
  const probe = (async () => {
    for (let i = 0; flooding; i++) {
      const started = performance.now();
      const res = await fetch(
        `${host.url}/api/specimens/grid_mesh/data?params=${encodeURIComponent(JSON.stringify({ triangles: 200 + (i % 1000) }))}&room_id=quiet`,
      );
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      await sleep(100);
    }
  })();
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, flood));
  const admittedIn = (performance.now() - started) / 1000;
  // Wait for every admitted job to finish.
  for (const id of jobIds) {
    for (;;) {
      const progress = (await (await fetch(`${host.url}/api/jobs/${id}/progress?since=1000000`)).json()) as { status?: string };
      if (progress.status !== 'running') break;
      await sleep(200);
    }
  }
  const finishedIn = (performance.now() - started) / 1000;
  flooding = false;
  await probe;
  clearInterval(sampler);
  const atEnd = rssMiB(pid);
  await post('/api/processing/cache/clear', {});
  await sleep((JOB_TTL_S + 5) * 1000);
  const after = rssMiB(pid);
  await host.stop();

  const counts = [...statuses].sort().map(([status, n]) => `${n} × ${status}`).join(', ');
  return {
    name: `flood: ${JOBS} /start with distinct parameters (4 MiB volumes), ${CONCURRENCY} concurrent`,
    lines: [
      `answers: ${counts} (admitted in ${fmt(admittedIn, 1)} s, all finished in ${fmt(finishedIn, 1)} s)`,
      `RSS idle ${fmt(idle, 0)} MiB, peak ${fmt(peak, 0)} MiB, when the last job finished ${fmt(atEnd, 0)} MiB`,
      `RSS after cache clear and job TTL: ${fmt(after, 0)} MiB = ${fmt(after / idle)} x idle (target <= 1.5)`,
      `small requests in another room during the flood: ${latencies.length}, p50 ${fmt(percentile(latencies, 50), 1)} ms, ` +
        `p99 ${fmt(percentile(latencies, 99), 1)} ms, max ${fmt(latencies.reduce((a, b) => Math.max(a, b), 0), 1)} ms`,
    ],
  };
}
