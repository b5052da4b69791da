/**
 * @module kept-work
 * The probe's sixth-wave attacks, each beside its control in the same run:
 * (snapshots) 1,000 snapshots of a room of 1,000 marks and 10 of a room of 100,000, each after
 * a change: every 201 read back (200, or the write refused with 507/413), none 404;
 * (segments) `segment=all` of a published 128³ labels volume with 65,535 ids: 413 before
 * building, the volume still served, the host's RSS after;
 * (readers) 20 readers of a room of 100,000 marks after a change: `/healthz` max against idle;
 * (imports) a 16 MiB CSV import: `/healthz` max against idle; a 1,000,000-row CSV past the cap:
 * time to its refusal.
 */
import { Worker } from 'node:worker_threads';
import { spawnHost, type RunningHost } from '../../helpers/spawn-host.ts';
import { encodeNpy } from '../../../core/formats/npy/encode-npy.ts';
import { fmt, percentile } from '../host-helpers.ts';
import type { ProbePart } from './part.ts';

const JSON_TYPE = { 'content-type': 'application/json' };

async function withHost<T>(args: string[], use: (host: RunningHost) => Promise<T>): Promise<T> {
  const host = await spawnHost(['--port', '0', '--log-level', 'warn', '--no-viewer', ...args]);
  try {
    return await use(host);
  } finally {
    await host.stop('SIGKILL');
  }
}

async function healthzMs(host: RunningHost): Promise<number> {
  const started = performance.now();
  await (await fetch(`${host.url}/healthz`)).arrayBuffer();
  return performance.now() - started;
}

