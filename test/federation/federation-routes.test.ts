/**
 * Every route through a relay with two real workers joined over WebSocket: the aggregated
 * catalog, metadata, thumbnails, static and dynamic data with params and rooms, invoke of
 * every result type, errors keeping their meaning, jobs with progress, cancellation
 * forwarded to the worker, room sharing across machines, and reloads: a worker's re-registers
 * it, a relay's is passed on to every worker.
 */
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { sharedFixturePlugins, FIXTURES, NO_PLUGINS, workerArgs } from './helpers/fixture-build.ts';
import { catalogIds, eventually, killAll, registered, startHost, type HostProcess } from './helpers/host-process.ts';
import { getJson, postJson, type Json } from './helpers/json-http.ts';

let relay: HostProcess;
let w1: HostProcess;
let w2: HostProcess;
let plugins: { dir: string };
let w1Specimens: string;



beforeAll(async () => {
  plugins = await sharedFixturePlugins();
  w1Specimens = mkdtempSync(path.join(tmpdir(), 'vitrine-fed-specimens-'));
  cpSync(path.join(FIXTURES, 'specimens-b'), w1Specimens, { recursive: true });
  relay = await startHost(['--relay', '--token', 'sesame', '--specimens', path.join(FIXTURES, 'specimens-a'), '--plugins', NO_PLUGINS]);
  [w1, w2] = await Promise.all([
    startHost(workerArgs(relay.url, 'w1', plugins.dir, w1Specimens, ['--token', 'sesame'])),
    startHost(workerArgs(relay.url, 'w2', NO_PLUGINS, path.join(FIXTURES, 'specimens-a'), ['--token', 'sesame'])),
  ]);
  await registered(relay, 'w1:box', 'w2:tri');
});

afterAll(async () => {
  await killAll();
  if (w1Specimens) rmSync(w1Specimens, { recursive: true, force: true });
});

describe('catalog through the relay', () => {
  it('lists the relay’s own specimens with every worker’s under its prefix (same names both kept)', async () => {
    const entries = (await getJson(`${relay.url}/api/specimens`)).body as unknown as Json[];
    const byId = new Map(entries.map((e) => [e.id, e]));
    expect([...byId.keys()].sort()).toEqual(['tri', 'w1:big', 'w1:box', 'w1:slow-box', 'w1:tri', 'w2:tri']);
    expect(byId.get('w1:tri')).toMatchObject({ display_name: 'Triangle B', is_dynamic: false, type: 'mesh', function_name: null });
    expect(byId.get('w2:tri')).toMatchObject({ display_name: 'Triangle A', is_dynamic: false });
    expect(await catalogIds(w2)).toEqual(['tri']);
    expect(byId.get('w1:box')).toMatchObject({ is_dynamic: true, type: 'mesh', function_name: 'w1:cube', thumbnail_url: '/api/specimens/w1%3Abox/thumbnail' });
    expect(byId.get('w1:big')).toMatchObject({ type: 'volume' });
  });

  it('shows the worker’s schema in the metadata and lists relayed functions', async () => {
    const direct = (await getJson(`${w1.url}/api/specimens/box`)).body;
    const relayed = (await getJson(`${relay.url}/api/specimens/w1:box`)).body;
    expect(relayed.worker_id).toBe('w1');
    expect((relayed.schema as Json).properties).toEqual((direct.schema as Json).properties);
    const functions = (await getJson(`${relay.url}/api/processing/functions`)).body as unknown as Json[];
    expect(functions.map((f) => f.name)).toEqual(expect.arrayContaining(['w1:cube', 'w1:slow', 'w1:big_volume', 'w1:points', 'w1:gradient', 'w1:broken']));
    const schema = (await getJson(`${relay.url}/api/processing/functions/w1:cube/schema`)).body;
    expect((schema.properties as Json).size).toMatchObject({ type: 'number', default: 1, minimum: 0.1, maximum: 10 });
  });

  it('lists connected workers', async () => {
    const workers = (await getJson(`${relay.url}/api/federation/workers`)).body as unknown as Json[];
    expect(workers.map((w) => w.worker_id).sort()).toEqual(['w1', 'w2']);
  });
});

