/**
 * @module trust.bench
 * `npm run bench trust` (with the Redis scenarios of trust-redis.bench.ts): against a host
 * process on loopback,
 * (a) short work beside a flood: 1,000 `/start` of a 2 s CPU function (`burn`), one per room
 *     over 1,000 rooms, on a pool of 2, while a small mesh (`grid_mesh`, a few ms alone) is
 *     computed every 500 ms in rooms of its own; reports the small requests' latency (p50, p99,
 *     max) over a bounded window, then cancels the rest of the flood;
 * (b) 50 stalled room streams (they read the response head, then nothing) and 5 reading ones
 *     on a room that 8 clients change as fast as they can with `/data` (events of about
 *     15 KB each); reports the host's RSS
 *     growth per stalled stream, how many stalled streams the host closed, and how many reading
 *     streams are still open. VITRINE_TRUST_WINDOW_S sets each window (default 40 s).
 */
import { fmt, percentile, startBenchHost } from './host-helpers.ts';
import { changingRoom, post } from './room-streams.ts';

const WINDOW_S = Number(process.env.VITRINE_TRUST_WINDOW_S ?? 40);
const FLOOD_JOBS = 1000;
const STALLED = Number(process.env.VITRINE_TRUST_STALLED ?? 50);
const READERS = 5;
const WRITERS = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function shortBesideFlood(): Promise<string[]> {
  const host = await startBenchHost(['--pool-size', '2', '--max-jobs', String(FLOOD_JOBS + 100)]);
  const base = host.url;
  // One small run first, as a viewer would have done: the host learns the function is short.
  await (await post(base, '/api/specimens/grid_mesh/data', { params: { triangles: 2000 }, room_id: 'warm' })).arrayBuffer();
  const jobs: string[] = [];
  const started = performance.now();
  for (let i = 0; i < FLOOD_JOBS; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, FLOOD_JOBS - i) }, async (_, k) => {
        const res = await post(base, '/api/specimens/burn/start', { params: { seconds: 2, seed: i + k }, room_id: `flood-${i + k}` });
        return ((await res.json()) as { job_id?: string }).job_id;
      }),
    );
    for (const id of batch) if (id) jobs.push(id);
  }
  const floodSubmitS = (performance.now() - started) / 1000;
  process.stderr.write(`flood of ${jobs.length} submitted in ${fmt(floodSubmitS, 1)} s\n`);
  const latencies: number[] = [];
  const until = performance.now() + WINDOW_S * 1000;
  for (let i = 0; performance.now() < until; i++) {
    const t = performance.now();
    const res = await post(base, '/api/specimens/grid_mesh/data', { params: { triangles: 2000 + (i % 500) * 2 }, room_id: `small-${i}` });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`small /data answered ${res.status}`);
    latencies.push(performance.now() - t);
    if (i % 10 === 0) process.stderr.write(`small #${i}: ${fmt(performance.now() - t, 1)} ms\n`);
    await sleep(Math.max(0, 500 - (performance.now() - t)));
  }
  const progress = await Promise.all(
    jobs.slice(0, 200).map(async (id) => ((await (await fetch(`${base}/api/jobs/${id}/progress`)).json()) as { status: string }).status),
  );
  const done = progress.filter((s) => s === 'done').length;
  for (let i = 0; i < jobs.length; i += 50) await Promise.all(jobs.slice(i, i + 50).map((id) => fetch(`${base}/api/jobs/${id}`, { method: 'DELETE' })));
  await host.stop();
  // The same small computation on an idle host, for reference.
  return [
    `flood: ${jobs.length} jobs of 2 s CPU in ${jobs.length} rooms accepted in ${fmt(floodSubmitS, 1)} s (pool 2); ${done} of the first 200 done after ` +
    `the window`,
    `small mesh /data every 500 ms in other rooms during ${WINDOW_S} s: ${latencies.length} requests, p50 ${fmt(percentile(latencies, 50), 1)} ms, p99 ` +
    `${fmt(percentile(latencies, 99), 1)} ms, max ${fmt(Math.max(...latencies), 1)} ms (target p99 <= 300 ms)`,
  ];
}

async function stalledStreams(): Promise<string[]> {
  // The same load without stalled streams first: what the changes themselves cost.
  const room = { readers: READERS, writers: WRITERS, windowS: WINDOW_S };
  const control = await changingRoom({ ...room, stalled: 0 });
  const run = await changingRoom({ ...room, stalled: STALLED });
  const perStream = (run.peak - run.before - (control.peak - control.before)) / STALLED;
  return [
    `${STALLED} stalled room streams + ${READERS} reading ones, ${WRITERS} clients changing the room for ${WINDOW_S} s: ${run.changes} changes ` +
    `(${fmt(run.changes / WINDOW_S, 0)}/s, events of ~15 KB)`,
    `host RSS ${fmt(run.before, 0)} MiB before, peak ${fmt(run.peak, 0)} MiB, ${fmt(run.after, 0)} MiB at the end; the same load with no stalled stream: ` +
    `${fmt(control.before, 0)} -> peak ${fmt(control.peak, 0)} MiB (${control.changes} changes)`,
    `growth per stalled stream, beyond the load's own: ${fmt(perStream)} MiB at peak (target <= 2 MiB), ` +
    `${fmt((run.after - run.before - (control.after - control.before)) / STALLED)} MiB at the end (control ended at ${fmt(control.after, 0)} MiB)`,
    `stalled streams ended by the host: ${run.closed} of ${STALLED}; reading streams still open: ${run.open} of ${READERS} (events each: ` +
    `${Math.min(...run.events)}-${Math.max(...run.events)})`,
  ];
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const only = process.env.VITRINE_TRUST_ONLY;
  const lines: string[] = [];
  if (!only || only === 'streams') lines.push(...(await stalledStreams()));
  if (!only || only === 'short') lines.push(...(await shortBesideFlood()));
  return { name: 'trust: short work beside a flood, stalled room streams', lines };
}
