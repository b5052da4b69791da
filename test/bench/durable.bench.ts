/**
 * @module durable.bench
 * `npm run bench durable`: what keeping a lone host's work on disk costs, each beside its
 * control in the same run.
 * 1. One annotation added at a time (500 in a row): latency p50/p99 on a host with a data
 *    folder (each answer after its commit is flushed) and on one with `--data-dir none`.
 * 2. Start-up on a folder holding 200 rooms of 500 annotations (100,000), beside start-up on an
 *    empty folder: milliseconds from spawn to `listening on`, and to the first list of marks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnHost } from '../helpers/spawn-host.ts';
import { fmt, percentile, startBenchHost } from './host-helpers.ts';

const SINGLE_ADDS = 500;
const ROOMS = 200;
const PER_ROOM = 500;
const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function singleAdds(url: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SINGLE_ADDS; i++) {
    const started = performance.now();
    const res = await fetch(`${url}/api/rooms/bench/annotations`, json({ kind: 'point', points: [[i, 0, 0]] }));
    if (res.status !== 201) throw new Error(`add answered ${res.status}`);
    await res.arrayBuffer();
    times.push(performance.now() - started);
  }
  return times;
}

async function fill(url: string): Promise<void> {
  for (let room = 0; room < ROOMS; room++) {
    const batch = Array.from({ length: PER_ROOM }, (_, i) => ({ kind: 'point', points: [[i, room, 0]], label: `m${i}` }));
    const res = await fetch(`${url}/api/rooms/r${room}/annotations`, json(batch));
    if (res.status !== 201) throw new Error(`fill answered ${res.status}`);
    await res.arrayBuffer();
  }
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-durable-'));
  for (const [label, dataDir] of [['--data-dir (on disk)', path.join(dir, 'adds')], ['--data-dir none', 'none']] as const) {
    const host = await startBenchHost(['--data-dir', dataDir]);
    const times = await singleAdds(host.url);
    await host.stop();
    lines.push(`annotation add, one at a time (${SINGLE_ADDS}), ${label}: p50 ${fmt(percentile(times, 50))} ms, p99 ${fmt(percentile(times, 99))} ms`);
  }
  const store = path.join(dir, 'start');
  const filler = await startBenchHost(['--data-dir', store]);
  await fill(filler.url);
  await filler.stop();
  // The control: the same host on an empty folder.
  for (const [label, folder] of [['an empty folder', path.join(dir, 'empty')], [`${ROOMS * PER_ROOM} annotations in ${ROOMS} rooms`, store]]) {
    const started = performance.now();
    const host = await spawnHost(['--port', '0', '--specimens', 'none', '--plugins', 'none', '--log-level', 'warn', '--data-dir', folder!]);
    const listening = performance.now() - started;
    const res = await fetch(`${host.url}/api/rooms/r${ROOMS - 1}/annotations`);
    await res.arrayBuffer();
    const answered = performance.now() - started;
    await host.stop();
    lines.push(`start-up on ${label}: listening after ${fmt(listening, 0)} ms, first list answered after ${fmt(answered, 0)} ms`);
  }
  rmSync(dir, { recursive: true, force: true });
  return { name: 'durable: a lone host on disk beside one in memory', lines };
}