/** Polls a URL from a thread of its own until told to stop (`pauseMs` between asks), posting each answer's time, then 'done'. */
const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
let stop = false;
parentPort.on('message', () => (stop = true));
(async () => {
  while (!stop) {
    const started = performance.now();
    await (await fetch(workerData.url)).arrayBuffer();
    parentPort.postMessage(performance.now() - started);
    if (workerData.pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, workerData.pauseMs));
  }
  parentPort.postMessage('done');
})();
`;

/**
 * `/healthz` times, polled until `done` settles, from a worker thread: the probe's own event
 * loop, busy taking in (and inflating) the hundreds of megabytes it asked for, would otherwise
 * add its stalls to the host's.
 */
export async function healthzWhile(host: RunningHost, done: Promise<unknown>, pauseMs = 0): Promise<number[]> {
  const poller = new Worker(POLLER, { eval: true, workerData: { url: `${host.url}/healthz`, pauseMs } });
  const times: number[] = [];
  const finished = new Promise<void>((resolve, reject) => {
    poller.on('message', (message: number | 'done') => (message === 'done' ? resolve() : times.push(message)));
    poller.once('error', reject);
  });
  try {
    await done;
  } finally {
    poller.postMessage('stop');
    await finished;
    await poller.terminate();
  }
  return times;
}

const row = (v: number[]) => `p50 ${fmt(percentile(v, 50), 1)} ms, max ${fmt(Math.max(...v), 1)} ms (${v.length})`;

async function addMarks(host: RunningHost, room: string, count: number): Promise<void> {
  for (let at = 0; at < count; at += 20_000) {
    const marks = Array.from({ length: Math.min(20_000, count - at) }, (_, i) => ({ kind: 'point', points: [[at + i, 1, 2]], label: `m${at + i}` }));
    const res = await fetch(`${host.url}/api/rooms/${room}/annotations`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(marks) });
    if (res.status !== 201) throw new Error(`adding marks: ${res.status} ${await res.text()}`);
  }
}

/** Takes `count` snapshots of `room`, moving its view between them; then reads each 201 back. */
async function snapshotsOf(host: RunningHost, room: string, count: number): Promise<string> {
  const taken: string[] = [];
  const refused = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    await fetch(`${host.url}/api/rooms/${room}/view`, { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify({ opacity: (i % 1000) / 1000 }) });
    const res = await fetch(`${host.url}/api/rooms/${room}/snapshots`, { method: 'POST' });
    if (res.status === 201) taken.push(((await res.json()) as { id: string }).id);
    else refused.set(res.status, (refused.get(res.status) ?? 0) + 1);
  }
  const read = new Map<number, number>();
  for (const id of taken) {
    const res = await fetch(`${host.url}/api/snapshots/${id}`);
    await res.arrayBuffer();
    read.set(res.status, (read.get(res.status) ?? 0) + 1);
  }
  const list = (m: Map<number, number>) => [...m].map(([status, n]) => `${n} × ${status}`).join(', ') || 'none';
  return `${count} snapshots: ${taken.length} × 201, refused ${list(refused)}; read back: ${list(read)} (target: every 201 answers 200)`;
}

async function measureSnapshots(): Promise<string[]> {
  return withHost(['--cache-max-bytes', String(512 * 1024 * 1024)], async (host) => {
    await addMarks(host, 'small', 1000);
    await addMarks(host, 'large', 100_000);
    return [await snapshotsOf(host, 'small', 1000), await snapshotsOf(host, 'large', 10)];
  });
}

function rssOf(host: RunningHost): Promise<number> {
  return fetch(`${host.url}/metrics`).then(async (res) => Number(/process_resident_memory_bytes (\d+)/.exec(await res.text())?.[1] ?? NaN));
}

async function measureSegments(): Promise<string[]> {
  const budget = 1024 * 1024 * 1024;
  return withHost(['--cache-max-bytes', String(budget), '--admin-token', 'none'], async (host) => {
    const n = 128;
    const data = new Uint16Array(n * n * n);
    for (let i = 0; i < data.length; i++) data[i] = 1 + (((i >> 5) * 2654435761) % 65535);
    const put = await fetch(`${host.url}/api/specimens/labels?filename=labels.npy&role=labels`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(encodeNpy({ shape: [n, n, n], dtype: 'uint16', data })),
    });
    if (put.status !== 201) throw new Error(`publishing: ${put.status} ${await put.text()}`);
    const started = performance.now();
    const all = await fetch(`${host.url}/api/specimens/labels/data?segment=all&format=glb`);
    const body = await all.text();
    const ms = performance.now() - started;
    const volume = await fetch(`${host.url}/api/specimens/labels/data`);
    await volume.arrayBuffer();
    const rss = await rssOf(host);
    return [
      `segment=all&format=glb of 65,535 ids: ${all.status} in ${fmt(ms, 0)} ms (${body.slice(0, 160)}...)`,
      `the published volume afterwards: ${volume.status}; RSS ${fmt(rss / 2 ** 20, 0)} MiB (target <= ${fmt((1.5 * budget) / 2 ** 20 + 300, 0)} MiB)`,
    ];
  });
}

async function measureReaders(): Promise<string[]> {
  return withHost([], async (host) => {
    await addMarks(host, 'big', 100_000);
    const idle: number[] = [];
    for (let i = 0; i < 200; i++) idle.push(await healthzMs(host));
    await fetch(`${host.url}/api/rooms/big/annotations/1`, { method: 'PATCH', headers: JSON_TYPE, body: JSON.stringify({ label: 'moved' }) });
    const reads = Promise.all(Array.from({ length: 20 }, () => fetch(`${host.url}/api/rooms/big/annotations`).then((r) => r.arrayBuffer())));
    const during = await healthzWhile(host, reads);
    return [`/healthz idle: ${row(idle)}`, `/healthz while 20 read a room of 100,000 marks after a change: ${row(during)} (target max <= 250 ms)`];
  });
}

async function measureImports(): Promise<string[]> {
  return withHost([], async (host) => {
    const idle: number[] = [];
    for (let i = 0; i < 200; i++) idle.push(await healthzMs(host));
    // 100,000 marks (the room's cap) of about 160 bytes each: just under the 16 MiB a POST may take.
    const pad = 'x'.repeat(130);
    const csv = `x,y,z,label\n${Array.from({ length: 100_000 }, (_, i) => `${i % 1000},${i % 997}.5,${i % 13},${pad}${i}`).join('\n')}\n`;
    const post = (room: string, text: string) =>
      fetch(`${host.url}/api/rooms/${room}/annotations`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: text }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      });
    const importing = post('csv', csv);
    const during = await healthzWhile(host, importing);
    const started = performance.now();
    const refused = await post('over', `x,y,z\n${'1,2,3\n'.repeat(1_000_000)}`);
    return [
      `/healthz idle: ${row(idle)}`,
      `/healthz while a ${fmt(csv.length / 2 ** 20, 1)} MiB CSV of 100,000 marks is imported (${await importing}): ${row(during)} (target max <= 250 ms)`,
      `a 1,000,000-row CSV past the cap: ${refused} in ${fmt(performance.now() - started, 0)} ms (target <= 1000 ms)`,
    ];
  });
}

export const snapshotsPart: ProbePart = {
  name: 'snapshots',
  title: '1,000 snapshots of a room of 1,000 marks, 10 of one of 100,000',
  measure: measureSnapshots,
};
export const segmentsPart: ProbePart = { name: 'segments', title: 'segment=all of a published labels volume with 65,535 ids', measure: measureSegments };
export const readersPart: ProbePart = { name: 'readers', title: '20 readers of a room of 100,000 marks after a change', measure: measureReaders };
export const importsPart: ProbePart = { name: 'imports', title: 'a 16 MiB CSV import, and a 1,000,000-row CSV past the cap', measure: measureImports };