describe('data through the relay', () => {
  it('serves a worker’s static file with its headers', async () => {
    const res = await fetch(`${relay.url}/api/specimens/w1:tri/data`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('model/obj');
    expect(res.headers.get('content-length')).toBe('40');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="tri.obj"');
    expect(await res.text()).toBe('v 0 0 0\nv 2 0 0\nv 0 2 0\nv 0 0 2\nf 1 2 3\n');
  });

  it('serves thumbnails as images', async () => {
    const res = await fetch(`${relay.url}/api/specimens/w1:box/thumbnail`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\//);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    const direct = Buffer.from(await (await fetch(`${w1.url}/api/specimens/box/thumbnail`)).arrayBuffer());
    expect(bytes.equals(direct)).toBe(true);
  });

  it('computes dynamic data with params (GET and POST) as envelopes', async () => {
    const res = await fetch(`${relay.url}/api/specimens/w1:box/data?params=${encodeURIComponent('{"size":4}')}&room_id=r-data`);
    expect(res.status).toBe(200);
    const mesh = decodeEnvelope(await res.arrayBuffer());
    expect(mesh.type).toBe('mesh');
    if (mesh.type !== 'mesh') return;
    expect(mesh.vertices.length).toBe(24);
    expect(Math.max(...mesh.vertices)).toBe(2);
    const post = await fetch(`${relay.url}/api/specimens/w1:big/data`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ params: { mib: 2 } }),
    });
    const volume = decodeEnvelope(await post.arrayBuffer());
    if (volume.type !== 'volume') throw new Error('expected a volume');
    expect(volume.shape).toEqual([32, 256, 256]);
    expect(volume.spacing).toEqual([1, 1, 2]);
    expect(volume.data.length).toBe(2 * 1024 * 1024);
    for (const i of [0, 1, 255, 256, 1_000_003, volume.data.length - 1]) expect(volume.data[i]).toBe((i * 31 + 7) & 255);
  });

  it('rejects invalid params at the relay with 400 naming the parameter', async () => {
    const res = await fetch(`${relay.url}/api/specimens/w1:box/data?params=${encodeURIComponent('{"size":50}')}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).detail).toMatch(/size/);
  });
});

describe('invoke through the relay', () => {
  it('returns mesh, point cloud and image typed results', async () => {
    const mesh = await postJson(`${relay.url}/api/processing/invoke`, { function_name: 'w1:cube', args: [2] });
    expect(mesh.status).toBe(200);
    expect(mesh.body).toMatchObject({ type: 'mesh' });
    expect((mesh.body.vertices as number[]).slice(0, 3)).toEqual([-1, -1, -1]);
    const cloud = await postJson(`${relay.url}/api/processing/invoke`, { function_name: 'w1:points', kwargs: { count: 2 } });
    expect(cloud.body).toEqual({ type: 'point_cloud', points: [0, 1, 2, 3, 4, 5], colors: [0, 40, 80, 120, 160, 200] });
    const image = await postJson(`${relay.url}/api/processing/invoke`, { function_name: 'w1:gradient', kwargs: { width: 2, height: 2 } });
    expect(image.body).toMatchObject({ type: 'image', width: 2, height: 2, channels: 1, dtype: 'uint8', data: Buffer.from([0, 1, 2, 3]).toString('base64') });
  });

  it('keeps a worker-side failure a 500 naming the function', async () => {
    const res = await postJson(`${relay.url}/api/processing/invoke`, { function_name: 'w1:broken' });
    expect(res.status).toBe(500);
    expect(res.body.detail).toMatch(/broken/);
    expect(res.body.detail).toMatch(/broken on purpose/);
    const unknown = await postJson(`${relay.url}/api/processing/invoke`, { function_name: 'w9:cube' });
    expect(unknown.status).toBe(404);
  });

  it('shares one transfer between the peers of a room (relay room cache)', async () => {
    const before = w1.logs().length;
    const requests = Array.from({ length: 5 }, () =>
      fetch(`${relay.url}/api/specimens/w1:big/data?params=${encodeURIComponent('{"mib":3}')}&room_id=shared-room`).then(
        async (r) => (await r.arrayBuffer()).byteLength,
      ),
    );
    const sizes = await Promise.all(requests);
    expect(new Set(sizes).size).toBe(1);
    const workerLog = w1.logs().slice(before);
    expect(workerLog.match(/function=big_volume/g) ?? []).toHaveLength(1);
    // The peers were sent the bytes as they crossed; the room's entry is written once the
    // result's id (its content hash) is computed after the last byte, so it may come a moment later.
    const entries = await eventually(async () => {
      const stats = (await getJson(`${relay.url}/api/processing/cache/stats`)).body;
      const found = (stats.entries as unknown as Json[]).filter((e) => e.room_id === 'shared-room');
      return found.length > 0 ? found : undefined;
    }, 'the room entry of the shared transfer');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ function_name: 'w1:big_volume' });
  });
});

describe('jobs through the relay', () => {
  it('runs a job with progress (since) and a result', async () => {
    const start = await postJson(`${relay.url}/api/specimens/w1:slow-box/start`, { params: { steps: 5, ms: 20 }, room_id: 'jobs' });
    expect(start.status).toBe(200);
    const jobId = String(start.body.job_id);
    const done = await eventually(async () => {
      const p = (await getJson(`${relay.url}/api/jobs/${jobId}/progress?since=-1`)).body;
      return p.status === 'done' ? p : undefined;
    }, 'the job to finish');
    // The last report can lose the race with the result inside the worker's thread pool, so
    // only the order is exact: step 1, 2, 3... with seq 0, 1, 2...
    const texts = (done.messages as Json[]).map((m) => m.text);
    expect(texts.length).toBeGreaterThanOrEqual(4);
    expect(texts).toEqual(['step 1/5', 'step 2/5', 'step 3/5', 'step 4/5', 'step 5/5'].slice(0, texts.length));
    const later = (await getJson(`${relay.url}/api/jobs/${jobId}/progress?since=2`)).body;
    expect((later.messages as Json[]).map((m) => m.seq)).toEqual([3, 4].slice(0, texts.length - 3));
    const result = await getJson(`${relay.url}/api/jobs/${jobId}/result`);
    expect(result.status).toBe(200);
    expect(result.body.type).toBe('mesh');
    // The job is owned by the worker: it keeps it under the same id, with the same progress.
    const onWorker = (await getJson(`${w1.url}/api/jobs/${jobId}/progress?since=-1`)).body;
    expect(onWorker.status).toBe('done');
    expect((onWorker.messages as Json[]).map((m) => m.text)).toEqual(texts);
    expect((await getJson(`${w1.url}/api/jobs/${jobId}/result`)).body.type).toBe('mesh');
  });

  it('forwards DELETE to the worker, which stops the run; the job ends cancelled', async () => {
    const start = await postJson(`${relay.url}/api/specimens/w1:slow-box/start`, { params: { steps: 200, ms: 50 }, room_id: 'cancel' });
    const jobId = String(start.body.job_id);
    await eventually(async () => {
      const p = (await getJson(`${relay.url}/api/jobs/${jobId}/progress?since=-1`)).body;
      return (p.messages as Json[]).length > 0 ? true : undefined;
    }, 'first progress');
    const from = w1.logs().length;
    const del = await fetch(`${relay.url}/api/jobs/${jobId}`, { method: 'DELETE' });
    expect(del.ok).toBe(true);
    const after = (await getJson(`${relay.url}/api/jobs/${jobId}/progress?since=-1`)).body;
    expect(after).toMatchObject({ status: 'error', error: 'cancelled' });
    await w1.waitForLog('the relay cancelled slow in room cancel', from);
    const stats = (await getJson(`${w1.url}/api/processing/cache/stats`)).body;
    expect((stats.entries as unknown as Json[]).some((e) => e.room_id === 'cancel')).toBe(false);
    expect((await getJson(`${w1.url}/api/jobs/${jobId}/progress?since=-1`)).body).toMatchObject({ status: 'error', error: 'cancelled' });
  });

  it('a DELETE on the worker that owns the job ends it on the relay too', async () => {
    const start = await postJson(`${relay.url}/api/specimens/w1:slow-box/start`, { params: { steps: 200, ms: 50 }, room_id: 'cancel-on-worker' });
    const jobId = String(start.body.job_id);
    await eventually(async () => {
      const p = await getJson(`${w1.url}/api/jobs/${jobId}/progress?since=-1`);
      return p.status === 200 && (p.body.messages as Json[]).length > 0 ? true : undefined;
    }, 'the job running on the worker');
    expect((await fetch(`${w1.url}/api/jobs/${jobId}`, { method: 'DELETE' })).status).toBe(204);
    const after = await eventually(async () => {
      const p = (await getJson(`${relay.url}/api/jobs/${jobId}/progress?since=-1`)).body;
      return p.status === 'running' ? undefined : p;
    }, 'the relay job to end');
    expect(after).toMatchObject({ status: 'error', error: 'cancelled' });
  });
});

describe('reload', () => {
  it('a worker reload re-sends its catalog to the relay', async () => {
    mkdirSync(path.join(w1Specimens, 'extra'));
    writeFileSync(path.join(w1Specimens, 'extra', 'extra.obj'), 'v 0 0 0\n');
    writeFileSync(path.join(w1Specimens, 'extra', 'specimen.json'), JSON.stringify({ id: 'extra', display_name: 'Extra', data_file: 'extra.obj' }));
    const reload = await getJson(`${w1.url}/api/specimens/reload`);
    expect(reload.body.count).toBe(2);
    await registered(relay, 'w1:extra');
    const res = await fetch(`${relay.url}/api/specimens/w1:extra/data`);
    expect(await res.text()).toBe('v 0 0 0\n');
  });

  it('a relay reload reloads every worker, and answers once their new catalogs are in', async () => {
    mkdirSync(path.join(w1Specimens, 'later'));
    writeFileSync(path.join(w1Specimens, 'later', 'later.obj'), 'v 1 1 1\n');
    writeFileSync(path.join(w1Specimens, 'later', 'specimen.json'), JSON.stringify({ id: 'later', display_name: 'Later', data_file: 'later.obj' }));
    const reload = await getJson(`${relay.url}/api/specimens/reload`);
    expect(reload.status).toBe(200);
    expect(reload.body.count).toBe(1);
    const workers = reload.body.workers as Record<string, Json>;
    expect(Object.keys(workers).sort()).toEqual(['w1', 'w2']);
    expect(workers.w1).toMatchObject({ count: 3 });
    expect(workers.w2).toMatchObject({ count: 1 });
    // No polling: the registration arrived before the answer.
    const ids = await catalogIds(relay);
    expect(ids).toContain('w1:later');
    expect(reload.body.specimens).toBe(ids.length);
    expect(await (await fetch(`${relay.url}/api/specimens/w1:later/data`)).text()).toBe('v 1 1 1\n');
  });
});
