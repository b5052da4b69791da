/**
 * @module short-lane.bench
 * `npm run bench short-lane`: short work on a Redis service while every compute thread is busy.
 * One host on a Redis service lends its two compute threads (`--pool-size 2`); twenty 60-second
 * `burn` jobs start in twenty rooms (four taken by the node, the rest queued in the service's
 * queue); then a small miss (`noop`, whose earlier runs were short) in another room. Figures:
 * the small miss on the idle service, and behind the twenty long jobs (bound: 250 ms).
 */
import { startRedis } from '../helpers/redis-server.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { benchSpecimens, buildBenchPlugins, fmt, percentile } from './host-helpers.ts';

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function smallMiss(url: string, seed: number): Promise<number> {
  const started = performance.now();
  const res = await post(`${url}/api/processing/invoke`, { function_name: 'noop', kwargs: { seed }, room_id: `small-${seed}` });
  if (res.status !== 200) throw new Error(`small miss answered ${res.status}`);
  return performance.now() - started;
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [];
  const redis = await startRedis();
  const host = await spawnHost([
    '--port',
    '0',
    '--plugins',
    buildBenchPlugins(),
    '--specimens',
    benchSpecimens(),
    '--log-level',
    'warn',
    '--redis',
    redis.url,
    '--pool-size',
    '2',
  ]);
  const jobs: string[] = [];
  try {
    // Its earlier runs were short: a few on the idle service.
    const idle: number[] = [];
    for (let i = 0; i < 10; i++) idle.push(await smallMiss(host.url, i));
    for (let i = 0; i < 20; i++) {
      const res = await post(`${host.url}/api/specimens/burn/start`, { params: { seconds: 60, seed: i }, room_id: `long-${i}` });
      jobs.push(String(res.json.job_id));
    }
    // Every thread busy with long runs (the jobs report nothing for a minute).
    await new Promise((r) => setTimeout(r, 1500));
    const busy: number[] = [];
    for (let i = 0; i < 10; i++) busy.push(await smallMiss(host.url, 100 + i));
    lines.push(`small miss (noop), idle service: median ${fmt(percentile(idle, 50), 1)} ms`);
    lines.push(
      `small miss behind 20 long jobs in 20 rooms (2 compute threads): median ${fmt(percentile(busy, 50), 1)} ms, worst ${fmt(Math.max(...busy), 1)} ms ` +
      `of 10 (bound: 250 ms); each: ${busy.map((ms) => fmt(ms, 0)).join(', ')}`,
    );
  } finally {
    await Promise.all(jobs.map((id) => fetch(`${host.url}/api/jobs/${id}`, { method: 'DELETE' }).catch(() => null)));
    await host.stop('SIGKILL');
    await redis.stop();
  }
  return { name: 'short-lane', lines };
}
